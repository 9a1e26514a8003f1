import { abortReason } from './abort';
import { mapWithReadAhead } from './read-ahead';

function deferredWork() {
  const started: number[] = [];
  const aborted: number[] = [];
  const resolvers = new Map<number, (value: string) => void>();
  const work = (item: number, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      let settled = false;
      started.push(item);
      resolvers.set(item, (value) => {
        settled = true;
        resolve(value);
      });
      signal.addEventListener('abort', () => {
        if (!settled) {
          aborted.push(item);
          reject(abortReason(signal));
        }
      });
    });
  return { started, aborted, resolve: (item: number) => resolvers.get(item)!(`r${item}`), work };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapWithReadAhead', () => {
  it('yields in order and keeps at most readAhead items beyond the awaited one in flight', async () => {
    const { started, resolve, work } = deferredWork();
    const iterator = mapWithReadAhead([1, 2, 3, 4], 1, work, new AbortController().signal);
    const first = iterator.next();
    await tick();
    expect(started).toEqual([1, 2]);
    resolve(2); // out of order: still waits for 1
    await tick();
    resolve(1);
    expect(await first).toEqual({ value: 'r1', done: false });
    expect(started).toEqual([1, 2, 3]);
    expect(await iterator.next()).toEqual({ value: 'r2', done: false });
    resolve(3);
    expect(await iterator.next()).toEqual({ value: 'r3', done: false });
    resolve(4);
    expect(await iterator.next()).toEqual({ value: 'r4', done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('aborts pending work when the consumer stops early', async () => {
    const { aborted, resolve, work } = deferredWork();
    const iterator = mapWithReadAhead([1, 2, 3], 1, work, new AbortController().signal);
    const first = iterator.next();
    await tick();
    resolve(1);
    await first;
    await iterator.return();
    expect(aborted).toEqual([2, 3]);
  });

  it('rejects with the reason when the signal aborts', async () => {
    const { aborted, work } = deferredWork();
    const controller = new AbortController();
    const iterator = mapWithReadAhead([1, 2], 0, work, controller.signal);
    const first = iterator.next();
    await tick();
    controller.abort(new Error('client gone'));
    await expect(first).rejects.toThrow('client gone');
    expect(aborted).toEqual([1]);
  });

  it('propagates a failure in order, without unhandled rejections from read-ahead', async () => {
    const iterator = mapWithReadAhead(
      [1, 2],
      1,
      (item) => (item === 2 ? Promise.reject(new Error('second failed')) : Promise.resolve(item)),
      new AbortController().signal,
    );
    expect(await iterator.next()).toEqual({ value: 1, done: false });
    await expect(iterator.next()).rejects.toThrow('second failed');
  });

  it('handles no items and rejects bad arguments', async () => {
    const empty = mapWithReadAhead([], 2, () => Promise.resolve(1), new AbortController().signal);
    expect(await empty.next()).toEqual({ value: undefined, done: true });
    await expect(
      mapWithReadAhead([1], -1, () => Promise.resolve(1), new AbortController().signal).next(),
    ).rejects.toThrow(RangeError);
  });
});
