import { crc32 } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { RecordsRepository } from '../records.repository';
import { CollectionRegistry } from './collection-registry';
import type { ResolvedCollection, ResolvedField } from './collection.types';

/** A field schema as PocketBase's collections API shows it (plus `multiple`, `readOnly`, `manageOnly`). */
export type FieldJson = Record<string, unknown> & { id: string; name: string; type: string };

/** A collection as PocketBase's collections API shows it, plus `recordCount` for the admin panel. */
export interface CollectionJson {
  id: string;
  name: string;
  type: 'base' | 'auth';
  system: boolean;
  fields: FieldJson[];
  indexes: string[];
  listRule: string | null;
  viewRule: string | null;
  createRule: string | null;
  updateRule: string | null;
  deleteRule: string | null;
  authRule?: string | null;
  manageRule?: string | null;
  recordCount: number;
  created: string;
  updated: string;
}

export interface CollectionList {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: CollectionJson[];
}

/** Read-only description of the registry for superusers (the /_/ admin panel builds its forms from it). */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
  ) {}

  /** All collections by name, paginated like a records list (the SDK's getFullList pages through it). */
  async list(page = 1, perPage = 30): Promise<CollectionList> {
    const all = this.registry.all().sort((a, b) => a.name.localeCompare(b.name));
    const items = await Promise.all(
      all.slice((page - 1) * perPage, page * perPage).map((collection) => this.describe(collection)),
    );
    return { page, perPage, totalItems: all.length, totalPages: Math.ceil(all.length / perPage), items };
  }

  async view(nameOrId: string): Promise<CollectionJson> {
    return this.describe(this.registry.get(nameOrId));
  }

  private async describe(collection: ResolvedCollection): Promise<CollectionJson> {
    const json: CollectionJson = {
      id: collection.id,
      name: collection.name,
      type: collection.type,
      system: collection.system,
      fields: collection.fields.map((field) => this.describeField(collection, field)),
      indexes: [],
      listRule: collection.rules.list,
      viewRule: collection.rules.view,
      createRule: collection.rules.create,
      updateRule: collection.rules.update,
      deleteRule: collection.rules.delete,
      recordCount: await this.records.count(collection),
      created: '',
      updated: '',
    };
    if (collection.type === 'auth') {
      json.authRule = collection.rules.auth ?? '';
      json.manageRule = collection.rules.manage ?? null;
    }
    return json;
  }

  private describeField(collection: ResolvedCollection, field: ResolvedField): FieldJson {
    const json: FieldJson = {
      id: `${field.type}${crc32(`${collection.name}.${field.name}`)}`,
      name: field.name,
      type: field.type,
      system: !!field.system,
      hidden: !!field.hidden,
      presentable: false,
      required: !!field.required,
      multiple: !!field.multiple,
      readOnly: !!field.readOnly,
      manageOnly: !!field.manageOnly,
    };
    switch (field.type) {
      case 'text':
      case 'password':
        Object.assign(json, {
          min: field.min ?? 0,
          max: field.max ?? 0,
          pattern: field.pattern ?? '',
          primaryKey: field.name === 'id',
        });
        break;
      case 'number':
        Object.assign(json, { min: field.min ?? null, max: field.max ?? null, onlyInt: !!field.onlyInt });
        break;
      case 'select':
        Object.assign(json, {
          values: [...(field.values ?? [])],
          maxSelect: field.multiple ? (field.maxSelect ?? field.values?.length ?? 1) : 1,
        });
        break;
      case 'relation': {
        const target = this.registry.find(field.relation!.collection);
        Object.assign(json, {
          collectionId: target?.id ?? '',
          cascadeDelete: !!field.relation!.cascadeDelete,
          minSelect: 0,
          maxSelect: field.multiple ? (field.maxSelect ?? 999) : 1,
        });
        break;
      }
      case 'file':
        Object.assign(json, {
          maxSelect: field.multiple ? (field.maxSelect ?? 99) : 1,
          maxSize: field.file!.maxSize,
          mimeTypes: [...(field.file!.mimeTypes ?? [])],
          thumbs: [...(field.file!.thumbs ?? [])],
          protected: !!field.file!.protected,
        });
        break;
      case 'autodate':
        Object.assign(json, { onCreate: true, onUpdate: field.name === 'updated' });
        break;
      case 'email':
      case 'url':
        Object.assign(json, { exceptDomains: null, onlyDomains: null });
        break;
      case 'bool':
      case 'json':
      case 'date':
        break;
    }
    return json;
  }
}
