import { compileThreadEntry, type CompiledThread } from '../../audio/decode-testing';
import { encodeWav, parseWav } from '../../audio/wav';
import { defaultEspeakOptions } from './espeak.backend';
import { EspeakEngineError, EspeakThreadPool } from './espeak-thread-pool';

/**
 * Runs the real engine in real worker threads. ts-jest compiles only what Jest loads, and a worker thread is
 * plain Node, so the thread entry and the modules it imports are transpiled here into a temporary tree with the
 * same layout (the built `dist/` does the same for production).
 */
const THREAD_ENTRY = 'backends/espeak/espeak.thread.ts';

/** Arrays posted by worker threads belong to the main realm, not Jest's: compare by tag, not instanceof. */
const isInt16Array = (value: unknown) => Object.prototype.toString.call(value) === '[object Int16Array]';

jest.setTimeout(30_000);

describe('EspeakThreadPool (real engine threads)', () => {
  let compiled: CompiledThread;
  let pool: EspeakThreadPool;
  const task = { voice: 'gmw/en-US', rate: 175, tempo: 1 };

  beforeAll(async () => {
    compiled = compileThreadEntry(THREAD_ENTRY);
    pool = new EspeakThreadPool({
      size: 2,
      entry: compiled.entry,
      packageUrl: defaultEspeakOptions().packageUrl,
    });
    const info = await pool.start();
    expect(info.sampleRate).toBe(22050);
    expect(info.voices.length).toBeGreaterThan(100);
    expect(info.variants).toContain('f3');
  });

  afterAll(async () => {
    await pool?.stop();
    compiled?.cleanup();
  });

  it('synthesises a sentence to int16 PCM', async () => {
    const pcm = await pool.run({ ...task, text: 'Hello world.' });
    expect(isInt16Array(pcm)).toBe(true);
    expect(pcm.length / 22050).toBeGreaterThan(0.5);
    expect(pool.heapBytes).toBeGreaterThan(1_000_000);
  });

  it('speaks faster at a higher rate and applies the extra tempo', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const normal = await pool.run({ ...task, text });
    const fast = await pool.run({ ...task, rate: 350, text });
    const faster = await pool.run({ ...task, rate: 350, tempo: 1.5, text });
    expect(fast.length).toBeLessThan(normal.length * 0.7);
    // Two runs of one text differ by a few milliseconds of pause: compare within 3%.
    expect(Math.abs(faster.length - fast.length / 1.5)).toBeLessThan(fast.length * 0.03);
  });

  it('runs requests in parallel and switches voices per task', async () => {
    const results = await Promise.all(
      ['gmw/en-US', 'gmw/de', 'roa/fr', 'gmw/en-US+f3'].map((voice) =>
        pool.run({ ...task, voice, text: 'Eins zwei drei.' }),
      ),
    );
    for (const pcm of results) {
      expect(pcm.length).toBeGreaterThan(1000);
    }
  });

  it('reports an unknown voice as an engine error', async () => {
    await expect(pool.run({ ...task, voice: 'no-such-voice', text: 'Hi.' })).rejects.toBeInstanceOf(
      EspeakEngineError,
    );
    await expect(pool.run({ ...task, text: 'Still working.' })).resolves.toHaveProperty(
      'BYTES_PER_ELEMENT',
      2,
    );
  });

  it('aborts running and queued tasks', async () => {
    const long = 'This is a long sentence that keeps going, and going, and going for a while. '.repeat(40);
    const controller = new AbortController();
    const running = [1, 2, 3, 4].map(() => pool.run({ ...task, text: long }, controller.signal));
    setTimeout(() => controller.abort(new Error('stop')), 5);
    const started = performance.now();
    const outcomes = await Promise.allSettled(running);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
    expect(pool.stats()).toEqual({ threads: 2, busy: 0, queued: 0 });
    await expect(pool.run({ ...task, text: 'Fine again.' })).resolves.toHaveProperty('BYTES_PER_ELEMENT', 2);
  });

  it('produces audio that encodes to a valid WAV', async () => {
    const wav = encodeWav(await pool.run({ ...task, text: 'Check.' }), 22050);
    expect(parseWav(wav)).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
  });

  it('replaces a thread that dies', async () => {
    const victim = new EspeakThreadPool({
      size: 1,
      entry: compiled.entry,
      packageUrl: defaultEspeakOptions().packageUrl,
    });
    try {
      await victim.start();
      // Reach into the pool to kill its thread the way a crash would.
      const threads = (victim as unknown as { threads: Set<{ worker: { terminate(): Promise<number> } }> })
        .threads;
      await [...threads][0].worker.terminate();
      expect(isInt16Array(await victim.run({ ...task, text: 'Back again.' }))).toBe(true);
    } finally {
      await victim.stop();
    }
    await expect(victim.run({ ...task, text: 'Stopped.' })).rejects.toBeInstanceOf(EspeakEngineError);
  });

  it('fails start-up cleanly when the engine cannot load', async () => {
    const broken = new EspeakThreadPool({
      size: 1,
      entry: compiled.entry,
      packageUrl: 'file:///nonexistent/espeak-ng.js',
    });
    await expect(broken.start()).rejects.toThrow(/failed to start/);
  });
});
