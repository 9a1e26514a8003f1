import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fakeTransformers, type FakeTransformers } from './fake-transformers';
import {
  chooseDtypes,
  configureTransformersEnv,
  languageOfToken,
  type TransformersEnv,
} from './transformers-runtime';
import { WhisperBackend } from './whisper.backend';

/** The error code on `model_path` of what `action` throws. */
function fieldCode(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return (error as { data?: Record<string, { code: string }> }).data?.model_path?.code;
  }
  return undefined;
}

describe('transformers.js settings', () => {
  it('turns remote loading off and keeps the cache in the models directory', () => {
    const env = {
      allowRemoteModels: true,
      cacheDir: '/app/node_modules/@huggingface/transformers/.cache/',
    } as TransformersEnv;
    configureTransformersEnv(env, { modelsPath: '/data/models', hubEndpoint: 'http://mirror.local:8080' });
    expect(env).toEqual({
      allowRemoteModels: false,
      allowLocalModels: true,
      localModelPath: '/data/models/',
      cacheDir: '/data/models/.cache/transformers/',
      useFSCache: true,
      useBrowserCache: false,
      remoteHost: 'http://mirror.local:8080/',
      remotePathTemplate: '{model}/resolve/{revision}/',
    });
  });

  it('chooses one ONNX variant per component, by device', () => {
    const files = [
      'encoder_model.onnx',
      'encoder_model_fp16.onnx',
      'encoder_model_q4.onnx',
      'decoder_model_merged_quantized.onnx',
      'decoder_model_merged_fp16.onnx',
      'decoder_model.onnx', // not merged: ignored
    ];
    expect(chooseDtypes(files, 'cpu')).toEqual({
      dtype: { encoder_model: 'fp32', decoder_model_merged: 'q8' },
      files: ['encoder_model.onnx', 'decoder_model_merged_quantized.onnx'],
    });
    expect(chooseDtypes(files, 'cuda')).toEqual({
      dtype: { encoder_model: 'fp32', decoder_model_merged: 'fp16' },
      files: ['encoder_model.onnx', 'decoder_model_merged_fp16.onnx'],
    });
    expect(chooseDtypes(['encoder_model_q4f16.onnx', 'decoder_model_merged_bnb4.onnx'], 'cpu')).toEqual({
      dtype: { encoder_model: 'q4f16', decoder_model_merged: 'bnb4' },
      files: ['encoder_model_q4f16.onnx', 'decoder_model_merged_bnb4.onnx'],
    });
    expect(chooseDtypes(['encoder_model.onnx', 'decoder_model.onnx'], 'cpu')).toEqual({
      missing: ['onnx/decoder_model_merged*.onnx'],
    });
  });

  it('reads language tokens', () => {
    expect(languageOfToken('<|de|>')).toBe('de');
    expect(languageOfToken('<|haw|>')).toBe('haw');
    expect(languageOfToken('<|transcribe|>')).toBeUndefined();
  });
});

