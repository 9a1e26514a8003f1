import {
  ComparisonNode,
  ComparisonOperator,
  DATE_MACROS,
  DateMacro,
  FIELD_MODIFIERS,
  FieldModifier,
  FilterNode,
  Operand,
} from './ast';
import { FilterError } from './errors';
import { describeText, Token, tokenize } from './lexer';

/** PocketBase's limits (tools/search: MaxFilterLength, DefaultFilterExprLimit) plus a nesting bound of our own. */
export const FILTER_LIMITS = {
  maxLength: 3500,
  maxComparisons: 200,
  maxDepth: 50,
} as const;

const MODIFIER_SET = new Set<string>(FIELD_MODIFIERS);
const MACRO_SET = new Set<string>(DATE_MACROS);
const SEGMENT = /^[A-Za-z0-9_]+$/;
const FIRST_SEGMENT = /^@?[A-Za-z_][A-Za-z0-9_]*$/;

// Rules are parsed on every request; caching the immutable ASTs keeps that cheap. Bounded so that a client
// sending endless distinct filters can't grow it without limit.
const CACHE_LIMIT = 500;
const cache = new Map<string, FilterNode>();

/**
 * Parses a PocketBase filter expression into an AST, enforcing the length, comparison-count and nesting
 * limits. Throws `FilterError` for any malformed input; never anything else.
 */
export function parseFilter(expression: string): FilterNode {
  const cached = cache.get(expression);
  if (cached) {
    return cached;
  }
  if (expression.length > FILTER_LIMITS.maxLength) {
    throw new FilterError(
      FILTER_LIMITS.maxLength,
      `the expression is longer than ${FILTER_LIMITS.maxLength} characters`,
    );
  }
  const node = new Parser(tokenize(expression)).parse();
  if (cache.size >= CACHE_LIMIT) {
    cache.clear();
  }
  cache.set(expression, node);
  return node;
}

function describeToken(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'the end of the expression';
    case 'string':
      return `the text ${describeText(token.value)}`;
    case 'identifier':
    case 'number':
    case 'operator':
    case 'and':
    case 'or':
    case 'lparen':
    case 'rparen':
      return describeText(token.value);
  }
}

