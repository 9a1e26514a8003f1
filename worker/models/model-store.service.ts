import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import {
  MODEL_MANIFEST_FILE,
  type InstalledModelFile,
  type InstalledModelManifest,
} from '../contract/worker-api';
import { readInstalledManifest } from './model-manifest';
import { confinedPath, isInside, isModelSegment, STAGING_DIR, TRASH_DIR } from './model-paths';
import type { PullPlan } from './pull-plan';

/** Partial downloads untouched for this long are dropped at start-up. */
const STALE_STAGING_MS = 7 * 24 * 60 * 60 * 1000;

/** Written into a staging folder: which pull its `.part` files belong to (a different pull starts afresh). */
const STAGING_STAMP = '.chorus-pull.json';

export type InstallCheck =
  | { installed: true; manifest: InstalledModelManifest; verified: boolean }
  | { installed: false; reason: string };

/**
 * The models directory on disk (SPEC §2: `<models>/<backend>/<variant>/<files>`), and the only code that
 * changes it. Everything it touches is confined to the directory with symlinks resolved.
 *
 * - Pulls write into `<models>/.staging/<backend>/<variant>/` (`<target>.part` while downloading).
 * - {@link install} renames the finished staging folder to `<models>/<backend>/<variant>` (an existing variant
 *   is renamed aside into `<models>/.trash/` first, then removed) and writes `manifest.json` last.
 * - A variant counts as installed only with a valid `manifest.json` whose files are all present with their
 *   recorded sizes, so a crash at any point leaves either the old model, no model, or the new one.
 */
