import * as fs from 'node:fs/promises';
import { join } from 'node:path';

import {
  MODEL_MANIFEST_FILE,
  type CatalogEntry,
  type InstalledModelFile,
  type InstalledModelManifest,
} from '../contract/worker-api';
import { isSafeFilePath } from './model-paths';

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A manifest.json larger than this is not one the store wrote. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * Reads `<variantDir>/manifest.json` and checks it is one the store wrote for this backend and variant. Pure
 * reading: backends may use it to find their files (`files[].target`) without going through Nest.
 *
 * @returns undefined when it is missing, unreadable or not a valid manifest of this variant.
 */
export async function readInstalledManifest(
  variantDir: string,
  backend: string,
  variant: string,
): Promise<InstalledModelManifest | undefined> {
  const file = join(variantDir, MODEL_MANIFEST_FILE);
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES) {
      return undefined;
    }
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return isInstalledManifest(parsed, backend, variant) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isInstalledManifest(
  value: unknown,
  backend: string,
  variant: string,
): value is InstalledModelManifest {
  if (!value || typeof value !== 'object') {
    return false;
  }
  const manifest = value as Partial<InstalledModelManifest>;
  return (
    manifest.formatVersion === 1 &&
    manifest.backend === backend &&
    manifest.variant === variant &&
    typeof manifest.installedAt === 'string' &&
    typeof manifest.size === 'number' &&
    !!manifest.entry &&
    typeof manifest.entry === 'object' &&
    typeof (manifest.entry as Partial<CatalogEntry>).id === 'string' &&
    Array.isArray(manifest.files) &&
    manifest.files.length > 0 &&
    manifest.files.every(isInstalledFile)
  );
}

function isInstalledFile(value: unknown): value is InstalledModelFile {
  if (!value || typeof value !== 'object') {
    return false;
  }
  const file = value as Partial<InstalledModelFile>;
  return (
    isSafeFilePath(file.target) &&
    file.target !== MODEL_MANIFEST_FILE &&
    typeof file.size === 'number' &&
    Number.isSafeInteger(file.size) &&
    file.size >= 0 &&
    typeof file.sha256 === 'string' &&
    SHA256_HEX.test(file.sha256)
  );
}
