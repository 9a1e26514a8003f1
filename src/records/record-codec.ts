import type { RecordData, ResolvedCollection, ResolvedField } from './collections/collection.types';

/** Database row (column → stored value) of one record. */
export type RecordRow = Record<string, unknown>;

/** True when the field stores a JSON array of values. */
export function isMultiple(field: ResolvedField): boolean {
  return !!field.multiple && (field.type === 'select' || field.type === 'relation' || field.type === 'file');
}

function parseJson(raw: unknown): unknown {
  if (typeof raw !== 'string') {
    return raw ?? null;
  }
  if (raw === '') {
    return null;
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function toStringArray(value: unknown): string[] {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (Array.isArray(parsed)) {
    return parsed.filter((item): item is string => typeof item === 'string' && item !== '');
  }
  if (typeof value === 'string' && value !== '' && parsed === null) {
    return [value];
  }
  return [];
}

/** Text of a scalar; '' for null, undefined and anything that is not a plain value. */
function textOf(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return '';
}

/** A stored column value as the record's JSON value for this field. */
export function decodeValue(field: ResolvedField, raw: unknown): unknown {
  if (isMultiple(field)) {
    return toStringArray(raw);
  }
  switch (field.type) {
    case 'bool':
      return raw === true || raw === 1 || raw === '1' || raw === 'true';
    case 'number': {
      const value = Number(raw ?? 0);
      return Number.isFinite(value) ? value : 0;
    }
    case 'json':
      return parseJson(raw);
    case 'text':
    case 'email':
    case 'url':
    case 'password':
    case 'select':
    case 'relation':
    case 'file':
    case 'date':
    case 'autodate':
      return textOf(raw);
  }
}

/** A record's JSON value as the value stored in the field's column. */
export function encodeValue(field: ResolvedField, value: unknown): unknown {
  if (isMultiple(field)) {
    return JSON.stringify(Array.isArray(value) ? value : []);
  }
  switch (field.type) {
    case 'bool':
      return value ? 1 : 0;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : 0;
    case 'json':
      return JSON.stringify(value ?? null);
    case 'text':
    case 'email':
    case 'url':
    case 'password':
    case 'select':
    case 'relation':
    case 'file':
    case 'date':
    case 'autodate':
      return textOf(value);
  }
}

/** A database row (column names) as record data (field names). */
export function decodeRow(collection: ResolvedCollection, row: RecordRow): RecordData {
  const data: RecordData = {};
  for (const field of collection.fields) {
    data[field.name] = decodeValue(field, row[field.column]);
  }
  return data;
}

/** Record data (field names) as a row (column names) for the given fields. */
export function encodeData(
  collection: ResolvedCollection,
  data: RecordData,
  fieldNames: Iterable<string> = collection.fields.map((field) => field.name),
): RecordRow {
  const row: RecordRow = {};
  for (const name of fieldNames) {
    const field = collection.fieldsByName.get(name);
    if (field) {
      row[field.column] = encodeValue(field, data[name]);
    }
  }
  return row;
}

/**
 * An entity-shaped object (e.g. a TypeORM entity published by another module) as record data. Multi-value and
 * JSON fields may come as stored (JSON text) or already parsed.
 */
export function dataFromEntity(collection: ResolvedCollection, entity: Record<string, unknown>): RecordData {
  const data: RecordData = {};
  for (const field of collection.fields) {
    const value = entity[field.name];
    const parsed = (isMultiple(field) || field.type === 'json') && typeof value !== 'string';
    data[field.name] = parsed ? (value ?? decodeValue(field, value)) : decodeValue(field, value);
  }
  return data;
}

/** File names held by a record's file fields, field by field. */
export function recordFiles(collection: ResolvedCollection, data: RecordData): string[] {
  const names: string[] = [];
  for (const field of collection.fields) {
    if (field.type !== 'file') {
      continue;
    }
    const value = data[field.name];
    for (const name of Array.isArray(value) ? value : [value]) {
      if (typeof name === 'string' && name !== '') {
        names.push(name);
      }
    }
  }
  return names;
}
