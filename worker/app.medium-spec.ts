import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { request as httpRequest } from 'node:http';

import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { parseWav } from './audio/wav';
import { TTS_BACKENDS } from './backends/backend.interface';
import { loadWorkerConfig } from './config/worker-config';
import { FakeTtsBackend } from './testing/fake-tts-backend';

/**
 * The worker over real HTTP, in process, with fake engines (the real espeak engine is covered by
 * espeak-thread-pool.spec.ts and, built, by worker/scripts/smoke.sh and the e2e tier).
 */
async function startWorker(env: Record<string, string>, backends: FakeTtsBackend[]) {
  const config = loadWorkerConfig({ LOG_LEVEL: 'silent', ...env }, { hostname: 'test' });
  const appInfo = { version: '9.9.9' };
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, appInfo)] })
    .overrideProvider(TTS_BACKENDS)
    .useValue(backends)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app, appInfo);
  await app.listen(0, '127.0.0.1');
  return { app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker HTTP API', () => {
  let app: NestExpressApplication;
  let base: string;
  let embedded: FakeTtsBackend;
  let model: FakeTtsBackend;

  beforeAll(async () => {
    embedded = new FakeTtsBackend('fakeembedded', true, 4);
    model = new FakeTtsBackend('fakemodel', false, 1);
    ({ app, base } = await startWorker({ INFERENCE_MAX_TEXT_LENGTH: '200', INFERENCE_QUEUE_LIMIT: '1' }, [
      embedded,
      model,
    ]));
  });

  afterAll(() => app.close());

  beforeEach(() => {
    for (const backend of [embedded, model]) {
      backend.sentenceDelayMs = 0;
      backend.failAtSentence = undefined;
      backend.failLoad = undefined;
      backend.sentencesProduced = 0;
    }
  });

  describe('GET /health', () => {
    it('reports the device, version and loaded models', async () => {
      const response = await fetch(`${base}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'ok',
        device: 'cpu',
        requestedDevice: 'cpu',
        loadedModels: expect.any(Array),
        version: '9.9.9',
        apiVersion: '1',
        registration: { status: 'disabled', attempts: 0 },
      });
    });

    it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
      const kept = await fetch(`${base}/health`, { headers: { 'X-Request-Id': 'abc-123' } });
      expect(kept.headers.get('x-request-id')).toBe('abc-123');
      const replaced = await fetch(`${base}/health`, { headers: { 'X-Request-Id': 'bad id\u00e9' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('backends', () => {
    it('lists the registered backends', async () => {
      const response = await fetch(`${base}/backends`);
      expect(response.status).toBe(200);
      const backends = (await response.json()) as { name: string }[];
      expect(backends.map((backend) => backend.name)).toEqual(['fakeembedded', 'fakemodel']);
      expect(backends[0]).toEqual({
        name: 'fakeembedded',
        displayName: 'Fake fakeembedded',
        capabilities: { preset: true, cloning: false, transcription: false, streaming: true },
        dependenciesInstalled: true,
        loadedModels: expect.any(Array),
      });
    });

    it('reports the status of one backend, 404 for an unknown one', async () => {
      const status = await fetch(`${base}/backends/fakemodel/status`);
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({
        name: 'fakemodel',
        embedded: false,
        dependencies: { installed: true, packages: [] },
        queues: expect.any(Array),
      });
      const missing = await fetch(`${base}/backends/nope/status`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({
        status: 404,
        message: 'Unknown backend "nope". Available backends: fakeembedded, fakemodel.',
        data: {},
      });
    });

    it('lists the voices of embedded engines only', async () => {
      const voices = await fetch(`${base}/backends/fakeembedded/voices`);
      expect(await voices.json()).toEqual([{ id: 'a', name: 'Voice A', language: 'en' }]);
      expect((await fetch(`${base}/backends/fakemodel/voices`)).status).toBe(404);
    });
  });

  describe('POST /generate', () => {
    it('returns one WAV of every sentence with its length', async () => {
      const response = await fetch(
        `${base}/generate`,
        json({ backend: 'fakeembedded', text: 'One. Two two.' }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      const wav = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get('content-length')).toBe(String(wav.length));
      expect(parseWav(wav)).toMatchObject({
        sampleRate: 16_000,
        channels: 1,
        bitsPerSample: 16,
        frames: (4 + 8) * 10,
      });
      expect(wav.readInt16LE(44)).toBe(1);
      expect(wav.readInt16LE(wav.length - 2)).toBe(2);
    });

    it('loads the requested model and accepts every contract field', async () => {
      const response = await fetch(
        `${base}/generate`,
        json({
          backend: 'fakemodel',
          text: 'Hello.',
          voice_path: null,
          speed: 1.5,
          language: 'en-US',
          reference_audio: null,
          reference_text: ['hi'],
          model_path: 'fakemodel/v1',
        }),
      );
      expect(response.status).toBe(200);
      expect(model.events).toContain('load fakemodel/v1');
    });

    it.each<[string, object, number, Record<string, string>]>([
      ['a missing text', { backend: 'fakeembedded' }, 400, { text: 'validation_required' }],
      ['a blank text', { backend: 'fakeembedded', text: '  ' }, 400, { text: 'validation_match_invalid' }],
      [
        'a text over INFERENCE_MAX_TEXT_LENGTH',
        { backend: 'fakeembedded', text: 'a'.repeat(201) },
        400,
        { text: 'validation_length_out_of_range' },
      ],
      ['nothing to speak', { backend: 'fakeembedded', text: '...' }, 400, { text: 'nothing_to_speak' }],
      [
        'an unknown field',
        { backend: 'fakeembedded', text: 'Hi', volume: 3 },
        400,
        { volume: 'validation_unknown_field' },
      ],
      [
        'a speed too high',
        { backend: 'fakeembedded', text: 'Hi', speed: 4.5 },
        400,
        { speed: 'validation_max_less_equal_than_required' },
      ],
      [
        'a speed too low',
        { backend: 'fakeembedded', text: 'Hi', speed: 0.1 },
        400,
        { speed: 'validation_min_greater_equal_than_required' },
      ],
      [
        'a speed as a string',
        { backend: 'fakeembedded', text: 'Hi', speed: '1' },
        400,
        { speed: 'validation_invalid_type' },
      ],
      [
        'a bad language',
        { backend: 'fakeembedded', text: 'Hi', language: 'english please' },
        400,
        { language: 'validation_match_invalid' },
      ],
      ['an unknown backend', { backend: 'nope', text: 'Hi' }, 400, { backend: 'unknown_backend' }],
      [
        'an unsafe model path',
        { backend: 'fakemodel', text: 'Hi', model_path: '../x' },
        400,
        { model_path: 'validation_is_safe_relative_path' },
      ],
      [
        'a missing model path',
        { backend: 'fakemodel', text: 'Hi' },
        400,
        { model_path: 'validation_required' },
      ],
      [
        'an unknown voice',
        { backend: 'fakeembedded', text: 'Hi', voice_path: 'unknown' },
        400,
        { voice_path: 'unknown_voice' },
      ],
    ])('rejects %s', async (_name, body, status, codes) => {
      const response = await fetch(`${base}/generate`, json(body));
      expect(response.status).toBe(status);
      const error = (await response.json()) as {
        status: number;
        message: string;
        data: Record<string, { code: string }>;
      };
      expect(error.status).toBe(status);
      expect(typeof error.message).toBe('string');
      expect(
        Object.fromEntries(Object.entries(error.data).map(([field, problem]) => [field, problem.code])),
      ).toEqual(codes);
    });

    it('rejects malformed JSON in the error shape', async () => {
      const response = await fetch(`${base}/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{bad',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: 400, data: {} });
    });

    it('hides internal errors', async () => {
      model.failLoad = new Error('secret /path/to/weights is corrupt');
      const response = await fetch(
        `${base}/generate`,
        json({ backend: 'fakemodel', text: 'Hi', model_path: 'fakemodel/broken' }),
      );
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('secret');
      expect(JSON.parse(text)).toEqual({
        status: 500,
        message: 'Something went wrong while processing your request.',
        data: {},
      });
    });

    it('answers 503 with Retry-After when the model queue is full', async () => {
      model.sentenceDelayMs = 150;
      const body = json({ backend: 'fakemodel', text: 'Slow one.', model_path: 'fakemodel/v1' });
      const first = fetch(`${base}/generate`, body); // runs (concurrency 1)
      await tick(30);
      const second = fetch(`${base}/generate`, body); // waits (limit 1)
      await tick(30);
      const third = await fetch(`${base}/generate`, body);
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('2');
      expect(await third.json()).toMatchObject({ status: 503, data: {} });
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    });
  });

  describe('POST /generate/stream', () => {
    it('streams raw PCM sentence by sentence, the first before the last is made', async () => {
      embedded.sentenceDelayMs = 120;
      const started = performance.now();
      const response = await fetch(
        `${base}/generate/stream`,
        json({ backend: 'fakeembedded', text: 'One. Two. Three.' }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/pcm');
      expect(response.headers.get('x-sample-rate')).toBe('16000');
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const arrivals: number[] = [];
      let bytes = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        arrivals.push(performance.now() - started);
        bytes += chunk.length;
      }
      expect(bytes).toBe((4 + 4 + 6) * 10 * 2);
      expect(arrivals[0]).toBeLessThan(arrivals[arrivals.length - 1] - 150);
    });

    it('stops synthesising when the client disconnects', async () => {
      embedded.sentenceDelayMs = 50;
      const text = Array.from({ length: 20 }, (_, i) => `Sentence ${i}.`).join(' ');
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(
          `${base}/generate/stream`,
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          (response) => {
            response.once('data', () => {
              request.destroy();
              resolve();
            });
          },
        );
        request.on('error', () => undefined);
        request.end(JSON.stringify({ backend: 'fakeembedded', text }));
        setTimeout(() => reject(new Error('no audio arrived')), 2000).unref();
      });
      await tick(300);
      expect(embedded.sentencesProduced).toBeLessThan(5);
      const status = (await (await fetch(`${base}/backends/fakeembedded/status`)).json()) as {
        queues: unknown[];
        loadedModels: { inFlight: number }[];
      };
      expect(status.queues).toEqual([]);
      expect(status.loadedModels[0].inFlight).toBe(0);
    });

    it('answers errors found before the first chunk as JSON', async () => {
      const response = await fetch(
        `${base}/generate/stream`,
        json({ backend: 'fakeembedded', text: 'Hi', voice_path: 'unknown' }),
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
    });

    it('cuts the stream when the engine fails after audio was sent', async () => {
      embedded.failAtSentence = 1;
      const response = await fetch(
        `${base}/generate/stream`,
        json({ backend: 'fakeembedded', text: 'One. Two. Three.' }),
      );
      expect(response.status).toBe(200);
      await expect(response.arrayBuffer()).rejects.toThrow();
    });
  });

  describe('OpenAPI', () => {
    it('serves the document with method names as operation ids, and the UI', async () => {
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const operations = Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).map((op) => op.operationId),
      );
      expect(operations.sort()).toEqual(
        [
          'generate',
          'generateStream',
          'getBackendStatus',
          'getHealth',
          'listBackendVoices',
          'listBackends',
          // worker/models
          'pullModel',
          'listModels',
          'getModel',
          'deleteModel',
          'unloadModel',
          // worker/transcribe
          'transcribe',
        ].sort(),
      );
      expect((await fetch(`${base}/docs`)).status).toBe(200);
    });
  });
});

