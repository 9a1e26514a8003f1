import { abortReason } from './abort';

/**
 * Concurrency-limited queues, one per key (a model): at most `concurrency` holders at once, at most `limit`
 * waiting; one more is refused at once with {@link QueueFullError} so the caller can answer 503 instead of
 * letting requests pile up behind a slow model.
 */

export class QueueFullError extends Error {
  constructor(
    readonly key: string,
    readonly limit: number,
  ) {
    super(`The queue of ${key} is full (${limit} waiting)`);
    this.name = 'QueueFullError';
  }
}

/** A held slot. `release()` is idempotent. */
export interface QueueSlot {
  release(): void;
}

export interface QueueStats {
  key: string;
  active: number;
  waiting: number;
  concurrency: number;
  limit: number;
}

interface Waiter {
  grant: (slot: QueueSlot) => void;
  fail: (reason: unknown) => void;
}

interface KeyState {
  active: number;
  concurrency: number;
  waiters: Waiter[];
}

export class KeyedQueue {
  private readonly keys = new Map<string, KeyState>();

  /** @param limit most callers that may wait per key (0: no waiting, only free slots are granted). */
  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 0) {
      throw new RangeError('queue limit must be a non-negative integer');
    }
  }

  /**
   * Resolves with a slot once one of `concurrency` is free for `key`, in arrival order.
   * Rejects with {@link QueueFullError} when `limit` callers already wait, or with the signal's reason when it
   * aborts while waiting (the caller then holds nothing).
   */
  acquire(key: string, concurrency: number, signal?: AbortSignal): Promise<QueueSlot> {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      return Promise.reject(new RangeError('concurrency must be a positive integer'));
    }
    if (signal?.aborted) {
      return Promise.reject(abortReason(signal));
    }
    const state = this.stateOf(key, concurrency);
    if (state.active < state.concurrency && state.waiters.length === 0) {
      state.active++;
      return Promise.resolve(this.slot(key, state));
    }
    if (state.waiters.length >= this.limit) {
      this.forgetIfIdle(key, state);
      return Promise.reject(new QueueFullError(key, this.limit));
    }
    return new Promise<QueueSlot>((resolve, reject) => {
      const onAbort = () => {
        const index = state.waiters.indexOf(waiter);
        if (index >= 0) {
          state.waiters.splice(index, 1);
          this.forgetIfIdle(key, state);
        }
        reject(abortReason(signal!));
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        fail: reject,
      };
      state.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `task` while holding a slot of `key`. */
  async run<T>(key: string, concurrency: number, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = await this.acquire(key, concurrency, signal);
    try {
      return await task();
    } finally {
      slot.release();
    }
  }

  stats(): QueueStats[] {
    return [...this.keys].map(([key, state]) => ({
      key,
      active: state.active,
      waiting: state.waiters.length,
      concurrency: state.concurrency,
      limit: this.limit,
    }));
  }

  statsOf(key: string): QueueStats | undefined {
    return this.stats().find((stats) => stats.key === key);
  }

  private stateOf(key: string, concurrency: number): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { active: 0, concurrency, waiters: [] };
      this.keys.set(key, state);
    }
    // A backend may change its mind (e.g. after learning its thread count): apply it to new grants.
    state.concurrency = concurrency;
    return state;
  }

  private slot(key: string, state: KeyState): QueueSlot {
    let released = false;
    return {
      release: () => {
        if (released) {
          return;
        }
        released = true;
        state.active--;
        this.dispatch(key, state);
      },
    };
  }

  private dispatch(key: string, state: KeyState): void {
    while (state.active < state.concurrency && state.waiters.length > 0) {
      const waiter = state.waiters.shift()!;
      state.active++;
      waiter.grant(this.slot(key, state));
    }
    this.forgetIfIdle(key, state);
  }

  private forgetIfIdle(key: string, state: KeyState): void {
    if (state.active === 0 && state.waiters.length === 0 && this.keys.get(key) === state) {
      this.keys.delete(key);
    }
  }
}
