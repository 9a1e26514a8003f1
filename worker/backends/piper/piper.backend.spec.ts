import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ApiError } from '../../common/api-error';
import type { WorkerConfig } from '../../config/worker-config';
import { DeviceService } from '../../runtime/device.service';
import { defaultPiperOptions, PiperBackend } from './piper.backend';

function statusOf(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) {
      return error.getStatus();
    }
    throw error;
  }
  return 200;
}

describe('PiperBackend.resolveModelPath', () => {
  let root: string;
  let outside: string;
  let backend: PiperBackend;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'chorus-piper-models-'));
    outside = mkdtempSync(join(tmpdir(), 'chorus-piper-outside-'));
    const voice = (variant: string, files: string[]) => {
      mkdirSync(join(root, 'piper', variant), { recursive: true });
      for (const file of files) {
        writeFileSync(join(root, 'piper', variant, file), '{}');
      }
    };
    voice('en_US-joe-medium', ['en_US-joe-medium.onnx', 'en_US-joe-medium.onnx.json', 'manifest.json']);
    voice('renamed', ['model.onnx', 'config.onnx.json']);
    voice('no-config', ['model.onnx']);
    voice('ambiguous', ['a.onnx', 'b.onnx', 'c.onnx.json']);
    writeFileSync(join(outside, 'x.onnx'), '');
    writeFileSync(join(outside, 'x.onnx.json'), '');
    symlinkSync(outside, join(root, 'piper', 'escape'));
    const config = { inference: { modelsPath: root } } as WorkerConfig;
    backend = new PiperBackend(config, new DeviceService('cpu', false), defaultPiperOptions());
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('accepts an installed voice folder', () => {
    expect(backend.resolveModelPath({ model_path: 'piper/en_US-joe-medium' })).toBe('piper/en_US-joe-medium');
    expect(backend.resolveModelPath({ model_path: 'piper/renamed' })).toBe('piper/renamed');
  });

  it.each([
    null,
    '',
    'en_US-joe-medium',
    'espeak/en_US-joe-medium',
    'piper/../piper/en_US-joe-medium',
    'piper/.hidden',
    'piper/a/b',
    '/piper/x',
  ])('refuses %p with 400', (modelPath) => {
    expect(statusOf(() => backend.resolveModelPath({ model_path: modelPath }))).toBe(400);
  });

  it.each(['piper/missing', 'piper/no-config', 'piper/ambiguous', 'piper/escape'])(
    'answers 404 for %s',
    (modelPath) => {
      expect(statusOf(() => backend.resolveModelPath({ model_path: modelPath }))).toBe(404);
    },
  );

  it('declares no extra packages and is not embedded', async () => {
    expect(backend.embedded).toBe(false);
    expect(backend.capabilities).toEqual({
      preset: true,
      cloning: false,
      transcription: false,
      streaming: true,
    });
    await expect(backend.dependencies()).resolves.toEqual({ installed: true, packages: [] });
    expect(backend.memoryBytes('piper/en_US-joe-medium')).toBe(0);
  });
});
