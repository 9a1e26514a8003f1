import { isAbsolute, resolve } from 'node:path';

/** A bad environment value: start-up stops with a message naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
  }
}

export type Env = Record<string, string | undefined>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
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

export function readUrl(env: Env, name: string, fallback: string): string {
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

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
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

export function readPath(env: Env, name: string, fallback: string, base: string): string {
  const raw = env[name]?.trim() || fallback;
  if (raw.includes('\0')) {
    throw new ConfigError(name, 'must not contain NUL bytes');
  }
  return isAbsolute(raw) ? raw : resolve(base, raw);
}
