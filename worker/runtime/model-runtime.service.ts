import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import type { LoadedModelInfo, ModelQueueStats } from '../contract/worker-api';
import type { TtsBackend } from '../backends/backend.interface';
import { ApiError } from '../common/api-error';
import { KeyedQueue, QueueFullError, type QueueSlot } from './keyed-queue';

/** Seconds a client is told to wait (`Retry-After`) when a model's queue is full. */
const RETRY_AFTER_SECONDS = 2;

/** A model held for one request; `release()` (idempotent) must be called when the request is done with it. */
export interface ModelLease {
  readonly backend: TtsBackend;
  readonly modelPath: string;
  release(): void;
}

interface LoadedModel {
  backend: TtsBackend;
  modelPath: string;
  loadedAt: Date;
  lastUsedAt: Date;
  inFlight: number;
  /** Unload requested while in use: done when the last request releases it. */
  unloadWhenIdle: boolean;
}

export type UnloadOutcome = 'unloaded' | 'scheduled' | 'not_loaded';

/**
 * Owns the life of loaded models: lazy load on first use (one load at a time per model, later callers wait for
 * it), a bounded queue per model, least-recently-used eviction beyond INFERENCE_MAX_LOADED_MODELS (embedded
 * engines do not count and are never evicted), explicit unload, and unload of everything at shutdown.
 */