class Parser {
  private index = 0;
  private comparisons = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): FilterNode {
    if (this.peek().type === 'eof') {
      throw new FilterError(0, 'empty filter expression');
    }
    const node = this.parseOr(0);
    const next = this.peek();
    if (next.type !== 'eof') {
      if (next.type === 'rparen') {
        throw new FilterError(next.position, 'unexpected ")" without a matching "("');
      }
      throw new FilterError(
        next.position,
        `expected "&&", "||" or the end of the expression, got ${describeToken(next)}`,
      );
    }
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.type !== 'eof') {
      this.index++;
    }
    return token;
  }

  private parseOr(depth: number): FilterNode {
    const first = this.parseAnd(depth);
    const children = [first];
    while (this.peek().type === 'or') {
      this.next();
      children.push(this.parseAnd(depth));
    }
    return children.length === 1 ? first : { type: 'or', children, position: first.position };
  }

  private parseAnd(depth: number): FilterNode {
    const first = this.parsePrimary(depth);
    const children = [first];
    while (this.peek().type === 'and') {
      this.next();
      children.push(this.parsePrimary(depth));
    }
    return children.length === 1 ? first : { type: 'and', children, position: first.position };
  }

  private parsePrimary(depth: number): FilterNode {
    const token = this.peek();
    if (token.type !== 'lparen') {
      return this.parseComparison();
    }
    if (depth + 1 > FILTER_LIMITS.maxDepth) {
      throw new FilterError(
        token.position,
        `parentheses are nested more than ${FILTER_LIMITS.maxDepth} levels deep`,
      );
    }
    this.next();
    if (this.peek().type === 'rparen') {
      throw new FilterError(token.position, 'empty parentheses');
    }
    const inner = this.parseOr(depth + 1);
    const close = this.peek();
    if (close.type !== 'rparen') {
      throw new FilterError(
        close.position,
        `expected ")" to close the "(" at position ${token.position}, got ${describeToken(close)}`,
      );
    }
    this.next();
    return inner;
  }

  private parseComparison(): ComparisonNode {
    const leftToken = this.next();
    const left = this.parseOperand(leftToken, 'expected a field, text, number, true, false or null');
    const opToken = this.next();
    if (opToken.type !== 'operator') {
      throw new FilterError(
        opToken.position,
        `expected an operator after ${describeText(this.operandText(leftToken))}, got ${describeToken(opToken)}`,
      );
    }
    const rightToken = this.next();
    const right = this.parseOperand(
      rightToken,
      `expected a field, text, number, true, false or null after "${opToken.value}"`,
    );
    this.comparisons++;
    if (this.comparisons > FILTER_LIMITS.maxComparisons) {
      throw new FilterError(
        leftToken.position,
        `too many comparisons (at most ${FILTER_LIMITS.maxComparisons})`,
      );
    }
    return {
      type: 'comparison',
      left,
      operator: opToken.value as ComparisonOperator,
      right,
      position: leftToken.position,
    };
  }

  private operandText(token: Token): string {
    return token.type === 'string' ? `'${token.value}'` : token.value;
  }

  private parseOperand(token: Token, expectation: string): Operand {
    const position = token.position;
    switch (token.type) {
      case 'string':
        return { type: 'string', value: token.value, position };
      case 'number':
        return { type: 'number', value: Number(token.value), raw: token.value, position };
      case 'identifier':
        return parseIdentifier(token.value, position);
      case 'operator':
      case 'and':
      case 'or':
      case 'lparen':
      case 'rparen':
      case 'eof':
        throw new FilterError(position, `${expectation}, got ${describeToken(token)}`);
    }
  }
}

/**
 * Splits an identifier into its path and modifier and validates its shape. `true`, `false` and `null` are
 * keywords in any letter case, as PocketBase treats them when no field of that name exists.
 */
export function parseIdentifier(raw: string, position: number): Operand {
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === 'false') {
    return { type: 'boolean', value: lower === 'true', position };
  }
  if (lower === 'null') {
    return { type: 'null', position };
  }

  if (raw.startsWith('@') && !raw.includes('.')) {
    if (MACRO_SET.has(raw)) {
      return { type: 'macro', name: raw as DateMacro, position };
    }
    throw new FilterError(position, `unknown identifier ${describeText(raw)}`);
  }

  const segments = raw.split('.');
  let modifier: FieldModifier | undefined;
  const path: string[] = [];
  let offset = position;
  segments.forEach((segment, i) => {
    const isLast = i === segments.length - 1;
    let name = segment;
    const colon = segment.indexOf(':');
    if (colon >= 0) {
      const suffix = segment.slice(colon + 1);
      name = segment.slice(0, colon);
      if (isLast) {
        if (!MODIFIER_SET.has(suffix)) {
          throw new FilterError(
            offset + colon,
            `unknown modifier ${describeText(`:${suffix}`)} in ${describeText(raw)}`,
          );
        }
        modifier = suffix as FieldModifier;
      } else if (i === 1 && segments[0] === '@collection') {
        if (!SEGMENT.test(suffix)) {
          throw new FilterError(offset + colon, `invalid @collection alias in ${describeText(raw)}`);
        }
        name = segment;
      } else {
        throw new FilterError(
          offset + colon,
          `modifiers are only allowed at the end of ${describeText(raw)}`,
        );
      }
    }
    const valid = i === 0 ? FIRST_SEGMENT.test(name) : SEGMENT.test(name.split(':')[0]);
    if (!valid) {
      throw new FilterError(offset, `invalid field name ${describeText(raw)}`);
    }
    path.push(name);
    offset += segment.length + 1;
  });

  return { type: 'field', path, modifier, raw, position };
}
