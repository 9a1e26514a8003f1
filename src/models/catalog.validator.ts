import type { CatalogEntry } from '../../worker/contract/worker-api';

const MODEL_TYPES = new Set(['preset', 'cloning', 'design', 'transcription', 'api']);
const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const SEGMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const REPO_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}\/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;
const LANGUAGE_PATTERN = /^([a-z]{2}|\*)$/;

export class CatalogValidationError extends Error {}

type Json = Record<string, unknown>;

/** A safe relative file path inside a repository: no absolute paths, no `..`, no backslashes or NULs. */
export function isSafeRelativePath(path: string): boolean {
  if (!path || path.length > 512 || path.startsWith('/') || /[\\\0]/.test(path)) {
    return false;
  }
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

class EntryChecker {
  constructor(
    private readonly entry: Json,
    private readonly where: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new CatalogValidationError(`catalog ${this.where}: "${field}" ${problem}`);
  }

  string(field: string, optional = false): string | undefined {
    const value = this.entry[field];
    if (value === undefined && optional) {
      return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      this.fail(field, 'must be a non-empty string');
    }
    return value;
  }

  boolean(field: string): void {
    const value = this.entry[field];
    if (value !== undefined && typeof value !== 'boolean') {
      this.fail(field, 'must be a boolean');
    }
  }

  number(field: string, optional: boolean, min = 0): number | undefined {
    const value = this.entry[field];
    if (value === undefined && optional) {
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      this.fail(field, `must be a number >= ${min}`);
    }
    return value;
  }

  array(field: string, optional = false): unknown[] | undefined {
    const value = this.entry[field];
    if (value === undefined && optional) {
      return undefined;
    }
    if (!Array.isArray(value)) {
      this.fail(field, 'must be an array');
    }
    return value as unknown[];
  }
}

const KNOWN_FIELDS = new Set([
  'id',
  'name',
  'description',
  'backend',
  'backendDisplayName',
  'backendDescription',
  'variant',
  'repo',
  'revision',
  'files',
  'size',
  'types',
  'presetVoices',
  'maxReferenceDuration',
  'supportsInstruct',
  'supportsEffects',
  'gated',
  'license',
  'commercial',
  'hardware',
  'minVram',
  'languages',
  'recommended',
  'legacy',
  'family',
  'embedded',
]);

function checkEntry(raw: unknown, index: number): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CatalogValidationError(`catalog entry #${index} must be an object`);
  }
  const entry = raw as Json;
  const label = typeof entry.id === 'string' ? `entry "${entry.id}"` : `entry #${index}`;
  const check = new EntryChecker(entry, label);
  for (const key of Object.keys(entry)) {
    if (!KNOWN_FIELDS.has(key)) {
      check.fail(key, 'is not a known catalog field');
    }
  }
  const id = check.string('id')!;
  if (!ID_PATTERN.test(id)) {
    check.fail('id', 'must be lower-case letters, digits, ".", "_" or "-"');
  }
  for (const field of ['name', 'description', 'backendDisplayName', 'backendDescription', 'license']) {
    check.string(field);
  }
  for (const field of ['backend', 'variant']) {
    if (!SEGMENT_PATTERN.test(check.string(field)!)) {
      check.fail(field, 'must be a single safe path segment');
    }
  }
  check.string('family', true);
  check.string('revision', true);
  const embedded = entry.embedded === true;
  if (entry.repo === null) {
    if (!embedded) {
      check.fail('repo', 'may be null only for embedded engines');
    }
  } else if (typeof entry.repo !== 'string' || !REPO_PATTERN.test(entry.repo)) {
    check.fail('repo', 'must be "owner/name"');
  }
  const files = check.array('files')!;
  if (!embedded && files.length === 0) {
    check.fail('files', 'must list at least one file');
  }
  let total = 0;
  const targets = new Set<string>();
  files.forEach((file, fileIndex) => {
    const fileCheck = new EntryChecker(file as Json, `${label} file #${fileIndex}`);
    if (typeof file !== 'object' || file === null) {
      fileCheck.fail('file', 'must be an object');
    }
    const path = fileCheck.string('path')!;
    if (!isSafeRelativePath(path)) {
      fileCheck.fail('path', 'must be a relative path without ".." segments');
    }
    const repo = fileCheck.string('repo', true);
    if (repo !== undefined && !REPO_PATTERN.test(repo)) {
      fileCheck.fail('repo', 'must be "owner/name"');
    }
    fileCheck.string('revision', true);
    const size = fileCheck.number('size', true);
    total += size ?? 0;
    const sha256 = fileCheck.string('sha256', true);
    if (sha256 !== undefined && !SHA256_PATTERN.test(sha256)) {
      fileCheck.fail('sha256', 'must be 64 lower-case hex digits');
    }
    const target = fileCheck.string('target', true) ?? path.split('/').pop()!;
    if (!isSafeRelativePath(target)) {
      fileCheck.fail('target', 'must be a relative path without ".." segments');
    }
    if (targets.has(target)) {
      fileCheck.fail('target', `"${target}" is installed twice`);
    }
    targets.add(target);
  });
  const size = check.number('size', false)!;
  if (files.every((file) => typeof (file as Json).size === 'number') && size !== total) {
    check.fail('size', `must equal the sum of file sizes (${total})`);
  }
  const types = check.array('types')!;
  if (types.length === 0 || !types.every((type) => typeof type === 'string' && MODEL_TYPES.has(type))) {
    check.fail('types', `must list one or more of ${[...MODEL_TYPES].join(', ')}`);
  }
  const voices = check.array('presetVoices', true);
  if (types.includes('preset') && (!voices || voices.length === 0)) {
    check.fail('presetVoices', 'must list at least one voice for a preset model');
  }
  const voiceIds = new Set<string>();
  voices?.forEach((voice, voiceIndex) => {
    const voiceCheck = new EntryChecker(voice as Json, `${label} voice #${voiceIndex}`);
    const voiceId = voiceCheck.string('id')!;
    if (voiceIds.has(voiceId)) {
      voiceCheck.fail('id', `"${voiceId}" is listed twice`);
    }
    voiceIds.add(voiceId);
    voiceCheck.string('name');
    if (!LANGUAGE_PATTERN.test(voiceCheck.string('language')!)) {
      voiceCheck.fail('language', 'must be an ISO 639-1 code');
    }
    voiceCheck.number('speakerId', true);
  });
  if (types.includes('cloning')) {
    check.number('maxReferenceDuration', false, 1);
  } else {
    check.number('maxReferenceDuration', true, 1);
  }
  for (const flag of [
    'supportsInstruct',
    'supportsEffects',
    'gated',
    'commercial',
    'recommended',
    'legacy',
    'embedded',
  ]) {
    check.boolean(flag);
  }
  const hardware = check.string('hardware');
  if (hardware !== 'cpu' && hardware !== 'gpu') {
    check.fail('hardware', 'must be "cpu" or "gpu"');
  }
  check.number('minVram', true);
  const languages = check.array('languages')!;
  if (
    languages.length === 0 ||
    !languages.every((code) => typeof code === 'string' && LANGUAGE_PATTERN.test(code))
  ) {
    check.fail('languages', 'must list ISO 639-1 codes or "*"');
  }
}

/** Validates a parsed catalog.json, throwing CatalogValidationError with the entry and field at fault. */
export function validateCatalog(raw: unknown): CatalogEntry[] {
  if (!Array.isArray(raw)) {
    throw new CatalogValidationError('catalog must be a JSON array of entries');
  }
  const ids = new Set<string>();
  const destinations = new Set<string>();
  raw.forEach((entry, index) => {
    checkEntry(entry, index);
    const { id, backend, variant } = entry as CatalogEntry;
    if (ids.has(id)) {
      throw new CatalogValidationError(`catalog entry "${id}" is listed twice`);
    }
    ids.add(id);
    const destination = `${backend}/${variant}`;
    if (destinations.has(destination)) {
      throw new CatalogValidationError(
        `catalog entry "${id}": ${destination} is already used by another entry`,
      );
    }
    destinations.add(destination);
  });
  return raw as CatalogEntry[];
}