@Injectable()
export class ModelRuntime implements OnApplicationShutdown {
  private readonly logger = new Logger(ModelRuntime.name);
  private readonly queue: KeyedQueue;
  private readonly maxLoaded: number;
  private readonly models = new Map<string, LoadedModel>();
  private readonly loading = new Map<string, Promise<LoadedModel>>();
  private readonly unloading = new Map<string, Promise<void>>();

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.queue = new KeyedQueue(config.inference.queueLimit);
    this.maxLoaded = config.inference.maxLoadedModels;
  }

  /**
   * Waits for a slot in the model's queue, loads the model if needed and returns a lease on it.
   *
   * @throws ApiError 503 when the model's queue is full; the signal's reason when it aborts while waiting;
   *   whatever the backend's `load` throws.
   */
  async acquire(backend: TtsBackend, modelPath: string, signal?: AbortSignal): Promise<ModelLease> {
    const key = modelKey(backend.name, modelPath);
    let slot: QueueSlot;
    try {
      slot = await this.queue.acquire(key, backend.concurrencyPerModel, signal);
    } catch (error) {
      if (error instanceof QueueFullError) {
        throw ApiError.serviceUnavailable(
          `The worker is busy: ${error.limit} requests already wait for ${key}. Try again shortly or use another worker.`,
          RETRY_AFTER_SECONDS,
        );
      }
      throw error;
    }
    let model: LoadedModel;
    try {
      model = await this.ensureLoaded(backend, modelPath);
    } catch (error) {
      slot.release();
      throw error;
    }
    model.inFlight++;
    model.lastUsedAt = new Date();
    let released = false;
    return {
      backend,
      modelPath,
      release: () => {
        if (released) {
          return;
        }
        released = true;
        model.inFlight--;
        model.lastUsedAt = new Date();
        slot.release();
        this.afterRelease(model);
      },
    };
  }

  /** Unloads a model now, or when its last request finishes. */
  async unload(backend: TtsBackend, modelPath: string): Promise<UnloadOutcome> {
    const key = modelKey(backend.name, modelPath);
    const pendingLoad = this.loading.get(key);
    if (pendingLoad) {
      await pendingLoad.catch(() => undefined);
    }
    const model = this.models.get(key);
    if (!model) {
      return 'not_loaded';
    }
    if (model.inFlight > 0) {
      model.unloadWhenIdle = true;
      return 'scheduled';
    }
    await this.evict(model, 'requested');
    return 'unloaded';
  }

  loadedModels(backendName?: string): LoadedModelInfo[] {
    return [...this.models.values()]
      .filter((model) => backendName === undefined || model.backend.name === backendName)
      .map((model) => ({
        backend: model.backend.name,
        modelPath: model.modelPath,
        memoryBytes: safeMemory(model),
        loadedAt: model.loadedAt.toISOString(),
        lastUsedAt: model.lastUsedAt.toISOString(),
        inFlight: model.inFlight,
      }));
  }

  queueStats(backendName: string): ModelQueueStats[] {
    const prefix = modelKey(backendName, '');
    return this.queue
      .stats()
      .filter((stats) => stats.key.startsWith(prefix))
      .map(({ key, active, waiting, concurrency, limit }) => ({
        modelPath: key.slice(prefix.length),
        active,
        waiting,
        concurrency,
        limit,
      }));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.loading.values()]);
    await Promise.allSettled([...this.models.values()].map((model) => this.evict(model, 'shutdown')));
  }

  private async ensureLoaded(backend: TtsBackend, modelPath: string): Promise<LoadedModel> {
    const key = modelKey(backend.name, modelPath);
    const loaded = this.models.get(key);
    if (loaded) {
      return loaded;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(backend, modelPath, key).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async load(backend: TtsBackend, modelPath: string, key: string): Promise<LoadedModel> {
    await this.unloading.get(key); // an unload of the same model must finish before it loads again
    if (!backend.embedded) {
      await this.makeRoom(1);
    }
    const started = performance.now();
    await backend.load(modelPath);
    const now = new Date();
    const model: LoadedModel = {
      backend,
      modelPath,
      loadedAt: now,
      lastUsedAt: now,
      inFlight: 0,
      unloadWhenIdle: false,
    };
    this.models.set(key, model);
    this.logger.log(
      {
        backend: backend.name,
        modelPath,
        loadMs: Math.round(performance.now() - started),
        memoryBytes: safeMemory(model),
      },
      `Loaded model ${key}`,
    );
    return model;
  }

  /** Evicts idle models, least recently used first, until `incoming` more fit under the limit. */
  private async makeRoom(incoming: number): Promise<void> {
    const counted = () => [...this.models.values()].filter((model) => !model.backend.embedded);
    while (counted().length + incoming > this.maxLoaded) {
      const victim = counted()
        .filter((model) => model.inFlight === 0)
        .sort((a, b) => a.lastUsedAt.getTime() - b.lastUsedAt.getTime())[0];
      if (!victim) {
        this.logger.warn(
          { loaded: counted().length, max: this.maxLoaded },
          'Every loaded model is busy: going over INFERENCE_MAX_LOADED_MODELS until one is free',
        );
        return;
      }
      await this.evict(victim, 'least recently used');
    }
  }

  private afterRelease(model: LoadedModel): void {
    if (model.inFlight > 0) {
      return;
    }
    const work = model.unloadWhenIdle ? this.evict(model, 'requested') : this.makeRoom(0);
    work.catch((error: unknown) => this.logger.error({ err: error }, 'Unloading a model failed'));
  }

  private evict(model: LoadedModel, reason: string): Promise<void> {
    const key = modelKey(model.backend.name, model.modelPath);
    const existing = this.unloading.get(key);
    if (existing) {
      return existing;
    }
    if (this.models.get(key) === model) {
      this.models.delete(key);
    }
    const work = model.backend
      .unload(model.modelPath)
      .then(() =>
        this.logger.log(
          { backend: model.backend.name, modelPath: model.modelPath, reason },
          `Unloaded model ${key}`,
        ),
      )
      .finally(() => this.unloading.delete(key));
    this.unloading.set(key, work);
    return work;
  }
}

function modelKey(backendName: string, modelPath: string): string {
  return `${backendName}:${modelPath}`;
}

function safeMemory(model: LoadedModel): number {
  try {
    return Math.max(0, Math.round(model.backend.memoryBytes(model.modelPath)));
  } catch {
    return 0;
  }
}
