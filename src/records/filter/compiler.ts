import { recordDate } from '../../common/records/record-id';
import { ComparisonNode, ComparisonOperator, FieldModifier, FieldOperand, FilterNode, Operand } from './ast';
import { FilterError } from './errors';
import { describeText } from './lexer';
import { macroValue } from './macros';
import { parseFilter } from './parser';
import { CollectionSchema, FieldSchema, FilterContext } from './schema';
import { combine, ident, isPlainIdentifier, param, raw, Sql, sql } from './sql';

/** The result of compiling a filter: SQLite SQL with positional `?` placeholders and their values in order. */
export interface CompiledFilter {
  sql: string;
  params: unknown[];
}

export const COMPILE_LIMITS = {
  /** PocketBase's maxNestedRels: relation hops in one field path. */
  maxRelationDepth: 6,
  /** Tables joined in one expression's EXISTS scope; SQLite refuses joins of more than 64 tables. */
  maxJoinedTables: 60,
  /** `@collection` references are cross joins; more than a few multiply into unbounded work. */
  maxCollectionJoins: 3,
  /** SQLite's default SQLITE_MAX_LIKE_PATTERN_LENGTH is 50,000 bytes; longer patterns are a runtime error. */
  maxLikePatternBytes: 49_000,
} as const;

/** Prefix of every alias the compiler invents, so they can't collide with the caller's aliases. */
const ALIAS_PREFIX = '__pbf';

/**
 * Compiles a PocketBase filter expression into a parameterised SQLite boolean expression over
 * `context.alias`, for use in a WHERE clause. Throws `FilterError` for any invalid expression.
 *
 * The result never joins anything into the outer query: relation paths become correlated subqueries, so
 * the caller's row count and pagination are unaffected.
 */
export function compileFilter(expression: string, context: FilterContext): CompiledFilter {
  const node = parseFilter(expression);
  const compiled = new ExpressionCompiler(normalizeContext(context), { next: 0 }).compile(node);
  return { sql: compiled.text, params: [...compiled.params] };
}

/** Compiles one sort field (see `compileSort`). */
export function compileSortField(operand: FieldOperand, context: FilterContext): Sql {
  return new ExpressionCompiler(normalizeContext(context), { next: 0 }).sortExpression(operand);
}

function normalizeContext(context: FilterContext): FilterContext {
  if (!isPlainIdentifier(context.alias) || context.alias.startsWith(ALIAS_PREFIX)) {
    throw new Error(`Invalid filter alias ${JSON.stringify(context.alias)}`);
  }
  // One instant for every macro of the expression (and of the list rules compiled inside it).
  return { ...context, now: context.now ?? new Date() };
}

/** Shared by an expression and the list rules compiled inside it, so every invented alias is unique. */
interface AliasCounter {
  next: number;
}

/**
 * A resolved operand. `value` is the SQL for one value: a column, a bound value, or the current item when
 * the operand expands into several values through `joins`.
 */
interface Resolved {
  value: Sql;
  /** The JS value bound by `value` when it is exactly one placeholder (drives LIKE wrapping). */
  staticValue?: string | number;
  /** NULL, TRUE or FALSE written as a constant. */
  constant?: boolean;
  /** Known to be NULL or '' at compile time. */
  empty: boolean;
  /** Known not to be NULL or '' at compile time. */
  knownNonEmpty: boolean;
  /** JSON values compare with IS / IS NOT, without PocketBase's ''-equals-NULL normalization. */
  noNullFallback: boolean;
  /** References the expression-wide (shared) relation joins. */
  usesJoins: boolean;
  /** Passes through a shared join that can match several rows (multi relation, back-relation, @collection). */
  sharedMulti: boolean;
  /** Joins that belong to this comparison alone (item expansion; in fresh mode the whole chain). */
  joins: Sql[];
}

/** Where a field path currently stands while walking relations. */
interface Cursor {
  collection: CollectionSchema;
  alias: Sql;
  /** Identity of the join path, so the same path in two comparisons reuses one join (as PocketBase does). */
  key: string;
  hops: number;
  usesJoins: boolean;
  sharedMulti: boolean;
}

interface SharedJoin {
  key: string;
  alias: Sql;
  clause: Sql;
}

interface CompiledNode {
  sql: Sql;
  usesJoins: boolean;
}

type Mode = 'shared' | 'fresh';

const BACK_RELATION = /^(\w+)_via_(\w+)$/;

function modifierText(modifier: FieldModifier): string {
  return `":${modifier}"`;
}

function isAnyOperator(op: ComparisonOperator): boolean {
  return op.startsWith('?');
}

function isArrayType(field: FieldSchema): boolean {
  return field.type === 'select' || field.type === 'file' || field.type === 'relation';
}

/** `col` as a JSON array: arrays as stored, NULL/'' as empty, anything else (a single value) wrapped. */
function normalizedArray(column: Sql): Sql {
  return sql`(CASE WHEN json_valid(${column}) THEN (CASE WHEN json_type(${column}) = 'array' THEN ${column} ELSE json_array(${column}) END) WHEN ${column} IS NULL OR ${column} = '' THEN '[]' ELSE json_array(${column}) END)`;
}