@Injectable()
export class ModelStore implements OnModuleInit {
  private readonly logger = new Logger(ModelStore.name);
  private readonly configuredRoot: string;
  private realRoot: Promise<string> | undefined;

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.configuredRoot = config.inference.modelsPath;
  }

  async onModuleInit(): Promise<void> {
    const root = await this.root();
    // Variants renamed aside by a replace or delete that was interrupted: never installed, safe to drop.
    await fs.rm(join(root, TRASH_DIR), { recursive: true, force: true }).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Could not empty the models trash folder');
    });
    await this.dropStaleStaging(root).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Could not clean the models staging folder');
    });
  }

  /**
   * `.part` files of cancelled or cut pulls wait in `.staging` for the next pull of the same files to resume
   * them; those nobody came back for within {@link STALE_STAGING_MS} are removed at start-up.
   */
  private async dropStaleStaging(root: string): Promise<void> {
    const now = Date.now();
    for (const backend of await subfolders(join(root, STAGING_DIR))) {
      for (const variant of await subfolders(join(root, STAGING_DIR, backend))) {
        const dir = join(root, STAGING_DIR, backend, variant);
        const newest = await newestMtime(dir);
        if (now - newest > STALE_STAGING_MS) {
          await fs.rm(dir, { recursive: true, force: true });
          this.logger.log(`Removed the partial download of ${backend}/${variant} (untouched for a week)`);
        }
      }
      await removeEmptyStaging(root, backend);
    }
  }

  /** The models directory with symlinks resolved (created when missing). */
  root(): Promise<string> {
    this.realRoot ??= (async () => {
      await fs.mkdir(this.configuredRoot, { recursive: true });
      return fs.realpath(this.configuredRoot);
    })();
    return this.realRoot;
  }

  /** `<models>/<relative>`, refused (UnsafePathError) when it resolves outside the models directory. */
  async confine(relative: string): Promise<string> {
    return confinedPath(await this.root(), relative);
  }

  /** Every installed variant (valid manifest, files present), sorted by path. Invalid folders are skipped. */
  async list(): Promise<InstalledModelManifest[]> {
    const root = await this.root();
    const found: InstalledModelManifest[] = [];
    for (const backend of await subfolders(root)) {
      for (const variant of await subfolders(join(root, backend))) {
        const check = await this.check(backend, variant).catch(() => undefined);
        if (check?.installed) {
          found.push(check.manifest);
        }
      }
    }
    return found.sort((a, b) => `${a.backend}/${a.variant}`.localeCompare(`${b.backend}/${b.variant}`));
  }

  /**
   * The install check: `manifest.json` valid for this variant and every file present as a regular file with its
   * recorded size; with `verify`, the sha256 of every file is recomputed too.
   *
   * @throws UnsafePathError when the variant folder resolves outside the models directory.
   */
  async check(backend: string, variant: string, verify = false): Promise<InstallCheck> {
    const dir = await this.confine(`${backend}/${variant}`);
    const realDir = await fs.realpath(dir).catch(() => undefined);
    if (!realDir) {
      return { installed: false, reason: 'not installed' };
    }
    const manifest = await readInstalledManifest(realDir, backend, variant);
    if (!manifest) {
      return { installed: false, reason: `its ${MODEL_MANIFEST_FILE} is missing or invalid` };
    }
    for (const file of manifest.files) {
      const path = join(realDir, file.target);
      const stat = await fs.lstat(path).catch(() => undefined);
      if (!stat?.isFile()) {
        return { installed: false, reason: `${file.target} is missing` };
      }
      const real = await fs.realpath(path);
      if (!isInside(realDir, real)) {
        return { installed: false, reason: `${file.target} lies outside the model folder` };
      }
      if (stat.size !== file.size) {
        return { installed: false, reason: `${file.target} has ${stat.size} bytes instead of ${file.size}` };
      }
      if (verify && (await sha256File(path)) !== file.sha256) {
        return { installed: false, reason: `${file.target} does not match its sha256` };
      }
    }
    return { installed: true, manifest, verified: verify };
  }

  /**
   * The staging folder of a pull, created when missing. `.part` files left by an earlier pull of the same files
   * are kept (resumed); anything left by a different pull of this variant is removed first.
   */
  async prepareStaging(plan: PullPlan): Promise<string> {
    const dir = await this.confine(`${STAGING_DIR}/${plan.backend}/${plan.variant}`);
    const stampFile = join(dir, STAGING_STAMP);
    const stamp = await fs.readFile(stampFile, 'utf8').catch(() => undefined);
    if (stamp !== undefined && stamp.trim() !== JSON.stringify({ fingerprint: plan.fingerprint })) {
      await fs.rm(dir, { recursive: true, force: true });
    }
    await fs.mkdir(dir, { recursive: true });
    await this.confine(`${STAGING_DIR}/${plan.backend}/${plan.variant}`);
    await fs.writeFile(stampFile, `${JSON.stringify({ fingerprint: plan.fingerprint })}\n`);
    return dir;
  }

  /** Bytes already in a staging folder (`.part` files and finished files), counted against the free-space need. */
  async stagedBytes(stagingDir: string): Promise<number> {
    let total = 0;
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          await walk(path);
        } else if (entry.isFile() && entry.name !== STAGING_STAMP) {
          total += (await fs.stat(path)).size;
        }
      }
    };
    await walk(stagingDir);
    return total;
  }

  async discardStaging(backend: string, variant: string): Promise<void> {
    const dir = await this.confine(`${STAGING_DIR}/${backend}/${variant}`);
    await fs.rm(dir, { recursive: true, force: true });
    await removeEmptyStaging(await this.root(), backend);
  }

  /** Free bytes for the worker on the models volume, or undefined when the platform cannot tell. */
  async freeBytes(): Promise<number | undefined> {
    try {
      const stats = await fs.statfs(await this.root());
      return Number(stats.bavail) * Number(stats.bsize);
    } catch {
      return undefined;
    }
  }

  /**
   * Moves a finished staging folder into place and writes `manifest.json` last (temp file + rename), replacing an
   * existing variant: it is renamed aside first and removed once the new one is in place (restored on failure).
   */
  async install(
    plan: PullPlan,
    stagingDir: string,
    files: InstalledModelFile[],
  ): Promise<InstalledModelManifest> {
    const root = await this.root();
    const finalDir = await this.confine(`${plan.backend}/${plan.variant}`);
    await fs.mkdir(dirname(finalDir), { recursive: true });
    await this.confine(`${plan.backend}/${plan.variant}`);
    await fs.rm(join(stagingDir, STAGING_STAMP), { force: true });

    const manifest: InstalledModelManifest = {
      formatVersion: 1,
      backend: plan.backend,
      variant: plan.variant,
      entry: plan.entry,
      files,
      size: files.reduce((sum, file) => sum + file.size, 0),
      source: plan.hubUrl,
      installedAt: new Date().toISOString(),
    };

    const aside = (await exists(finalDir))
      ? await this.moveToTrash(finalDir, plan.backend, plan.variant)
      : undefined;
    try {
      await fs.rename(stagingDir, finalDir);
    } catch (error) {
      if (aside) {
        await fs.rename(aside, finalDir).catch(() => undefined);
      }
      throw error;
    }
    try {
      await writeFileAtomic(join(finalDir, MODEL_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    } catch (error) {
      // Without its manifest the new folder does not count; put the old variant back if there was one.
      const failed = await this.moveToTrash(finalDir, plan.backend, plan.variant).catch(() => undefined);
      if (aside) {
        await fs.rename(aside, finalDir).catch(() => undefined);
      }
      if (failed) {
        await fs.rm(failed, { recursive: true, force: true }).catch(() => undefined);
      }
      throw error;
    }
    await syncDir(dirname(finalDir));
    if (aside) {
      await fs.rm(aside, { recursive: true, force: true }).catch((error: unknown) => {
        this.logger.warn({ err: error }, `Could not remove the replaced copy of ${plan.destPath}`);
      });
    }
    await removeEmptyStaging(root, plan.backend);
    return manifest;
  }

  /**
   * Removes a variant folder: renamed into the trash first (atomic: from that moment it is gone), then deleted.
   * @returns false when there was no such folder.
   */
  async remove(backend: string, variant: string): Promise<boolean> {
    const dir = await this.confine(`${backend}/${variant}`);
    if (!(await exists(dir))) {
      return false;
    }
    const aside = await this.moveToTrash(dir, backend, variant);
    await fs.rm(aside, { recursive: true, force: true });
    await fs.rmdir(dirname(dir)).catch(() => undefined); // the backend folder, when now empty
    return true;
  }

  private async moveToTrash(dir: string, backend: string, variant: string): Promise<string> {
    const trash = await this.confine(TRASH_DIR);
    await fs.mkdir(trash, { recursive: true });
    const aside = join(trash, `${backend}--${variant}--${randomUUID()}`);
    await fs.rename(dir, aside);
    return aside;
  }
}

/** Removes `.staging/<backend>` and `.staging` when nothing else is staged in them. */
async function removeEmptyStaging(root: string, backend: string): Promise<void> {
  await fs.rmdir(join(root, STAGING_DIR, backend)).catch(() => undefined);
  await fs.rmdir(join(root, STAGING_DIR)).catch(() => undefined);
}

/** Folders (or symlinks to folders) directly inside `dir` whose names the store accepts. */
async function subfolders(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && isModelSegment(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** The latest modification time of a folder and the files directly in it. */
async function newestMtime(dir: string): Promise<number> {
  let newest = (await fs.stat(dir)).mtimeMs;
  for (const name of await fs.readdir(dir).catch(() => [])) {
    const stat = await fs.lstat(join(dir, name)).catch(() => undefined);
    newest = Math.max(newest, stat?.mtimeMs ?? 0);
  }
  return newest;
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const file = await fs.open(temp, 'w');
  try {
    await file.writeFile(content);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Makes renames inside `dir` durable (best effort: not every platform can open a folder). */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here; the rename is still atomic, only its durability across a power cut is weaker.
  }
}
