import { hostname } from 'node:os';
import { resolve } from 'node:path';

import type { InferenceDevice } from '../contract/worker-api';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Defaults of the worker's environment. Values the SPEC leaves open are chosen here, with the reason.
 */
export const CONFIG_DEFAULTS = {
  device: 'cpu' as InferenceDevice,
  modelsPath: '/app/data/models',
  packagesDir: '/app/data/packages',
  port: 8000,
  hfEndpoint: 'https://huggingface.co',
  logLevel: 'info' as LogLevel,
  /**
   * Two models: a 16 GB GPU (the suggested size for a remote worker) holds two mid-size TTS models, e.g. one
   * cloning model next to one preset model or a transcription model, so alternating between them does not
   * reload on every request, while a third model evicts the least recently used instead of exhausting memory.
   * Embedded engines (espeak) do not count.
   */
  maxLoadedModels: 2,
  /**
   * Sixteen waiting requests per model: with a neural model taking a few seconds per request, a longer queue
   * means waits the main service's client would time out on anyway; a 503 sooner lets it pick another worker.
   */
  queueLimit: 16,
  /** 20,000 characters: about 20 minutes of speech, far above any UI use, small enough to bound one request. */
  maxTextLength: 20_000,
  /**
   * 50 MB uploads to `/transcribe`: half an hour of 128 kbps MP3 or several minutes of CD-quality WAV, the most a
   * browser recording or a voice memo needs, while bounding the memory one request holds (upload + decoded audio).
   */
  maxUploadMb: 50,
  /**
   * 30 minutes of audio per transcription: 115 MB of 16 kHz float samples once decoded, and minutes of
   * recognition even on a GPU; longer recordings should be split by the caller.
   */
  maxAudioSeconds: 1800,
  /** Debian's `pocketsphinx` package puts the recogniser here, `pocketsphinx-en-us` its US English model. */
  pocketsphinxBinary: 'pocketsphinx_continuous',
  pocketsphinxModelDir: '/usr/share/pocketsphinx/model/en-us',
} as const;

