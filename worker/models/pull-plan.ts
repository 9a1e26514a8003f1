import { HttpStatus } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

import { ApiError, type FieldErrors } from '../common/api-error';
import { VALIDATION_FAILED_MESSAGE } from '../common/validation-errors';
import { MODEL_MANIFEST_FILE, type CatalogEntry, type PullRequest } from '../contract/worker-api';
import { isSafeFilePath, parseModelPath } from './model-paths';

/** One file of a pull, fully resolved. */
export interface PullFilePlan {
  /** Path in the repository. */
  path: string;
  repo: string;
  revision: string;
  /** Path inside the variant folder. */
  target: string;
  size?: number;
  sha256?: string;
  /** `{hub}/{repo}/resolve/{revision}/{path}`, segments encoded. */
  url: string;
}

/** A validated `POST /models/pull`. */
export interface PullPlan {
  backend: string;
  variant: string;
  /** `<backend>/<variant>`. */
  destPath: string;
  /** Hub base URL without trailing slash. */
  hubUrl: string;
  /** Origin the HF token may be sent to. */
  hubOrigin: string;
  entry: CatalogEntry;
  files: PullFilePlan[];
  /** Total bytes: the sum of the file sizes when the catalog gives them all, else its `size` when positive. */
  totalSize: number | undefined;
  /** Identity of what is downloaded: two pulls of one `dest_path` share a download only when it is equal. */
  fingerprint: string;
}

const REPO_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const REVISION = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * Validates a pull request into a {@link PullPlan}. The catalog entry is checked here by hand rather than by a
 * DTO: the main service owns the catalog's shape and may add fields, which must travel into `manifest.json`
 * untouched, while the fields the store relies on (backend, variant, repository, files) are checked strictly.
 *
 * @throws ApiError 400 listing every problem (`data` keyed by field, e.g. `manifest.files.0.path`).
 */
