import type { Request } from 'express';
import { ApiError, FieldError } from '../common/errors/api-error';
import { recordDate } from '../common/records/record-id';
import type { RecordData, ResolvedField } from './collections/collection.types';
import { isMultiple } from './record-codec';

/** An uploaded file as multer hands it over (memory storage). */
export interface UploadedFile {
  readonly fieldname: string;
  readonly originalname: string;
  readonly buffer: Buffer;
  readonly size: number;
}

/** What a create/update request submitted: body values (keys may carry `+`/`-` modifiers) and files. */
export interface SubmittedInput {
  readonly body: RecordData;
  readonly files: readonly UploadedFile[];
}

/** A file accepted for a field, waiting to be stored under `name`. */
export interface PendingUpload {
  readonly field: string;
  readonly name: string;
  readonly original: string;
  readonly bytes: Buffer;
}

/**
 * Reads a JSON body, or a multipart body whose `@jsonPayload` parts (JSON objects) are merged over the plain parts
 * (the SDK sends non-file values that way), plus the uploaded files.
 */
export function readSubmittedInput(request: Request): SubmittedInput {
  const files = (Array.isArray(request.files) ? request.files : []) as UploadedFile[];
  const raw: unknown = request.body;
  if (raw === undefined || raw === null || raw === '') {
    return { body: {}, files };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw ApiError.badRequest('Failed to read the submitted data.');
  }
  const body: RecordData = {};
  const payloads: unknown[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === '@jsonPayload') {
      payloads.push(...(Array.isArray(value) ? (value as unknown[]) : [value]));
    } else {
      body[key] = value;
    }
  }
  for (const payload of payloads) {
    let parsed: unknown;
    try {
      parsed = typeof payload === 'string' ? JSON.parse(payload) : payload;
    } catch {
      throw ApiError.badRequest('Failed to read the submitted data.', {
        '@jsonPayload': { code: 'validation_invalid_json', message: 'Must be a valid JSON object.' },
      });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw ApiError.badRequest('Failed to read the submitted data.', {
        '@jsonPayload': { code: 'validation_invalid_json', message: 'Must be a valid JSON object.' },
      });
    }
    Object.assign(body, parsed);
  }
  return { body, files };
}

/** Multipart sends everything as text: cast a submitted value to what a field holds. Returns undefined + error. */
export function castValue(field: ResolvedField, value: unknown): { value?: unknown; error?: FieldError } {
  if (isMultiple(field)) {
    const list =
      value === null || value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value];
    const strings: string[] = [];
    for (const item of list) {
      if (typeof item !== 'string' && typeof item !== 'number') {
        return { error: { code: 'validation_invalid_value', message: 'Invalid value.' } };
      }
      if (String(item) !== '' && !strings.includes(String(item))) {
        strings.push(String(item));
      }
    }
    return { value: strings };
  }
  if (Array.isArray(value) && field.type !== 'json') {
    // A repeated multipart part: the last one wins, as with a single-value PocketBase field.
    value = value.length ? value[value.length - 1] : '';
  }
  switch (field.type) {
    case 'bool':
      if (typeof value === 'boolean') {
        return { value };
      }
      if (value === null || value === undefined || value === '') {
        return { value: false };
      }
      if (value === 1 || value === 0) {
        return { value: value === 1 };
      }
      if (typeof value === 'string' && /^(true|false|1|0|on|off)$/i.test(value)) {
        return { value: /^(true|1|on)$/i.test(value) };
      }
      return { error: { code: 'validation_invalid_bool', message: 'Must be a boolean.' } };
    case 'number': {
      if (value === null || value === undefined || value === '') {
        return { value: 0 };
      }
      const number =
        typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
      if (!Number.isFinite(number)) {
        return { error: { code: 'validation_invalid_number', message: 'Must be a valid number.' } };
      }
      return { value: number };
    }
    case 'json':
      if (typeof value === 'string') {
        try {
          return { value: value.trim() === '' ? null : (JSON.parse(value) as unknown) };
        } catch {
          // A plain string is a valid JSON value too.
          return { value };
        }
      }
      return { value: value ?? null };
    case 'text':
    case 'email':
    case 'url':
    case 'password':
    case 'select':
    case 'relation':
    case 'file':
    case 'date':
    case 'autodate':
      if (value === null || value === undefined) {
        return { value: '' };
      }
      if (typeof value === 'string') {
        return { value };
      }
      if (typeof value === 'number' || typeof value === 'boolean') {
        return { value: String(value) };
      }
      return { error: { code: 'validation_invalid_value', message: 'Must be a string.' } };
  }
}