/** The worker's whole environment, validated once at start-up. Read-only all the way down. */
export interface WorkerConfig {
  readonly server: {
    readonly port: number;
  };
  readonly inference: {
    readonly device: InferenceDevice;
    readonly modelsPath: string;
    readonly packagesDir: string;
    readonly maxLoadedModels: number;
    readonly queueLimit: number;
    readonly maxTextLength: number;
  };
  readonly transcription: {
    /** Largest upload accepted by `POST /transcribe`, in bytes (INFERENCE_MAX_UPLOAD_MB); larger → 413. */
    readonly maxUploadBytes: number;
    /** Longest decoded audio, in seconds (INFERENCE_MAX_AUDIO_SECONDS); longer → 400. */
    readonly maxAudioSeconds: number;
    readonly pocketsphinx: {
      /** `pocketsphinx_continuous` command (looked up on PATH) or path (POCKETSPHINX_BINARY). */
      readonly binary: string;
      /** Folder of the acoustic model `en-us/`, `en-us.lm.bin` and `cmudict-en-us.dict` (POCKETSPHINX_MODEL_DIR). */
      readonly modelDir: string;
      /** Folders searched for a bare `binary` name (the process's PATH). */
      readonly searchPath: string;
    };
  };
  readonly auth: {
    /** Bearer token every request but `GET /health` must carry; undefined = open worker. */
    readonly token: string | undefined;
  };
  readonly registration: {
    readonly serviceUrl: string | undefined;
    readonly token: string | undefined;
    /** Public URL of this worker: INFERENCE_PUBLIC_URL, else one derived from the hosting platform. */
    readonly publicUrl: string | undefined;
    /** Fallback public URL (SERVER_URL); when also unset, registration uses the machine's first address. */
    readonly serverUrl: string | undefined;
    /** Name shown in the main service: INFERENCE_NAME, else the platform's service name, else the hostname. */
    readonly name: string;
  };
  readonly hub: {
    readonly endpoint: string;
    readonly token: string | undefined;
  };
  readonly packages: {
    /**
     * Environment of the `npm install` children that install backend dependencies: only what npm needs (PATH,
     * HOME, proxies, CA certificates, `npm_config_*`), never the worker's secrets, since package install
     * scripts run there. ONNXRUNTIME_NODE_INSTALL defaults to `skip` (the CPU provider is bundled; its install
     * script downloads CUDA libraries only when asked to).
     */
    readonly installEnv: Readonly<Record<string, string>>;
  };
  readonly log: {
    readonly level: LogLevel;
  };
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** Thrown when the environment is invalid; `message` is one line naming every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid worker configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export interface ConfigHost {
  /** Host name of the machine (os.hostname()). */
  hostname: string;
}

/**
 * Validates the environment into a frozen {@link WorkerConfig}. Pure: everything it reads comes in as arguments.
 * Empty values count as unset (compose files often pass `VAR=`); values are trimmed.
 *
 * @throws ConfigError listing every problem at once, each naming its variable.
 */
export function loadWorkerConfig(env: Environment, host: ConfigHost): WorkerConfig {
  const reader = new EnvReader(env);

  const config: WorkerConfig = {
    server: {
      port: reader.integer('PORT', CONFIG_DEFAULTS.port, { min: 0, max: 65_535 }),
    },
    inference: {
      device: reader.oneOf('INFERENCE_DEVICE', ['cpu', 'cuda'] as const, CONFIG_DEFAULTS.device),
      modelsPath: reader.path('INFERENCE_MODELS_PATH', CONFIG_DEFAULTS.modelsPath),
      packagesDir: reader.path('PACKAGES_DIR', CONFIG_DEFAULTS.packagesDir),
      maxLoadedModels: reader.integer('INFERENCE_MAX_LOADED_MODELS', CONFIG_DEFAULTS.maxLoadedModels, {
        min: 1,
        max: 64,
      }),
      queueLimit: reader.integer('INFERENCE_QUEUE_LIMIT', CONFIG_DEFAULTS.queueLimit, {
        min: 0,
        max: 10_000,
      }),
      maxTextLength: reader.integer('INFERENCE_MAX_TEXT_LENGTH', CONFIG_DEFAULTS.maxTextLength, {
        min: 1,
        max: 1_000_000,
      }),
    },
    transcription: {
      maxUploadBytes:
        reader.integer('INFERENCE_MAX_UPLOAD_MB', CONFIG_DEFAULTS.maxUploadMb, { min: 1, max: 4096 }) *
        1024 *
        1024,
      maxAudioSeconds: reader.integer('INFERENCE_MAX_AUDIO_SECONDS', CONFIG_DEFAULTS.maxAudioSeconds, {
        min: 1,
        max: 86_400,
      }),
      pocketsphinx: {
        binary: reader.string('POCKETSPHINX_BINARY') ?? CONFIG_DEFAULTS.pocketsphinxBinary,
        modelDir: reader.path('POCKETSPHINX_MODEL_DIR', CONFIG_DEFAULTS.pocketsphinxModelDir),
        searchPath: reader.string('PATH') ?? '/usr/local/bin:/usr/bin:/bin',
      },
    },
    auth: {
      token: reader.secret('INFERENCE_AUTH_TOKEN'),
    },
    registration: {
      serviceUrl: reader.url('SERVICE_URL'),
      token: reader.secret('SERVICE_REGISTRATION_TOKEN'),
      publicUrl: reader.url('INFERENCE_PUBLIC_URL') ?? platformPublicUrl(reader),
      serverUrl: reader.url('SERVER_URL'),
      name:
        reader.string('INFERENCE_NAME') ??
        reader.string('RAILWAY_SERVICE_NAME') ??
        reader.string('RENDER_SERVICE_NAME') ??
        reader.string('FLY_APP_NAME') ??
        host.hostname,
    },
    hub: {
      endpoint: reader.url('HF_ENDPOINT') ?? CONFIG_DEFAULTS.hfEndpoint,
      token: reader.secret('HF_TOKEN'),
    },
    packages: {
      installEnv: npmInstallEnvironment(env),
    },
    log: {
      level: reader.oneOf('LOG_LEVEL', LOG_LEVELS, CONFIG_DEFAULTS.logLevel),
    },
  };

  if (reader.problems.length > 0) {
    throw new ConfigError(reader.problems);
  }
  return deepFreeze(config);
}

/** Public URL offered by hosting platforms, used when INFERENCE_PUBLIC_URL is not set. */
function platformPublicUrl(reader: EnvReader): string | undefined {
  const railwayDomain = reader.string('RAILWAY_PUBLIC_DOMAIN');
  if (railwayDomain) {
    return reader.derivedUrl('RAILWAY_PUBLIC_DOMAIN', `https://${railwayDomain}`);
  }
  const renderUrl = reader.url('RENDER_EXTERNAL_URL');
  if (renderUrl) {
    return renderUrl;
  }
  const flyApp = reader.string('FLY_APP_NAME');
  return flyApp ? reader.derivedUrl('FLY_APP_NAME', `https://${flyApp}.fly.dev`) : undefined;
}

/** Variables passed on to `npm install` children (matched case-insensitively), besides `npm_config_*`. */
const NPM_INSTALL_VARIABLES = new Set([
  'PATH',
  'HOME',
  'USER',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'SYSTEMROOT',
  'COMSPEC',
  'APPDATA',
  'LOCALAPPDATA',
  'ONNXRUNTIME_NODE_INSTALL',
  'SCARF_ANALYTICS',
]);

function npmInstallEnvironment(env: Environment): Record<string, string> {
  const out: Record<string, string> = { ONNXRUNTIME_NODE_INSTALL: 'skip', SCARF_ANALYTICS: 'false' };
  for (const [name, value] of Object.entries(env)) {
    const upper = name.toUpperCase();
    if (
      value !== undefined &&
      value !== '' &&
      (NPM_INSTALL_VARIABLES.has(upper) || upper.startsWith('NPM_CONFIG_'))
    ) {
      out[name] = value;
    }
  }
  return out;
}

/** Reads variables, collecting problems instead of failing on the first one. */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Environment) {}

  string(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  /** Like {@link string}, but the value is never echoed in an error message. */
  secret(name: string): string | undefined {
    const value = this.string(name);
    if (value !== undefined && /\s/.test(value)) {
      this.problems.push(`${name} must not contain whitespace`);
      return undefined;
    }
    return value;
  }

  integer(name: string, fallback: number, range: { min: number; max: number }): number {
    const raw = this.string(name);
    if (raw === undefined) {
      return fallback;
    }
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
      this.problems.push(
        `${name} must be an integer between ${range.min} and ${range.max} (got ${JSON.stringify(raw)})`,
      );
      return fallback;
    }
    return value;
  }

  oneOf<const T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) {
      return fallback;
    }
    const value = raw.toLowerCase();
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return value as T;
  }

  path(name: string, fallback: string): string {
    const raw = this.string(name) ?? fallback;
    if (raw.includes('\0')) {
      this.problems.push(`${name} must be a file system path`);
      return fallback;
    }
    return resolve(raw);
  }

  /** An absolute http(s) URL, returned without trailing slashes. */
  url(name: string): string | undefined {
    const raw = this.string(name);
    return raw === undefined ? undefined : this.derivedUrl(name, raw);
  }

  derivedUrl(name: string, raw: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      this.problems.push(`${name} must be an absolute http(s) URL (got ${JSON.stringify(raw)})`);
      return undefined;
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
      this.problems.push(`${name} must be an absolute http(s) URL (got ${JSON.stringify(raw)})`);
      return undefined;
    }
    if (parsed.username || parsed.password) {
      this.problems.push(`${name} must not embed credentials; use the matching token variable`);
      return undefined;
    }
    return parsed.href.replace(/\/+$/, '');
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
    Object.freeze(value);
  }
  return value;
}

/** The configuration of this process: the one place that reads `process.env`. */
export function loadWorkerConfigFromProcess(): WorkerConfig {
  return loadWorkerConfig(process.env, { hostname: hostname() });
}