describe('worker HTTP API with INFERENCE_AUTH_TOKEN', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await startWorker({ INFERENCE_AUTH_TOKEN: 'tok-123' }, [
      new FakeTtsBackend('fakeembedded', true),
    ]));
  });

  afterAll(() => app.close());

  it.each([
    ['GET', '/backends'],
    ['GET', '/backends/fakeembedded/status'],
    ['POST', '/generate'],
    ['POST', '/generate/stream'],
    ['GET', '/openapi.json'],
    ['GET', '/docs'],
  ])('requires the token for %s %s', async (method, path) => {
    const anonymous = await fetch(`${base}${path}`, { method });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      status: 401,
      message: 'The request requires a valid bearer token.',
      data: {},
    });
    const wrong = await fetch(`${base}${path}`, { method, headers: { Authorization: 'Bearer tok-124' } });
    expect(wrong.status).toBe(401);
  });

  it('accepts the token and leaves /health open', async () => {
    expect((await fetch(`${base}/backends`, { headers: { Authorization: 'Bearer tok-123' } })).status).toBe(
      200,
    );
    expect(
      (
        await fetch(
          `${base}/generate`,
          json({ backend: 'fakeembedded', text: 'Hi.' }, { Authorization: 'Bearer tok-123' }),
        )
      ).status,
    ).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
