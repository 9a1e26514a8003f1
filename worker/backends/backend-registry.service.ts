import { HttpStatus, Inject, Injectable } from '@nestjs/common';

import { ApiError } from '../common/api-error';
import { TTS_BACKENDS, type TtsBackend } from './backend.interface';

/** The registered backends, by name. */
@Injectable()
export class BackendRegistry {
  private readonly byName: ReadonlyMap<string, TtsBackend>;

  constructor(@Inject(TTS_BACKENDS) backends: TtsBackend[]) {
    const byName = new Map<string, TtsBackend>();
    for (const backend of backends) {
      if (byName.has(backend.name)) {
        throw new Error(`Two backends are registered under the name "${backend.name}"`);
      }
      byName.set(backend.name, backend);
    }
    this.byName = byName;
  }

  list(): TtsBackend[] {
    return [...this.byName.values()];
  }

  find(name: string): TtsBackend | undefined {
    return this.byName.get(name);
  }

  /** The backend named in a URL: unknown → 404. */
  getOrNotFound(name: string): TtsBackend {
    const backend = this.byName.get(name);
    if (!backend) {
      throw new ApiError(HttpStatus.NOT_FOUND, `Unknown backend "${name}". ${this.known()}`);
    }
    return backend;
  }

  /** The backend named in a request body field: unknown → 400 on that field. */
  getForRequest(name: string, field = 'backend'): TtsBackend {
    const backend = this.byName.get(name);
    if (!backend) {
      throw ApiError.invalidField(field, 'unknown_backend', `Unknown backend "${name}". ${this.known()}`);
    }
    return backend;
  }

  private known(): string {
    const names = [...this.byName.keys()];
    return names.length > 0 ? `Available backends: ${names.join(', ')}.` : 'No backend is registered.';
  }
}