function jsonPath(segments: readonly string[]): string {
  return '$' + segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `."${s}"`)).join('');
}

/** Converts a request/auth value into something SQLite can bind, the way PocketBase serializes it. */
function toSqlValue(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : null;
  }
  if (typeof value === 'bigint') {
    return value.toString();
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : recordDate(value);
  }
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

function toArray(value: unknown): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  return Array.isArray(value) ? value : [value];
}

/** Walks `value` by object keys and array indexes; `found` is false when a step is missing. */
function extract(value: unknown, keys: readonly string[]): { found: boolean; value: unknown } {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current)) {
      const index = /^\d+$/.test(key) ? Number(key) : -1;
      if (index < 0 || index >= current.length) {
        return { found: false, value: undefined };
      }
      current = current[index] as unknown;
    } else if (
      current !== null &&
      typeof current === 'object' &&
      Object.prototype.hasOwnProperty.call(current, key)
    ) {
      current = (current as Record<string, unknown>)[key];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

function findField(collection: CollectionSchema, name: string): FieldSchema | undefined {
  return collection.fields.find((f) => f.name === name);
}

function idColumn(collection: CollectionSchema): string {
  return findField(collection, 'id')?.column ?? 'id';
}

const CONSTANT_TRUE: Resolved = constant('1', false, true);
const CONSTANT_FALSE: Resolved = constant('0', false, true);
const CONSTANT_NULL: Resolved = constant('NULL', true, false);

function constant(text: string, empty: boolean, knownNonEmpty: boolean): Resolved {
  return {
    value: raw(text),
    constant: true,
    empty,
    knownNonEmpty,
    noNullFallback: false,
    usesJoins: false,
    sharedMulti: false,
    joins: [],
  };
}

/** A value known at compile time (literal, macro, request data), bound as a parameter. */
function staticOperand(value: unknown): Resolved {
  const v = toSqlValue(value);
  if (v === null) {
    return CONSTANT_NULL;
  }
  if (typeof v === 'boolean') {
    return v ? CONSTANT_TRUE : CONSTANT_FALSE;
  }
  const empty = v === '';
  return {
    value: param(v),
    staticValue: v,
    empty,
    knownNonEmpty: !empty,
    noNullFallback: false,
    usesJoins: false,
    sharedMulti: false,
    joins: [],
  };
}

function expressionOperand(value: Sql, flags: Partial<Resolved> = {}): Resolved {
  return {
    value,
    empty: false,
    knownNonEmpty: false,
    noNullFallback: false,
    usesJoins: false,
    sharedMulti: false,
    joins: [],
    ...flags,
  };
}

function hasUnescapedPercent(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\') {
      i++;
    } else if (value[i] === '%') {
      return true;
    }
  }
  return false;
}

/** Escapes LIKE wildcards and backslashes for a contains-match, keeping ones the user already escaped. */
function escapeLike(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    const next = value[i + 1];
    if (ch === '\\' && (next === '\\' || next === '%' || next === '_')) {
      out += ch + next;
      i++;
    } else if (ch === '\\' || ch === '%' || ch === '_') {
      out += '\\' + ch;
    } else {
      out += ch;
    }
  }
  return out;
}

class ExpressionCompiler {
  private readonly joins: SharedJoin[] = [];
  private joinedTables = 0;
  private collectionJoins = 0;

  constructor(
    private readonly context: FilterContext,
    private readonly counter: AliasCounter,
  ) {}

  /**
   * The whole expression. Relation joins are shared by every comparison of the expression (PocketBase joins
   * them into the main query, so `rel.a = 1 && rel.b = 2` constrains one related record); here they live in
   * one correlated `EXISTS (SELECT 1 FROM ... LEFT JOIN ... WHERE <expression>)`, which is equivalent to
   * PocketBase's `SELECT DISTINCT ... LEFT JOIN ...` without touching the outer query. Top-level `&&` terms
   * that use no join stay outside, where SQLite can use indexes for them.
   */
  compile(node: FilterNode): Sql {
    const parts =
      node.type === 'and' ? node.children.map((c) => this.compileNode(c)) : [this.compileNode(node)];
    const outside = parts.filter((p) => !p.usesJoins).map((p) => p.sql);
    const inside = parts.filter((p) => p.usesJoins).map((p) => p.sql);
    if (inside.length > 0) {
      const clauses = this.joins.map((j) => j.clause);
      const root = this.newAlias();
      const joined = clauses.reduce((acc, clause) => sql`${acc} ${clause}`, raw(''));
      outside.push(
        sql`EXISTS (SELECT 1 FROM (SELECT 1) AS ${root}${joined} WHERE ${combine(inside, 'AND')})`,
      );
    }
    return combine(outside, 'AND');
  }

