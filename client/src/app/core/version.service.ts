import { Injectable, inject, signal } from '@angular/core';
import { Api, getVersion } from '../api';
import { VersionInfo } from './api-types';

/** GET /api/version, loaded once. */
@Injectable({ providedIn: 'root' })
export class VersionService {
  private readonly api = inject(Api);
  private loading: Promise<void> | undefined;

  readonly version = signal<VersionInfo | null>(null);

  load(): Promise<void> {
    this.loading ??= this.api.invoke(getVersion).then(
      (v) => this.version.set(v),
      () => {
        this.loading = undefined; // allow a later retry
      },
    );
    return this.loading;
  }
}