/** The backend at its boundary with transformers.js, with a synthetic pipeline (no weights here). */
describe('WhisperBackend (synthetic pipeline)', () => {
  let dir: string;
  let fake: FakeTransformers;
  let device: 'cpu' | 'cuda';
  let loads: number;
  const signal = new AbortController().signal;

  function backend(options: Parameters<typeof fakeTransformers>[0] = {}) {
    fake = fakeTransformers(options);
    loads = 0;
    return new WhisperBackend({
      modelsPath: dir,
      hubEndpoint: 'https://huggingface.co',
      device: () => device,
      loadTransformers: () => {
        loads++;
        return Promise.resolve(fake.module);
      },
      transformersInstalled: () => true,
    });
  }

  function install(variant: string, files: Record<string, number>) {
    mkdirSync(join(dir, 'whisper', variant, 'onnx'), { recursive: true });
    writeFileSync(join(dir, 'whisper', variant, 'config.json'), '{}');
    for (const [name, size] of Object.entries(files)) {
      writeFileSync(join(dir, 'whisper', variant, 'onnx', name), Buffer.alloc(size));
    }
  }

  /** 45 s of a 16 kHz tone, interleaved stereo at 48 kHz: the backend must hand Whisper 16 kHz mono. */
  const stereo48k = () => {
    const samples = new Float32Array(48000 * 45 * 2);
    for (let i = 0; i < samples.length / 2; i++) {
      samples[2 * i] = samples[2 * i + 1] = 0.1 * Math.sin((2 * Math.PI * 300 * i) / 48000);
    }
    return { sampleRate: 48000, channels: 2, samples };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-whisper-unit-'));
    device = 'cpu';
    install('base', {
      'encoder_model.onnx': 3000,
      'decoder_model_merged.onnx': 2000,
      'decoder_model_merged_q4.onnx': 500,
    });
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('needs an installed whisper/<variant>', () => {
    const whisper = backend();
    expect(whisper.resolveModelPath({ model_path: 'whisper/base' })).toBe('whisper/base');
    expect(fieldCode(() => whisper.resolveModelPath({}))).toBe('validation_required');
    expect(() => whisper.resolveModelPath({ model_path: 'piper/base' })).toThrow(/whisper\/<variant>/);
    expect(() => whisper.resolveModelPath({ model_path: 'whisper/a/b' })).toThrow(/whisper\/<variant>/);
    expect(fieldCode(() => whisper.resolveModelPath({ model_path: 'whisper/small' }))).toBe(
      'model_not_installed',
    );
  });

  it('loads the pipeline from the models directory on the effective device, once', async () => {
    device = 'cuda';
    const whisper = backend();
    await whisper.load('whisper/base');
    await whisper.load('whisper/base');
    expect(fake.created).toEqual([
      {
        task: 'automatic-speech-recognition',
        model: 'whisper/base',
        options: {
          device: 'cuda',
          dtype: { encoder_model: 'fp32', decoder_model_merged: 'fp32' },
          local_files_only: true,
        },
      },
    ]);
    expect(loads).toBe(1);
    expect(fake.module.env).toMatchObject({ allowRemoteModels: false, localModelPath: `${dir}/` });
    expect(whisper.memoryBytes('whisper/base')).toBe(5000);
    await whisper.unload('whisper/base');
    expect(fake.disposed).toBe(1);
    expect(whisper.memoryBytes('whisper/base')).toBe(0);
  });

  it('refuses an incomplete model folder before touching transformers.js', async () => {
    install('broken', { 'encoder_model.onnx': 10 });
    const whisper = backend();
    await expect(whisper.load('whisper/broken')).rejects.toMatchObject({
      data: {
        model_path: { code: 'model_not_installed', message: expect.stringMatching(/decoder_model_merged/) },
      },
    });
    expect(loads).toBe(0);
  });

  it('hands Whisper 16 kHz mono, detects the language on the first 30 s and transcribes in 30 s chunks', async () => {
    const whisper = backend({ text: '  Bonjour tout le monde. ', detected: 'fr' });
    await whisper.load('whisper/base');
    const result = await whisper.transcribe(
      { modelPath: 'whisper/base', audio: stereo48k(), language: null },
      signal,
    );
    expect(result).toEqual({ text: 'Bonjour tout le monde.', language: 'fr' });
    expect(fake.detections).toEqual([{ audioLength: 30 * 16000, prompt: [50_258n] }]);
    const call = fake.calls[0];
    expect(Object.prototype.toString.call(call.audio)).toBe('[object Float32Array]');
    expect(call.audio.length).toBe(45 * 16000);
    expect(Math.max(...call.audio.subarray(16000, 32000))).toBeCloseTo(0.1, 2);
    expect(call.options).toEqual({
      language: 'fr',
      task: 'transcribe',
      chunk_length_s: 30,
      stride_length_s: 5,
      return_timestamps: false,
    });
  });

  it('uses the requested language instead of detecting one, and refuses languages Whisper lacks', async () => {
    const whisper = backend({ detected: 'fr' });
    await whisper.load('whisper/base');
    const audio = { sampleRate: 16000, channels: 1, samples: new Float32Array(16000) };
    await expect(
      whisper.transcribe({ modelPath: 'whisper/base', audio, language: 'de-AT' }, signal),
    ).resolves.toMatchObject({
      language: 'de',
    });
    expect(fake.detections).toHaveLength(0);
    expect(fake.calls[0].options.language).toBe('de');
    await expect(
      whisper.transcribe({ modelPath: 'whisper/base', audio, language: 'tlh' }, signal),
    ).rejects.toMatchObject({
      data: { language: { code: 'unsupported_language' } },
    });
  });

  it('treats English-only models as English: no language or task options', async () => {
    const whisper = backend({ multilingual: false, text: 'Hello.' });
    await whisper.load('whisper/base');
    const audio = { sampleRate: 16000, channels: 1, samples: new Float32Array(16000) };
    await expect(
      whisper.transcribe({ modelPath: 'whisper/base', audio, language: null }, signal),
    ).resolves.toEqual({
      text: 'Hello.',
      language: 'en',
    });
    expect(fake.calls[0].options).toEqual({
      chunk_length_s: 30,
      stride_length_s: 5,
      return_timestamps: false,
    });
    await expect(
      whisper.transcribe({ modelPath: 'whisper/base', audio, language: 'de' }, signal),
    ).rejects.toMatchObject({
      data: { language: { code: 'unsupported_language' } },
    });
  });

  it('lets a failed load be retried', async () => {
    const whisper = backend({ failLoad: new Error('onnx session failed') });
    await expect(whisper.load('whisper/base')).rejects.toThrow('onnx session failed');
    expect(whisper.memoryBytes('whisper/base')).toBe(0);
    await expect(whisper.load('whisper/base')).rejects.toThrow('onnx session failed');
    expect(fake.created).toHaveLength(2);
  });

  it('declares transcription only, and no extra packages', async () => {
    const whisper = backend();
    expect(whisper.capabilities).toEqual({
      preset: false,
      cloning: false,
      transcription: true,
      streaming: false,
    });
    expect(await whisper.dependencies()).toMatchObject({ installed: true, packages: [] });
    await expect(whisper.synthesize()).rejects.toMatchObject({
      data: { backend: { code: 'capability_not_supported' } },
    });
  });
});
