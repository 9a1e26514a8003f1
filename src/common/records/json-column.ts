import type { ValueTransformer } from 'typeorm';

/**
 * A `text` column holding JSON (multi-value and json fields of the records layer), seen by TypeORM code as the
 * parsed value. Unparseable stored text reads as `fallback`, never as an exception.
 */
export function jsonColumn<T>(fallback: T): ValueTransformer {
  return {
    to: (value: T | undefined) => JSON.stringify(value ?? fallback),
    from: (raw: unknown): T => {
      if (typeof raw !== 'string' || raw === '') {
        return fallback;
      }
      try {
        return JSON.parse(raw) as T;
      } catch {
        return fallback;
      }
    },
  };
}
