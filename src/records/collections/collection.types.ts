import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { AuthContext } from '../auth/auth-context';

/** Field types of the records layer (a subset of PocketBase's). */
export type FieldType =
  | 'text'
  | 'email'
  | 'url'
  | 'password'
  | 'bool'
  | 'number'
  | 'select'
  | 'relation'
  | 'file'
  | 'json'
  | 'date'
  | 'autodate';

/** Limits of a file field. */
export interface FileOptions {
  /** Largest accepted file, in bytes. */
  readonly maxSize: number;
  /** Accepted MIME types (detected from the content); empty or absent = any. */
  readonly mimeTypes?: readonly string[];
  /** Thumb sizes served for images (`100x100` is always allowed), e.g. `['64x64', '0x300', '200x200t']`. */
  readonly thumbs?: readonly string[];
  /** Protected files are served only with a file token of someone the view rule lets see the record. */
  readonly protected?: boolean;
}

/** One field of a collection, keyed by the entity's property name (which is also the record's JSON key). */
export interface FieldDefinition {
  readonly name: string;
  readonly type: FieldType;
  readonly required?: boolean;
  /** Never leaves the server and cannot be filtered or sorted on by anyone but superusers. */
  readonly hidden?: boolean;
  /** Built-in field (id, created, auth fields...): shown as such to the admin panel. */
  readonly system?: boolean;
  /** Holds several values (select, relation, file): stored as a JSON array. */
  readonly multiple?: boolean;
  /** Most values of a `multiple` field. */
  readonly maxSelect?: number;
  /** text: min/max length; number: min/max value. */
  readonly min?: number;
  readonly max?: number;
  /** text: a regular expression the value must match. */
  readonly pattern?: string;
  /** select: the allowed values. */
  readonly values?: readonly string[];
  /** relation: the target collection (name) and whether deleting a target deletes this record. */
  readonly relation?: { readonly collection: string; readonly cascadeDelete?: boolean };
  /** file: size/type limits and thumbs. */
  readonly file?: FileOptions;
  /** number: only integers. */
  readonly onlyInt?: boolean;
  /** Value given when a create does not set the field. */
  readonly default?: unknown;
  /**
   * Value the field takes on the first record ever inserted in the collection, decided atomically inside the
   * INSERT itself (two concurrent first inserts cannot both get it). E.g. the first user becomes `admin`.
   */
  readonly firstRecordValue?: unknown;
  /**
   * Only superusers and auth records matching the collection's manage rule may set or change the field; anyone
   * else sending a different value gets a 400 (e.g. a user's role, `verified`).
   */
  readonly manageOnly?: boolean;
  /** Set by the server only: ignored when sent by anyone but superusers (e.g. a worker's health status). */
  readonly readOnly?: boolean;
}

/**
 * API rules, written in the filter language: `null` = superusers only, `''` = anyone, otherwise an expression
 * such as `user = @request.auth.id`. `auth` (who may sign in) and `manage` (who may change others' auth fields)
 * apply to auth collections only.
 */
export interface CollectionRules {
  readonly list: string | null;
  readonly view: string | null;
  readonly create: string | null;
  readonly update: string | null;
  readonly delete: string | null;
  readonly auth?: string | null;
  readonly manage?: string | null;
}

export type RecordData = Record<string, unknown>;

/** What a hook knows about the request that writes. */
export interface WriteContext {
  readonly auth: AuthContext | null;
  readonly collection: ResolvedCollection;
}

/** Optional domain logic run by the records service around writes (throw an ApiError to refuse). */
export interface CollectionHooks {
  /** Runs after validation, before the INSERT; may adjust `data`. */
  beforeCreate?(data: RecordData, context: WriteContext): void | Promise<void>;
  /** Runs after validation, before the UPDATE; `data` is the full new record, `existing` the stored one. */
  beforeUpdate?(data: RecordData, existing: RecordData, context: WriteContext): void | Promise<void>;
}

/** A collection as registered by a feature: one TypeORM entity exposed through the records API. */
export interface CollectionDefinition {
  readonly name: string;
  readonly type: 'base' | 'auth';
  readonly entity: EntityTarget<ObjectLiteral>;
  /** Stable 15-character id; derived from the name when absent (`pbc_` + CRC32 digits). */
  readonly id?: string;
  /**
   * The collection's own fields. `id`, `created` and `updated` are added for every collection, and `email`,
   * `emailVisibility`, `verified`, `password` and `tokenKey` for auth collections.
   */
  readonly fields: readonly FieldDefinition[];
  readonly rules: CollectionRules;
  readonly hooks?: CollectionHooks;
  /** Built-in collection (e.g. `_superusers`). */
  readonly system?: boolean;
}

/** A field with the database column it lives in. */
export interface ResolvedField extends FieldDefinition {
  readonly column: string;
}

/** A registered collection, resolved against the database metadata. */
export interface ResolvedCollection {
  readonly id: string;
  readonly name: string;
  readonly type: 'base' | 'auth';
  readonly table: string;
  readonly system: boolean;
  readonly fields: readonly ResolvedField[];
  readonly fieldsByName: ReadonlyMap<string, ResolvedField>;
  readonly rules: CollectionRules;
  readonly hooks: CollectionHooks;
  readonly definition: CollectionDefinition;
}
