import { Injectable, computed, inject, signal } from '@angular/core';
import { ApiError } from '../../core/api-error';
import { RecordsAdminClient, toRecordsError } from '../../records/records-admin.client';
import { CollectionSchema } from '../../records/records.types';

/** The collections (schemas and record counts) shared by the admin pages. */
@Injectable()
export class CollectionsStore {
  private readonly client = inject(RecordsAdminClient);

  readonly collections = signal<CollectionSchema[] | null>(null);
  readonly error = signal<ApiError | null>(null);
  readonly loading = signal(false);

  private readonly byNameMap = computed(
    () => new Map((this.collections() ?? []).map((c) => [c.name, c] as const)),
  );
  private readonly byIdMap = computed(
    () => new Map((this.collections() ?? []).map((c) => [c.id, c] as const)),
  );

  byName(name: string): CollectionSchema | undefined {
    return this.byNameMap().get(name);
  }

  byId(id: string): CollectionSchema | undefined {
    return this.byIdMap().get(id);
  }

  async load(): Promise<void> {
    this.loading.set(true);
    try {
      this.collections.set(await this.client.collections());
      this.error.set(null);
    } catch (error) {
      this.error.set(toRecordsError(error));
    } finally {
      this.loading.set(false);
    }
  }

  /** Sets a collection's count from a list answer (`totalItems` without a filter). */
  setCount(name: string, count: number): void {
    this.collections.update(
      (list) =>
        list?.map((c) =>
          c.name === name && c.recordCount !== count ? { ...c, recordCount: count } : c,
        ) ?? null,
    );
  }

  adjustCount(name: string, delta: number): void {
    this.collections.update(
      (list) =>
        list?.map((c) =>
          c.name === name ? { ...c, recordCount: Math.max(0, c.recordCount + delta) } : c,
        ) ?? null,
    );
  }
}
