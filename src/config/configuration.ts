import { isAbsolute, join, resolve } from 'node:path';

/** Typed, validated configuration of the main service. Built once at start-up; nothing else reads process.env. */
export interface AppConfig {
  /** Repository (or image) root: package.json, catalog.json and the client build are found from here. */
  readonly rootDir: string;
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly inferenceUrl: string;
  /** Bearer token of the Local worker (its INFERENCE_AUTH_TOKEN), when it enforces one. Never logged. */
  readonly inferenceAuthToken: string;
  readonly dataDir: string;
  /** `<DATA_DIR>/pb_data`: database and uploaded files. */
  readonly pbDataDir: string;
  readonly databaseFile: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Folder of the built Angular client served at `/` (and `/_/`). */
  readonly clientDir: string;
  readonly catalogFile: string;
  readonly fleet: {
    /** Period of the worker health loop, in milliseconds (jittered by ±10 %). */
    readonly healthIntervalMs: number;
    /** Timeout of one worker health probe, in milliseconds. */
    readonly healthTimeoutMs: number;
    /** Consecutive failed probes before an online worker is marked offline. */
    readonly failuresBeforeOffline: number;
  };
  readonly generation: {
    readonly maxInputLength: number;
    /** Timeout for one whole generation forwarded to a worker, in milliseconds. */
    readonly timeoutMs: number;
  };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') {
    return fallback;
  }
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(name, `must be an integer, got "${raw}"`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function readUrl(env: Env, name: string, fallback: string): string {
  const raw = (env[name] ?? '').trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http or https, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) {
    return fallback;
  }
  const lower = raw.toLowerCase() as T;
  if (!allowed.includes(lower)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return lower;
}

function readPath(env: Env, name: string, fallback: string, base: string): string {
  const raw = env[name]?.trim() || fallback;
  if (raw.includes('\0')) {
    throw new ConfigError(name, 'must not contain NUL bytes');
  }
  return isAbsolute(raw) ? raw : resolve(base, raw);
}

/**
 * Validates the environment into an AppConfig. Throws ConfigError naming the first bad variable.
 * `rootDir` is the repository (or image) root, used to resolve relative paths and bundled assets.
 */
export function loadConfig(env: Env, rootDir: string): AppConfig {
  const nodeEnv = readEnum(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const dataDir = readPath(env, 'DATA_DIR', './data', process.cwd());
  const pbDataDir = join(dataDir, 'pb_data');
  return Object.freeze({
    rootDir,
    env: nodeEnv,
    port: readInt(env, 'PORT', 8090, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    inferenceUrl: readUrl(env, 'INFERENCE_URL', 'http://localhost:8000'),
    inferenceAuthToken: env.INFERENCE_AUTH_TOKEN?.trim() ?? '',
    dataDir,
    pbDataDir,
    databaseFile: join(pbDataDir, 'data.db'),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    clientDir: readPath(env, 'CLIENT_DIR', join(rootDir, 'client', 'dist', 'client', 'browser'), rootDir),
    catalogFile: readPath(env, 'CATALOG_FILE', join(rootDir, 'catalog.json'), rootDir),
    fleet: Object.freeze({
      healthIntervalMs: readInt(env, 'FLEET_HEALTH_INTERVAL_MS', 15_000, 100, 3_600_000),
      healthTimeoutMs: readInt(env, 'FLEET_HEALTH_TIMEOUT_MS', 3_000, 50, 60_000),
      failuresBeforeOffline: readInt(env, 'FLEET_FAILURES_BEFORE_OFFLINE', 2, 1, 100),
    }),
    generation: Object.freeze({
      maxInputLength: readInt(env, 'GENERATE_MAX_INPUT_LENGTH', 5000, 1, 100_000),
      timeoutMs: readInt(env, 'GENERATE_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    }),
  });
}

/** DI token for the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
