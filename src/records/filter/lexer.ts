import { COMPARISON_OPERATORS } from './ast';
import { FilterError } from './errors';

export type TokenType =
  'identifier' | 'string' | 'number' | 'operator' | 'and' | 'or' | 'lparen' | 'rparen' | 'eof';

export interface Token {
  type: TokenType;
  /** Identifier text, unescaped string contents, number literal or operator. */
  value: string;
  position: number;
}

const OPERATOR_SET = new Set<string>(COMPARISON_OPERATORS);

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

function isLetter(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

function isIdentifierStart(ch: string): boolean {
  return isLetter(ch) || ch === '_' || ch === '@';
}

function isIdentifierPart(ch: string): boolean {
  return isLetter(ch) || isDigit(ch) || ch === '_' || ch === '.' || ch === ':';
}

function isSignChar(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '<' || ch === '>' || ch === '~' || ch === '?';
}

/** Quotes a piece of the input for an error message, shortened so a long literal can't flood the response. */
export function describeText(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown);
}

/**
 * Splits a filter expression into tokens, skipping whitespace and `//` comments. The token classes follow
 * PocketBase's fexpr scanner (ASCII identifiers with `.` and `:`, `-?digits(.digits)?` numbers, maximal-munch
 * operators) so that expressions written for PocketBase tokenize identically.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  const length = input.length;

  while (pos < length) {
    const ch = input[pos];

    if (isWhitespace(ch)) {
      pos++;
      continue;
    }

    if (ch === '/') {
      if (input[pos + 1] !== '/') {
        throw new FilterError(pos, 'unexpected character "/" (comments start with "//")');
      }
      const newline = input.indexOf('\n', pos);
      pos = newline < 0 ? length : newline + 1;
      continue;
    }

    const start = pos;

    if (ch === '(') {
      tokens.push({ type: 'lparen', value: '(', position: start });
      pos++;
      continue;
    }
    if (ch === ')') {
      tokens.push({ type: 'rparen', value: ')', position: start });
      pos++;
      continue;
    }

    if (ch === '&' || ch === '|') {
      while (pos < length && (input[pos] === '&' || input[pos] === '|')) {
        pos++;
      }
      const text = input.slice(start, pos);
      if (text !== '&&' && text !== '||') {
        throw new FilterError(start, `invalid logical operator ${describeText(text)}, expected "&&" or "||"`);
      }
      tokens.push({ type: text === '&&' ? 'and' : 'or', value: text, position: start });
      continue;
    }

    if (isSignChar(ch)) {
      while (pos < length && isSignChar(input[pos])) {
        pos++;
      }
      const text = input.slice(start, pos);
      if (!OPERATOR_SET.has(text)) {
        throw new FilterError(start, `invalid operator ${describeText(text)}`);
      }
      tokens.push({ type: 'operator', value: text, position: start });
      continue;
    }

    if (ch === '-' || isDigit(ch)) {
      pos = scanNumber(input, start);
      tokens.push({ type: 'number', value: input.slice(start, pos), position: start });
      continue;
    }

    if (ch === "'" || ch === '"') {
      const [value, end] = scanString(input, start);
      tokens.push({ type: 'string', value, position: start });
      pos = end;
      continue;
    }

    if (isIdentifierStart(ch)) {
      pos++;
      while (pos < length && isIdentifierPart(input[pos])) {
        pos++;
      }
      const text = input.slice(start, pos);
      if (input[pos] === '(') {
        // PocketBase has a few filter functions (geoDistance, strftime); Chorus has none, so say so plainly
        // rather than failing later with a confusing "expected an operator".
        throw new FilterError(start, `functions are not supported (${describeText(`${text}(`)})`);
      }
      tokens.push({ type: 'identifier', value: text, position: start });
      continue;
    }

    throw new FilterError(start, `unexpected character ${describeText(ch)}`);
  }

  tokens.push({ type: 'eof', value: '', position: length });
  return tokens;
}

function scanNumber(input: string, start: number): number {
  let pos = start;
  if (input[pos] === '-') {
    pos++;
  }
  const digitsStart = pos;
  while (pos < input.length && isDigit(input[pos])) {
    pos++;
  }
  if (pos === digitsStart) {
    throw new FilterError(start, 'invalid number: "-" must be followed by digits');
  }
  if (input[pos] === '.') {
    pos++;
    const fractionStart = pos;
    while (pos < input.length && isDigit(input[pos])) {
      pos++;
    }
    if (pos === fractionStart) {
      throw new FilterError(start, `invalid number ${describeText(input.slice(start, pos))}`);
    }
  }
  return pos;
}

/**
 * Scans a quoted string. As in PocketBase, a quote preceded by a backslash does not end the string and
 * `\'` (or `\"` in a double-quoted string) unescapes to the quote; every other backslash is kept verbatim, so
 * LIKE escapes such as `\%` survive and values built by the PocketBase JS SDK's `pb.filter()` round-trip.
 */
function scanString(input: string, start: number): [string, number] {
  const quote = input[start];
  let pos = start + 1;
  let value = '';
  while (pos < input.length) {
    const ch = input[pos];
    if (ch === quote) {
      return [value, pos + 1];
    }
    if (ch === '\\' && input[pos + 1] === quote) {
      value += quote;
      pos += 2;
      continue;
    }
    value += ch;
    pos++;
  }
  throw new FilterError(
    start,
    `unterminated string starting with ${describeText(input.slice(start, start + 20))}`,
  );
}
