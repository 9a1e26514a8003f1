import type { Logger } from '@nestjs/common';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Observable, type Subscriber } from 'rxjs';

import type { TtsBackend } from '../backends/backend.interface';
import type { InstalledModelFile, PullEvent, PullStatus } from '../contract/worker-api';
import { NpmInstallError } from '../packages/npm-installer';
import type { PackagesService } from '../packages/packages.service';
import type { ModelRuntime } from '../runtime/model-runtime.service';
import { asDiskError, DownloadError, type HubClient } from './hub.client';
import { UnsafePathError } from './model-paths';
import { sha256File, type ModelStore } from './model-store.service';
import type { ModelStoreOptions } from './model-store.options';
import { formatSpeed, percent, PullEventThrottle, SpeedMeter } from './pull-progress';
import type { PullFilePlan, PullPlan } from './pull-plan';

export interface PullJobDeps {
  store: ModelStore;
  hub: HubClient;
  packages: PackagesService;
  runtime: ModelRuntime;
  options: ModelStoreOptions;
  hubToken: string | undefined;
  logger: Logger;
}

/** Why a pull stopped without a client to tell: its last subscriber left, or the worker shuts down. */
export class PullCancelledError extends Error {
  constructor(reason: string) {
    super(`The pull was cancelled: ${reason}`);
    this.name = 'PullCancelledError';
  }
}

/**
 * One running pull of a `<backend>/<variant>`, shared by every request that asks for it while it runs: each
 * subscriber gets the last event sent at once, then every further (throttled) event, and the stream completes
 * after the final `complete` or `error` event. When the last subscriber leaves, the pull goes on for
 * `cancelGraceMs` (a reconnecting client picks it up again) and is then cancelled, its `.part` files kept for
 * the next pull to resume.
 *
 * Flow: backend packages (`installing`) → already installed with the same files? (`complete` at once) →
 * staging + free-space check → each file downloaded, resumed and verified (`downloading`) → atomic install,
 * `manifest.json` last → a loaded copy of the old files is unloaded → `complete`.
 */
export class PullJob {
  private readonly subscribers = new Set<Subscriber<PullEvent>>();
  private readonly controller = new AbortController();
  private readonly throttle: PullEventThrottle;
  private readonly speed = new SpeedMeter();
  private graceTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private ended = false;
  private finished = false;
  private status: PullStatus = 'downloading';
  /** Bytes received over the network by this pull (resumed bytes excluded), for the speed. */
  private transferred = 0;
  /** Bytes of the files finished so far. */
  private downloaded = 0;
  private total: number | undefined;
  private readonly knownSizes = new Map<string, number>();

  constructor(
    readonly plan: PullPlan,
    private readonly backend: TtsBackend,
    private readonly deps: PullJobDeps,
    private readonly onEnd: () => void,
  ) {
    this.throttle = new PullEventThrottle((event) => this.broadcast(event), deps.options.minEventIntervalMs);
    // Started by its first subscriber (so it sees every event); dropped if none comes within the grace period.
    this.armGrace('no client subscribed to it');
  }

  /** Settles when the pull has ended (never rejects). */
  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Progress of this pull, from the last event sent on; the first subscription starts the pull. */
  events(): Observable<PullEvent> {
    return new Observable<PullEvent>((subscriber) => {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      const last = this.throttle.lastSent;
      if (last) {
        subscriber.next(last);
      }
      if (this.finished || this.ended) {
        subscriber.complete();
        return undefined;
      }
      this.subscribers.add(subscriber);
      this.running ??= this.run().finally(() => this.end());
      return () => {
        this.subscribers.delete(subscriber);
        if (this.subscribers.size === 0 && !this.finished) {
          this.armGrace('its last client disconnected');
        }
      };
    });
  }

  /** Stops the pull (its `.part` files are kept for the next pull to resume). */
  cancel(reason: string): void {
    if (!this.running) {
      this.end();
      return;
    }
    if (!this.controller.signal.aborted) {
      this.controller.abort(new PullCancelledError(reason));
    }
  }

