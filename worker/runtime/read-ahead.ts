/**
 * Maps `items` through `work` in order, yielding results as they complete in order, with at most `readAhead`
 * items being worked on beyond the one the consumer waits for. Lets a backend keep its engine busy while the
 * previous chunk is being written to the client, without racing to the end of a long text nobody may hear.
 *
 * When the consumer stops early (break, error, client gone) or `signal` aborts, the signal passed to pending
 * work aborts, so queued work is dropped and running work stops.
 */
export async function* mapWithReadAhead<T, R>(
  items: readonly T[],
  readAhead: number,
  work: (item: T, signal: AbortSignal) => Promise<R>,
  signal: AbortSignal,
): AsyncGenerator<R, void, undefined> {
  if (!Number.isInteger(readAhead) || readAhead < 0) {
    throw new RangeError('readAhead must be a non-negative integer');
  }
  signal.throwIfAborted();
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });

  const pending: Promise<R>[] = [];
  let next = 0;
  const fill = () => {
    while (pending.length <= readAhead && next < items.length) {
      const result = work(items[next++], controller.signal);
      result.catch(() => undefined); // observed when its turn comes; never an unhandled rejection meanwhile
      pending.push(result);
    }
  };

  try {
    fill();
    while (pending.length > 0) {
      const value = await pending.shift()!;
      fill();
      yield value;
    }
  } finally {
    signal.removeEventListener('abort', forward);
    if (pending.length > 0 || next < items.length) {
      controller.abort(new Error('the consumer stopped reading'));
    }
  }
}
