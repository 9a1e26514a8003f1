import { KeyedQueue, QueueFullError } from './keyed-queue';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('grants up to `concurrency` slots at once and queues the rest in order', async () => {
    const queue = new KeyedQueue(10);
    const a = await queue.acquire('m', 2);
    const b = await queue.acquire('m', 2);
    const order: string[] = [];
    const c = queue.acquire('m', 2).then((slot) => (order.push('c'), slot));
    const d = queue.acquire('m', 2).then((slot) => (order.push('d'), slot));
    await flush();
    expect(order).toEqual([]);
    expect(queue.statsOf('m')).toEqual({ key: 'm', active: 2, waiting: 2, concurrency: 2, limit: 10 });

    a.release();
    a.release(); // idempotent: frees one slot only
    await flush();
    expect(order).toEqual(['c']);
    b.release();
    await flush();
    expect(order).toEqual(['c', 'd']);
    (await c).release();
    (await d).release();
    expect(queue.stats()).toEqual([]);
  });

  it('keeps keys independent', async () => {
    const queue = new KeyedQueue(0);
    const a = await queue.acquire('a', 1);
    await expect(queue.acquire('b', 1)).resolves.toBeDefined();
    await expect(queue.acquire('a', 1)).rejects.toBeInstanceOf(QueueFullError);
    a.release();
  });

  it('refuses callers beyond the waiting limit', async () => {
    const queue = new KeyedQueue(1);
    const held = await queue.acquire('m', 1);
    const waiting = queue.acquire('m', 1);
    await expect(queue.acquire('m', 1)).rejects.toThrow(new QueueFullError('m', 1));
    held.release();
    (await waiting).release();
  });

  it('drops a waiter whose signal aborts, and rejects already-aborted callers', async () => {
    const queue = new KeyedQueue(5);
    const held = await queue.acquire('m', 1);
    const controller = new AbortController();
    const waiting = queue.acquire('m', 1, controller.signal);
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(queue.statsOf('m')?.waiting).toBe(0);
    await expect(queue.acquire('m', 1, controller.signal)).rejects.toThrow('client went away');
    held.release();
    expect(queue.stats()).toEqual([]);
  });

  it('runs a task while holding a slot and releases it on failure', async () => {
    const queue = new KeyedQueue(1);
    await expect(queue.run('m', 1, () => Promise.resolve(42))).resolves.toBe(42);
    await expect(queue.run('m', 1, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(queue.stats()).toEqual([]);
  });

  it('validates its arguments', async () => {
    expect(() => new KeyedQueue(-1)).toThrow(RangeError);
    await expect(new KeyedQueue(1).acquire('m', 0)).rejects.toThrow(RangeError);
  });
});
