import { Injectable, computed, inject, signal } from '@angular/core';
import { Subscription } from 'rxjs';
import { Job, JOBS_STREAM_PATH, JobStatus, JobStreamEvent } from './api-types';
import { ServerEvents } from './server-events';

const TERMINAL: readonly JobStatus[] = ['complete', 'error', 'cancelled'];

export function isJobFinished(job: Pick<Job, 'status'>): boolean {
  return TERMINAL.includes(job.status);
}

/**
 * Model pull jobs, live from `GET /api/jobs/stream` (admins only): a snapshot of every job, then each change.
 * Connected while at least one page holds it (`attach()` returns the detach function).
 */
@Injectable({ providedIn: 'root' })
export class JobsStore {
  private readonly events = inject(ServerEvents);
  private readonly byId = signal<ReadonlyMap<string, Job>>(new Map());
  private holders = 0;
  private subscription: Subscription | undefined;

  /** Every known job, newest first. */
  readonly jobs = computed(() =>
    [...this.byId().values()].sort((a, b) => b.created.localeCompare(a.created)),
  );
  readonly active = computed(() => this.jobs().filter((job) => !isJobFinished(job)));
  readonly connected = signal(false);

  attach(): () => void {
    this.holders++;
    if (!this.subscription) {
      this.subscription = this.events
        .stream<JobStreamEvent>(JOBS_STREAM_PATH, {
          onOpen: () => this.connected.set(true),
          onDrop: () => this.connected.set(false),
        })
        .subscribe((event) => this.apply(event));
    }
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      this.holders--;
      if (this.holders === 0) {
        this.subscription?.unsubscribe();
        this.subscription = undefined;
        this.connected.set(false);
      }
    };
  }

  /** Jobs of one model, newest first. */
  forModel(model: string): Job[] {
    return this.jobs().filter((job) => job.model === model);
  }

  /** Records a job the page just started (before the stream reports it). */
  upsert(job: Job): void {
    this.byId.update((map) => new Map(map).set(job.id, job));
  }

  private apply(event: JobStreamEvent): void {
    if (event.type === 'snapshot') {
      const map = new Map<string, Job>();
      for (const job of event.jobs ?? []) map.set(job.id, job);
      this.byId.set(map);
    } else if (event.job) {
      this.upsert(event.job);
    }
  }
}
