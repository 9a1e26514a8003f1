import { compileSortField } from './compiler';
import { FilterError } from './errors';
import { describeText } from './lexer';
import { parseIdentifier } from './parser';
import { FilterContext } from './schema';
import { ident, joinSql, raw, sql, Sql } from './sql';

/** PocketBase's limits: DefaultSortExprLimit and MaxSortFieldLength. */
export const SORT_LIMITS = {
  maxTerms: 8,
  maxFieldLength: 255,
} as const;

export interface CompiledSortTerm {
  /** The ORDER BY expression without its direction; may contain `?` placeholders (relation list rules). */
  sql: string;
  params: unknown[];
  direction: 'ASC' | 'DESC';
}

export interface CompiledSort {
  terms: CompiledSortTerm[];
  /** The whole ORDER BY list (`"t"."created" DESC, "t"."name" ASC`), '' when there are no terms. */
  sql: string;
  params: unknown[];
}

/**
 * Compiles the list `sort` parameter (`-created,+name,@random`) against the same field whitelist as filters.
 * `-` sorts descending, `+` or nothing ascending; `@random` and `@rowid` are PocketBase's special keys; a
 * field may be a single-relation path (`user.name`) or use `:lower` / `:length`. Empty input gives no terms.
 */
export function compileSort(sort: string, context: FilterContext): CompiledSort {
  const terms: CompiledSortTerm[] = [];
  const parts: Sql[] = [];
  let offset = 0;
  for (const piece of sort.split(',')) {
    const start = offset;
    offset += piece.length + 1;
    const leading = piece.length - piece.trimStart().length;
    const item = piece.trim();
    if (item === '') {
      if (sort.trim() === '') {
        break;
      }
      throw new FilterError(start, 'empty sort field', 'sort');
    }
    const position = start + leading;
    if (terms.length >= SORT_LIMITS.maxTerms) {
      throw new FilterError(position, `too many sort fields (at most ${SORT_LIMITS.maxTerms})`, 'sort');
    }
    if (item.length > SORT_LIMITS.maxFieldLength) {
      throw new FilterError(
        position,
        `the sort field is longer than ${SORT_LIMITS.maxFieldLength} characters`,
        'sort',
      );
    }
    const descending = item.startsWith('-');
    const name = item.startsWith('-') || item.startsWith('+') ? item.slice(1) : item;
    const namePosition = position + item.length - name.length;
    const direction = descending ? 'DESC' : 'ASC';
    const expression = compileTerm(name, namePosition, context);
    terms.push({ sql: expression.text, params: [...expression.params], direction });
    parts.push(sql`${expression} ${raw(direction)}`);
  }
  const all = joinSql(parts, ', ');
  return { terms, sql: all.text, params: [...all.params] };
}

function compileTerm(name: string, position: number, context: FilterContext): Sql {
  if (name === '@random') {
    return raw('RANDOM()');
  }
  if (name === '@rowid') {
    return sql`${ident(context.alias)}."_rowid_"`;
  }
  if (!/^[A-Za-z_@][A-Za-z0-9_.:]*$/.test(name)) {
    throw new FilterError(position, `invalid sort field ${describeText(name)}`, 'sort');
  }
  try {
    const operand = parseIdentifier(name, position);
    if (operand.type !== 'field') {
      throw new FilterError(position, `invalid sort field ${describeText(name)}`, 'sort');
    }
    return compileSortField(operand, context);
  } catch (error) {
    if (error instanceof FilterError && error.source !== 'sort') {
      throw new FilterError(error.position, error.reason, 'sort');
    }
    throw error;
  }
}
