import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';

import { AppModule } from '../app.module';
import { configureApp } from '../app.setup';
import { floatToInt16 } from '../audio/pcm';
import { decoderPackageUrls, type AudioDecodePoolOptions } from '../audio/decode-pool';
import { compileThreadEntry, type CompiledThread } from '../audio/decode-testing';
import { encodeWav } from '../audio/wav';
import { TTS_BACKENDS, type TtsBackend } from '../backends/backend.interface';
import { PocketsphinxBackend } from '../backends/pocketsphinx/pocketsphinx.backend';
import { fakeTransformers, type FakeTransformers } from '../backends/whisper/fake-transformers';
import { WhisperBackend } from '../backends/whisper/whisper.backend';
import { loadWorkerConfig } from '../config/worker-config';
import { FakeTtsBackend } from '../testing/fake-tts-backend';
import { AUDIO_DECODE_OPTIONS } from './transcribe.module';
import { wordErrorRate } from './word-error-rate';

/**
 * `POST /transcribe` over real HTTP against the in-process worker: real multipart parsing, real decode threads,
 * the real PocketSphinx recogniser, and Whisper's backend with a synthetic transformers.js (no weights here).
 */
jest.setTimeout(120_000);

const AUDIO_TESTDATA = join(__dirname, '..', 'audio', 'testdata');
const GOFORWARD_RAW = '/usr/share/pocketsphinx/test/data/goforward.raw';

interface ErrorBody {
  status: number;
  message: string;
  data: Record<string, { code: string; message: string }>;
}

function form(fields: Record<string, string | { name: string; bytes: Uint8Array }>): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      body.append(key, value);
    } else {
      body.append(key, new Blob([value.bytes]), value.name);
    }
  }
  return body;
}

