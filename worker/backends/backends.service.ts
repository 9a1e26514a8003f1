import { Injectable } from '@nestjs/common';

import { ApiError } from '../common/api-error';
import type { BackendInfo, BackendStatus, BackendVoice } from '../contract/worker-api';
import { ModelRuntime } from '../runtime/model-runtime.service';
import type { TtsBackend } from './backend.interface';
import { BackendRegistry } from './backend-registry.service';

@Injectable()
export class BackendsService {
  constructor(
    private readonly registry: BackendRegistry,
    private readonly runtime: ModelRuntime,
  ) {}

  listBackends(): Promise<BackendInfo[]> {
    return Promise.all(this.registry.list().map((backend) => this.info(backend)));
  }

  async getBackendStatus(name: string): Promise<BackendStatus> {
    const backend = this.registry.getOrNotFound(name);
    const info = await this.info(backend);
    const dependencies = await backend.dependencies();
    return {
      ...info,
      description: backend.description,
      embedded: backend.embedded,
      loaded: info.loadedModels.length > 0,
      memoryBytes: info.loadedModels.reduce((sum, model) => sum + model.memoryBytes, 0),
      dependencies,
      queues: this.runtime.queueStats(backend.name),
    };
  }

  /** Built-in voices of an embedded engine; loads the engine if it is not loaded yet. */
  async listBackendVoices(name: string, signal: AbortSignal): Promise<BackendVoice[]> {
    const backend = this.registry.getOrNotFound(name);
    if (!backend.listVoices || !backend.embedded) {
      throw ApiError.notFound(
        `Backend "${name}" has no built-in voice list; its voices are catalog entries.`,
      );
    }
    const lease = await this.runtime.acquire(backend, backend.resolveModelPath({}), signal);
    try {
      return await backend.listVoices();
    } finally {
      lease.release();
    }
  }

  private async info(backend: TtsBackend): Promise<BackendInfo> {
    const dependencies = await backend.dependencies();
    return {
      name: backend.name,
      displayName: backend.displayName,
      capabilities: { ...backend.capabilities },
      dependenciesInstalled: dependencies.installed,
      loadedModels: this.runtime.loadedModels(backend.name),
    };
  }
}
