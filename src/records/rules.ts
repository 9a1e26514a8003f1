import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { AuthContext } from './auth/auth-context';
import { CollectionRegistry } from './collections/collection-registry';
import type { RecordData, ResolvedCollection } from './collections/collection.types';
import { CollectionSchema, FilterContext, FilterError, compileFilter, compileSort } from './filter';
import { encodeData } from './record-codec';
import { RecordsRepository, SqlFragment } from './records.repository';

/** What rules can read about the request (`@request.*`). */
export interface RequestInfo {
  readonly auth: AuthContext | null;
  readonly query?: Record<string, unknown>;
  readonly body?: RecordData;
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly method?: string;
  /** PocketBase's request context: default, realtime, protectedFile, password... */
  readonly context?: string;
}

/** The outcome of a rule for one request: everyone, no one, or those rows matching a condition. */
export type Access = { kind: 'all' } | { kind: 'none' } | { kind: 'where'; condition: SqlFragment };

/** Alias of a record that is not (or no longer) stored, checked through a one-row CTE. */
const SNAPSHOT_ALIAS = 'record_snapshot';

/**
 * API rules and user filters over the collection registry, through the filter compiler (src/records/filter).
 * Rules are trusted (they may use hidden fields); filters and sorts come from clients and may not.
 */
@Injectable()
export class RuleEngine implements OnModuleInit {
  private readonly logger = new Logger(RuleEngine.name);
  private readonly schemas = new Map<string, CollectionSchema>();

  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
  ) {}

  /** Compiles every rule once at start-up: a typo in a rule stops the service with a message naming it. */
  onModuleInit(): void {
    for (const collection of this.registry.all()) {
      for (const [name, rule] of Object.entries(collection.rules)) {
        if (typeof rule === 'string' && rule.trim() !== '') {
          try {
            compileFilter(rule, this.context(collection, { auth: null }, collection.table, true));
          } catch (error) {
            throw new Error(`collection "${collection.name}" ${name}Rule does not compile: ${String(error)}`);
          }
        }
      }
    }
  }

  /** The filter compiler's view of a collection: its field whitelist. */
  schemaOf(collection: ResolvedCollection): CollectionSchema {
    let schema = this.schemas.get(collection.name);
    if (!schema) {
      schema = {
        id: collection.id,
        name: collection.name,
        table: collection.table,
        fields: collection.fields.map((field) => ({
          name: field.name,
          column: field.column,
          type: field.type,
          multiple: !!field.multiple,
          relation: field.relation ? { collection: field.relation.collection } : undefined,
          hidden: !!field.hidden || field.type === 'password',
        })),
        listRule: collection.rules.list,
      };
      this.schemas.set(collection.name, schema);
    }
    return schema;
  }

  private context(
    collection: ResolvedCollection,
    info: RequestInfo,
    alias: string,
    trusted: boolean,
  ): FilterContext {
    return {
      collection: this.schemaOf(collection),
      alias,
      resolveCollection: (name) => {
        const target = this.registry.find(name);
        return target ? this.schemaOf(target) : undefined;
      },
      auth: info.auth ? { ...info.auth.record } : null,
      body: info.body,
      query: info.query,
      headers: info.headers,
      method: info.method,
      context: info.context,
      allowHidden: trusted,
      allowCollectionJoins: trusted,
    };
  }

  /**
   * Compiles an API rule. A rule that does not compile is a server bug: it is logged and denies access (the
   * safe side) instead of leaking the compiler's message to a client.
   */
  ruleCondition(
    collection: ResolvedCollection,
    rule: string,
    info: RequestInfo,
    alias = collection.table,
  ): SqlFragment {
    try {
      return compileFilter(rule, this.context(collection, info, alias, true));
    } catch (error) {
      this.logger.error(`rule of collection "${collection.name}" does not compile: ${String(error)}`);
      return { sql: '0', params: [] };
    }
  }

  /** How a rule applies to the request. Superusers pass every rule; a null rule admits superusers only. */
  access(
    collection: ResolvedCollection,
    rule: string | null | undefined,
    info: RequestInfo,
    alias = collection.table,
  ): Access {
    if (info.auth?.isSuperuser) {
      return { kind: 'all' };
    }
    if (rule === null || rule === undefined) {
      return { kind: 'none' };
    }
    if (rule.trim() === '') {
      return { kind: 'all' };
    }
    return { kind: 'where', condition: this.ruleCondition(collection, rule, info, alias) };
  }

  /** Compiles a client's `filter` parameter; a bad one is a 400 saying where it broke. */
  filterCondition(
    collection: ResolvedCollection,
    filter: string,
    info: RequestInfo,
    alias = collection.table,
  ): SqlFragment {
    try {
      return compileFilter(filter, this.context(collection, info, alias, !!info.auth?.isSuperuser));
    } catch (error) {
      throw toBadRequest(error);
    }
  }

  /** Compiles a client's `sort` parameter into ORDER BY terms; a bad one is a 400. */
  sortTerms(collection: ResolvedCollection, sort: string, info: RequestInfo): SqlFragment[] {
    try {
      const compiled = compileSort(
        sort,
        this.context(collection, info, collection.table, !!info.auth?.isSuperuser),
      );
      return compiled.terms.map((term) => ({ sql: `${term.sql} ${term.direction}`, params: term.params }));
    } catch (error) {
      throw toBadRequest(error);
    }
  }

  /** Whether a stored record passes `rule` for the request. */
  async canAccessStored(
    collection: ResolvedCollection,
    id: string,
    rule: string | null | undefined,
    info: RequestInfo,
  ): Promise<boolean> {
    const access = this.access(collection, rule, info);
    if (access.kind !== 'where') {
      return access.kind === 'all';
    }
    return this.records.storedMatches(collection, id, access.condition);
  }

  /**
   * Whether record data that is not (or no longer) stored passes `rule` — a record about to be created, one
   * just deleted, or one published by another module — evaluated on the values themselves.
   */
  async canAccessData(
    collection: ResolvedCollection,
    data: RecordData,
    rule: string | null | undefined,
    info: RequestInfo,
    extraFilter?: string,
  ): Promise<boolean> {
    const access = this.access(collection, rule, info, SNAPSHOT_ALIAS);
    if (access.kind === 'none') {
      return false;
    }
    const conditions: SqlFragment[] = access.kind === 'where' ? [access.condition] : [];
    if (extraFilter?.trim()) {
      try {
        conditions.push(
          compileFilter(
            extraFilter,
            this.context(collection, info, SNAPSHOT_ALIAS, !!info.auth?.isSuperuser),
          ),
        );
      } catch {
        return false;
      }
    }
    if (conditions.length === 0) {
      return true;
    }
    return this.records.snapshotMatches(collection, SNAPSHOT_ALIAS, encodeData(collection, data), {
      sql: conditions.map((condition) => `(${condition.sql})`).join(' AND '),
      params: conditions.flatMap((condition) => condition.params),
    });
  }
}

/** FilterError → 400 in the API error shape (its message names the position, never SQL). */
export function toBadRequest(error: unknown): unknown {
  if (error instanceof FilterError) {
    return ApiError.badRequest(error.message, {
      [error.source]: { code: `validation_invalid_${error.source}`, message: error.message },
    });
  }
  return error;
}
