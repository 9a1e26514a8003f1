import { resolve } from 'node:path';

import { CONFIG_DEFAULTS, ConfigError, type Environment, loadWorkerConfig } from './worker-config';
import { readAppInfo } from './app-info';

const host = { hostname: 'test-host' };

function load(env: Environment) {
  return loadWorkerConfig(env, host);
}

function problemsOf(env: Environment): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadWorkerConfig', () => {
  it('applies the defaults to an empty environment', () => {
    const config = load({});
    expect(config).toEqual({
      server: { port: 8000 },
      inference: {
        device: 'cpu',
        modelsPath: '/app/data/models',
        packagesDir: '/app/data/packages',
        maxLoadedModels: CONFIG_DEFAULTS.maxLoadedModels,
        queueLimit: CONFIG_DEFAULTS.queueLimit,
        maxTextLength: CONFIG_DEFAULTS.maxTextLength,
      },
      transcription: {
        maxUploadBytes: 50 * 1024 * 1024,
        maxAudioSeconds: 1800,
        pocketsphinx: {
          binary: 'pocketsphinx_continuous',
          modelDir: '/usr/share/pocketsphinx/model/en-us',
          searchPath: '/usr/local/bin:/usr/bin:/bin',
        },
      },
      auth: { token: undefined },
      registration: {
        serviceUrl: undefined,
        token: undefined,
        publicUrl: undefined,
        serverUrl: undefined,
        name: 'test-host',
      },
      hub: { endpoint: 'https://huggingface.co', token: undefined },
      packages: { installEnv: { ONNXRUNTIME_NODE_INSTALL: 'skip', SCARF_ANALYTICS: 'false' } },
      log: { level: 'info' },
    });
  });

  it('reads the transcription limits and the PocketSphinx paths', () => {
    const config = load({
      INFERENCE_MAX_UPLOAD_MB: '5',
      INFERENCE_MAX_AUDIO_SECONDS: '60',
      POCKETSPHINX_BINARY: '/opt/ps/bin/pocketsphinx_continuous',
      POCKETSPHINX_MODEL_DIR: 'models/ps',
      PATH: '/opt/ps/bin:/usr/bin',
    });
    expect(config.transcription).toEqual({
      maxUploadBytes: 5 * 1024 * 1024,
      maxAudioSeconds: 60,
      pocketsphinx: {
        binary: '/opt/ps/bin/pocketsphinx_continuous',
        modelDir: resolve('models/ps'),
        searchPath: '/opt/ps/bin:/usr/bin',
      },
    });
    expect(problemsOf({ INFERENCE_MAX_UPLOAD_MB: '0', INFERENCE_MAX_AUDIO_SECONDS: '1.5' })).toBe(
      'Invalid worker configuration: INFERENCE_MAX_UPLOAD_MB must be an integer between 1 and 4096 (got "0"); ' +
        'INFERENCE_MAX_AUDIO_SECONDS must be an integer between 1 and 86400 (got "1.5")',
    );
  });

  it('passes npm only what it needs, never the secrets', () => {
    const config = load({
      PATH: '/usr/bin',
      HOME: '/home/node',
      https_proxy: 'http://proxy:3128',
      npm_config_registry: 'http://registry.local/',
      ONNXRUNTIME_NODE_INSTALL: 'cuda12',
      HF_TOKEN: 'hf_secret',
      INFERENCE_AUTH_TOKEN: 'auth-secret',
      SERVICE_REGISTRATION_TOKEN: 'reg-secret',
    });
    expect(config.packages.installEnv).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/node',
      https_proxy: 'http://proxy:3128',
      npm_config_registry: 'http://registry.local/',
      ONNXRUNTIME_NODE_INSTALL: 'cuda12',
      SCARF_ANALYTICS: 'false',
    });
  });

  it('reads every variable', () => {
    const config = load({
      PORT: '9123',
      INFERENCE_DEVICE: 'CUDA',
      INFERENCE_MODELS_PATH: 'rel/models',
      PACKAGES_DIR: '/tmp/packages',
      INFERENCE_MAX_LOADED_MODELS: '3',
      INFERENCE_QUEUE_LIMIT: '0',
      INFERENCE_MAX_TEXT_LENGTH: '500',
      INFERENCE_AUTH_TOKEN: 's3cret',
      SERVICE_URL: 'https://chorus.example.com/',
      SERVICE_REGISTRATION_TOKEN: 'reg',
      INFERENCE_PUBLIC_URL: 'http://10.0.0.5:8000',
      SERVER_URL: 'http://10.0.0.6:8000',
      INFERENCE_NAME: 'gpu-box',
      HF_ENDPOINT: 'http://127.0.0.1:9999/',
      HF_TOKEN: 'hf_x',
      LOG_LEVEL: 'debug',
    });
    expect(config.server.port).toBe(9123);
    expect(config.inference).toEqual({
      device: 'cuda',
      modelsPath: resolve('rel/models'),
      packagesDir: '/tmp/packages',
      maxLoadedModels: 3,
      queueLimit: 0,
      maxTextLength: 500,
    });
    expect(config.auth.token).toBe('s3cret');
    expect(config.registration).toEqual({
      serviceUrl: 'https://chorus.example.com',
      token: 'reg',
      publicUrl: 'http://10.0.0.5:8000',
      serverUrl: 'http://10.0.0.6:8000',
      name: 'gpu-box',
    });
    expect(config.hub).toEqual({ endpoint: 'http://127.0.0.1:9999', token: 'hf_x' });
    expect(config.log.level).toBe('debug');
  });

  it('treats empty and blank values as unset', () => {
    const config = load({ PORT: '', INFERENCE_AUTH_TOKEN: '  ', INFERENCE_DEVICE: '' });
    expect(config.server.port).toBe(8000);
    expect(config.auth.token).toBeUndefined();
    expect(config.inference.device).toBe('cpu');
  });

  it.each([
    [{ INFERENCE_DEVICE: 'tpu' }, 'INFERENCE_DEVICE must be one of cpu, cuda (got "tpu")'],
    [{ PORT: 'abc' }, 'PORT must be an integer between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be an integer'],
    [{ PORT: '80.5' }, 'PORT must be an integer'],
    [{ PORT: '-1' }, 'PORT must be an integer'],
    [{ SERVICE_URL: 'not a url' }, 'SERVICE_URL must be an absolute http(s) URL (got "not a url")'],
    [{ SERVICE_URL: 'ftp://example.com' }, 'SERVICE_URL must be an absolute http(s) URL'],
    [{ INFERENCE_PUBLIC_URL: 'example.com:8000' }, 'INFERENCE_PUBLIC_URL must be an absolute http(s) URL'],
    [{ SERVER_URL: 'http://user:pw@example.com' }, 'SERVER_URL must not embed credentials'],
    [{ HF_ENDPOINT: '/relative' }, 'HF_ENDPOINT must be an absolute http(s) URL'],
    [{ INFERENCE_MAX_LOADED_MODELS: '0' }, 'INFERENCE_MAX_LOADED_MODELS must be an integer between 1 and 64'],
    [{ INFERENCE_QUEUE_LIMIT: 'many' }, 'INFERENCE_QUEUE_LIMIT must be an integer'],
    [{ INFERENCE_MAX_TEXT_LENGTH: '0' }, 'INFERENCE_MAX_TEXT_LENGTH must be an integer between 1'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ INFERENCE_AUTH_TOKEN: 'two words' }, 'INFERENCE_AUTH_TOKEN must not contain whitespace'],
  ])('rejects %j', (env, expected) => {
    expect(problemsOf(env)).toContain(expected);
  });

  it('reports every problem in one line', () => {
    const message = problemsOf({ PORT: 'abc', INFERENCE_DEVICE: 'tpu' });
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^Invalid worker configuration: .*PORT.*; .*INFERENCE_DEVICE/);
  });

  it('never echoes secret values', () => {
    const message = problemsOf({ INFERENCE_AUTH_TOKEN: 'very secret', HF_TOKEN: 'hf secret' });
    expect(message).not.toContain('very secret');
    expect(message).not.toContain('hf secret');
  });

  it('derives the public URL and name from the hosting platform', () => {
    expect(
      load({ RAILWAY_PUBLIC_DOMAIN: 'w.up.railway.app', RAILWAY_SERVICE_NAME: 'inference' }).registration,
    ).toMatchObject({ publicUrl: 'https://w.up.railway.app', name: 'inference' });
    expect(load({ FLY_APP_NAME: 'chorus-gpu' }).registration).toMatchObject({
      publicUrl: 'https://chorus-gpu.fly.dev',
      name: 'chorus-gpu',
    });
    expect(load({ INFERENCE_PUBLIC_URL: 'https://mine', FLY_APP_NAME: 'x' }).registration.publicUrl).toBe(
      'https://mine',
    );
  });

  it('returns a deeply frozen object', () => {
    const config = load({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.inference)).toBe(true);
  });
});

describe('readAppInfo', () => {
  it('finds the version of the root package.json', () => {
    expect(readAppInfo().version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('falls back when no root package.json is found', () => {
    expect(readAppInfo('/').version).toBe('0.0.0-unknown');
  });
});
