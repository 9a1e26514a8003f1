import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A PocketBase-style record id: 15 characters of [a-z0-9] from a CSPRNG. */
export function newRecordId(): string {
  let id = '';
  for (let i = 0; i < 15; i++) {
    id += ALPHABET[randomInt(ALPHABET.length)];
  }
  return id;
}

export function isRecordId(value: string): boolean {
  return /^[a-z0-9]{15}$/.test(value);
}

/** PocketBase's date format: `2006-01-02 15:04:05.000Z` (UTC, space separator, milliseconds). */
export function recordDate(date: Date = new Date()): string {
  return date.toISOString().replace('T', ' ');
}
