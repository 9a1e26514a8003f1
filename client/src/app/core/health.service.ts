import { DOCUMENT, DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import { HttpErrorResponse } from '@angular/common/http';
import { Api, getHealth } from '../api';
import { Health } from './api-types';

export type HealthLevel = 'unknown' | 'ok' | 'degraded' | 'down';

const POLL_MS = 15_000;

/** Polls GET /api/health while the page is visible and exposes the result as signals. */
@Injectable({ providedIn: 'root' })
export class HealthService {
  private readonly api = inject(Api);
  private readonly doc = inject(DOCUMENT);

  /** Last health body received (also from a 503 answer), or null. */
  readonly health = signal<Health | null>(null);
  /** True when the last poll could not get any health body. */
  readonly unreachable = signal(false);

  readonly level = computed<HealthLevel>(() => {
    const h = this.health();
    if (this.unreachable()) return 'down';
    if (!h) return 'unknown';
    const dbOk = h.database?.status === 'ok';
    if (h.status === 'ok' && dbOk && (h.fleet?.online ?? 0) > 0) return 'ok';
    if (h.status === 'error') return 'down';
    return 'degraded';
  });

  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    inject(DestroyRef).onDestroy(() => this.stop());
  }

  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => {
      if (!this.doc.hidden) void this.refresh();
    }, POLL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async refresh(): Promise<void> {
    try {
      this.health.set(await this.api.invoke(getHealth));
      this.unreachable.set(false);
    } catch (e) {
      // A 503 still carries a health body describing what is wrong.
      const body = e instanceof HttpErrorResponse ? (e.error as Health | null) : null;
      if (body && typeof body === 'object' && 'status' in body) {
        this.health.set(body);
        this.unreachable.set(false);
      } else {
        this.unreachable.set(true);
      }
    }
  }
}
