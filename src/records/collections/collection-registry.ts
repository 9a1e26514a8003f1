import { crc32 } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type {
  CollectionDefinition,
  FieldDefinition,
  ResolvedCollection,
  ResolvedField,
} from './collection.types';

/** DI token of the list of collection definitions (see collections/index.ts). */
export const COLLECTION_DEFINITIONS = Symbol('COLLECTION_DEFINITIONS');

/** A PocketBase-like stable collection id: `pbc_` + the CRC32 of the name in 11 digits (15 characters). */
export function collectionIdFor(name: string): string {
  return `pbc_${String(crc32(name)).padStart(11, '0')}`;
}

const ID_FIELD: FieldDefinition = {
  name: 'id',
  type: 'text',
  system: true,
  required: true,
  min: 15,
  max: 15,
  pattern: '^[a-z0-9]+$',
};
const CREATED_FIELD: FieldDefinition = { name: 'created', type: 'autodate', system: true };
const UPDATED_FIELD: FieldDefinition = { name: 'updated', type: 'autodate', system: true };

/** The system fields every auth collection has, in PocketBase's order. */
const AUTH_FIELDS: readonly FieldDefinition[] = [
  { name: 'password', type: 'password', system: true, hidden: true, required: true, min: 8, max: 71 },
  { name: 'tokenKey', type: 'text', system: true, hidden: true, required: true },
  { name: 'email', type: 'email', system: true, required: true, max: 255 },
  { name: 'emailVisibility', type: 'bool', system: true },
  { name: 'verified', type: 'bool', system: true, manageOnly: true },
];

/**
 * Every collection of the records API, resolved once at start-up against the TypeORM metadata (table and column
 * names). A definition that names a property its entity lacks stops start-up with a message saying which.
 */
@Injectable()
export class CollectionRegistry {
  private readonly byName = new Map<string, ResolvedCollection>();
  private readonly byId = new Map<string, ResolvedCollection>();

  constructor(
    dataSource: DataSource,
    @Inject(COLLECTION_DEFINITIONS) definitions: readonly CollectionDefinition[],
  ) {
    for (const definition of definitions) {
      const resolved = resolveCollection(dataSource, definition);
      if (this.byName.has(resolved.name) || this.byId.has(resolved.id)) {
        throw new Error(`collection "${resolved.name}" (${resolved.id}) is registered twice`);
      }
      this.byName.set(resolved.name, resolved);
      this.byId.set(resolved.id, resolved);
    }
    for (const collection of this.byName.values()) {
      for (const field of collection.fields) {
        if (field.relation && !this.byName.has(field.relation.collection)) {
          throw new Error(
            `collection "${collection.name}" field "${field.name}" relates to unknown collection "${field.relation.collection}"`,
          );
        }
      }
    }
  }

  all(): ResolvedCollection[] {
    return [...this.byName.values()];
  }

  /** The collection with this name or id, or undefined. */
  find(nameOrId: string): ResolvedCollection | undefined {
    return this.byName.get(nameOrId) ?? this.byId.get(nameOrId);
  }

  /** The collection with this name or id; a 404 "Missing collection context." otherwise (PocketBase's answer). */
  get(nameOrId: string): ResolvedCollection {
    const collection = this.find(nameOrId);
    if (!collection) {
      throw ApiError.notFound('Missing collection context.');
    }
    return collection;
  }

  /** The auth collection with this name or id; 404 when absent or not an auth collection. */
  getAuth(nameOrId: string): ResolvedCollection {
    const collection = this.get(nameOrId);
    if (collection.type !== 'auth') {
      throw ApiError.notFound('Missing or invalid auth collection context.');
    }
    return collection;
  }

  /** Collections with a relation field pointing at `target`: (collection, field) pairs. */
  relationsTo(target: string): { collection: ResolvedCollection; field: ResolvedField }[] {
    const result: { collection: ResolvedCollection; field: ResolvedField }[] = [];
    for (const collection of this.byName.values()) {
      for (const field of collection.fields) {
        if (field.relation?.collection === target) {
          result.push({ collection, field });
        }
      }
    }
    return result;
  }
}

function resolveCollection(dataSource: DataSource, definition: CollectionDefinition): ResolvedCollection {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(definition.name)) {
    throw new Error(`collection name "${definition.name}" must be a plain identifier`);
  }
  const metadata = dataSource.getMetadata(definition.entity);
  const fieldDefinitions = [
    ID_FIELD,
    ...(definition.type === 'auth' ? AUTH_FIELDS : []),
    ...definition.fields,
    CREATED_FIELD,
    UPDATED_FIELD,
  ];
  const seen = new Set<string>();
  const fields: ResolvedField[] = fieldDefinitions.map((field) => {
    if (seen.has(field.name)) {
      throw new Error(`collection "${definition.name}" declares field "${field.name}" twice`);
    }
    seen.add(field.name);
    const column = metadata.findColumnWithPropertyName(field.name);
    if (!column) {
      throw new Error(
        `collection "${definition.name}": entity ${metadata.name} has no property "${field.name}" (table "${metadata.tableName}")`,
      );
    }
    checkField(definition.name, field);
    return { ...field, column: column.databaseName };
  });
  const id = definition.id ?? collectionIdFor(definition.name);
  if (id.length !== 15) {
    throw new Error(`collection "${definition.name}" id "${id}" must be 15 characters`);
  }
  return {
    id,
    name: definition.name,
    type: definition.type,
    table: metadata.tableName,
    system: definition.system ?? false,
    fields,
    fieldsByName: new Map(fields.map((field) => [field.name, field])),
    rules: definition.rules,
    hooks: definition.hooks ?? {},
    definition,
  };
}

function checkField(collection: string, field: FieldDefinition): void {
  const where = `collection "${collection}" field "${field.name}"`;
  if (field.type === 'select' && !field.values?.length) {
    throw new Error(`${where}: a select field needs values`);
  }
  if (field.type === 'relation' && !field.relation) {
    throw new Error(`${where}: a relation field needs relation.collection`);
  }
  if (field.type === 'file' && !field.file) {
    throw new Error(`${where}: a file field needs file.maxSize`);
  }
  if (field.multiple && !['select', 'relation', 'file'].includes(field.type)) {
    throw new Error(`${where}: only select, relation and file fields can hold several values`);
  }
  if (field.pattern !== undefined) {
    new RegExp(field.pattern); // throws on a malformed pattern at start-up rather than on the first write
  }
}