  /**
   * A sort key: one value per record, so multi-valued paths are refused. Relation paths become a scalar
   * subquery over the same joins a filter would use.
   */
  sortExpression(operand: FieldOperand): Sql {
    // Request data and @collection are the same for every record: meaningless (or multi-valued) as a key.
    if (operand.path[0].startsWith('@')) {
      throw new FilterError(operand.position, `cannot sort by ${describeText(operand.raw)}`);
    }
    const resolved = this.resolve(operand, 'shared');
    if (resolved.sharedMulti || resolved.joins.length > 0) {
      throw new FilterError(operand.position, `cannot sort by the multi-valued ${describeText(operand.raw)}`);
    }
    if (this.joins.length === 0) {
      return resolved.value;
    }
    const root = this.newAlias();
    const joined = this.joins.reduce((acc, j) => sql`${acc} ${j.clause}`, raw(''));
    return sql`(SELECT ${resolved.value} FROM (SELECT 1) AS ${root}${joined})`;
  }

  private newAlias(): Sql {
    this.counter.next++;
    return ident(`${ALIAS_PREFIX}${this.counter.next}`);
  }

  private compileNode(node: FilterNode): CompiledNode {
    if (node.type === 'comparison') {
      return this.compileComparison(node);
    }
    const children = node.children.map((c) => this.compileNode(c));
    return {
      sql: combine(
        children.map((c) => c.sql),
        node.type === 'and' ? 'AND' : 'OR',
      ),
      usesJoins: children.some((c) => c.usesJoins),
    };
  }

  /**
   * One comparison. Operands with several values (multi relations, back-relations, `@collection`, arrays)
   * follow PocketBase: `?op` needs at least one value to match; a plain operator needs every value to match
   * (and at least one to exist — an empty set counts as a single NULL/'' value, so `tags = ''` matches
   * records without tags). "Every" is checked as PocketBase does, with an independent NOT EXISTS over a
   * fresh copy of the operand's joins.
   */
  private compileComparison(node: ComparisonNode): CompiledNode {
    const left = this.resolve(node.left, 'shared');
    const right = this.resolve(node.right, 'shared');
    const position = node.position;
    const condition = this.condition(left, node.operator, right, position);
    const ownJoins = [...left.joins, ...right.joins];
    const positive = ownJoins.length > 0 ? this.exists(ownJoins, condition) : condition;
    const usesJoins = left.usesJoins || right.usesJoins;
    const isMulti = (r: Resolved): boolean => r.sharedMulti || r.joins.length > 0;

    if (isAnyOperator(node.operator) || (!isMulti(left) && !isMulti(right))) {
      return { sql: positive, usesJoins };
    }

    const again = (operand: Operand, resolved: Resolved): Resolved =>
      isMulti(resolved) ? this.resolve(operand, resolved.sharedMulti ? 'fresh' : 'shared') : resolved;
    const freshLeft = again(node.left, left);
    const freshRight = again(node.right, right);
    const freshCondition = this.condition(freshLeft, node.operator, freshRight, position);
    const noMismatch = sql`NOT ${this.exists([...freshLeft.joins, ...freshRight.joins], sql`NOT (${freshCondition})`)}`;
    return { sql: sql`(${positive} AND ${noMismatch})`, usesJoins };
  }

  private exists(joins: readonly Sql[], condition: Sql): Sql {
    // Joining from a one-row dummy table makes an empty set yield one row of NULLs, like PocketBase's LEFT JOIN.
    const root = this.newAlias();
    const joined = joins.reduce((acc, clause) => sql`${acc} ${clause}`, raw(''));
    return sql`EXISTS (SELECT 1 FROM (SELECT 1) AS ${root}${joined} WHERE ${condition})`;
  }

  private condition(left: Resolved, operator: ComparisonOperator, right: Resolved, position: number): Sql {
    const base = operator.startsWith('?') ? operator.slice(1) : operator;
    switch (base) {
      case '=':
        return this.equality(left, right, false);
      case '!=':
        return this.equality(left, right, true);
      case '~':
        return this.like(left, right, false, position);
      case '!~':
        return this.like(left, right, true, position);
      case '>':
      case '>=':
      case '<':
      case '<=':
        return sql`${left.value} ${raw(base)} ${right.value}`;
      default:
        throw new FilterError(position, `unknown operator ${describeText(operator)}`);
    }
  }

  /**
   * PocketBase's equality: NULL and '' are the same "empty" value, so `x = ''` / `x = null` match both, and
   * `!=` uses IS NOT so a NULL column still differs from a value. JSON values compare strictly (IS / IS NOT).
   */
  private equality(left: Resolved, right: Resolved, negate: boolean): Sql {
    const eq = raw(negate ? 'IS NOT' : '=');
    if (left.noNullFallback || right.noNullFallback) {
      return sql`${left.value} ${raw(negate ? 'IS NOT' : 'IS')} ${right.value}`;
    }
    if (left.empty && right.empty) {
      return raw(negate ? '0' : '1');
    }
    if (left.knownNonEmpty || right.knownNonEmpty) {
      const l = left.empty ? raw("''") : left.value;
      const r = right.empty ? raw("''") : right.value;
      return sql`${l} ${eq} ${r}`;
    }
    const emptyCheck = (x: Sql): Sql =>
      negate ? sql`(${x} IS NOT '' AND ${x} IS NOT NULL)` : sql`(${x} = '' OR ${x} IS NULL)`;
    if (left.empty) {
      return emptyCheck(right.value);
    }
    if (right.empty) {
      return emptyCheck(left.value);
    }
    return sql`COALESCE(${left.value}, '') ${eq} COALESCE(${right.value}, '')`;
  }