export function planPull(request: PullRequest): PullPlan {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => {
    errors[field] ??= { code, message };
  };

  const hub = parseHubUrl(request.url);
  if (!hub) {
    fail(
      'url',
      'validation_is_url',
      'url must be an absolute http(s) URL without credentials, query or fragment',
    );
  }
  const dest = parseModelPath(request.dest_path);
  if (!dest) {
    fail(
      'dest_path',
      'validation_is_safe_relative_path',
      'dest_path must be "<backend>/<variant>": two folder names, no "..", no leading dot, no absolute path',
    );
  }

  const manifest = request.manifest as unknown;
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    fail('manifest', 'validation_invalid_type', 'manifest must be a catalog entry object');
    throw invalid(errors);
  }
  const entry = manifest as Record<string, unknown>;
  for (const field of ['id', 'backend', 'variant'] as const) {
    if (typeof entry[field] !== 'string' || !entry[field]) {
      fail(`manifest.${field}`, 'validation_required', `manifest.${field} must be a non-empty string`);
    }
  }
  if (dest && typeof entry.backend === 'string' && typeof entry.variant === 'string') {
    if (`${entry.backend}/${entry.variant}` !== request.dest_path) {
      fail(
        'dest_path',
        'dest_path_mismatch',
        `dest_path "${request.dest_path}" does not match the manifest's "${entry.backend}/${entry.variant}"`,
      );
    }
  }
  const defaultRepo = entry.repo;
  if (defaultRepo !== null && defaultRepo !== undefined && !isRepo(defaultRepo)) {
    fail('manifest.repo', 'validation_match_invalid', 'manifest.repo must be "owner/name"');
  }
  const defaultRevision = entry.revision;
  if (defaultRevision !== undefined && !isRevision(defaultRevision)) {
    fail(
      'manifest.revision',
      'validation_match_invalid',
      'manifest.revision must be a branch, tag or commit',
    );
  }
  const declaredSize = entry.size;
  if (declaredSize !== undefined && !isSize(declaredSize)) {
    fail('manifest.size', 'validation_invalid_type', 'manifest.size must be a non-negative integer');
  }

  const files: PullFilePlan[] = [];
  if (!Array.isArray(entry.files) || entry.files.length === 0) {
    fail('manifest.files', 'validation_required', 'manifest.files must list at least one file to download');
  } else {
    const targets = new Map<string, number>();
    entry.files.forEach((raw: unknown, index) => {
      const field = `manifest.files.${index}`;
      if (!raw || typeof raw !== 'object') {
        fail(field, 'validation_invalid_type', `${field} must be an object`);
        return;
      }
      const file = raw as Record<string, unknown>;
      if (!isSafeFilePath(file.path)) {
        fail(
          `${field}.path`,
          'unsafe_path',
          `${field}.path must be a relative path without "..", "." or "\\"`,
        );
        return;
      }
      const repo = file.repo ?? defaultRepo;
      if (file.repo === undefined && errors['manifest.repo']) {
        return; // reported once, on the entry
      }
      if (!isRepo(repo)) {
        fail(
          `${field}.repo`,
          'validation_match_invalid',
          `${field}.repo (or manifest.repo) must be "owner/name"`,
        );
        return;
      }
      const revision = file.revision ?? defaultRevision ?? 'main';
      if (file.revision === undefined && errors['manifest.revision']) {
        return;
      }
      if (!isRevision(revision)) {
        fail(
          `${field}.revision`,
          'validation_match_invalid',
          `${field}.revision must be a branch, tag or commit`,
        );
        return;
      }
      const target = file.target ?? posix.basename(file.path);
      if (!isSafeFilePath(target)) {
        fail(
          `${field}.target`,
          'unsafe_path',
          `${field}.target must be a relative path without "..", "." or "\\"`,
        );
        return;
      }
      if (target === MODEL_MANIFEST_FILE || target.endsWith('.part')) {
        fail(
          `${field}.target`,
          'unsafe_path',
          `${field}.target "${target}" is a name the model store keeps for itself`,
        );
        return;
      }
      if (file.size !== undefined && !isSize(file.size)) {
        fail(`${field}.size`, 'validation_invalid_type', `${field}.size must be a non-negative integer`);
        return;
      }
      if (file.sha256 !== undefined && (typeof file.sha256 !== 'string' || !SHA256_HEX.test(file.sha256))) {
        fail(`${field}.sha256`, 'validation_match_invalid', `${field}.sha256 must be 64 hex digits`);
        return;
      }
      const clash = [...targets.keys()].find(
        (other) => other === target || other.startsWith(`${target}/`) || target.startsWith(`${other}/`),
      );
      if (clash !== undefined) {
        fail(
          `${field}.target`,
          'duplicate_target',
          `${field}.target "${target}" collides with manifest.files.${targets.get(clash)} ("${clash}")`,
        );
        return;
      }
      targets.set(target, index);
      files.push({
        path: file.path,
        repo,
        revision,
        target,
        size: file.size,
        sha256: typeof file.sha256 === 'string' ? file.sha256.toLowerCase() : undefined,
        url: hub ? resolveUrl(hub.base, repo, revision, file.path) : '',
      });
    });
  }

  if (Object.keys(errors).length > 0 || !hub || !dest) {
    throw invalid(errors);
  }
  const allSized = files.every((file) => file.size !== undefined);
  const totalSize = allSized
    ? files.reduce((sum, file) => sum + (file.size ?? 0), 0)
    : typeof declaredSize === 'number' && declaredSize > 0
      ? declaredSize
      : undefined;
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        hub.base,
        files.map((file) => [file.repo, file.revision, file.path, file.target, file.size, file.sha256]),
      ]),
    )
    .digest('hex');
  return {
    backend: dest.backend,
    variant: dest.variant,
    destPath: request.dest_path,
    hubUrl: hub.base,
    hubOrigin: hub.origin,
    entry: manifest as CatalogEntry,
    files,
    totalSize,
    fingerprint,
  };
}

/** `{hub}/{repo}/resolve/{revision}/{path}` with every segment percent-encoded (the revision as one segment). */
export function resolveUrl(hubUrl: string, repo: string, revision: string, path: string): string {
  const encode = (value: string) => value.split('/').map(encodeURIComponent).join('/');
  return `${hubUrl}/${encode(repo)}/resolve/${encodeURIComponent(revision)}/${encode(path)}`;
}

function parseHubUrl(value: unknown): { base: string; origin: string } | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !url.hostname ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    return undefined;
  }
  return { base: url.href.replace(/\/+$/, ''), origin: url.origin };
}

function isRepo(value: unknown): value is string {
  if (typeof value !== 'string') {
    return false;
  }
  const parts = value.split('/');
  return (
    parts.length >= 1 &&
    parts.length <= 3 &&
    parts.every((part) => REPO_SEGMENT.test(part) && !part.includes('..'))
  );
}

function isRevision(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    REVISION.test(value) &&
    value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function invalid(errors: FieldErrors): ApiError {
  const messages = Object.values(errors);
  const message = messages.length === 1 ? messages[0].message : VALIDATION_FAILED_MESSAGE;
  return new ApiError(HttpStatus.BAD_REQUEST, message, errors);
}