describe('POST /transcribe', () => {
  let compiled: CompiledThread;
  let dir: string;
  let modelsDir: string;
  let whisperFake: FakeTransformers;
  let goforwardWav: Buffer;
  const apps: NestExpressApplication[] = [];

  async function startWorker(
    env: Record<string, string>,
    backends: (config: ReturnType<typeof loadWorkerConfig>) => TtsBackend[],
  ) {
    const config = loadWorkerConfig(
      { LOG_LEVEL: 'silent', INFERENCE_MODELS_PATH: modelsDir, PATH: process.env.PATH, ...env },
      { hostname: 'test' },
    );
    const decodeOptions: AudioDecodePoolOptions = {
      entry: compiled.entry,
      packages: decoderPackageUrls(),
      concurrency: 2,
      queueLimit: 8,
      timeoutMs: 60_000,
    };
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot(config, { version: '9.9.9' })],
    })
      .overrideProvider(TTS_BACKENDS)
      .useValue(backends(config))
      .overrideProvider(AUDIO_DECODE_OPTIONS)
      .useValue(decodeOptions)
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bufferLogs: true,
      bodyParser: false,
    });
    configureApp(app, { version: '9.9.9' });
    await app.listen(0, '127.0.0.1');
    apps.push(app);
    return (await app.getUrl()).replace('[::1]', '127.0.0.1');
  }

  const pocketsphinx = (config: ReturnType<typeof loadWorkerConfig>) =>
    new PocketsphinxBackend({ ...config.transcription.pocketsphinx, concurrency: 2 });
  const whisper = (config: ReturnType<typeof loadWorkerConfig>) =>
    new WhisperBackend({
      modelsPath: config.inference.modelsPath,
      hubEndpoint: config.hub.endpoint,
      device: () => 'cpu',
      loadTransformers: () => Promise.resolve(whisperFake.module),
      transformersInstalled: () => true,
    });

  beforeAll(() => {
    compiled = compileThreadEntry('audio/decode.thread.ts');
    dir = mkdtempSync(join(tmpdir(), 'chorus-transcribe-'));
    modelsDir = join(dir, 'models');
    const whisperDir = join(modelsDir, 'whisper', 'tiny');
    mkdirSync(join(whisperDir, 'onnx'), { recursive: true });
    writeFileSync(join(whisperDir, 'config.json'), '{"model_type":"whisper"}');
    writeFileSync(join(whisperDir, 'onnx', 'encoder_model.onnx'), Buffer.alloc(1000));
    writeFileSync(join(whisperDir, 'onnx', 'decoder_model_merged_quantized.onnx'), Buffer.alloc(500));
    whisperFake = fakeTransformers({ text: ' Geh zehn Meter vorwärts. ', detected: 'de' });

    const raw = readFileSync(GOFORWARD_RAW);
    goforwardWav = encodeWav(
      new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)),
      16_000,
    );
    writeFileSync(join(dir, 'goforward.wav'), goforwardWav);
    execFileSync('sox', [
      join(dir, 'goforward.wav'),
      '-r',
      '44100',
      '-c',
      '2',
      '-b',
      '24',
      join(dir, 'goforward.flac'),
    ]);
    execFileSync('sox', [join(dir, 'goforward.wav'), '-r', '44100', '-c', '2', join(dir, 'goforward.mp3')]);
    execFileSync('sox', [join(dir, 'goforward.wav'), '-r', '22050', join(dir, 'goforward.ogg')]);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    compiled?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('with PocketSphinx and Whisper', () => {
    let base: string;
    let fake: FakeTtsBackend;

    beforeAll(async () => {
      fake = new FakeTtsBackend('fakeembedded', true);
      base = await startWorker(
        { INFERENCE_MAX_AUDIO_SECONDS: '60', INFERENCE_MAX_UPLOAD_MB: '2' },
        (config) => [fake, pocketsphinx(config), whisper(config)],
      );
    });

    const post = (fields: Parameters<typeof form>[0], headers: Record<string, string> = {}) =>
      fetch(`${base}/transcribe`, { method: 'POST', body: form(fields), headers });

    it.each<[string, () => Uint8Array, string]>([
      [
        "a WebM/Opus recording of Chrome's MediaRecorder",
        () => readFileSync(join(AUDIO_TESTDATA, 'goforward-chrome.webm')),
        'webm',
      ],
      [
        'WebM/Opus muxed live by ffmpeg (stereo)',
        () => readFileSync(join(AUDIO_TESTDATA, 'goforward.webm')),
        'webm',
      ],
      ['OGG/Opus', () => readFileSync(join(AUDIO_TESTDATA, 'goforward.opus')), 'opus'],
      ['FLAC (24-bit stereo 44.1 kHz)', () => readFileSync(join(dir, 'goforward.flac')), 'flac'],
      ['MP3 (stereo 44.1 kHz)', () => readFileSync(join(dir, 'goforward.mp3')), 'mp3'],
      ['OGG/Vorbis (22.05 kHz)', () => readFileSync(join(dir, 'goforward.ogg')), 'ogg'],
      ['WAV (16-bit 16 kHz)', () => goforwardWav, 'wav'],
    ])('transcribes %s with PocketSphinx by default', async (_name, bytes, extension) => {
      const response = await post({
        file: { name: `recording.${extension === 'wav' ? 'bin' : extension}`, bytes: bytes() },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { text: string; language: string; duration: number };
      expect(body).toMatchObject({ language: 'en', backend: 'pocketsphinx', model_path: 'pocketsphinx' });
      expect(wordErrorRate('go forward ten meters', body.text)).toBeLessThanOrEqual(0.25);
      expect(body.duration).toBeGreaterThan(2.7);
      expect(body.duration).toBeLessThan(3.7);
    });

    it('accepts the audio in the field "audio" with a language', async () => {
      const response = await post({
        audio: { name: 'x', bytes: readFileSync(join(AUDIO_TESTDATA, 'goforward.opus')) },
        backend: 'pocketsphinx',
        language: 'en-US',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        text: 'go forward ten meters',
        language: 'en',
        duration: 2.786,
        backend: 'pocketsphinx',
        model_path: 'pocketsphinx',
      });
    });

    it('runs Whisper through the runtime: 16 kHz mono input, language detected, then preferred while loaded', async () => {
      const response = await post({
        file: { name: 'a.flac', bytes: readFileSync(join(dir, 'goforward.flac')) },
        model_path: 'whisper/tiny',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        text: 'Geh zehn Meter vorwärts.',
        language: 'de',
        duration: expect.closeTo(2.786, 2),
        backend: 'whisper',
        model_path: 'whisper/tiny',
      });
      expect(whisperFake.created).toEqual([
        {
          task: 'automatic-speech-recognition',
          model: 'whisper/tiny',
          options: {
            device: 'cpu',
            dtype: { encoder_model: 'fp32', decoder_model_merged: 'q8' },
            local_files_only: true,
          },
        },
      ]);
      const call = whisperFake.calls.at(-1)!;
      expect(Object.prototype.toString.call(call.audio)).toBe('[object Float32Array]');
      expect(Math.abs(call.audio.length - 44_580)).toBeLessThan(40);
      expect(call.options).toEqual({
        language: 'de',
        task: 'transcribe',
        chunk_length_s: 30,
        stride_length_s: 5,
        return_timestamps: false,
      });
      expect(whisperFake.module.env).toMatchObject({
        allowRemoteModels: false,
        localModelPath: `${modelsDir}/`,
      });

      const health = (await (await fetch(`${base}/health`)).json()) as {
        loadedModels: { modelPath: string; memoryBytes: number }[];
      };
      expect(health.loadedModels).toContainEqual(
        expect.objectContaining({ modelPath: 'whisper/tiny', memoryBytes: 1500 }),
      );

      // No backend named: the loaded Whisper model is preferred over PocketSphinx.
      const again = await post({ file: { name: 'b', bytes: goforwardWav }, language: 'fr' });
      expect(await again.json()).toMatchObject({
        backend: 'whisper',
        model_path: 'whisper/tiny',
        language: 'fr',
      });
      expect(whisperFake.calls.at(-1)!.options.language).toBe('fr');
      expect(whisperFake.created).toHaveLength(1);

      const unload = await fetch(`${base}/models/unload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ backend: 'whisper', model_path: 'whisper/tiny' }),
      });
      expect(unload.status).toBe(200);
      expect(whisperFake.disposed).toBe(1);
    });

    it.each<[string, () => Parameters<typeof form>[0], number, Record<string, string>]>([
      ['no audio', () => ({ backend: 'pocketsphinx' }), 400, { file: 'validation_required' }],
      [
        'text instead of audio',
        () => ({ file: { name: 'a.wav', bytes: Buffer.from('hello, I am not audio') } }),
        400,
        { file: 'invalid_audio' },
      ],
      [
        'an unknown format',
        () => ({
          file: { name: 'a.mp3', bytes: Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 256) },
        }),
        400,
        { file: 'unsupported_audio' },
      ],
      [
        'AAC',
        () => ({
          file: { name: 'a.aac', bytes: Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0, 0]) },
        }),
        400,
        { file: 'unsupported_audio' },
      ],
      [
        'audio over INFERENCE_MAX_AUDIO_SECONDS',
        () => ({
          file: { name: 'long.wav', bytes: encodeWav(floatToInt16(new Float32Array(8000 * 61)), 8000) },
        }),
        400,
        { file: 'audio_too_long' },
      ],
      [
        'an upload over INFERENCE_MAX_UPLOAD_MB',
        () => ({ file: { name: 'big.wav', bytes: encodeWav(new Int16Array(1_100_000), 16_000) } }),
        413,
        { file: 'file_too_large' },
      ],
      [
        'two files',
        () => ({ file: { name: 'a', bytes: goforwardWav }, audio: { name: 'b', bytes: goforwardWav } }),
        400,
        { file: 'unexpected_file' },
      ],
      [
        'a file in another field',
        () => ({ sound: { name: 'a', bytes: goforwardWav } }),
        400,
        { sound: 'unexpected_file' },
      ],
      [
        'an unknown backend',
        () => ({ file: { name: 'a', bytes: goforwardWav }, backend: 'nope' }),
        400,
        { backend: 'unknown_backend' },
      ],
      [
        'a backend that does not transcribe',
        () => ({ file: { name: 'a', bytes: goforwardWav }, backend: 'fakeembedded' }),
        400,
        { backend: 'capability_not_supported' },
      ],
      [
        'an unknown field',
        () => ({ file: { name: 'a', bytes: goforwardWav }, speed: '2' }),
        400,
        { speed: 'validation_unknown_field' },
      ],
      [
        'a bad language',
        () => ({ file: { name: 'a', bytes: goforwardWav }, language: 'english please' }),
        400,
        { language: 'validation_match_invalid' },
      ],
      [
        'a language PocketSphinx does not know',
        () => ({ file: { name: 'a', bytes: goforwardWav }, backend: 'pocketsphinx', language: 'de' }),
        400,
        { language: 'unsupported_language' },
      ],
      [
        'an unsafe model path',
        () => ({ file: { name: 'a', bytes: goforwardWav }, model_path: '../etc' }),
        400,
        { model_path: 'validation_is_safe_relative_path' },
      ],
      [
        'a Whisper model that is not installed',
        () => ({ file: { name: 'a', bytes: goforwardWav }, backend: 'whisper', model_path: 'whisper/large' }),
        400,
        { model_path: 'model_not_installed' },
      ],
    ])('refuses %s', async (_name, fields, status, codes) => {
      const response = await post(fields());
      expect(response.status).toBe(status);
      const body = (await response.json()) as ErrorBody;
      expect(body.status).toBe(status);
      expect(body.message.length).toBeGreaterThan(10);
      expect(
        Object.fromEntries(Object.entries(body.data).map(([field, problem]) => [field, problem.code])),
      ).toEqual(codes);
    });

    it('keeps /health instant while recognising', async () => {
      const long = encodeWav(
        new Int16Array(
          Array.from({ length: 8 }, () => [
            ...new Int16Array(goforwardWav.buffer.slice(44 + goforwardWav.byteOffset)),
          ]).flat(),
        ),
        16_000,
      );
      const pending = post({ file: { name: 'long.wav', bytes: long }, backend: 'pocketsphinx' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(200);
      expect((await pending).status).toBe(200);
    });

    it('documents the route in OpenAPI as multipart with operationId transcribe', async () => {
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
        paths: Record<
          string,
          Record<string, { operationId: string; requestBody: { content: Record<string, unknown> } }>
        >;
      };
      const operation = document.paths['/transcribe'].post;
      expect(operation.operationId).toBe('transcribe');
      expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data']);
    });
  });

  describe('with INFERENCE_AUTH_TOKEN', () => {
    it('refuses an upload without the token before reading it', async () => {
      const base = await startWorker({ INFERENCE_AUTH_TOKEN: 'tok' }, (config) => [pocketsphinx(config)]);
      const response = await fetch(`${base}/transcribe`, {
        method: 'POST',
        body: form({ file: { name: 'a', bytes: goforwardWav } }),
      });
      expect(response.status).toBe(401);
      const ok = await fetch(`${base}/transcribe`, {
        method: 'POST',
        body: form({ file: { name: 'a', bytes: goforwardWav } }),
        headers: { Authorization: 'Bearer tok' },
      });
      expect(await ok.json()).toMatchObject({ text: 'go forward ten meters' });
    });
  });

  describe('without any recogniser', () => {
    it('says what to install', async () => {
      const base = await startWorker(
        { POCKETSPHINX_BINARY: '/nonexistent/pocketsphinx_continuous' },
        (config) => [pocketsphinx(config)],
      );
      const response = await fetch(`${base}/transcribe`, {
        method: 'POST',
        body: form({ file: { name: 'a', bytes: goforwardWav } }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        data: {
          backend: { code: 'no_transcription_backend', message: expect.stringMatching(/pocketsphinx-en-us/) },
        },
      });
    });
  });
});