  /**
   * `~` is SQLite LIKE (ASCII case-insensitive). A bound value without an unescaped `%` is matched as a
   * substring: its `%`, `_` and `\` are escaped and it is wrapped in `%...%`; with a `%` it is used as the
   * pattern. A column/expression on the right is wrapped as `'%' || x || '%'` unescaped, as PocketBase does.
   * Patterns beyond SQLite's LIKE length limit fall back to an equivalent case-insensitive `instr`.
   */
  private like(left: Resolved, right: Resolved, negate: boolean, position: number): Sql {
    const op = raw(negate ? 'NOT LIKE' : 'LIKE');
    const contains = (needle: Sql): Sql => {
      const found = sql`instr(LOWER(${left.value}), LOWER(${needle})) > 0`;
      return negate ? sql`NOT (${found})` : found;
    };
    if (right.staticValue !== undefined) {
      const value = String(right.staticValue);
      const wrap = !hasUnescapedPercent(value);
      const pattern = wrap ? `%${escapeLike(value)}%` : value;
      if (Buffer.byteLength(pattern) > COMPILE_LIMITS.maxLikePatternBytes) {
        if (!wrap) {
          throw new FilterError(position, 'the LIKE pattern is too long');
        }
        return contains(param(value));
      }
      return sql`${left.value} ${op} ${param(pattern)} ESCAPE '\\'`;
    }
    const likeExpression = sql`${left.value} ${op} ('%' || ${right.value} || '%') ESCAPE '\\'`;
    if (right.constant) {
      return likeExpression;
    }
    return sql`(CASE WHEN length(CAST(${right.value} AS BLOB)) > ${raw(String(COMPILE_LIMITS.maxLikePatternBytes))} THEN ${contains(right.value)} ELSE ${likeExpression} END)`;
  }

  // ---------------------------------------------------------------------------------------------------
  // Operand resolution

  private resolve(operand: Operand, mode: Mode): Resolved {
    switch (operand.type) {
      case 'string':
        return staticOperand(operand.value);
      case 'number':
        return staticOperand(operand.value);
      case 'boolean':
        return operand.value ? CONSTANT_TRUE : CONSTANT_FALSE;
      case 'null':
        return CONSTANT_NULL;
      case 'macro':
        return staticOperand(macroValue(operand.name, this.context.now ?? new Date()));
      case 'field':
        return this.resolveField(operand, mode);
    }
  }

  private resolveField(operand: FieldOperand, mode: Mode): Resolved {
    const [head] = operand.path;
    if (head === '@request') {
      return this.resolveRequest(operand, mode);
    }
    if (head === '@collection') {
      return this.resolveCollectionReference(operand, mode);
    }
    if (head.startsWith('@')) {
      throw new FilterError(operand.position, `unknown identifier ${describeText(operand.raw)}`);
    }
    const joins: Sql[] = [];
    const cursor: Cursor = {
      collection: this.context.collection,
      alias: ident(this.context.alias),
      key: '',
      hops: 0,
      usesJoins: false,
      sharedMulti: false,
    };
    return this.walk(cursor, operand.path, operand, mode, joins);
  }

