import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomSuffix(length = 10): string {
  let suffix = '';
  for (let i = 0; i < length; i++) {
    suffix += ALPHABET[randomInt(ALPHABET.length)];
  }
  return suffix;
}

/** PocketBase's snake case: split at non-word characters, `_` before an upper-case letter that follows a lower one. */
export function snakecase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.replace(/([a-z0-9])([A-Z])/g, '$1_$2'))
    .join('_')
    .toLowerCase();
}

/**
 * The stored name of an uploaded file, as PocketBase makes it: the original name snake-cased and cut to 100
 * characters, `_` and 10 random characters, then the lower-cased extension (only [a-z0-9], at most 20 characters),
 * e.g. `My Photo.PNG` → `my_photo_k2j4h5g6f7.png`. Path separators, dots and control characters cannot survive, so
 * the result is always a plain file name.
 */
export function storedFileName(original: string, fallbackExtension = ''): string {
  const base = original.replace(/\\/g, '/').split('/').pop() ?? '';
  const trimmed = base.slice(-300);
  const dot = trimmed.lastIndexOf('.');
  const rawExtension = dot > 0 ? trimmed.slice(dot + 1) : '';
  let extension = rawExtension
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(-20);
  if (!extension) {
    extension = fallbackExtension
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(-20);
  }
  let name = snakecase(dot > 0 ? trimmed.slice(0, dot) : trimmed);
  if (name.length < 3) {
    name += randomSuffix();
  } else if (name.length > 100) {
    name = name.slice(0, 100);
  }
  return `${name}_${randomSuffix()}${extension ? `.${extension}` : ''}`;
}

/** Whether `name` is a file name this layer could have stored (checked before touching the disk). */
export function isStoredFileName(name: string): boolean {
  return /^[a-z0-9_]{1,140}(\.[a-z0-9]{1,20})?$/.test(name);
}