/** The empty value of a field: what a create starts from when nothing is submitted. */
export function zeroValue(field: ResolvedField): unknown {
  if (field.default !== undefined) {
    return Array.isArray(field.default) ? [...(field.default as unknown[])] : field.default;
  }
  if (isMultiple(field)) {
    return [];
  }
  switch (field.type) {
    case 'bool':
      return false;
    case 'number':
      return 0;
    case 'json':
      return null;
    case 'text':
    case 'email':
    case 'url':
    case 'password':
    case 'select':
    case 'relation':
    case 'file':
    case 'date':
    case 'autodate':
      return '';
  }
}

/** A submitted key split into field name and modifier: `tags+` append, `+tags` prepend, `tags-` remove. */
export function parseKey(key: string): { name: string; modifier: 'set' | 'append' | 'prepend' | 'remove' } {
  if (key.startsWith('+')) {
    return { name: key.slice(1), modifier: 'prepend' };
  }
  if (key.endsWith('+')) {
    return { name: key.slice(0, -1), modifier: 'append' };
  }
  if (key.endsWith('-')) {
    return { name: key.slice(0, -1), modifier: 'remove' };
  }
  return { name: key, modifier: 'set' };
}

const EMAIL =
  /^[^\s@"'<>(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 255 && EMAIL.test(value);
}

export function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date value normalised to PocketBase's format, or undefined when it is not a date. */
export function normaliseDate(value: string): string | undefined {
  if (!DATE.test(value.trim())) {
    return undefined;
  }
  const date = new Date(value.trim().replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : recordDate(date);
}

/** Checks one field's (already cast) value; returns the first problem, PocketBase codes and wording. */
export function validateValue(field: ResolvedField, value: unknown): FieldError | undefined {
  const empty =
    value === '' || value === null || value === undefined || (Array.isArray(value) && value.length === 0);
  if (empty) {
    return field.required ? { code: 'validation_required', message: 'Cannot be blank.' } : undefined;
  }
  if (isMultiple(field)) {
    const list = value as string[];
    if (field.maxSelect && list.length > field.maxSelect) {
      return { code: 'validation_too_many_values', message: `Select no more than ${field.maxSelect}.` };
    }
    if (field.type === 'select') {
      const invalid = list.find((item) => !field.values?.includes(item));
      if (invalid !== undefined) {
        return { code: 'validation_invalid_value', message: `Invalid value ${invalid}.` };
      }
    }
    return undefined;
  }
  switch (field.type) {
    case 'text':
    case 'password': {
      const text = value as string;
      const length = [...text].length;
      if (field.min !== undefined && length < field.min) {
        return {
          code: 'validation_min_text_constraint',
          message: `Must be at least ${field.min} character(s).`,
        };
      }
      if (field.max !== undefined && length > field.max) {
        return {
          code: 'validation_max_text_constraint',
          message: `Must be less than ${field.max} character(s).`,
        };
      }
      if (field.pattern && !new RegExp(field.pattern).test(text)) {
        return { code: 'validation_invalid_format', message: 'Invalid value format.' };
      }
      return undefined;
    }
    case 'email':
      return isEmail(value as string)
        ? undefined
        : { code: 'validation_is_email', message: 'Must be a valid email address.' };
    case 'url':
      return isUrl(value as string)
        ? undefined
        : { code: 'validation_is_url', message: 'Must be a valid url.' };
    case 'number': {
      const number = value as number;
      if (field.onlyInt && !Number.isInteger(number)) {
        return { code: 'validation_only_int_constraint', message: 'Decimal numbers are not allowed.' };
      }
      if (field.min !== undefined && number < field.min) {
        return { code: 'validation_min_number_constraint', message: `Must be larger than ${field.min}.` };
      }
      if (field.max !== undefined && number > field.max) {
        return { code: 'validation_max_number_constraint', message: `Must be less than ${field.max}.` };
      }
      return undefined;
    }
    case 'select':
      return field.values?.includes(value as string)
        ? undefined
        : {
            code: 'validation_invalid_value',
            message: `Invalid value ${typeof value === 'string' ? value : ''}.`,
          };
    case 'date':
      return normaliseDate(value as string) !== undefined
        ? undefined
        : { code: 'validation_invalid_date', message: 'Must be a valid date.' };
    case 'json': {
      const text = JSON.stringify(value);
      return text.length > 1_000_000
        ? { code: 'validation_json_size_limit', message: 'The maximum allowed JSON size is 1000000 bytes.' }
        : undefined;
    }
    case 'bool':
    case 'relation':
    case 'file':
    case 'autodate':
      return undefined;
  }
}

/** Fields in `collection` that the request may not write at all (server-managed). */
export function isServerManaged(field: ResolvedField): boolean {
  return field.type === 'autodate' || field.name === 'tokenKey';
}
