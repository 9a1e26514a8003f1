import { Injectable, Logger } from '@nestjs/common';
import { ApiError, FieldError } from '../common/errors/api-error';
import { isRecordId, newRecordId, recordDate } from '../common/records/record-id';
import { hashPassword, newTokenKey, verifyPassword } from './auth/password';
import { CollectionRegistry } from './collections/collection-registry';
import type { RecordData, ResolvedCollection, ResolvedField } from './collections/collection.types';
import { storedFileName } from './files/file-names';
import { FileStorage } from './files/file-storage';
import { detectMime, mimeAllowed } from './files/mime';
import { decodeRow, encodeData, encodeValue, isMultiple, recordFiles } from './record-codec';
import { RecordEnricher } from './record-enricher';
import {
  PendingUpload,
  SubmittedInput,
  castValue,
  isServerManaged,
  normaliseDate,
  parseKey,
  validateValue,
  zeroValue,
} from './record-input';
import type { RecordJson } from './record-view';
import { RecordEvents } from './realtime/record-events';
import { RecordsRepository, SqlFragment, uniqueViolationColumn } from './records.repository';
import { RequestInfo, RuleEngine } from './rules';

/** PocketBase's list envelope. */
export interface ListResult {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: RecordJson[];
}

/** Query parameters as express hands them over. */
export type QueryParams = Record<string, unknown>;

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 1000;

const SUPERUSERS_ONLY = 'Only superusers can perform this action.';

/** The first string of a query parameter (express gives arrays for repeated keys). */
export function queryString(query: QueryParams, name: string): string | undefined {
  const value = query[name];
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' ? first : undefined;
}

function queryInt(query: QueryParams, name: string): number | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || !/^-?\d+$/.test(raw.trim())) {
    return undefined;
  }
  return Number(raw);
}

function queryBool(query: QueryParams, name: string): boolean {
  const raw = queryString(query, name)?.trim().toLowerCase();
  return raw === '1' || raw === 'true' || raw === 't' || raw === 'yes' || raw === 'on';
}

/** Everything a create or update works out from the request before touching the database. */
interface Prepared {
  data: RecordData;
  touched: Set<string>;
  uploads: PendingUpload[];
  errors: Record<string, FieldError>;
  password?: string;
  passwordConfirm?: string;
  oldPassword?: string;
}

/**
 * The records API's logic (PocketBase contract): list/view/create/update/delete with the collection rules,
 * field validation, file fields, and realtime events after each committed write.
 */