  private armGrace(reason: string): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => this.cancel(reason), this.deps.options.cancelGraceMs);
  }

  private end(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.throttle.dispose();
    clearTimeout(this.graceTimer);
    this.onEnd();
  }

  private broadcast(event: PullEvent): void {
    for (const subscriber of this.subscribers) {
      subscriber.next(event);
    }
  }

  private async run(): Promise<void> {
    const { plan, deps } = this;
    const signal = this.controller.signal;
    const started = performance.now();
    try {
      const packages = this.backend.packages ?? {};
      if (
        Object.keys(packages).length > 0 &&
        !(await deps.packages.isInstalled(this.backend.name, packages))
      ) {
        this.push({ status: 'installing', progress: 0 });
        await deps.packages.install(this.backend.name, packages, signal);
      }
      signal.throwIfAborted();

      if (await this.alreadyInstalled()) {
        deps.logger.log({ model: plan.destPath }, `Model ${plan.destPath} is already installed`);
        this.finish({ status: 'complete', progress: 100, downloaded: 0, total: 0 });
        return;
      }

      const staging = await deps.store.prepareStaging(plan);
      await this.checkFreeSpace(staging);
      const files = await this.downloadAll(staging, signal);
      signal.throwIfAborted();
      await deps.store.install(plan, staging, files);
      // A loaded copy runs the replaced files: unload it (now, or after its running requests) to pick up the new.
      await deps.runtime.unload(this.backend, plan.destPath).catch(() => undefined);

      const total = files.reduce((sum, file) => sum + file.size, 0);
      const seconds = (performance.now() - started) / 1000;
      deps.logger.log(
        { model: plan.destPath, bytes: total, seconds: Math.round(seconds * 10) / 10 },
        `Installed model ${plan.destPath}`,
      );
      this.finish({
        status: 'complete',
        progress: 100,
        speed: formatSpeed(this.transferred / Math.max(seconds, 0.001)),
        downloaded: total,
        total,
      });
    } catch (error) {
      await this.fail(error);
    }
  }

  private async downloadAll(staging: string, signal: AbortSignal): Promise<InstalledModelFile[]> {
    const { plan, deps } = this;
    this.total = plan.totalSize;
    const installed: InstalledModelFile[] = [];
    this.push({
      status: 'downloading',
      progress: 0,
      file: plan.files[0].path,
      downloaded: 0,
      total: this.total,
    });
    for (const file of plan.files) {
      const target = join(staging, file.target);
      await fs.mkdir(dirname(target), { recursive: true }).catch((error: unknown) => {
        throw asDiskError(error);
      });
      const done = await this.finishedEarlier(target, file);
      if (done) {
        installed.push(done);
        this.downloaded += done.size;
        this.knownSizes.set(file.target, done.size);
        this.progress(file, 0);
        continue;
      }
      let lastHave = 0;
      const result = await deps.hub.download({
        url: file.url,
        token: deps.hubToken,
        tokenOrigin: plan.hubOrigin,
        partPath: `${target}.part`,
        expectedSize: file.size,
        expectedSha256: file.sha256,
        signal,
        onProgress: (have, size) => {
          if (size !== undefined) {
            this.knownSizes.set(file.target, size);
          }
          if (have > lastHave) {
            this.transferred += have - lastHave;
          }
          lastHave = have;
          this.progress(file, have);
        },
      });
      try {
        await fs.rename(`${target}.part`, target);
      } catch (error) {
        throw asDiskError(error);
      }
      if (result.resumedFrom > 0 || result.rangeRequests > 0) {
        deps.logger.log(
          {
            model: plan.destPath,
            file: file.path,
            resumedFrom: result.resumedFrom,
            rangeRequests: result.rangeRequests,
          },
          `Resumed ${file.path}`,
        );
      }
      this.downloaded += result.size;
      this.knownSizes.set(file.target, result.size);
      installed.push({
        target: file.target,
        path: file.path,
        repo: file.repo,
        revision: file.revision,
        size: result.size,
        sha256: result.sha256,
      });
    }
    return installed;
  }

  /** A file of this pull finished and verified by an earlier, interrupted pull (renamed from its `.part`). */
  private async finishedEarlier(target: string, file: PullFilePlan): Promise<InstalledModelFile | undefined> {
    const stat = await fs.lstat(target).catch(() => undefined);
    if (!stat?.isFile() || (file.size !== undefined && stat.size !== file.size)) {
      return undefined;
    }
    const sha256 = await sha256File(target);
    if (file.sha256 !== undefined && sha256 !== file.sha256) {
      await fs.rm(target, { force: true });
      return undefined;
    }
    if (file.sha256 === undefined && file.size === undefined) {
      return undefined; // nothing to check it against: fetch it again
    }
    return {
      target: file.target,
      path: file.path,
      repo: file.repo,
      revision: file.revision,
      size: stat.size,
      sha256,
    };
  }

  /** Whether this exact model (same files, sizes and hashes where the catalog gives them) is installed. */
  private async alreadyInstalled(): Promise<boolean> {
    const check = await this.deps.store.check(this.plan.backend, this.plan.variant);
    if (!check.installed) {
      return false;
    }
    const recorded = check.manifest.files;
    return (
      recorded.length === this.plan.files.length &&
      this.plan.files.every((file) =>
        recorded.some(
          (have) =>
            have.target === file.target &&
            have.path === file.path &&
            have.repo === file.repo &&
            have.revision === file.revision &&
            (file.size === undefined || have.size === file.size) &&
            (file.sha256 === undefined || have.sha256 === file.sha256),
        ),
      )
    );
  }

  private async checkFreeSpace(staging: string): Promise<void> {
    const total = this.plan.totalSize;
    if (total === undefined) {
      return;
    }
    const free = await this.deps.store.freeBytes();
    if (free === undefined) {
      return;
    }
    const needed = Math.max(0, total - (await this.deps.store.stagedBytes(staging)));
    if (free < needed + this.deps.options.freeSpaceMarginBytes) {
      throw new DownloadError(
        `Not enough disk space for ${this.plan.destPath}: it needs ${formatBytes(needed)} more and ` +
          `${formatBytes(free)} are free in the models directory`,
        'disk',
        false,
      );
    }
  }

  private progress(file: PullFilePlan, have: number): void {
    const downloaded = this.downloaded + have;
    const known = [...this.knownSizes.values()].reduce((sum, size) => sum + size, 0);
    const total = this.total ?? (known > 0 ? known : undefined);
    const now = performance.now();
    this.speed.sample(this.transferred, now);
    this.push({
      status: 'downloading',
      progress: percent(downloaded, total),
      file: file.path,
      downloaded,
      total,
    });
  }

  private push(event: Omit<PullEvent, 'speed'> & { speed?: string }): void {
    this.status = event.status;
    this.throttle.push({ ...event, speed: event.speed ?? formatSpeed(this.speed.rate()) });
  }

  private finish(event: Omit<PullEvent, 'speed'> & { speed?: string }): void {
    this.push(event);
    this.finished = true;
    for (const subscriber of this.subscribers) {
      subscriber.complete();
    }
    this.subscribers.clear();
  }

  private async fail(error: unknown): Promise<void> {
    const { plan, deps } = this;
    const cancelled = this.controller.signal.aborted;
    const keepParts =
      cancelled || (error instanceof DownloadError && error.resumable) || error instanceof NpmInstallError;
    if (!keepParts) {
      await deps.store.discardStaging(plan.backend, plan.variant).catch((cleanup: unknown) => {
        deps.logger.warn({ err: cleanup }, `Could not clean the staging folder of ${plan.destPath}`);
      });
    }
    const message = describePullError(cancelled ? this.controller.signal.reason : error);
    if (cancelled) {
      deps.logger.log({ model: plan.destPath }, message);
    } else if (isExpected(error)) {
      deps.logger.warn({ model: plan.destPath }, `Pull of ${plan.destPath} failed: ${message}`);
    } else {
      deps.logger.error({ err: error, model: plan.destPath }, `Pull of ${plan.destPath} failed`);
    }
    this.finish({
      status: 'error',
      progress: this.throttle.lastSent?.progress ?? 0,
      message,
      ...(this.status === 'downloading' ? { downloaded: this.downloaded, total: this.total } : {}),
    });
  }
}

function isExpected(error: unknown): boolean {
  return (
    error instanceof DownloadError || error instanceof NpmInstallError || error instanceof UnsafePathError
  );
}

/** The message of an `error` event: written for the client; internal details stay in the log. */
export function describePullError(error: unknown): string {
  if (error instanceof PullCancelledError || error instanceof DownloadError) {
    return error.message;
  }
  if (error instanceof NpmInstallError) {
    return `Installing the backend's packages failed: ${error.message}`;
  }
  if (error instanceof UnsafePathError) {
    return `Refused to write outside the models directory (${error.relativePath})`;
  }
  const disk = asDiskError(error);
  if (disk instanceof DownloadError) {
    return disk.message;
  }
  return 'The pull failed because of an internal error; see the worker log';
}

function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}
