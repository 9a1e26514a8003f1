import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ResolvedCollection, ResolvedField } from './collections/collection.types';
import type { RecordRow } from './record-codec';
import { runQuery } from './sqlite';

/** A piece of SQL with its positional (`?`) parameters. Values are never concatenated into SQL text. */
export interface SqlFragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface ListQuery {
  /** Conditions joined with AND. */
  readonly where: readonly SqlFragment[];
  /** ORDER BY terms (without the keyword). */
  readonly orderBy: readonly SqlFragment[];
  readonly limit: number;
  readonly offset: number;
}

/** Double-quotes an identifier taken from the registry (never from a request). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function whereClause(where: readonly SqlFragment[]): SqlFragment {
  if (where.length === 0) {
    return { sql: '', params: [] };
  }
  return {
    sql: ` WHERE ${where.map((part) => `(${part.sql})`).join(' AND ')}`,
    params: where.flatMap((part) => part.params),
  };
}

/** SQLite's answer to a broken unique constraint: the column it names, or undefined for other errors. */
export function uniqueViolationColumn(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  const match = /UNIQUE constraint failed: [^.]+\.(\w+)/.exec(message);
  return match?.[1];
}

/**
 * The only place that reads and writes collection tables for the records API. Tables and columns come from the
 * registry; filters and rules arrive as parameterised SQL fragments from the filter compiler.
 */
@Injectable()
export class RecordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private query<T>(sql: string, params: readonly unknown[] = []): Promise<T> {
    return runQuery(this.dataSource, sql, params) as Promise<T>;
  }

  async findById(
    collection: ResolvedCollection,
    id: string,
    where: readonly SqlFragment[] = [],
  ): Promise<RecordRow | null> {
    const table = quoteIdentifier(collection.table);
    const clause = whereClause([{ sql: `${table}."id" = ?`, params: [id] }, ...where]);
    const rows = await this.query<RecordRow[]>(
      `SELECT ${table}.* FROM ${table}${clause.sql} LIMIT 1`,
      clause.params,
    );
    return rows[0] ?? null;
  }

  async findByIds(
    collection: ResolvedCollection,
    ids: readonly string[],
    where: readonly SqlFragment[] = [],
  ): Promise<RecordRow[]> {
    if (ids.length === 0) {
      return [];
    }
    const table = quoteIdentifier(collection.table);
    const clause = whereClause([
      { sql: `${table}."id" IN (${ids.map(() => '?').join(', ')})`, params: ids },
      ...where,
    ]);
    return this.query<RecordRow[]>(`SELECT ${table}.* FROM ${table}${clause.sql}`, clause.params);
  }

  async findByField(
    collection: ResolvedCollection,
    field: ResolvedField,
    value: unknown,
  ): Promise<RecordRow | null> {
    const table = quoteIdentifier(collection.table);
    const rows = await this.query<RecordRow[]>(
      `SELECT * FROM ${table} WHERE ${quoteIdentifier(field.column)} = ? LIMIT 1`,
      [value],
    );
    return rows[0] ?? null;
  }

  /** Records whose relation `field` holds `id` (single value or JSON array). */
  async findReferencing(
    collection: ResolvedCollection,
    field: ResolvedField,
    id: string,
    multiple: boolean,
  ): Promise<RecordRow[]> {
    const table = quoteIdentifier(collection.table);
    const column = `${table}.${quoteIdentifier(field.column)}`;
    const condition = multiple
      ? `EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '[]' END) WHERE json_each.value = ?)`
      : `${column} = ?`;
    return this.query<RecordRow[]>(`SELECT ${table}.* FROM ${table} WHERE ${condition}`, [id]);
  }

  list(collection: ResolvedCollection, query: ListQuery): Promise<RecordRow[]> {
    const table = quoteIdentifier(collection.table);
    const clause = whereClause(query.where);
    const order = [...query.orderBy, { sql: `${table}.rowid ASC`, params: [] }];
    return this.query<RecordRow[]>(
      `SELECT ${table}.* FROM ${table}${clause.sql} ORDER BY ${order.map((term) => term.sql).join(', ')} LIMIT ? OFFSET ?`,
      [...clause.params, ...order.flatMap((term) => term.params), query.limit, query.offset],
    );
  }

  async count(collection: ResolvedCollection, where: readonly SqlFragment[] = []): Promise<number> {
    const table = quoteIdentifier(collection.table);
    const clause = whereClause(where);
    const rows = await this.query<{ total: number }[]>(
      `SELECT COUNT(*) AS total FROM ${table}${clause.sql}`,
      clause.params,
    );
    return Number(rows[0]?.total ?? 0);
  }

  /**
   * Whether a record with the given column values (not necessarily stored: a record about to be created, one
   * just deleted, one published by another module) satisfies `condition`, compiled against `alias`: the values
   * stand in for the table as a one-row CTE of that name.
   */
  async snapshotMatches(
    collection: ResolvedCollection,
    alias: string,
    row: RecordRow,
    condition: SqlFragment,
  ): Promise<boolean> {
    const columns = collection.fields.map((field) => field.column);
    const selects = columns.map((column) => `? AS ${quoteIdentifier(column)}`).join(', ');
    const name = quoteIdentifier(alias);
    const rows = await this.query<unknown[]>(
      `WITH ${name} AS (SELECT ${selects}) SELECT 1 FROM ${name} WHERE (${condition.sql}) LIMIT 1`,
      [...columns.map((column) => row[column] ?? null), ...condition.params],
    );
    return rows.length > 0;
  }

  /** Whether the stored record `id` satisfies `condition`. */
  async storedMatches(collection: ResolvedCollection, id: string, condition: SqlFragment): Promise<boolean> {
    return (await this.findById(collection, id, [condition])) !== null;
  }

  /**
   * Inserts one row in a single statement. `firstValues` maps a column to [value for the first row ever,
   * value otherwise]: decided inside the INSERT (SQLite runs one statement atomically under its write lock), so
   * two concurrent first inserts cannot both get the first value.
   */
  async insert(
    collection: ResolvedCollection,
    row: RecordRow,
    firstValues: Record<string, readonly [unknown, unknown]> = {},
  ): Promise<void> {
    const table = quoteIdentifier(collection.table);
    const columns = Object.keys(row);
    const selects: string[] = [];
    const params: unknown[] = [];
    for (const column of columns) {
      const first = firstValues[column];
      if (first) {
        selects.push(`CASE WHEN EXISTS (SELECT 1 FROM ${table}) THEN ? ELSE ? END`);
        params.push(first[1], first[0]);
      } else {
        selects.push('?');
        params.push(row[column]);
      }
    }
    await this.query(
      `INSERT INTO ${table} (${columns.map(quoteIdentifier).join(', ')}) SELECT ${selects.join(', ')}`,
      params,
    );
  }

  async update(collection: ResolvedCollection, id: string, row: RecordRow): Promise<void> {
    const columns = Object.keys(row).filter((column) => column !== 'id');
    if (columns.length === 0) {
      return;
    }
    await this.query(
      `UPDATE ${quoteIdentifier(collection.table)} SET ${columns.map((column) => `${quoteIdentifier(column)} = ?`).join(', ')} WHERE "id" = ?`,
      [...columns.map((column) => row[column]), id],
    );
  }

  async delete(collection: ResolvedCollection, id: string): Promise<void> {
    await this.query(`DELETE FROM ${quoteIdentifier(collection.table)} WHERE "id" = ?`, [id]);
  }
}
