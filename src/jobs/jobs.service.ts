import { Injectable } from '@nestjs/common';
import { Observable, Subject, concat, defer, map, of } from 'rxjs';
import { ApiError } from '../common/errors/api-error';
import { newRecordId, recordDate } from '../common/records/record-id';
import { JobDto, JobStreamEventDto, isTerminal } from './dto/job.dto';

/** How many finished jobs are kept for late subscribers; older ones are forgotten first. */
const FINISHED_JOBS_KEPT = 200;

interface JobEntry {
  job: JobDto;
  abort: AbortController;
}

/** The in-memory job store: one job per (model pull × target worker), with a change stream for SSE clients. */
@Injectable()
export class JobsService {
  private readonly jobs = new Map<string, JobEntry>();
  private readonly changes = new Subject<JobDto>();

  create(model: string, server: { id: string; name: string }): { job: JobDto; signal: AbortSignal } {
    const now = recordDate();
    const job: JobDto = {
      id: newRecordId(),
      model,
      serverId: server.id,
      serverName: server.name,
      status: 'queued',
      progress: 0,
      speed: '',
      created: now,
      updated: now,
    };
    const abort = new AbortController();
    this.jobs.set(job.id, { job, abort });
    this.prune();
    this.changes.next({ ...job });
    return { job: { ...job }, signal: abort.signal };
  }

  /** Applies a change; finished jobs no longer change (a late event from a worker cannot revive them). */
  update(
    id: string,
    patch: Partial<Omit<JobDto, 'id' | 'model' | 'serverId' | 'serverName' | 'created'>>,
  ): void {
    const entry = this.jobs.get(id);
    if (!entry || isTerminal(entry.job.status)) {
      return;
    }
    Object.assign(entry.job, patch, { updated: recordDate() });
    this.changes.next({ ...entry.job });
  }

  get(id: string): JobDto {
    const entry = this.jobs.get(id);
    if (!entry) {
      throw ApiError.notFound('Job not found.');
    }
    return { ...entry.job };
  }

  list(): JobDto[] {
    return [...this.jobs.values()].map((entry) => ({ ...entry.job }));
  }

  /** The running job pulling `model` onto `serverId`, if any (a second pull request joins it). */
  findActive(model: string, serverId: string): JobDto | undefined {
    const entry = [...this.jobs.values()].find(
      (candidate) =>
        candidate.job.model === model &&
        candidate.job.serverId === serverId &&
        !isTerminal(candidate.job.status),
    );
    return entry ? { ...entry.job } : undefined;
  }

  /** Cancels a running job: its worker download is aborted; a finished job is left as it is. */
  cancel(id: string): JobDto {
    const entry = this.jobs.get(id);
    if (!entry) {
      throw ApiError.notFound('Job not found.');
    }
    if (!isTerminal(entry.job.status)) {
      this.update(id, { status: 'cancelled', error: 'Cancelled by a user.' });
      entry.abort.abort();
    }
    return { ...entry.job };
  }

  /** Jobs of one or more ids as they change, ending when all of them are finished. */
  watch(ids: string[]): Observable<JobDto> {
    return new Observable<JobDto>((subscriber) => {
      const pending = new Set(ids.filter((id) => !isTerminal(this.get(id).status)));
      for (const id of ids) {
        subscriber.next(this.get(id));
      }
      if (pending.size === 0) {
        subscriber.complete();
        return undefined;
      }
      const subscription = this.changes.subscribe((job) => {
        if (!ids.includes(job.id)) {
          return;
        }
        subscriber.next(job);
        if (isTerminal(job.status)) {
          pending.delete(job.id);
          if (pending.size === 0) {
            subscriber.complete();
          }
        }
      });
      return () => subscription.unsubscribe();
    });
  }

  /** A snapshot of every job, then each change as it happens. */
  stream(): Observable<JobStreamEventDto> {
    return concat(
      defer(() => of<JobStreamEventDto>({ type: 'snapshot', jobs: this.list() })),
      this.changes.pipe(map((job): JobStreamEventDto => ({ type: 'job', job }))),
    );
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((entry) => isTerminal(entry.job.status));
    for (const entry of finished.slice(0, Math.max(0, finished.length - FINISHED_JOBS_KEPT))) {
      this.jobs.delete(entry.job.id);
    }
  }
}
