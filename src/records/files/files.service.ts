import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { AuthService } from '../auth/auth.service';
import { CollectionRegistry } from '../collections/collection-registry';
import type { ResolvedField } from '../collections/collection.types';
import { decodeRow } from '../record-codec';
import { RecordsRepository } from '../records.repository';
import { RuleEngine } from '../rules';
import { FileStorage } from './file-storage';
import { THUMB_IMAGE_TYPES, detectMime } from './mime';
import { parseThumbSize, renderThumb } from './thumbs';
import { readFile } from 'node:fs/promises';

/** Thumb size every image file field serves, as in PocketBase. */
const DEFAULT_THUMBS = ['100x100'];

/** The file to send for a download request. */
export interface ServedFile {
  readonly path: string;
  /** The name to send (the stored name, or `<size>_<name>` for a thumb). */
  readonly name: string;
  readonly protected: boolean;
}

/** Resolves record file downloads: access to protected files, lazy cached thumbs. */
@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);
  /** Thumbs being rendered, so concurrent requests for one thumb render it once. */
  private readonly pendingThumbs = new Map<string, Promise<void>>();

  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
    private readonly rules: RuleEngine,
    private readonly auth: AuthService,
    private readonly storage: FileStorage,
  ) {}

  async resolve(
    collectionRef: string,
    recordId: string,
    filename: string,
    options: { thumb?: string; token?: string },
  ): Promise<ServedFile> {
    const collection = this.registry.find(collectionRef);
    if (!collection || !/^[a-z0-9]{15}$/.test(recordId)) {
      throw ApiError.notFound();
    }
    const row = await this.records.findById(collection, recordId);
    if (!row) {
      throw ApiError.notFound();
    }
    const data = decodeRow(collection, row);
    const field = collection.fields.find((candidate) => holdsFile(candidate, data[candidate.name], filename));
    if (!field?.file) {
      throw ApiError.notFound();
    }
    if (field.file.protected) {
      const auth = options.token ? await this.auth.verifyFileToken(options.token) : null;
      const allowed = await this.rules.canAccessStored(collection, recordId, collection.rules.view, {
        auth,
        context: 'protectedFile',
      });
      if (!allowed) {
        throw ApiError.notFound();
      }
    }
    const original = this.storage.filePath(collection.id, recordId, filename);
    if (!original || !(await this.storage.exists(original))) {
      throw ApiError.notFound();
    }
    const served: ServedFile = { path: original, name: filename, protected: !!field.file.protected };
    const size = options.thumb;
    if (
      !size ||
      !(DEFAULT_THUMBS.includes(size) || field.file.thumbs?.includes(size)) ||
      !parseThumbSize(size)
    ) {
      return served;
    }
    const thumbPath = this.storage.thumbPath(collection.id, recordId, filename, size);
    if (!thumbPath) {
      return served;
    }
    try {
      if (!(await this.storage.exists(thumbPath))) {
        const head = (await readFile(original)).subarray(0, 64);
        if (!THUMB_IMAGE_TYPES.includes(detectMime(head).mime)) {
          return served;
        }
        await this.renderOnce(original, thumbPath, size);
      }
      return { ...served, path: thumbPath, name: `${size}_${filename}` };
    } catch (error) {
      // Like PocketBase: a thumb that cannot be made falls back to the original.
      this.logger.warn(
        `thumb ${size} of ${collection.name}/${recordId}/${filename} failed: ${String(error)}`,
      );
      return served;
    }
  }

  private renderOnce(original: string, thumbPath: string, size: string): Promise<void> {
    let pending = this.pendingThumbs.get(thumbPath);
    if (!pending) {
      pending = renderThumb(original, parseThumbSize(size)!)
        .then((bytes) => this.storage.writeAtomic(thumbPath, bytes))
        .finally(() => this.pendingThumbs.delete(thumbPath));
      this.pendingThumbs.set(thumbPath, pending);
    }
    return pending;
  }
}

function holdsFile(field: ResolvedField, value: unknown, filename: string): boolean {
  return field.type === 'file' && (Array.isArray(value) ? value.includes(filename) : value === filename);
}