@Injectable()
export class RecordsService {
  private readonly logger = new Logger(RecordsService.name);

  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
    private readonly rules: RuleEngine,
    private readonly enricher: RecordEnricher,
    private readonly storage: FileStorage,
    private readonly events: RecordEvents,
  ) {}

  async list(collectionRef: string, query: QueryParams, info: RequestInfo): Promise<ListResult> {
    const collection = this.registry.get(collectionRef);
    const access = this.rules.access(collection, collection.rules.list, info);
    if (access.kind === 'none') {
      throw new ApiError(403, SUPERUSERS_ONLY);
    }
    const page = Math.max(1, queryInt(query, 'page') ?? 1);
    const requested = queryInt(query, 'perPage') ?? DEFAULT_PER_PAGE;
    const perPage = requested <= 0 ? DEFAULT_PER_PAGE : Math.min(requested, MAX_PER_PAGE);
    const where: SqlFragment[] = access.kind === 'where' ? [access.condition] : [];
    const filter = queryString(query, 'filter');
    if (filter?.trim()) {
      where.push(this.rules.filterCondition(collection, filter, info));
    }
    const sort = queryString(query, 'sort');
    const orderBy = sort?.trim() ? this.rules.sortTerms(collection, sort, info) : [];
    const skipTotal = queryBool(query, 'skipTotal');
    const [rows, totalItems] = await Promise.all([
      this.records.list(collection, { where, orderBy, limit: perPage, offset: (page - 1) * perPage }),
      skipTotal ? Promise.resolve(-1) : this.records.count(collection, where),
    ]);
    const items = await this.enricher.enrich(
      collection,
      rows.map((row) => decodeRow(collection, row)),
      info,
      { expand: queryString(query, 'expand'), fields: queryString(query, 'fields') },
    );
    return {
      page,
      perPage,
      totalItems,
      totalPages: skipTotal ? -1 : Math.ceil(totalItems / perPage),
      items,
    };
  }

  async view(collectionRef: string, id: string, query: QueryParams, info: RequestInfo): Promise<RecordJson> {
    const collection = this.registry.get(collectionRef);
    const record = await this.findAccessible(collection, collection.rules.view, id, info);
    return this.respond(collection, record, query, info);
  }

  async create(
    collectionRef: string,
    input: SubmittedInput,
    query: QueryParams,
    info: RequestInfo,
  ): Promise<RecordJson> {
    const collection = this.registry.get(collectionRef);
    if (
      !info.auth?.isSuperuser &&
      (collection.rules.create === null || collection.rules.create === undefined)
    ) {
      throw new ApiError(403, SUPERUSERS_ONLY);
    }
    const prepared = this.prepare(collection, null, input, info);
    const ruleInfo: RequestInfo = { ...info, body: this.bodyFor(prepared) };
    const data = prepared.data;
    if (collection.type === 'auth') {
      data.tokenKey = newTokenKey();
    }
    if (!(await this.rules.canAccessData(collection, data, collection.rules.create, ruleInfo))) {
      throw ApiError.badRequest('Failed to create record.');
    }
    const manager = await this.hasManageAccess(collection, data, null, ruleInfo);
    this.checkManageOnly(collection, prepared, null, manager);
    await this.validate(collection, prepared, null, manager);
    if (collection.type === 'auth') {
      data.password = await hashPassword(prepared.password ?? '');
    }
    if (await this.records.findById(collection, String(data.id))) {
      throw ApiError.badRequest('Failed to create record.', {
        id: { code: 'validation_not_unique', message: 'Value must be unique.' },
      });
    }
    await collection.hooks.beforeCreate?.(data, { auth: info.auth, collection });
    const now = recordDate();
    data.created = now;
    data.updated = now;
    const firstValues: Record<string, readonly [unknown, unknown]> = {};
    for (const field of collection.fields) {
      if (field.firstRecordValue !== undefined) {
        firstValues[field.column] = [
          encodeValue(field, field.firstRecordValue),
          encodeValue(field, data[field.name]),
        ];
      }
    }
    await this.saveUploads(collection, String(data.id), prepared.uploads);
    try {
      await this.records.insert(collection, encodeData(collection, data), firstValues);
    } catch (error) {
      await this.storage.removeRecord(collection.id, String(data.id)).catch(() => undefined);
      throw this.writeError(collection, error, 'Failed to create record.');
    }
    const stored = await this.load(collection, String(data.id));
    await this.events.publish(collection.name, 'create', stored);
    return this.respond(collection, stored, query, info);
  }

  async update(
    collectionRef: string,
    id: string,
    input: SubmittedInput,
    query: QueryParams,
    info: RequestInfo,
  ): Promise<RecordJson> {
    const collection = this.registry.get(collectionRef);
    if (
      !info.auth?.isSuperuser &&
      (collection.rules.update === null || collection.rules.update === undefined)
    ) {
      throw new ApiError(403, SUPERUSERS_ONLY);
    }
    const row = await this.records.findById(collection, id);
    if (!row) {
      throw ApiError.notFound();
    }
    const existing = decodeRow(collection, row);
    const prepared = this.prepare(collection, existing, input, info);
    const ruleInfo: RequestInfo = { ...info, body: this.bodyFor(prepared) };
    if (!(await this.rules.canAccessStored(collection, id, collection.rules.update, ruleInfo))) {
      throw ApiError.notFound();
    }
    const manager = await this.hasManageAccess(collection, existing, id, ruleInfo);
    this.checkManageOnly(collection, prepared, existing, manager);
    await this.validate(collection, prepared, existing, manager);
    const data = prepared.data;
    if (collection.type === 'auth' && prepared.password) {
      data.password = await hashPassword(prepared.password);
      data.tokenKey = newTokenKey();
    }
    await collection.hooks.beforeUpdate?.(data, existing, { auth: info.auth, collection });
    data.updated = recordDate();
    const removedFiles = recordFiles(collection, existing).filter(
      (name) => !recordFiles(collection, data).includes(name),
    );
    await this.saveUploads(collection, id, prepared.uploads);
    try {
      const changed = collection.fields.filter((field) => field.name !== 'id' && field.name !== 'created');
      await this.records.update(
        collection,
        id,
        encodeData(
          collection,
          data,
          changed.map((field) => field.name),
        ),
      );
    } catch (error) {
      await Promise.all(
        prepared.uploads.map((upload) =>
          this.storage.remove(collection.id, id, upload.name).catch(() => undefined),
        ),
      );
      throw this.writeError(collection, error, 'Failed to update record.');
    }
    await Promise.all(removedFiles.map((name) => this.storage.remove(collection.id, id, name)));
    const stored = await this.load(collection, id);
    await this.events.publish(collection.name, 'update', stored);
    return this.respond(collection, stored, query, info);
  }

  async delete(collectionRef: string, id: string, info: RequestInfo): Promise<void> {
    const collection = this.registry.get(collectionRef);
    const record = await this.findAccessible(collection, collection.rules.delete, id, info);
    await this.deleteCascade(collection, record, new Set());
  }

  /** A record the rule lets the request reach: 403 when the rule admits superusers only, 404 when not found. */
  private async findAccessible(
    collection: ResolvedCollection,
    rule: string | null | undefined,
    id: string,
    info: RequestInfo,
  ): Promise<RecordData> {
    const access = this.rules.access(collection, rule, info);
    if (access.kind === 'none') {
      throw new ApiError(403, SUPERUSERS_ONLY);
    }
    const row = await this.records.findById(
      collection,
      id,
      access.kind === 'where' ? [access.condition] : [],
    );
    if (!row) {
      throw ApiError.notFound();
    }
    return decodeRow(collection, row);
  }

  /** Loads a stored record's data, or 404. */
  async load(collection: ResolvedCollection, id: string): Promise<RecordData> {
    const row = await this.records.findById(collection, id);
    if (!row) {
      throw ApiError.notFound();
    }
    return decodeRow(collection, row);
  }

  /** One record's response JSON (expand and fields from the query). */
  async respond(
    collection: ResolvedCollection,
    data: RecordData,
    query: QueryParams,
    info: RequestInfo,
  ): Promise<RecordJson> {
    const [json] = await this.enricher.enrich(collection, [data], info, {
      expand: queryString(query, 'expand'),
      fields: queryString(query, 'fields'),
    });
    return json;
  }

  /** Deletes a record, its files, what cascades from it, and unlinks optional references to it. */
  private async deleteCascade(
    collection: ResolvedCollection,
    data: RecordData,
    seen: Set<string>,
  ): Promise<void> {
    const id = String(data.id);
    const key = `${collection.name}/${id}`;
    if (seen.has(key)) {
      return;
    }
    seen.add(key);
    const unlinks: { collection: ResolvedCollection; field: ResolvedField; data: RecordData }[] = [];
    const cascades: { collection: ResolvedCollection; data: RecordData }[] = [];
    for (const { collection: source, field } of this.registry.relationsTo(collection.name)) {
      const rows = await this.records.findReferencing(source, field, id, isMultiple(field));
      for (const row of rows) {
        const referencing = decodeRow(source, row);
        if (source.name === collection.name && referencing.id === id) {
          continue;
        }
        if (field.relation?.cascadeDelete) {
          cascades.push({ collection: source, data: referencing });
        } else if (
          field.required &&
          (!isMultiple(field) ||
            (referencing[field.name] as string[]).filter((value) => value !== id).length === 0)
        ) {
          throw ApiError.badRequest(
            'Failed to delete record. Make sure that the record is not part of a required relation reference.',
          );
        } else {
          unlinks.push({ collection: source, field, data: referencing });
        }
      }
    }
    for (const cascade of cascades) {
      await this.deleteCascade(cascade.collection, cascade.data, seen);
    }
    for (const unlink of unlinks) {
      const value = unlink.data[unlink.field.name];
      const next = isMultiple(unlink.field) ? (value as string[]).filter((item) => item !== id) : '';
      const updated = { ...unlink.data, [unlink.field.name]: next, updated: recordDate() };
      await this.records.update(
        unlink.collection,
        String(unlink.data.id),
        encodeData(unlink.collection, updated, [unlink.field.name, 'updated']),
      );
      await this.events.publish(unlink.collection.name, 'update', updated);
    }
    await this.records.delete(collection, id);
    await this.storage.removeRecord(collection.id, id).catch((error: unknown) => {
      this.logger.warn(`could not remove files of ${key}: ${String(error)}`);
    });
    await this.events.publish(collection.name, 'delete', data);
  }

  /** The submitted values as `@request.body` sees them (modifiers resolved, passwords left out). */
  private bodyFor(prepared: Prepared): RecordData {
    const body: RecordData = {};
    for (const name of prepared.touched) {
      body[name] = prepared.data[name];
    }
    return body;
  }

  /** Whether the request may manage auth fields of this record: superusers, or a match of the manage rule. */
  private async hasManageAccess(
    collection: ResolvedCollection,
    data: RecordData,
    storedId: string | null,
    info: RequestInfo,
  ): Promise<boolean> {
    if (info.auth?.isSuperuser) {
      return true;
    }
    const rule = collection.rules.manage;
    if (!info.auth || !rule?.trim()) {
      return false;
    }
    return storedId
      ? this.rules.canAccessStored(collection, storedId, rule, info)
      : this.rules.canAccessData(collection, data, rule, info);
  }

  /** Builds the new record data from the request: casts, modifiers, file uploads. Collects field errors. */
  private prepare(
    collection: ResolvedCollection,
    existing: RecordData | null,
    input: SubmittedInput,
    info: RequestInfo,
  ): Prepared {
    const superuser = !!info.auth?.isSuperuser;
    const data: RecordData = {};
    for (const field of collection.fields) {
      data[field.name] = existing ? existing[field.name] : zeroValue(field);
    }
    if (!existing) {
      data.id = newRecordId();
    }
    const prepared: Prepared = { data, touched: new Set(), uploads: [], errors: {} };
    const fileKeys = new Map<string, Set<string>>();
    for (const [key, raw] of Object.entries(input.body)) {
      if (
        collection.type === 'auth' &&
        (key === 'password' || key === 'passwordConfirm' || key === 'oldPassword')
      ) {
        prepared[key] = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '';
        continue;
      }
      const { name, modifier } = parseKey(key);
      const field = collection.fieldsByName.get(name);
      if (!field || isServerManaged(field) || field.type === 'password') {
        continue;
      }
      if (name === 'id') {
        if (!existing && modifier === 'set' && raw !== '' && raw !== null && raw !== undefined) {
          if (typeof raw === 'string' && isRecordId(raw)) {
            data.id = raw;
          } else {
            prepared.errors.id = { code: 'validation_invalid_format', message: 'Invalid value format.' };
          }
        }
        continue;
      }
      if ((field.hidden || field.readOnly) && !superuser) {
        continue;
      }
      const cast = castValue(field, raw);
      if (cast.error) {
        prepared.errors[name] = cast.error;
        continue;
      }
      if (field.type === 'file') {
        (fileKeys.get(name) ?? fileKeys.set(name, new Set()).get(name)!).add(modifier);
      }
      data[name] = applyModifier(field, data[name], cast.value, modifier);
      prepared.touched.add(name);
    }
    this.prepareUploads(collection, existing, input, prepared, fileKeys);
    return prepared;
  }

  private prepareUploads(
    collection: ResolvedCollection,
    existing: RecordData | null,
    input: SubmittedInput,
    prepared: Prepared,
    fileKeys: Map<string, Set<string>>,
  ): void {
    const data = prepared.data;
    const accepted = new Map<string, { set: string[]; append: string[]; prepend: string[] }>();
    for (const file of input.files) {
      const { name, modifier } = parseKey(file.fieldname);
      const field = collection.fieldsByName.get(name);
      if (!field || field.type !== 'file' || !field.file || modifier === 'remove') {
        continue;
      }
      if (file.size > field.file.maxSize) {
        prepared.errors[name] = {
          code: 'validation_file_size_limit',
          message: `Failed to upload "${file.originalname}" - the maximum allowed file size is ${field.file.maxSize} bytes.`,
        };
        continue;
      }
      const detected = detectMime(file.buffer);
      if (!mimeAllowed(detected.mime, field.file.mimeTypes)) {
        prepared.errors[name] = {
          code: 'validation_invalid_mime_type',
          message: `"${file.originalname}" mime type must be one of: ${(field.file.mimeTypes ?? []).join(', ')}.`,
        };
        continue;
      }
      const stored = storedFileName(file.originalname, detected.extension);
      prepared.uploads.push({ field: name, name: stored, original: file.originalname, bytes: file.buffer });
      const groups = accepted.get(name) ?? { set: [], append: [], prepend: [] };
      accepted.set(name, groups);
      groups[modifier].push(stored);
      prepared.touched.add(name);
    }
    for (const [name, groups] of accepted) {
      const field = collection.fieldsByName.get(name)!;
      if (!isMultiple(field)) {
        data[name] = [...groups.prepend, ...groups.set, ...groups.append].at(-1) ?? data[name];
        continue;
      }
      // A plain key with uploads replaces the list, unless the same request also listed names to keep.
      const base = groups.set.length > 0 && !fileKeys.get(name)?.has('set') ? [] : (data[name] as string[]);
      data[name] = [...groups.prepend, ...base, ...groups.set, ...groups.append];
    }
    // A file field keeps only names it already had or was just given.
    for (const field of collection.fields) {
      if (field.type !== 'file') {
        continue;
      }
      const allowed = new Set([
        ...fileNames(existing?.[field.name]),
        ...prepared.uploads.filter((upload) => upload.field === field.name).map((upload) => upload.name),
      ]);
      if (isMultiple(field)) {
        data[field.name] = (data[field.name] as string[]).filter((name) => allowed.has(name));
      } else if (
        typeof data[field.name] === 'string' &&
        data[field.name] !== '' &&
        !allowed.has(data[field.name] as string)
      ) {
        data[field.name] = existing ? existing[field.name] : '';
      }
    }
  }

  /** Refuses changes of manage-only fields (e.g. role, verified) by anyone without manage access. */
  private checkManageOnly(
    collection: ResolvedCollection,
    prepared: Prepared,
    existing: RecordData | null,
    manager: boolean,
  ): void {
    if (manager) {
      return;
    }
    for (const field of collection.fields) {
      if (!field.manageOnly || !prepared.touched.has(field.name)) {
        continue;
      }
      const before = existing ? existing[field.name] : zeroValue(field);
      if (JSON.stringify(prepared.data[field.name]) !== JSON.stringify(before)) {
        prepared.errors[field.name] = {
          code: 'validation_manage_only',
          message: 'Only superusers and managers of the collection can change this field.',
        };
      }
      prepared.data[field.name] = before;
    }
  }

  /** Field validation (PocketBase codes); throws 400 with every problem found. */
  private async validate(
    collection: ResolvedCollection,
    prepared: Prepared,
    existing: RecordData | null,
    manager: boolean,
  ): Promise<void> {
    const { data, errors } = prepared;
    const failed = existing ? 'Failed to update record.' : 'Failed to create record.';
    if (collection.type === 'auth') {
      if (typeof data.email === 'string') {
        data.email = data.email.trim().toLowerCase();
      }
      await this.validatePassword(collection, prepared, existing, manager);
    }
    for (const field of collection.fields) {
      if (errors[field.name] || field.type === 'password' || isServerManaged(field) || field.name === 'id') {
        continue;
      }
      const value = data[field.name];
      if (field.type === 'date' && typeof value === 'string' && value !== '') {
        const date = normaliseDate(value);
        if (date) {
          data[field.name] = date;
        }
      }
      const error = validateValue(field, data[field.name]);
      if (error) {
        errors[field.name] = error;
        continue;
      }
      if (field.type === 'relation' && field.relation) {
        const ids = (isMultiple(field) ? (value as string[]) : [value as string]).filter(
          (item) => item !== '',
        );
        if (ids.length > 0) {
          const target = this.registry.get(field.relation.collection);
          const found = await this.records.findByIds(target, ids);
          if (found.length !== new Set(ids).size) {
            errors[field.name] = {
              code: 'validation_missing_rel_records',
              message: 'Failed to find all relation records with the provided ids.',
            };
          }
        }
      }
    }
    if (collection.type === 'auth' && !errors.email && typeof data.email === 'string' && data.email !== '') {
      const emailField = collection.fieldsByName.get('email')!;
      const other = await this.records.findByField(collection, emailField, data.email);
      if (other && other.id !== data.id) {
        errors.email = { code: 'validation_not_unique', message: 'Value must be unique.' };
      }
    }
    if (Object.keys(errors).length > 0) {
      throw ApiError.badRequest(failed, errors);
    }
  }

  private async validatePassword(
    collection: ResolvedCollection,
    prepared: Prepared,
    existing: RecordData | null,
    manager: boolean,
  ): Promise<void> {
    const { errors } = prepared;
    const passwordField = collection.fieldsByName.get('password')!;
    const changing = !existing || (prepared.password !== undefined && prepared.password !== '');
    if (!changing) {
      return;
    }
    const error = validateValue(passwordField, prepared.password ?? '');
    if (error) {
      errors.password = error;
    }
    if (!prepared.passwordConfirm) {
      errors.passwordConfirm = { code: 'validation_required', message: 'Cannot be blank.' };
    } else if (prepared.passwordConfirm !== prepared.password) {
      errors.passwordConfirm = { code: 'validation_values_mismatch', message: "Values don't match." };
    }
    if (existing && !manager) {
      const ok =
        !!prepared.oldPassword &&
        typeof existing.password === 'string' &&
        (await verifyPassword(prepared.oldPassword, existing.password));
      if (!ok) {
        errors.oldPassword = {
          code: 'validation_invalid_old_password',
          message: 'Missing or invalid old password.',
        };
      }
    }
  }

  private async saveUploads(
    collection: ResolvedCollection,
    id: string,
    uploads: readonly PendingUpload[],
  ): Promise<void> {
    for (const upload of uploads) {
      await this.storage.save(collection.id, id, upload.name, upload.bytes);
    }
  }

  /** Turns a failed write into a 400 when SQLite names a unique column; anything else stays a 500. */
  private writeError(collection: ResolvedCollection, error: unknown, message: string): unknown {
    const column = uniqueViolationColumn(error);
    const field = column ? collection.fields.find((candidate) => candidate.column === column) : undefined;
    if (field) {
      return ApiError.badRequest(message, {
        [field.name]: { code: 'validation_not_unique', message: 'Value must be unique.' },
      });
    }
    return error;
  }
}

/** The file names a file field's value holds. */
function fileNames(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter(
    (name): name is string => typeof name === 'string' && name !== '',
  );
}

/** Applies `field+` (append/add), `+field` (prepend), `field-` (remove/subtract) or a plain set. */
function applyModifier(
  field: ResolvedField,
  current: unknown,
  value: unknown,
  modifier: ReturnType<typeof parseKey>['modifier'],
): unknown {
  if (modifier === 'set') {
    return value;
  }
  if (isMultiple(field)) {
    const list = Array.isArray(current) ? (current as string[]) : [];
    const items = value as string[];
    switch (modifier) {
      case 'append':
        return [...list, ...items.filter((item) => !list.includes(item))];
      case 'prepend':
        return [...items.filter((item) => !list.includes(item)), ...list];
      case 'remove':
        return list.filter((item) => !items.includes(item));
    }
  }
  if (field.type === 'number') {
    const base = typeof current === 'number' ? current : 0;
    return modifier === 'remove' ? base - (value as number) : base + (value as number);
  }
  if (field.type === 'file' && modifier === 'remove') {
    return current === value ? '' : current;
  }
  return current;
}