  /** Follows relation segments from `cursor` and resolves the final field (or JSON path). */
  private walk(
    cursor: Cursor,
    segments: readonly string[],
    operand: FieldOperand,
    mode: Mode,
    joins: Sql[],
  ): Resolved {
    let current = cursor;
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i];
      const field = findField(current.collection, segment);
      if (field) {
        this.assertVisible(field, operand);
        if (field.type === 'json') {
          return this.jsonField(current, field, segments.slice(i + 1), operand, joins);
        }
        if (field.type !== 'relation') {
          throw new FilterError(
            operand.position,
            `${describeText(segment)} is not a relation field, so ${describeText(operand.raw)} cannot be resolved`,
          );
        }
        // PocketBase resolves `rel.id` of a single relation to the stored id, without a join.
        if (!field.multiple && i === segments.length - 2 && segments[i + 1] === 'id') {
          return this.finalField(current, field, operand, joins);
        }
        current = this.relationHop(current, field, operand, mode, joins);
        continue;
      }
      const back = BACK_RELATION.exec(segment);
      if (back) {
        current = this.backRelationHop(current, back[1], back[2], operand, mode, joins);
        continue;
      }
      throw new FilterError(
        operand.position,
        `unknown field ${describeText(segment)} in ${describeText(operand.raw)}`,
      );
    }
    const last = segments[segments.length - 1];
    const field = findField(current.collection, last);
    if (!field) {
      throw new FilterError(operand.position, `unknown field ${describeText(last)}`);
    }
    this.assertVisible(field, operand);
    if (field.type === 'json') {
      return this.jsonField(current, field, [], operand, joins);
    }
    return this.finalField(current, field, operand, joins);
  }

  private assertVisible(field: FieldSchema, operand: FieldOperand): void {
    if (field.type === 'password' || (field.hidden && !this.context.allowHidden)) {
      throw new FilterError(
        operand.position,
        `the field ${describeText(field.name)} cannot be used in filters`,
      );
    }
  }

  private cursorFlags(cursor: Cursor): Partial<Resolved> {
    return { usesJoins: cursor.usesJoins, sharedMulti: cursor.sharedMulti };
  }

  private finalField(cursor: Cursor, field: FieldSchema, operand: FieldOperand, joins: Sql[]): Resolved {
    const column = sql`${cursor.alias}.${ident(field.column)}`;
    const flags = this.cursorFlags(cursor);
    const modifier = operand.modifier;
    const expandItems = (): Resolved => {
      const item = this.newAlias();
      joins.push(sql`LEFT JOIN json_each(${normalizedArray(column)}) AS ${item}`);
      const value = sql`${item}."value"`;
      return expressionOperand(modifier === 'lower' ? sql`LOWER(${value})` : value, { ...flags, joins });
    };
    switch (modifier) {
      case undefined:
      case 'lower':
        // A multi-valued field is an array-like value: it compares item by item (see compileComparison).
        if (field.multiple && isArrayType(field)) {
          return expandItems();
        }
        return expressionOperand(modifier === 'lower' ? sql`LOWER(${column})` : column, { ...flags, joins });
      case 'each':
        if (!isArrayType(field)) {
          throw new FilterError(
            operand.position,
            `the ${modifierText(modifier)} modifier needs a select, file or relation field, not ${describeText(field.name)}`,
          );
        }
        return expandItems();
      case 'length':
        if (!isArrayType(field)) {
          throw new FilterError(
            operand.position,
            `the ${modifierText(modifier)} modifier needs a multi-valued or JSON field, not ${describeText(field.name)}`,
          );
        }
        return expressionOperand(sql`json_array_length(${normalizedArray(column)})`, { ...flags, joins });
      case 'isset':
      case 'changed':
        throw new FilterError(
          operand.position,
          `the ${modifierText(modifier)} modifier can only be used on @request.${modifier === 'isset' ? '*' : 'body.*'} fields`,
        );
    }
  }

  /** A JSON field, optionally followed by a path into the document (`data.a.0.b`). */
  private jsonField(
    cursor: Cursor,
    field: FieldSchema,
    path: readonly string[],
    operand: FieldOperand,
    joins: Sql[],
  ): Resolved {
    const column = sql`${cursor.alias}.${ident(field.column)}`;
    const flags = this.cursorFlags(cursor);
    const pathParam = param(jsonPath(path));
    switch (operand.modifier) {
      case undefined:
      case 'lower': {
        // Invalid JSON must not reach json_extract (a runtime error); like PocketBase, plain text stored in a
        // JSON column reads as itself at the root and as NULL below it.
        const fallback = path.length === 0 ? column : raw('NULL');
        const value = sql`(CASE WHEN json_valid(${column}) THEN json_extract(${column}, ${pathParam}) ELSE ${fallback} END)`;
        return expressionOperand(operand.modifier === 'lower' ? sql`LOWER(${value})` : value, {
          ...flags,
          joins,
          noNullFallback: true,
        });
      }
      case 'length':
        return expressionOperand(
          sql`(CASE WHEN json_valid(${column}) THEN (CASE WHEN json_type(${column}, ${pathParam}) = 'array' THEN json_array_length(${column}, ${pathParam}) ELSE 0 END) ELSE 0 END)`,
          { ...flags, joins },
        );
      case 'each':
      case 'isset':
      case 'changed':
        throw new FilterError(
          operand.position,
          `the ${modifierText(operand.modifier)} modifier is not supported on the JSON field ${describeText(field.name)}`,
        );
    }
  }

  /** Adds a join: shared ones are keyed by path and reused; fresh ones belong to one comparison. */
  private join(
    cursor: Cursor,
    key: string,
    mode: Mode,
    joins: Sql[],
    operand: FieldOperand,
    build: (alias: Sql) => { clause: Sql; tables: number },
  ): Sql {
    if (mode === 'fresh') {
      const alias = this.newAlias();
      joins.push(build(alias).clause);
      return alias;
    }
    const existing = this.joins.find((j) => j.key === key);
    if (existing) {
      return existing.alias;
    }
    const alias = this.newAlias();
    const { clause, tables } = build(alias);
    this.joinedTables += tables;
    if (this.joinedTables > COMPILE_LIMITS.maxJoinedTables) {
      throw new FilterError(operand.position, 'the expression references too many different relations');
    }
    this.joins.push({ key, alias, clause });
    return alias;
  }

  /** Resolves a relation target and the extra condition its list rule puts on visible records. */
  private target(name: string, operand: FieldOperand): CollectionSchema {
    const target = this.context.resolveCollection(name);
    if (!target) {
      throw new FilterError(
        operand.position,
        `unknown collection ${describeText(name)} in ${describeText(operand.raw)}`,
      );
    }
    // Like PocketBase, a collection without a list rule is superusers-only: user filters can't look into it.
    if (!this.context.allowHidden && (target.listRule === null || target.listRule === undefined)) {
      throw new FilterError(
        operand.position,
        `the records of ${describeText(target.name)} cannot be used in filters (${describeText(operand.raw)})`,
      );
    }
    return target;
  }

  /**
   * For user filters, a related collection's list rule decides which related records the filter can see
   * (PocketBase does the same). Records the rule hides behave as if they did not exist, so a filter can't
   * probe data the client could not list. Rules compile with hidden fields allowed, as API rules do.
   */
  private visibility(target: CollectionSchema, alias: Sql, operand: FieldOperand): Sql | undefined {
    const rule = target.listRule;
    if (this.context.allowHidden || rule === undefined || rule === null || rule.trim() === '') {
      // (null/undefined never get here for user filters: `target()` already refused them.)
      return undefined;
    }
    const aliasName = alias.text.slice(1, -1);
    const nested = new ExpressionCompiler(
      {
        ...this.context,
        collection: target,
        alias: aliasName,
        allowHidden: true,
        allowCollectionJoins: true,
      },
      this.counter,
    );
    try {
      return nested.compile(parseFilter(rule));
    } catch (error) {
      if (error instanceof FilterError) {
        throw new FilterError(
          operand.position,
          `the list rule of ${describeText(target.name)} is invalid (${error.reason}), so ${describeText(operand.raw)} cannot be used`,
        );
      }
      throw error;
    }
  }

  private onClause(condition: Sql, visible: Sql | undefined): Sql {
    return visible ? sql`ON ${condition} AND (${visible})` : sql`ON ${condition}`;
  }

  private nextCursor(
    cursor: Cursor,
    target: CollectionSchema,
    alias: Sql,
    key: string,
    mode: Mode,
    multi: boolean,
  ): Cursor {
    return {
      collection: target,
      alias,
      key,
      hops: cursor.hops + 1,
      usesJoins: cursor.usesJoins || mode === 'shared',
      sharedMulti: cursor.sharedMulti || multi,
    };
  }

  private checkDepth(cursor: Cursor, operand: FieldOperand): void {
    if (cursor.hops >= COMPILE_LIMITS.maxRelationDepth) {
      throw new FilterError(
        operand.position,
        `${describeText(operand.raw)} goes through more than ${COMPILE_LIMITS.maxRelationDepth} relations`,
      );
    }
  }

  private relationHop(
    cursor: Cursor,
    field: FieldSchema,
    operand: FieldOperand,
    mode: Mode,
    joins: Sql[],
  ): Cursor {
    this.checkDepth(cursor, operand);
    if (!field.relation) {
      throw new FilterError(
        operand.position,
        `the relation ${describeText(field.name)} has no target collection`,
      );
    }
    const target = this.target(field.relation.collection, operand);
    const column = sql`${cursor.alias}.${ident(field.column)}`;
    const targetId = (alias: Sql): Sql => sql`${alias}.${ident(idColumn(target))}`;
    const key = `${cursor.key}.${field.name}`;
    const multiple = field.multiple === true;
    const alias = this.join(cursor, key, mode, joins, operand, (alias) => {
      const visible = this.visibility(target, alias, operand);
      if (!multiple) {
        return {
          clause: sql`LEFT JOIN ${ident(target.table)} AS ${alias} ${this.onClause(sql`${targetId(alias)} = ${column}`, visible)}`,
          tables: 1,
        };
      }
      const item = this.newAlias();
      return {
        clause: sql`LEFT JOIN json_each(${normalizedArray(column)}) AS ${item} LEFT JOIN ${ident(target.table)} AS ${alias} ${this.onClause(sql`${targetId(alias)} = ${item}."value"`, visible)}`,
        tables: 2,
      };
    });
    return this.nextCursor(cursor, target, alias, key, mode, multiple);
  }

  /** `voices_via_user`: the records of `voices` whose relation `user` points at the current record. */
  private backRelationHop(
    cursor: Cursor,
    collectionName: string,
    fieldName: string,
    operand: FieldOperand,
    mode: Mode,
    joins: Sql[],
  ): Cursor {
    this.checkDepth(cursor, operand);
    const source = this.target(collectionName, operand);
    const field = findField(source, fieldName);
    const pointsHere =
      field?.type === 'relation' &&
      field.relation !== undefined &&
      this.context.resolveCollection(field.relation.collection)?.name === cursor.collection.name;
    if (!field || !pointsHere) {
      throw new FilterError(
        operand.position,
        `${describeText(`${collectionName}_via_${fieldName}`)} is not a relation of ${describeText(source.name)} to ${describeText(cursor.collection.name)}`,
      );
    }
    this.assertVisible(field, operand);
    const currentId = sql`${cursor.alias}.${ident(idColumn(cursor.collection))}`;
    const key = `${cursor.key}.${collectionName}_via_${fieldName}`;
    const alias = this.join(cursor, key, mode, joins, operand, (alias) => {
      const visible = this.visibility(source, alias, operand);
      const relation = sql`${alias}.${ident(field.column)}`;
      let condition: Sql;
      if (field.multiple) {
        const item = this.newAlias();
        condition = sql`${currentId} IN (SELECT ${item}."value" FROM json_each(${normalizedArray(relation)}) AS ${item})`;
      } else {
        condition = sql`${relation} = ${currentId}`;
      }
      return {
        clause: sql`LEFT JOIN ${ident(source.table)} AS ${alias} ${this.onClause(condition, visible)}`,
        tables: 1,
      };
    });
    return this.nextCursor(cursor, source, alias, key, mode, true);
  }

  /** `@collection.name[:alias].field`: every record of another collection (a cross join, many-valued). */
  private resolveCollectionReference(operand: FieldOperand, mode: Mode): Resolved {
    if (this.context.allowCollectionJoins === false) {
      throw new FilterError(operand.position, '@collection references are not allowed here');
    }
    if (operand.path.length < 3) {
      throw new FilterError(operand.position, `expected a field after ${describeText(operand.raw)}`);
    }
    const [name, aliasName = ''] = operand.path[1].split(':');
    const target = this.target(name, operand);
    const key = `@collection:${target.name}:${aliasName}`;
    const joins: Sql[] = [];
    const root: Cursor = {
      collection: target,
      alias: ident(this.context.alias),
      key,
      hops: 0,
      usesJoins: false,
      sharedMulti: false,
    };
    if (mode === 'shared' && !this.joins.some((j) => j.key === key)) {
      this.collectionJoins++;
      if (this.collectionJoins > COMPILE_LIMITS.maxCollectionJoins) {
        throw new FilterError(
          operand.position,
          `at most ${COMPILE_LIMITS.maxCollectionJoins} different @collection references are allowed`,
        );
      }
    }
    const alias = this.join(root, key, mode, joins, operand, (alias) => {
      const visible = this.visibility(target, alias, operand);
      return {
        clause: visible
          ? sql`LEFT JOIN ${ident(target.table)} AS ${alias} ON (${visible})`
          : sql`LEFT JOIN ${ident(target.table)} AS ${alias}`,
        tables: 1,
      };
    });
    const cursor: Cursor = { ...root, alias, usesJoins: mode === 'shared', sharedMulti: true };
    return this.walk(cursor, operand.path.slice(2), operand, mode, joins);
  }

  // ---------------------------------------------------------------------------------------------------
  // @request.*

  private resolveRequest(operand: FieldOperand, mode: Mode): Resolved {
    const path = operand.path;
    const section = path[1];
    const rest = path.slice(2);
    switch (section) {
      case 'method':
      case 'context':
        if (rest.length > 0) {
          throw new FilterError(operand.position, `unknown field ${describeText(operand.raw)}`);
        }
        return this.staticRequestValue(
          operand,
          true,
          section === 'method'
            ? (this.context.method ?? '').toUpperCase()
            : (this.context.context ?? 'default'),
        );
      case 'headers': {
        this.expectField(operand, rest);
        const headers: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(this.context.headers ?? {})) {
          headers[name.toLowerCase().replace(/-/g, '_')] = Array.isArray(value) ? value.join(', ') : value;
        }
        return this.staticPath(operand, headers, rest);
      }
      case 'query':
        this.expectField(operand, rest);
        return this.staticPath(operand, this.context.query ?? {}, rest);
      case 'body':
        this.expectField(operand, rest);
        return this.resolveBody(operand, rest, mode);
      case 'auth':
        this.expectField(operand, rest);
        return this.resolveAuth(operand, rest, mode);
      default:
        throw new FilterError(operand.position, `unknown request field ${describeText(operand.raw)}`);
    }
  }

  private expectField(operand: FieldOperand, rest: readonly string[]): void {
    if (rest.length === 0) {
      throw new FilterError(operand.position, `expected a field name after ${describeText(operand.raw)}`);
    }
  }

  private staticPath(operand: FieldOperand, source: unknown, keys: readonly string[]): Resolved {
    const { found, value } = extract(source, keys);
    return this.staticRequestValue(operand, found, value);
  }

  /** A request value with the modifiers PocketBase allows on plain request data: `:isset` and `:lower`. */
  private staticRequestValue(operand: FieldOperand, found: boolean, value: unknown): Resolved {
    switch (operand.modifier) {
      case undefined:
        return staticOperand(value);
      case 'isset':
        return found ? CONSTANT_TRUE : CONSTANT_FALSE;
      case 'lower': {
        const resolved = staticOperand(value);
        return resolved.constant ? resolved : expressionOperand(sql`LOWER(${resolved.value})`);
      }
      case 'each':
      case 'length':
      case 'changed':
        throw new FilterError(
          operand.position,
          `the ${modifierText(operand.modifier)} modifier is not supported on ${describeText(operand.raw)}`,
        );
    }
  }

  private resolveBody(operand: FieldOperand, rest: readonly string[], mode: Mode): Resolved {
    const body = this.context.body ?? {};
    const collection = this.context.collection;
    const field = findField(collection, rest[0]);
    const { found, value } = extract(body, rest.slice(0, 1));

    if (field && field.type === 'relation' && rest.length > 1) {
      return this.bodyRelation(operand, field, value, rest.slice(1), mode);
    }
    if (!field || rest.length > 1) {
      return this.staticPath(operand, body, rest);
    }
    switch (operand.modifier) {
      case undefined: {
        // Form submissions carry numbers as text; PocketBase compares them as numbers for number fields.
        if (
          field.type === 'number' &&
          typeof value === 'string' &&
          value.trim() !== '' &&
          Number.isFinite(Number(value))
        ) {
          return staticOperand(Number(value));
        }
        return staticOperand(value);
      }
      case 'isset':
      case 'lower':
        return this.staticRequestValue(operand, found, value);
      case 'length':
        return staticOperand(toArray(value).length);
      case 'each': {
        const item = this.newAlias();
        const items = JSON.stringify(toArray(value).map(toSqlValue));
        return expressionOperand(sql`${item}."value"`, {
          joins: [sql`LEFT JOIN json_each(${param(items)}) AS ${item}`],
        });
      }
      case 'changed': {
        // PocketBase: `@request.body.f:isset = true && @request.body.f != f`.
        if (!found) {
          return CONSTANT_FALSE;
        }
        const column = expressionOperand(sql`${ident(this.context.alias)}.${ident(field.column)}`);
        const differs = this.equality(staticOperand(value), column, true);
        return { ...expressionOperand(sql`(CASE WHEN ${differs} THEN 1 ELSE 0 END)`), knownNonEmpty: true };
      }
    }
  }

  /** `@request.body.rel.field`: fields of the records whose ids were submitted for relation `rel`. */
  private bodyRelation(
    operand: FieldOperand,
    field: FieldSchema,
    submitted: unknown,
    rest: readonly string[],
    mode: Mode,
  ): Resolved {
    const ids = [
      ...new Set(toArray(submitted).filter((v): v is string => typeof v === 'string' && v !== '')),
    ];
    if (ids.length === 0 || !field.relation) {
      return CONSTANT_NULL;
    }
    const target = this.target(field.relation.collection, operand);
    const key = `@body:${field.name}:${JSON.stringify(ids)}`;
    const joins: Sql[] = [];
    const multiple = field.multiple === true;
    const root: Cursor = {
      collection: target,
      alias: ident(this.context.alias),
      key,
      hops: 0,
      usesJoins: false,
      sharedMulti: false,
    };
    const alias = this.join(root, key, mode, joins, operand, (alias) => {
      const visible = this.visibility(target, alias, operand);
      const item = this.newAlias();
      const condition = sql`${alias}.${ident(idColumn(target))} IN (SELECT ${item}."value" FROM json_each(${param(JSON.stringify(ids))}) AS ${item})`;
      return {
        clause: sql`LEFT JOIN ${ident(target.table)} AS ${alias} ${this.onClause(condition, visible)}`,
        tables: 1,
      };
    });
    const cursor: Cursor = { ...root, alias, hops: 1, usesJoins: mode === 'shared', sharedMulti: multiple };
    return this.walk(cursor, rest, operand, mode, joins);
  }

  private resolveAuth(operand: FieldOperand, rest: readonly string[], mode: Mode): Resolved {
    const auth = this.context.auth;
    if (!auth) {
      return operand.modifier === 'isset' ? CONSTANT_FALSE : CONSTANT_NULL;
    }
    const collectionName = typeof auth.collectionName === 'string' ? auth.collectionName : undefined;
    const collection = collectionName ? this.context.resolveCollection(collectionName) : undefined;
    const field = collection ? findField(collection, rest[0]) : undefined;
    if (field) {
      // The auth record is the client's own, but hidden fields (a password hash, tokens) must not become an
      // oracle that a user filter can probe character by character.
      this.assertVisible(field, operand);
    }
    if (collection && field?.type === 'relation' && rest.length > 1) {
      // Like PocketBase, relations of the auth record are read from the database, not from the passed record.
      const key = '@auth';
      const joins: Sql[] = [];
      const root: Cursor = {
        collection,
        alias: ident(this.context.alias),
        key,
        hops: 0,
        usesJoins: false,
        sharedMulti: false,
      };
      const id = toSqlValue(auth.id);
      const alias = this.join(root, key, mode, joins, operand, (alias) => {
        const visible = this.visibility(collection, alias, operand);
        const condition = sql`${alias}.${ident(idColumn(collection))} = ${param(typeof id === 'string' || typeof id === 'number' ? id : null)}`;
        return {
          clause: sql`LEFT JOIN ${ident(collection.table)} AS ${alias} ${this.onClause(condition, visible)}`,
          tables: 1,
        };
      });
      const cursor: Cursor = { ...root, alias, usesJoins: mode === 'shared' };
      return this.walk(cursor, rest, operand, mode, joins);
    }
    return this.staticPath(operand, auth, rest);
  }
}
