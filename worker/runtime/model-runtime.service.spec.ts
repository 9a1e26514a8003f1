import { Logger } from '@nestjs/common';

import { CONFIG_DEFAULTS, loadWorkerConfig } from '../config/worker-config';
import { ApiError } from '../common/api-error';
import { FakeTtsBackend } from '../testing/fake-tts-backend';
import { ModelRuntime } from './model-runtime.service';

function runtime(env: Record<string, string> = {}) {
  return new ModelRuntime(loadWorkerConfig(env, { hostname: 'test' }));
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ModelRuntime', () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('loads a model once, even for concurrent first requests', async () => {
    const backend = new FakeTtsBackend('fake', false, 4);
    backend.loadDelayMs = 20;
    const models = runtime();
    const leases = await Promise.all([1, 2, 3].map(() => models.acquire(backend, 'fake/a')));
    expect(backend.events).toEqual(['load fake/a']);
    expect(models.loadedModels()).toEqual([
      expect.objectContaining({ backend: 'fake', modelPath: 'fake/a', inFlight: 3, memoryBytes: 1000 }),
    ]);
    leases.forEach((lease) => lease.release());
    leases[0].release(); // idempotent
    expect(models.loadedModels()[0].inFlight).toBe(0);
  });

  it('evicts the least recently used idle model beyond the limit, never embedded ones', async () => {
    const backend = new FakeTtsBackend('fake', false, 1);
    const embedded = new FakeTtsBackend('espeak-like', true, 1);
    const models = runtime({ INFERENCE_MAX_LOADED_MODELS: '2' });
    const use = async (b: FakeTtsBackend, path: string) => (await models.acquire(b, path)).release();

    await use(embedded, 'espeak-like');
    await use(backend, 'fake/a');
    await new Promise((resolve) => setTimeout(resolve, 2));
    await use(backend, 'fake/b');
    await new Promise((resolve) => setTimeout(resolve, 2));
    await use(backend, 'fake/a'); // a is now more recent than b
    await use(backend, 'fake/c'); // evicts b
    await tick();
    expect(backend.events).toEqual(['load fake/a', 'load fake/b', 'unload fake/b', 'load fake/c']);
    expect(
      models
        .loadedModels()
        .map((model) => model.modelPath)
        .sort(),
    ).toEqual(['espeak-like', 'fake/a', 'fake/c']);
  });

  it('goes over the limit while every model is busy and trims once one is free', async () => {
    const backend = new FakeTtsBackend('fake', false, 1);
    const models = runtime({ INFERENCE_MAX_LOADED_MODELS: '1' });
    const a = await models.acquire(backend, 'fake/a');
    const b = await models.acquire(backend, 'fake/b');
    expect(models.loadedModels()).toHaveLength(2);
    a.release();
    await tick();
    expect(backend.events).toEqual(['load fake/a', 'load fake/b', 'unload fake/a']);
    b.release();
  });

  it('answers 503 when the queue of a model is full, and keeps other models free', async () => {
    const backend = new FakeTtsBackend('fake', false, 1);
    const models = runtime({ INFERENCE_QUEUE_LIMIT: '1' });
    const held = await models.acquire(backend, 'fake/a');
    const waiting = models.acquire(backend, 'fake/a');
    const refused = models.acquire(backend, 'fake/a');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '2' } });
    expect(models.queueStats('fake')).toEqual([
      { modelPath: 'fake/a', active: 1, waiting: 1, concurrency: 1, limit: 1 },
    ]);
    const other = await models.acquire(backend, 'fake/b');
    other.release();
    held.release();
    (await waiting).release();
  });

  it('frees the slot when loading fails, and retries the load next time', async () => {
    const backend = new FakeTtsBackend('fake', false, 1);
    backend.failLoad = new Error('corrupt weights');
    const models = runtime();
    await expect(models.acquire(backend, 'fake/a')).rejects.toThrow('corrupt weights');
    backend.failLoad = undefined;
    (await models.acquire(backend, 'fake/a')).release();
    expect(backend.events).toEqual(['load fake/a', 'load fake/a']);
  });

  it('unloads on request: now when idle, after the last request when busy', async () => {
    const backend = new FakeTtsBackend('fake', false, 2);
    const models = runtime();
    expect(await models.unload(backend, 'fake/a')).toBe('not_loaded');
    const lease = await models.acquire(backend, 'fake/a');
    expect(await models.unload(backend, 'fake/a')).toBe('scheduled');
    expect(backend.loaded.has('fake/a')).toBe(true);
    lease.release();
    await tick();
    expect(backend.loaded.has('fake/a')).toBe(false);
    (await models.acquire(backend, 'fake/a')).release();
    expect(await models.unload(backend, 'fake/a')).toBe('unloaded');
    expect(models.loadedModels()).toEqual([]);
  });

  it('unloads everything at shutdown', async () => {
    const backend = new FakeTtsBackend('fake', false, 1);
    const models = runtime();
    (await models.acquire(backend, 'fake/a')).release();
    (await models.acquire(backend, 'fake/b')).release();
    await models.onApplicationShutdown();
    expect(backend.loaded.size).toBe(0);
    expect(CONFIG_DEFAULTS.maxLoadedModels).toBe(2);
  });
});
