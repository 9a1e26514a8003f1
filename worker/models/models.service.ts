import { HttpStatus, Injectable, type MessageEvent } from '@nestjs/common';
import type { Observable } from 'rxjs';

import { BackendRegistry } from '../backends/backend-registry.service';
import { ApiError } from '../common/api-error';
import type {
  DeleteModelResponse,
  InstalledModel,
  ModelInstallCheck,
  PullRequest,
  UnloadModelRequest,
  UnloadModelResponse,
} from '../contract/worker-api';
import { ModelRuntime } from '../runtime/model-runtime.service';
import { toInstalledModel } from './dto/models.dto';
import { isModelSegment, UnsafePathError } from './model-paths';
import { ModelPullService } from './model-pull.service';
import { ModelStore } from './model-store.service';

/** The `/models` routes: pull, list, install check, delete, unload. */
@Injectable()
export class ModelsService {
  /** Variants being deleted right now (a pull of one is refused meanwhile). */
  private readonly deleting = new Set<string>();

  constructor(
    private readonly store: ModelStore,
    private readonly pulls: ModelPullService,
    private readonly runtime: ModelRuntime,
    private readonly registry: BackendRegistry,
  ) {}

  pullModel(request: PullRequest): Promise<Observable<MessageEvent>> {
    return this.pulls.pull(request, (destPath) => this.deleting.has(destPath));
  }

  async listModels(): Promise<InstalledModel[]> {
    const loaded = this.loadedPaths();
    return (await this.store.list()).map((manifest) =>
      toInstalledModel(manifest, loaded.has(`${manifest.backend}/${manifest.variant}`)),
    );
  }

  /** @throws ApiError 404 when the variant is not installed (with the reason), 400 for an invalid name. */
  async getModel(backend: string, variant: string, verify: boolean): Promise<ModelInstallCheck> {
    const check = await this.confined(() => this.store.check(backend, variant, verify), backend, variant);
    if (!check.installed) {
      throw ApiError.notFound(`Model ${backend}/${variant} is not installed: ${check.reason}`);
    }
    return {
      ...toInstalledModel(check.manifest, this.loadedPaths().has(`${backend}/${variant}`)),
      installed: true,
      files: check.manifest.files,
      verified: check.verified,
    };
  }

  /**
   * Deletes a variant. A loaded model is unloaded first when idle; one with requests running or waiting is
   * refused with 409 rather than cut off mid-generation (the caller can retry once the work is done).
   */
  async deleteModel(backend: string, variant: string): Promise<DeleteModelResponse> {
    this.assertNames(backend, variant);
    const path = `${backend}/${variant}`;
    if (this.pulls.isPulling(path)) {
      throw this.conflict(`${path} is being pulled right now; delete it once the pull has ended`);
    }
    if (this.deleting.has(path)) {
      throw this.conflict(`${path} is already being deleted`);
    }
    this.deleting.add(path);
    try {
      let unloaded = false;
      const engine = this.registry.find(backend);
      if (engine && this.busy(backend, path)) {
        throw this.conflict(
          `Model ${path} is in use (requests are running or waiting for it); it was not deleted. ` +
            'Retry once its requests have finished.',
        );
      }
      if (engine && this.loadedPaths().has(path)) {
        const outcome = await this.runtime.unload(engine, path);
        if (outcome === 'scheduled') {
          throw this.conflict(
            `Model ${path} started a request while being deleted; it was not deleted. Retry.`,
          );
        }
        unloaded = outcome === 'unloaded';
      }
      const removed = await this.confined(() => this.store.remove(backend, variant), backend, variant);
      if (!removed) {
        throw ApiError.notFound(`Model ${path} is not installed`);
      }
      return { backend, variant, path, unloaded };
    } finally {
      this.deleting.delete(path);
    }
  }

  /** @throws ApiError 404 for an unknown backend. */
  async unloadModel(request: UnloadModelRequest): Promise<UnloadModelResponse> {
    const backend = this.registry.getOrNotFound(request.backend);
    return { status: await this.runtime.unload(backend, request.model_path) };
  }

  private loadedPaths(): Set<string> {
    return new Set(this.runtime.loadedModels().map((model) => model.modelPath));
  }

  /** Requests running on the model or waiting for it. */
  private busy(backend: string, path: string): boolean {
    const running = this.runtime
      .loadedModels(backend)
      .some((model) => model.modelPath === path && model.inFlight > 0);
    const queued = this.runtime
      .queueStats(backend)
      .some((stats) => stats.modelPath === path && stats.active + stats.waiting > 0);
    return running || queued;
  }

  private assertNames(backend: string, variant: string): void {
    if (!isModelSegment(backend) || !isModelSegment(variant)) {
      throw ApiError.badRequest(
        'backend and variant must be folder names (letters, digits, ".", "_", "-", "+")',
        {
          path: {
            code: 'validation_is_safe_relative_path',
            message: 'backend and variant must be plain folder names without a leading dot',
          },
        },
      );
    }
  }

  private async confined<T>(work: () => Promise<T>, backend: string, variant: string): Promise<T> {
    this.assertNames(backend, variant);
    try {
      return await work();
    } catch (error) {
      if (error instanceof UnsafePathError) {
        throw ApiError.badRequest(`${backend}/${variant} resolves outside the models directory`, {
          path: { code: 'unsafe_path', message: 'the model folder is a link out of the models directory' },
        });
      }
      throw error;
    }
  }

  private conflict(message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, message, {});
  }
}
