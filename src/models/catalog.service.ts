import { readFileSync } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { CatalogValidationError, validateCatalog } from './catalog.validator';

/** The embedded catalog of installable models, validated once at start-up (a bad catalog stops the service). */
@Injectable()
export class CatalogService {
  private readonly entries: readonly CatalogEntry[];
  private readonly byId: ReadonlyMap<string, CatalogEntry>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.entries = loadCatalog(config.catalogFile);
    this.byId = new Map(this.entries.map((entry) => [entry.id, entry]));
  }

  list(): readonly CatalogEntry[] {
    return this.entries;
  }

  find(id: string): CatalogEntry | undefined {
    return this.byId.get(id);
  }
}

export function loadCatalog(file: string): CatalogEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogValidationError(`cannot read catalog ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CatalogValidationError(`catalog ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return validateCatalog(parsed);
}

/** Where a worker keeps a model, relative to its models directory; null for embedded engines (nothing on disk). */
export function workerModelPath(entry: CatalogEntry): string | null {
  return entry.embedded ? null : `${entry.backend}/${entry.variant}`;
}
