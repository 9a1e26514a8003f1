import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Logger } from '@nestjs/common';

import { compileThreadEntry, type CompiledThread } from '../../audio/decode-testing';
import type { WorkerConfig } from '../../config/worker-config';
import { DeviceService } from '../../runtime/device.service';
import type { SynthesisRequest } from '../backend.interface';
import { defaultPiperOptions, PiperBackend } from './piper.backend';
import expected from './testdata/expected-ids.json';

/**
 * The real `en_US-joe-medium` voice on the real engines: espeak-ng in its thread for phonemes, ONNX Runtime in
 * the model thread. ts-jest compiles only what Jest loads and worker threads are plain Node, so the thread
 * entries and what they import are transpiled into a temporary tree with the same layout.
 */
const WORKER_ROOT = join(__dirname, '..', '..');
const FIXTURE = join(WORKER_ROOT, '..', 'test', '.fixtures', 'piper');
const VOICE = 'en_US-joe-medium';
const MODEL_PATH = `piper/${VOICE}`;

function request(sentences: string[], extra: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return {
    modelPath: MODEL_PATH,
    sentences,
    voice: null,
    language: null,
    speed: 1,
    referenceAudio: [],
    referenceText: [],
    ...extra,
  };
}

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const all: Int16Array[] = [];
  for await (const chunk of chunks) {
    all.push(chunk);
  }
  return all;
}

const samples = (chunks: Int16Array[]) => chunks.reduce((sum, chunk) => sum + chunk.length, 0);

function rms(chunks: Int16Array[]): number {
  let sum = 0;
  for (const chunk of chunks) {
    for (const sample of chunk) {
      sum += sample * sample;
    }
  }
  return Math.sqrt(sum / Math.max(1, samples(chunks)));
}

jest.setTimeout(120_000);

