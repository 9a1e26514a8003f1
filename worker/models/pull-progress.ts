import type { PullEvent } from '../contract/worker-api';

/** `12.3 MB/s` (decimal units, as download tools show them). */
export function formatSpeed(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) {
    return '0 B/s';
  }
  const units = ['B/s', 'kB/s', 'MB/s', 'GB/s'];
  let value = bytesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} ${units[unit]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Integer percent of `done` over `total`, 0–99 while not complete (100 belongs to the `complete` event). */
export function percent(done: number, total: number | undefined): number {
  if (!total || total <= 0) {
    return 0;
  }
  return Math.max(0, Math.min(99, Math.floor((done / total) * 100)));
}

/** Download speed over a sliding window of recent samples, so the figure follows the transfer without jitter. */
export class SpeedMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 3_000) {}

  /** Records that `bytes` bytes (a running total) had arrived at `at` (ms). */
  sample(bytes: number, at: number): void {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[1].at >= this.windowMs) {
      this.samples.shift();
    }
  }

  /** Bytes per second over the window. */
  rate(): number {
    if (this.samples.length < 2) {
      return 0;
    }
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const ms = last.at - first.at;
    return ms > 0 ? ((last.bytes - first.bytes) * 1000) / ms : 0;
  }

  reset(): void {
    this.samples.length = 0;
  }
}

/**
 * Decides which pull events reach the clients: the first, every status change and the final one always; a
 * `downloading` event only when its percent is higher than the last one sent and at least `minIntervalMs`
 * after it (at most one per percent, ten per second). An event held back for the interval alone is sent when
 * the interval ends (unless a newer one replaced it), so the last percent reached is never lost.
 */
export class PullEventThrottle {
  private last: PullEvent | undefined;
  private lastAt = 0;
  private pending: PullEvent | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (event: PullEvent) => void,
    private readonly minIntervalMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(event: PullEvent): void {
    const last = this.last;
    const final = event.status === 'complete' || event.status === 'error';
    if (!last || final || event.status !== last.status) {
      this.send(event);
      return;
    }
    if (event.progress <= last.progress) {
      return;
    }
    const wait = this.lastAt + this.minIntervalMs - this.now();
    if (wait <= 0) {
      this.send(event);
      return;
    }
    this.pending = event;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const pending = this.pending;
      if (pending) {
        this.send(pending);
      }
    }, wait);
  }

  /** The last event sent (what a late subscriber is shown first). */
  get lastSent(): PullEvent | undefined {
    return this.last;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private send(event: PullEvent): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    this.last = event;
    this.lastAt = this.now();
    this.emit(event);
  }
}
