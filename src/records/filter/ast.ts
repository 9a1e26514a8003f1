/** AST of a PocketBase filter expression, as produced by `parseFilter`. Positions are 0-based offsets. */

/** Comparison operators; the `?`-prefixed ones are the any-of ("at least one") variants. */
export type ComparisonOperator =
  | '='
  | '!='
  | '>'
  | '>='
  | '<'
  | '<='
  | '~'
  | '!~'
  | '?='
  | '?!='
  | '?>'
  | '?>='
  | '?<'
  | '?<='
  | '?~'
  | '?!~';

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = [
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  '~',
  '!~',
  '?=',
  '?!=',
  '?>',
  '?>=',
  '?<',
  '?<=',
  '?~',
  '?!~',
];

/** Field modifiers (`name:lower`). `changed` is PocketBase's `@request.body.x:changed`. */
export type FieldModifier = 'isset' | 'length' | 'lower' | 'each' | 'changed';

export const FIELD_MODIFIERS: readonly FieldModifier[] = ['isset', 'length', 'lower', 'each', 'changed'];

/** Datetime macros; all are evaluated in UTC at compile time. */
export type DateMacro =
  | '@now'
  | '@yesterday'
  | '@tomorrow'
  | '@second'
  | '@minute'
  | '@hour'
  | '@weekday'
  | '@day'
  | '@month'
  | '@year'
  | '@todayStart'
  | '@todayEnd'
  | '@monthStart'
  | '@monthEnd'
  | '@yearStart'
  | '@yearEnd';

export const DATE_MACROS: readonly DateMacro[] = [
  '@now',
  '@yesterday',
  '@tomorrow',
  '@second',
  '@minute',
  '@hour',
  '@weekday',
  '@day',
  '@month',
  '@year',
  '@todayStart',
  '@todayEnd',
  '@monthStart',
  '@monthEnd',
  '@yearStart',
  '@yearEnd',
];

export interface FieldOperand {
  type: 'field';
  /** Dot-separated segments, e.g. `['@request', 'auth', 'id']`; `@collection.name:alias` keeps its `:alias`. */
  path: string[];
  modifier?: FieldModifier;
  /** The identifier exactly as written, for error messages. */
  raw: string;
  position: number;
}

export interface StringOperand {
  type: 'string';
  value: string;
  position: number;
}

export interface NumberOperand {
  type: 'number';
  value: number;
  raw: string;
  position: number;
}

export interface BooleanOperand {
  type: 'boolean';
  value: boolean;
  position: number;
}

export interface NullOperand {
  type: 'null';
  position: number;
}

export interface MacroOperand {
  type: 'macro';
  name: DateMacro;
  position: number;
}

export type Operand =
  FieldOperand | StringOperand | NumberOperand | BooleanOperand | NullOperand | MacroOperand;

export interface ComparisonNode {
  type: 'comparison';
  left: Operand;
  operator: ComparisonOperator;
  right: Operand;
  position: number;
}

/** `&&` / `||` with two or more children; `&&` binds tighter, so an `or` never appears directly in an `and` unparenthesised. */
export interface LogicalNode {
  type: 'and' | 'or';
  children: FilterNode[];
  position: number;
}

export type FilterNode = ComparisonNode | LogicalNode;
