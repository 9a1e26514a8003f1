import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { WorkerHealth } from '../../worker/contract/worker-api';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { recordDate } from '../common/records/record-id';
import { RecordEvents } from '../records/realtime/record-events';
import { FleetRepository } from './fleet.repository';
import { InferenceServerEntity, InferenceServerStatus } from './inference-server.entity';
import { WorkerClient, WorkerTarget } from './worker-client';

/** Live state of one worker, kept in memory beside its database row. */
interface WorkerState {
  server: InferenceServerEntity;
  failures: number;
  inFlight: number;
  health?: WorkerHealth;
}

export interface FleetSummary {
  online: number;
  total: number;
}

/** A worker picked for a request; `release()` must be called when the request ends. */
export interface WorkerLease {
  server: InferenceServerEntity;
  target: WorkerTarget;
  release(): void;
}

/**
 * The fleet: a health map refreshed on a timer, routing of requests to the best worker, and the Local entry
 * seeded from INFERENCE_URL. State changes (online/offline) are logged; steady state is silent.
 */
@Injectable()
export class FleetService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FleetService.name);
  private readonly states = new Map<string, WorkerState>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private checking?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: FleetRepository,
    private readonly client: WorkerClient,
    private readonly events: RecordEvents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.repository.seedLocal(this.config.inferenceUrl, this.config.inferenceAuthToken);
    await this.reload();
    // The first probe runs in the background so a slow worker never delays start-up.
    this.scheduleNext(0);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  summary(): FleetSummary {
    const states = [...this.states.values()].filter((state) => state.server.enabled);
    return {
      online: states.filter((state) => state.server.status === 'online').length,
      total: states.length,
    };
  }

  /** Enabled workers whose last probe succeeded. */
  online(): InferenceServerEntity[] {
    return [...this.states.values()]
      .filter((state) => state.server.enabled && state.server.status === 'online')
      .map((state) => state.server);
  }

  find(id: string): InferenceServerEntity | undefined {
    return this.states.get(id)?.server;
  }

  /**
   * Workers able to take a request, best first: enabled, online before unknown, those already holding the model
   * loaded first, then the fewest requests in flight, then priority. Offline workers are never offered.
   */
  candidates(modelPath?: string): InferenceServerEntity[] {
    const rank = (status: InferenceServerStatus): number => (status === 'online' ? 0 : 1);
    const loaded = (state: WorkerState): number =>
      modelPath && state.health?.loadedModels.some((model) => model.modelPath === modelPath) ? 0 : 1;
    return [...this.states.values()]
      .filter((state) => state.server.enabled && state.server.status !== 'offline')
      .sort(
        (a, b) =>
          rank(a.server.status) - rank(b.server.status) ||
          loaded(a) - loaded(b) ||
          a.inFlight - b.inFlight ||
          b.server.priority - a.server.priority,
      )
      .map((state) => state.server);
  }

  lease(server: InferenceServerEntity): WorkerLease {
    const state = this.states.get(server.id);
    if (state) {
      state.inFlight++;
    }
    let released = false;
    return {
      server,
      target: { url: server.url, authToken: server.authToken },
      release: () => {
        if (!released && state) {
          released = true;
          state.inFlight--;
        }
      },
    };
  }

  /** Records that a call to the worker failed outright (connection refused, timeout): it is probed again soon. */
  reportFailure(server: InferenceServerEntity, error: string): void {
    const state = this.states.get(server.id);
    if (state) {
      void this.applyProbe(state, undefined, error);
    }
  }

  /** Runs one health round now (also used by tests and by registration). */
  async checkAll(): Promise<void> {
    if (!this.checking) {
      this.checking = this.runChecks().finally(() => (this.checking = undefined));
    }
    return this.checking;
  }

  private async reload(): Promise<void> {
    const servers = await this.repository.list();
    const seen = new Set<string>();
    for (const server of servers) {
      seen.add(server.id);
      const state = this.states.get(server.id);
      if (state) {
        state.server = server;
      } else {
        this.states.set(server.id, { server, failures: 0, inFlight: 0 });
      }
    }
    for (const id of this.states.keys()) {
      if (!seen.has(id)) {
        this.states.delete(id);
      }
    }
  }

  private async runChecks(): Promise<void> {
    await this.reload();
    await Promise.all(
      [...this.states.values()]
        .filter((state) => state.server.enabled)
        .map(async (state) => {
          try {
            const health = await this.client.health(state.server, this.config.fleet.healthTimeoutMs);
            await this.applyProbe(state, health);
          } catch (error) {
            await this.applyProbe(state, undefined, error instanceof Error ? error.message : String(error));
          }
        }),
    );
  }

  private async applyProbe(
    state: WorkerState,
    health: WorkerHealth | undefined,
    error?: string,
  ): Promise<void> {
    const server = state.server;
    const previous = server.status;
    if (health) {
      state.failures = 0;
      state.health = health;
      server.status = 'online';
      server.device = health.device;
      server.version = health.version;
      server.lastError = '';
    } else {
      state.failures++;
      // An unknown worker that fails its first probe is offline at once; an online one gets a grace period.
      if (previous !== 'online' || state.failures >= this.config.fleet.failuresBeforeOffline) {
        server.status = 'offline';
      }
      server.lastError = (error ?? 'health check failed').slice(0, 500);
    }
    server.lastCheck = recordDate();
    if (previous !== server.status) {
      const detail = server.status === 'online' ? `device ${server.device}` : server.lastError;
      this.logger.log(`worker "${server.name}" (${server.url}) ${previous} -> ${server.status}: ${detail}`);
    }
    await this.repository.updateHealth(server.id, {
      status: server.status,
      device: server.device,
      version: server.version,
      lastCheck: server.lastCheck,
      lastError: server.lastError,
    });
    if (previous !== server.status) {
      // After the commit, so realtime subscribers (the Administration page) never see an unsaved state.
      await this.events.publish('inference_servers', 'update', server);
    }
  }

  private scheduleNext(delayMs: number): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.checkAll()
        .catch((error: unknown) => this.logger.error(`health round failed: ${String(error)}`))
        .finally(() => {
          const base = this.config.fleet.healthIntervalMs;
          this.scheduleNext(base * (0.9 + Math.random() * 0.2));
        });
    }, delayMs);
    this.timer.unref();
  }
}
