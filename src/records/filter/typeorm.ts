import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CompiledFilter } from './compiler';
import { CompiledSort } from './sort';

export interface NamedSql {
  sql: string;
  parameters: Record<string, unknown>;
}

const PREFIX = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Rewrites positional `?` placeholders as TypeORM named parameters `:<prefix>0`, `:<prefix>1`, ... The
 * compiler never emits a `?` or `:` anywhere else (its literals and identifiers contain neither), so a plain
 * scan is exact. Use a distinct prefix per fragment added to one query builder (e.g. `rule`, `filter`).
 */
export function toNamedParameters(
  compiled: { sql: string; params: readonly unknown[] },
  prefix: string,
): NamedSql {
  if (!PREFIX.test(prefix)) {
    throw new Error(`Invalid parameter prefix ${JSON.stringify(prefix)}`);
  }
  const parameters: Record<string, unknown> = {};
  let index = 0;
  const sql = compiled.sql.replace(/\?/g, () => {
    if (index >= compiled.params.length) {
      throw new Error('More placeholders than parameters');
    }
    const name = `${prefix}${index}`;
    parameters[name] = compiled.params[index];
    index++;
    return `:${name}`;
  });
  if (index !== compiled.params.length) {
    throw new Error('Fewer placeholders than parameters');
  }
  return { sql, parameters };
}

/** `qb.andWhere(<filter>)` with the filter's parameters under `prefix`. The alias compiled against must be qb's. */
export function andWhereFilter<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  compiled: CompiledFilter,
  prefix: string,
): SelectQueryBuilder<T> {
  const named = toNamedParameters(compiled, prefix);
  return qb.andWhere(named.sql, named.parameters);
}

/** Appends the sort terms with `addOrderBy`, each term's parameters under `<prefix><term>_`. */
export function addOrderBySort<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  sort: CompiledSort,
  prefix: string,
): SelectQueryBuilder<T> {
  sort.terms.forEach((term, i) => {
    const named = toNamedParameters(term, `${prefix}${i}_`);
    qb.addOrderBy(named.sql, term.direction).setParameters(named.parameters);
  });
  return qb;
}
