import * as fs from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

import { isSafeRelativePath } from '../common/safe-relative-path.validator';

/**
 * Backend and variant folder names: no separator, no leading dot (hidden names such as `.staging` and `.trash`
 * belong to the store), nothing a shell or URL would treat specially.
 */
export const MODEL_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,127}$/;

/** Store-owned folders inside the models directory; never listed, never addressable by a request. */
export const STAGING_DIR = '.staging';
export const TRASH_DIR = '.trash';

export interface ModelRef {
  backend: string;
  variant: string;
}

/** `<backend>/<variant>` → its parts, or undefined when it is not exactly two safe folder names. */
export function parseModelPath(value: unknown): ModelRef | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const parts = value.split('/');
  if (parts.length !== 2 || !parts.every((part) => MODEL_SEGMENT.test(part))) {
    return undefined;
  }
  return { backend: parts[0], variant: parts[1] };
}

export function isModelSegment(value: unknown): value is string {
  return typeof value === 'string' && MODEL_SEGMENT.test(value);
}

/**
 * A relative file path that stays where it is put: the common check (no absolute path, drive letter, `..`,
 * backslash, NUL, empty segment) plus no `.` segment and no control character.
 */
export function isSafeFilePath(value: unknown): value is string {
  return (
    isSafeRelativePath(value) &&
    !(value as string).split('/').includes('.') &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f]/.test(value as string)
  );
}

/** True when `path` is `root` or below it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return (
    rel === '' ||
    (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel))
  );
}

export class UnsafePathError extends Error {
  constructor(readonly relativePath: string) {
    super(`${relativePath} resolves outside the models directory`);
    this.name = 'UnsafePathError';
  }
}

/**
 * `root/relativePath`, after checking that it really stays under `realRoot` (the models directory with
 * symlinks resolved): the deepest part of the path that exists is resolved with `realpath`, so a symlink anywhere
 * on the way that points out of the directory is refused. Parts that do not exist yet are created by the caller
 * as plain folders, which cannot escape.
 *
 * @throws UnsafePathError
 */
export async function confinedPath(realRoot: string, relativePath: string): Promise<string> {
  const absolute = join(realRoot, relativePath);
  if (!isInside(realRoot, absolute)) {
    throw new UnsafePathError(relativePath);
  }
  let existing = absolute;
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      if (!isInside(realRoot, real)) {
        throw new UnsafePathError(relativePath);
      }
      return absolute;
    } catch (error) {
      if (error instanceof UnsafePathError) {
        throw error;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw error;
      }
      // A dangling symlink does not resolve either: refuse it rather than create something through it.
      if (await isSymlink(existing)) {
        throw new UnsafePathError(relativePath);
      }
    }
    if (existing === realRoot) {
      return absolute;
    }
    existing = join(existing, '..');
  }
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await fs.lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