describe('PiperBackend (real en_US-joe-medium voice)', () => {
  let dir: string;
  let threads: CompiledThread[] = [];
  let backend: PiperBackend;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dir = mkdtempSync(join(tmpdir(), 'chorus-piper-'));
    const voiceDir = join(dir, 'models', 'piper', VOICE);
    mkdirSync(voiceDir, { recursive: true });
    for (const file of [`${VOICE}.onnx`, `${VOICE}.onnx.json`]) {
      copyFileSync(join(FIXTURE, file), join(voiceDir, file));
    }
    threads = [
      compileThreadEntry('backends/piper/piper.thread.ts'),
      compileThreadEntry('backends/espeak/espeak.thread.ts'),
    ];
    const [piperThread, espeakThread] = threads;
    const defaults = defaultPiperOptions();
    backend = new PiperBackend(
      { inference: { modelsPath: join(dir, 'models') } } as WorkerConfig,
      new DeviceService('cpu', false),
      {
        ...defaults,
        intraOpNumThreads: 2,
        threadEntry: piperThread.entry,
        phonemizer: {
          ...defaults.phonemizer,
          threadEntry: espeakThread.entry,
        },
      },
    );
    expect(backend.resolveModelPath({ model_path: MODEL_PATH })).toBe(MODEL_PATH);
    await backend.load(MODEL_PATH);
  });

  afterAll(async () => {
    await backend?.onModuleDestroy();
    rmSync(dir, { recursive: true, force: true });
    threads.forEach((thread) => thread.cleanup());
  });

  it('feeds the model the phoneme ids piper-tts feeds it', async () => {
    const mismatches: string[] = [];
    for (const testCase of expected.cases) {
      const ids = (await backend.inputIds(MODEL_PATH, testCase.text)).map((sentence) => sentence.join(' '));
      if (JSON.stringify(ids) !== JSON.stringify(testCase.ids)) {
        mismatches.push(testCase.text);
      }
    }
    expect(expected.cases).toHaveLength(50);
    expect(mismatches).toEqual([]);
  });

  it('speaks plausible, audible audio at the voice rate, one chunk per sentence', async () => {
    const sentences = [
      'The quick brown fox jumps over the lazy dog.',
      'Dr. Smith paid $3.50 on Jan. 5th, 2021!',
      'Is it raining today?',
    ];
    const stream = await backend.synthesize(request(sentences), new AbortController().signal);
    expect(stream.sampleRate).toBe(22050);
    const chunks = await collect(stream.chunks);
    expect(chunks).toHaveLength(3);
    const seconds = samples(chunks) / 22050;
    const characters = sentences.join(' ').length;
    expect(seconds / characters).toBeGreaterThan(0.04);
    expect(seconds / characters).toBeLessThan(0.12);
    expect(rms(chunks)).toBeGreaterThan(1000); // normalised speech, not silence
    expect(backend.memoryBytes(MODEL_PATH)).toBeGreaterThan(63_000_000);
  });

  it('speaks faster at speed 2', async () => {
    const sentence = ['She sells sea shells by the sea shore, every single morning.'];
    const normal = samples(
      await collect((await backend.synthesize(request(sentence), new AbortController().signal)).chunks),
    );
    const fast = samples(
      await collect(
        (await backend.synthesize(request(sentence, { speed: 2 }), new AbortController().signal)).chunks,
      ),
    );
    expect(fast / normal).toBeGreaterThan(0.35);
    expect(fast / normal).toBeLessThan(0.7);
  });

  it('keeps the event loop free while it synthesises', async () => {
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    try {
      const text = [
        'A fairly long sentence, so that the model has some real work to do for a while, and then some more.',
      ];
      await collect((await backend.synthesize(request(text), new AbortController().signal)).chunks);
    } finally {
      clearInterval(timer);
    }
    expect(maxGap).toBeLessThan(100);
  });

  it('stops early when the request aborts', async () => {
    const sentences = Array.from(
      { length: 12 },
      (_, i) => `This is sentence number ${i + 1} of a long text.`,
    );
    const controller = new AbortController();
    const stream = await backend.synthesize(request(sentences), controller.signal);
    const received: Int16Array[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream.chunks) {
          received.push(chunk);
          controller.abort(new Error('client gone'));
        }
      })(),
    ).rejects.toThrow('client gone');
    expect(received).toHaveLength(1);
    // The model is not left working through the other eleven sentences: a new request is served at once.
    const started = performance.now();
    const next = await collect(
      (await backend.synthesize(request(['Still working.']), new AbortController().signal)).chunks,
    );
    expect(next).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('refuses unknown languages before any audio and ignores voices on a single-speaker voice', async () => {
    await expect(
      backend.synthesize(request(['Hallo.'], { language: 'de' }), new AbortController().signal),
    ).rejects.toMatchObject({ status: 400 });
    const stream = await backend.synthesize(
      request(['Hello.'], { voice: `${MODEL_PATH}/joe`, language: 'en-US' }),
      new AbortController().signal,
    );
    expect(await collect(stream.chunks)).toHaveLength(1);
  });

  it('falls back to CPU, and says why, when CUDA cannot be used', async () => {
    // A driver "present" but no CUDA provider libraries for ONNX Runtime (this machine, or a CPU-only install).
    const device = new DeviceService('cuda', true);
    const options = (backend as unknown as { options: ReturnType<typeof defaultPiperOptions> }).options;
    const gpu = new PiperBackend(
      { inference: { modelsPath: join(dir, 'models') } } as WorkerConfig,
      device,
      options,
    );
    try {
      await gpu.load(MODEL_PATH);
      expect(device.state()).toMatchObject({ requested: 'cuda', effective: 'cpu' });
      expect(device.state().note).toMatch(/CUDA/);
      const chunks = await collect(
        (await gpu.synthesize(request(['On the CPU.']), new AbortController().signal)).chunks,
      );
      expect(samples(chunks)).toBeGreaterThan(10_000);
    } finally {
      await gpu.onModuleDestroy();
    }
  });

  it('frees the model on unload and loads it again', async () => {
    await backend.unload(MODEL_PATH);
    expect(backend.memoryBytes(MODEL_PATH)).toBe(0);
    expect(backend.voiceConfig(MODEL_PATH)).toBeUndefined();
    await expect(backend.synthesize(request(['Gone.']), new AbortController().signal)).rejects.toThrow(
      'is not loaded',
    );
    await backend.unload(MODEL_PATH); // idempotent
    await backend.load(MODEL_PATH);
    const chunks = await collect(
      (await backend.synthesize(request(['Back again.']), new AbortController().signal)).chunks,
    );
    expect(samples(chunks)).toBeGreaterThan(10_000);
  });
});
