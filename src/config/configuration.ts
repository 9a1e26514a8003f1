import { join } from 'node:path';
import { findAppRoot } from '../common/app-root';
import type { RecordsConfig } from '../records/records.config';
import { loadRecordsConfig } from '../records/records.config';
import { type Env, LOG_LEVELS, readEnum, readInt, readPath, readUrl } from './env-readers';

export { ConfigError } from './env-readers';

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
  /** Model hub base URL sent to workers with each pull (HF_ENDPOINT, the usual variable). */
  readonly hubUrl: string;
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
  /** The records layer's settings (tokens, realtime, sign-in throttling). */
  readonly records: RecordsConfig;
  readonly generation: {
    readonly maxInputLength: number;
    /** Timeout for one whole generation forwarded to a worker, in milliseconds. */
    readonly timeoutMs: number;
  };
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
    hubUrl: readUrl(env, 'HF_ENDPOINT', 'https://huggingface.co'),
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
    records: loadRecordsConfig(env),
    generation: Object.freeze({
      maxInputLength: readInt(env, 'GENERATE_MAX_INPUT_LENGTH', 5000, 1, 100_000),
      timeoutMs: readInt(env, 'GENERATE_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    }),
  });
}

/** DI token for the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** The configuration from this process's environment: the one place in the main service that reads process.env. */
export function loadProcessConfig(overrides: Env = {}): AppConfig {
  return loadConfig({ ...process.env, ...overrides }, findAppRoot());
}
