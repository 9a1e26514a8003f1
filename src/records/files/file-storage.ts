import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/configuration';
import { isStoredFileName } from './file-names';

const COLLECTION_ID = /^[A-Za-z0-9_]{1,32}$/;
const RECORD_ID = /^[a-z0-9]{15}$/;

/**
 * Record files on disk: `<pbDataDir>/storage/<collectionId>/<recordId>/<name>`, thumbs beside them in
 * `thumbs_<name>/<size>_<name>`. Every path is built from checked parts and must resolve inside the storage root,
 * so no request can reach another folder.
 */
@Injectable()
export class FileStorage {
  readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = resolve(config.pbDataDir, 'storage');
  }

  private confine(path: string): string {
    const resolved = resolve(path);
    if (!resolved.startsWith(this.root + sep)) {
      throw new Error('path escapes the storage root');
    }
    return resolved;
  }

  recordDir(collectionId: string, recordId: string): string {
    if (!COLLECTION_ID.test(collectionId) || !RECORD_ID.test(recordId)) {
      throw new Error('invalid collection or record id for storage');
    }
    return this.confine(join(this.root, collectionId, recordId));
  }

  /** Absolute path of a stored file, or undefined when the name is not one this layer stores. */
  filePath(collectionId: string, recordId: string, name: string): string | undefined {
    if (!isStoredFileName(name)) {
      return undefined;
    }
    return this.confine(join(this.recordDir(collectionId, recordId), name));
  }

  thumbPath(collectionId: string, recordId: string, name: string, size: string): string | undefined {
    if (!isStoredFileName(name) || !/^\d{1,4}x\d{1,4}[tbf]?$/.test(size)) {
      return undefined;
    }
    return this.confine(join(this.recordDir(collectionId, recordId), `thumbs_${name}`, `${size}_${name}`));
  }

  /** Writes a file atomically (temp file + rename) so a reader never sees half of it. */
  async save(collectionId: string, recordId: string, name: string, bytes: Buffer): Promise<void> {
    const path = this.filePath(collectionId, recordId, name);
    if (!path) {
      throw new Error(`refusing to store a file named ${JSON.stringify(name)}`);
    }
    await this.writeAtomic(path, bytes);
  }

  async writeAtomic(path: string, bytes: Buffer): Promise<void> {
    const target = this.confine(path);
    await mkdir(resolve(target, '..'), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, target);
  }

  async exists(path: string): Promise<boolean> {
    try {
      return (await stat(this.confine(path))).isFile();
    } catch {
      return false;
    }
  }

  /** Deletes one stored file and its thumbs (missing files are fine). */
  async remove(collectionId: string, recordId: string, name: string): Promise<void> {
    const path = this.filePath(collectionId, recordId, name);
    if (!path) {
      return;
    }
    await rm(path, { force: true });
    await rm(this.confine(join(this.recordDir(collectionId, recordId), `thumbs_${name}`)), {
      recursive: true,
      force: true,
    });
  }

  /** Deletes a record's whole folder. */
  async removeRecord(collectionId: string, recordId: string): Promise<void> {
    await rm(this.recordDir(collectionId, recordId), { recursive: true, force: true });
  }
}
