import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { configureTransformersEnv, loadTransformers, transformersInstalled } from './transformers-runtime';
import { WhisperBackend } from './whisper.backend';

/**
 * The real transformers.js (no Whisper weights can be downloaded here, see README.md): it loads, takes the
 * worker's settings, and with them never goes to the network — even a model that is not installed is looked
 * for only in the models directory.
 */
jest.setTimeout(60_000);

describe('transformers.js as the Whisper backend configures it', () => {
  let dir: string;
  let hub: Server;
  let hubUrl: string;
  const hubRequests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-whisper-'));
    hub = createServer((request, response) => {
      hubRequests.push(request.url ?? '');
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    const address = hub.address();
    hubUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => hub.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is installed with the worker and loads', async () => {
    expect(transformersInstalled()).toBe(true);
    const transformers = await loadTransformers();
    expect(typeof transformers.pipeline).toBe('function');
    expect(typeof transformers.Tensor).toBe('function');
    expect((transformers.env as unknown as { version: string }).version).toMatch(/^4\./);
  });

  it('takes the models directory, its cache folder and the hub endpoint, with remote loading off', async () => {
    const transformers = await loadTransformers();
    configureTransformersEnv(transformers.env, { modelsPath: dir, hubEndpoint: hubUrl });
    expect(transformers.env).toMatchObject({
      allowRemoteModels: false,
      allowLocalModels: true,
      localModelPath: `${dir}/`,
      cacheDir: `${join(dir, '.cache', 'transformers')}/`,
      remoteHost: `${hubUrl}/`,
      remotePathTemplate: '{model}/resolve/{revision}/',
    });
    expect(transformers.env.cacheDir).not.toContain('node_modules');
  });

  it('looks for a model only in the models directory, never on the hub', async () => {
    const modelDir = join(dir, 'whisper', 'broken');
    mkdirSync(join(modelDir, 'onnx'), { recursive: true });
    writeFileSync(
      join(modelDir, 'config.json'),
      JSON.stringify({ model_type: 'whisper', architectures: ['WhisperForConditionalGeneration'] }),
    );
    writeFileSync(join(modelDir, 'onnx', 'encoder_model.onnx'), 'not a model');
    writeFileSync(join(modelDir, 'onnx', 'decoder_model_merged.onnx'), 'not a model');
    const backend = new WhisperBackend({
      modelsPath: dir,
      hubEndpoint: hubUrl,
      device: () => 'cpu',
      loadTransformers,
      transformersInstalled,
    });
    expect(backend.resolveModelPath({ model_path: 'whisper/broken' })).toBe('whisper/broken');
    // It gets as far as ONNX Runtime reading the local file (which is not a model), and no further.
    await expect(backend.load('whisper/broken')).rejects.toThrow(/whisper\/broken/);
    expect(hubRequests).toEqual([]);
    const transformers = await loadTransformers();
    expect(transformers.env.allowRemoteModels).toBe(false);
  });
});
