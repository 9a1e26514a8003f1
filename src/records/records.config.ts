import { readInt, type Env } from '../config/env-readers';

/** Settings of the records layer (validated once at start-up, like AppConfig). */
export interface RecordsConfig {
  /** A realtime (SSE) client that receives nothing for this long is disconnected. */
  readonly realtimeIdleTimeoutMs: number;
  /** Lifetime of a `users` auth token, in seconds. */
  readonly authTokenTtlSeconds: number;
  /** Lifetime of a `_superusers` auth token, in seconds. */
  readonly superuserTokenTtlSeconds: number;
  /** Lifetime of a protected-file token, in seconds. */
  readonly fileTokenTtlSeconds: number;
  /** Failed sign-ins allowed per IP and identity within `loginWindowMs` before answering 429. */
  readonly loginMaxFailures: number;
  readonly loginWindowMs: number;
}

/** DI token of the RecordsConfig object. */
export const RECORDS_CONFIG = Symbol('RECORDS_CONFIG');

/**
 * Reads the records layer's variables. Kept beside the module it configures; the config owner may fold it into
 * AppConfig (the variables and defaults stay the same).
 */
export function loadRecordsConfig(env: Env): RecordsConfig {
  return Object.freeze({
    realtimeIdleTimeoutMs: readInt(env, 'REALTIME_IDLE_TIMEOUT_MS', 300_000, 100, 86_400_000),
    authTokenTtlSeconds: readInt(env, 'AUTH_TOKEN_TTL_SECONDS', 604_800, 60, 31_536_000),
    superuserTokenTtlSeconds: readInt(env, 'SUPERUSER_TOKEN_TTL_SECONDS', 86_400, 60, 31_536_000),
    fileTokenTtlSeconds: 120,
    loginMaxFailures: readInt(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginWindowMs: 60_000,
  });
}
