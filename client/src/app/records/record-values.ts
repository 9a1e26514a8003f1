import { FieldSchema, RecordItem, isMultiple } from './records.types';

/** Table columns: `id` first, then the collection's fields, `created`/`updated` (autodate) last. */
export function orderColumns(fields: readonly FieldSchema[]): FieldSchema[] {
  const id = fields.filter((f) => f.name === 'id');
  const auto = fields.filter((f) => f.type === 'autodate');
  const rest = fields.filter((f) => f.name !== 'id' && f.type !== 'autodate');
  return [...id, ...rest, ...auto];
}

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;

/** Whether a stored file name is an image the server can make thumbs of. */
export function isImage(filename: string): boolean {
  return IMAGE.test(filename);
}

/** A record's file names for a file field (single or multiple). */
export function fileNames(record: RecordItem | null, field: FieldSchema): string[] {
  const value = record?.[field.name];
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return typeof value === 'string' && value !== '' ? [value] : [];
}

const MAX_CELL_CHARS = 80;

/** A short text for a table cell ('' when empty). */
export function cellText(field: FieldSchema, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  let text: string;
  if (field.type === 'json') {
    text = JSON.stringify(value);
  } else if (Array.isArray(value)) {
    text = value.join(', ');
  } else if (field.type === 'date' || field.type === 'autodate') {
    text = String(value).replace(/\.\d+Z$/, 'Z');
  } else {
    text = String(value);
  }
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

/** PocketBase date (`2024-01-02 03:04:05.678Z`) → `datetime-local` value in UTC (`2024-01-02T03:04:05`). */
export function toDateInput(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 19);
}

/** `datetime-local` value read as UTC → PocketBase date, or '' when empty or invalid. */
export function fromDateInput(value: string): string {
  if (!value) return '';
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().replace('T', ' ');
}

/** What a form control holds for a field's value. */
export type ControlValue = string | boolean | string[];

export function toControlValue(field: FieldSchema, value: unknown): ControlValue {
  switch (field.type) {
    case 'bool':
      return value === true;
    case 'json':
      return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
    case 'date':
      return toDateInput(value);
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'select':
      if (isMultiple(field)) return Array.isArray(value) ? value.map(String) : [];
      return typeof value === 'string' ? value : '';
    case 'relation':
      // Ids in a text input, several separated by commas.
      return Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
    default:
      return typeof value === 'string'
        ? value
        : value === null || value === undefined
          ? ''
          : String(value);
  }
}

/** Splits the relation input into ids. */
export function relationIds(value: unknown): string[] {
  return typeof value === 'string' ? value.split(/[\s,]+/).filter((id) => id !== '') : [];
}

/** The value to send for a form control (JSON is already validated by the form). */
export function fromControlValue(field: FieldSchema, value: unknown): unknown {
  switch (field.type) {
    case 'bool':
      return value === true;
    case 'json': {
      const text = typeof value === 'string' ? value.trim() : '';
      return text === '' ? null : (JSON.parse(text) as unknown);
    }
    case 'date':
      return fromDateInput(typeof value === 'string' ? value : '');
    case 'number': {
      const text = typeof value === 'string' ? value.trim() : '';
      return text === '' ? null : Number(text);
    }
    case 'select':
      return isMultiple(field) ? (Array.isArray(value) ? value : []) : (value ?? '');
    case 'relation': {
      const ids = relationIds(value);
      return isMultiple(field) ? ids : (ids[0] ?? '');
    }
    default:
      return typeof value === 'string' ? value : '';
  }
}

/** Validator-friendly check of a JSON textarea ('' = null is fine). */
export function isValidJson(text: unknown): boolean {
  if (typeof text !== 'string' || text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Human size, e.g. `5 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20) return `${Math.round((bytes / (1 << 20)) * 10) / 10} MB`;
  if (bytes >= 1 << 10) return `${Math.round((bytes / (1 << 10)) * 10) / 10} kB`;
  return `${bytes} B`;
}
