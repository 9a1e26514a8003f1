import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type MessageEvent,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { Observable } from 'rxjs';

import { BackendRegistry } from '../backends/backend-registry.service';
import { ApiError } from '../common/api-error';
import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import type { PullEvent, PullRequest } from '../contract/worker-api';
import { PackagesService } from '../packages/packages.service';
import { ModelRuntime } from '../runtime/model-runtime.service';
import { HubClient } from './hub.client';
import { STAGING_DIR, UnsafePathError } from './model-paths';
import { ModelStore } from './model-store.service';
import { MODEL_STORE_OPTIONS, type ModelStoreOptions } from './model-store.options';
import { PullJob } from './pull-job';
import { planPull, type PullPlan } from './pull-plan';

/**
 * Starts pulls and shares them: one {@link PullJob} per `dest_path` at a time, which every request for the same
 * files subscribes to. Everything wrong with a request is thrown (as an ApiError) before the SSE stream starts.
 */
@Injectable()
export class ModelPullService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ModelPullService.name);
  private readonly jobs = new Map<string, PullJob>();

  constructor(
    private readonly store: ModelStore,
    private readonly hub: HubClient,
    private readonly packages: PackagesService,
    private readonly runtime: ModelRuntime,
    private readonly registry: BackendRegistry,
    @Inject(MODEL_STORE_OPTIONS) private readonly options: ModelStoreOptions,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  /**
   * The progress of a pull as SSE messages (`data: <PullEvent>`, plus comment lines while nothing changes).
   *
   * @param isDeleting refuses the pull while the same variant is being deleted.
   * @throws ApiError 400 (invalid request, unknown or embedded backend, path escaping the models directory),
   *   409 (a pull of different files into the same dest_path is running, or the variant is being deleted).
   */
  async pull(
    request: PullRequest,
    isDeleting: (destPath: string) => boolean,
  ): Promise<Observable<MessageEvent>> {
    const plan = planPull(request);
    const backend = this.registry.getForRequest(plan.backend, 'manifest.backend');
    if (backend.embedded) {
      throw ApiError.invalidField(
        'manifest.backend',
        'capability_not_supported',
        `${backend.name} is embedded in the worker: it has no model to pull`,
      );
    }
    await this.assertConfined(plan);
    if (isDeleting(plan.destPath)) {
      throw new ApiError(HttpStatus.CONFLICT, `${plan.destPath} is being deleted; pull it again afterwards`);
    }
    let job = this.jobs.get(plan.destPath);
    if (job && job.plan.fingerprint !== plan.fingerprint) {
      throw new ApiError(
        HttpStatus.CONFLICT,
        `Another pull of ${plan.destPath} with different files is running; wait for it to end`,
        { dest_path: { code: 'pull_conflict', message: `a different pull of ${plan.destPath} is running` } },
      );
    }
    if (!job) {
      const created = new PullJob(
        plan,
        backend,
        {
          store: this.store,
          hub: this.hub,
          packages: this.packages,
          runtime: this.runtime,
          options: this.options,
          hubToken: this.config.hub.token,
          logger: this.logger,
        },
        () => {
          if (this.jobs.get(plan.destPath) === created) {
            this.jobs.delete(plan.destPath);
          }
        },
      );
      this.jobs.set(plan.destPath, created);
      job = created;
    }
    return this.toMessages(job.events());
  }

  isPulling(destPath: string): boolean {
    return this.jobs.has(destPath);
  }

  /** Before the HTTP server closes (it waits for open SSE streams): running pulls stop, keeping their `.part` files. */
  async beforeApplicationShutdown(): Promise<void> {
    const jobs = [...this.jobs.values()];
    for (const job of jobs) {
      job.cancel('the worker is shutting down');
    }
    await Promise.allSettled(jobs.map((job) => job.done));
    if (jobs.length > 0) {
      // Let the final events flush so the server's close finds those connections idle (else it waits for them).
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Refuses (400) a destination or file target that resolves outside the models directory through a symlink. */
  private async assertConfined(plan: PullPlan): Promise<void> {
    const check = async (relative: string, field: string) => {
      try {
        await this.store.confine(relative);
      } catch (error) {
        if (error instanceof UnsafePathError) {
          throw ApiError.invalidField(field, 'unsafe_path', `${field} resolves outside the models directory`);
        }
        throw error;
      }
    };
    await check(plan.destPath, 'dest_path');
    const staging = `${STAGING_DIR}/${plan.destPath}`;
    await check(staging, 'dest_path');
    for (const [index, file] of plan.files.entries()) {
      await check(`${plan.destPath}/${file.target}`, `manifest.files.${index}.target`);
      await check(`${staging}/${file.target}`, `manifest.files.${index}.target`);
    }
  }

  private toMessages(events: Observable<PullEvent>): Observable<MessageEvent> {
    const keepAliveMs = this.options.keepAliveMs;
    return new Observable<MessageEvent>((subscriber) => {
      const keepAlive = setInterval(() => subscriber.next({ comment: 'keep-alive' }), keepAliveMs);
      keepAlive.unref();
      const subscription = events.subscribe({
        next: (event) => subscriber.next({ data: event }),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        clearInterval(keepAlive);
        subscription.unsubscribe();
      };
    });
  }
}
