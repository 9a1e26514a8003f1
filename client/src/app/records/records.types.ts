/**
 * Shapes of the records API (PocketBase v0.23+ contract) as the /_/ admin panel uses them.
 * See src/records/README.md in the main service.
 */

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

/** One field of a collection's schema (`GET /api/collections`). */
export interface FieldSchema {
  id: string;
  name: string;
  type: FieldType;
  system: boolean;
  hidden: boolean;
  required: boolean;
  multiple?: boolean;
  readOnly?: boolean;
  manageOnly?: boolean;
  primaryKey?: boolean;
  /** text: length limits (0 = none); number: value limits (null = none). */
  min?: number | null;
  max?: number | null;
  pattern?: string;
  onlyInt?: boolean;
  /** select: the allowed values. */
  values?: string[];
  /** select, relation, file: most values (1 = single). */
  maxSelect?: number;
  /** relation: id of the target collection. */
  collectionId?: string;
  /** file */
  maxSize?: number;
  mimeTypes?: string[];
  thumbs?: string[];
  protected?: boolean;
}

/** A collection with its schema, rules and record count (superusers only). */
export interface CollectionSchema {
  id: string;
  name: string;
  type: 'base' | 'auth';
  system: boolean;
  fields: FieldSchema[];
  listRule: string | null;
  viewRule: string | null;
  createRule: string | null;
  updateRule: string | null;
  deleteRule: string | null;
  recordCount: number;
}

/** A record as the API returns it (hidden fields never come back). */
export interface RecordItem {
  id: string;
  collectionId: string;
  collectionName: string;
  [field: string]: unknown;
}

export interface RecordPage {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: RecordItem[];
}

export interface ListQuery {
  page: number;
  perPage: number;
  /** PocketBase sort, e.g. `-created,name`. */
  sort: string;
  /** PocketBase filter expression; empty = none. */
  filter: string;
}

export type RealtimeAction = 'create' | 'update' | 'delete';

export interface RealtimeEvent {
  action: RealtimeAction;
  record: RecordItem;
}

/** Whether a field holds several values (select, relation, file). */
export function isMultiple(field: FieldSchema): boolean {
  if (field.multiple !== undefined) return field.multiple;
  return (field.maxSelect ?? 1) > 1;
}

/** Fields a record shows (the API never sends hidden ones; passwords are write-only). */
export function visibleFields(collection: CollectionSchema): FieldSchema[] {
  return collection.fields.filter((f) => !f.hidden && f.type !== 'password');
}
