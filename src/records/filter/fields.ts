import { FilterError } from './errors';
import { describeText } from './lexer';

/** One requested path of the `fields` parameter, e.g. `expand.user.name` or `description:excerpt(200,true)`. */
export interface FieldsEntry {
  /** Segments; `*` stands for every key at its level. */
  path: string[];
  excerpt?: { maxLength: number; ellipsis: boolean };
}

export interface FieldsSelection {
  entries: FieldsEntry[];
}

export const FIELDS_LIMITS = {
  maxLength: 10_000,
  maxEntries: 500,
} as const;

const SEGMENT = /^(\*|[A-Za-z0-9_]+)$/;

function fieldsError(position: number, reason: string): FilterError {
  return new FilterError(position, reason, 'fields');
}

/**
 * Parses PocketBase's `fields` response parameter: comma-separated dot paths, `*` for all keys at a level,
 * and the optional `:excerpt(maxLength[, withEllipsis])` modifier on the last segment. Names are not checked
 * against the schema: like PocketBase, unknown names simply select nothing. Empty input selects everything.
 */
export function parseFields(input: string): FieldsSelection {
  if (input.length > FIELDS_LIMITS.maxLength) {
    throw fieldsError(
      FIELDS_LIMITS.maxLength,
      `the fields list is longer than ${FIELDS_LIMITS.maxLength} characters`,
    );
  }
  const entries: FieldsEntry[] = [];
  for (const [item, position] of splitTopLevel(input)) {
    if (item === '') {
      continue;
    }
    if (entries.length >= FIELDS_LIMITS.maxEntries) {
      throw fieldsError(position, `too many fields (at most ${FIELDS_LIMITS.maxEntries})`);
    }
    entries.push(parseEntry(item, position));
  }
  return { entries };
}

/** Splits on commas outside parentheses, returning trimmed items with their start offsets. */
function splitTopLevel(input: string): [string, number][] {
  const items: [string, number][] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= input.length; i++) {
    const ch = input[i];
    if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
      if (depth < 0) {
        throw fieldsError(i, 'unexpected ")"');
      }
    } else if ((ch === ',' && depth === 0) || i === input.length) {
      if (depth > 0) {
        throw fieldsError(input.length, 'missing ")"');
      }
      const piece = input.slice(start, i);
      items.push([piece.trim(), start + piece.length - piece.trimStart().length]);
      start = i + 1;
    }
  }
  return items;
}

function parseEntry(item: string, position: number): FieldsEntry {
  const colon = item.indexOf(':');
  const pathText = colon < 0 ? item : item.slice(0, colon);
  const path = pathText.split('.');
  let offset = position;
  for (const segment of path) {
    if (!SEGMENT.test(segment)) {
      throw fieldsError(offset, `invalid field ${describeText(pathText)}`);
    }
    offset += segment.length + 1;
  }
  if (colon < 0) {
    return { path };
  }
  const modifierPosition = position + colon + 1;
  const match = /^excerpt\(([^()]*)\)$/.exec(item.slice(colon + 1));
  if (!match) {
    throw fieldsError(
      modifierPosition,
      `unknown modifier ${describeText(item.slice(colon))} (only ":excerpt(max, ellipsis?)")`,
    );
  }
  const args = match[1].split(',').map((a) => a.trim());
  if (args.length > 2 || args[0] === '') {
    throw fieldsError(modifierPosition, 'excerpt expects (maxLength) or (maxLength, withEllipsis)');
  }
  const maxLength = /^\d+$/.test(args[0]) ? Number(args[0]) : NaN;
  if (!Number.isSafeInteger(maxLength) || maxLength <= 0) {
    throw fieldsError(modifierPosition, 'the excerpt length must be a positive integer');
  }
  let ellipsis = false;
  if (args.length === 2) {
    const flag = args[1].toLowerCase();
    if (['true', 't', '1'].includes(flag)) {
      ellipsis = true;
    } else if (!['false', 'f', '0'].includes(flag)) {
      throw fieldsError(
        modifierPosition,
        `the excerpt ellipsis flag must be true or false, not ${describeText(args[1])}`,
      );
    }
  }
  return { path, excerpt: { maxLength, ellipsis } };
}

type Modifier = FieldsEntry['excerpt'];

/**
 * Applies a selection to response data (a record, an array of records, or nested `expand` data), returning
 * a new value. Semantics follow PocketBase's picker: keys not selected are dropped, `*` keeps every key at
 * its level unless a more specific path for that key is listed, a path ending at an object keeps it whole,
 * arrays of objects are picked item by item, and excerpts apply to string values only.
 */
export function pickFields(data: unknown, selection: FieldsSelection): unknown {
  if (selection.entries.length === 0) {
    return data;
  }
  return pickValue(
    data,
    selection.entries.map((e) => ({ path: e.path, modifier: e.excerpt })),
  );
}

interface PendingPath {
  path: string[];
  modifier: Modifier;
}

function pickValue(data: unknown, paths: PendingPath[]): unknown {
  if (Array.isArray(data)) {
    return data.map((item: unknown) => (isPlainObject(item) ? pickObject(item, paths) : item));
  }
  return isPlainObject(data) ? pickObject(data, paths) : data;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function pickObject(data: Record<string, unknown>, paths: PendingPath[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const wildcard = paths.find((p) => p.path.length === 1 && p.path[0] === '*');
  for (const [key, value] of Object.entries(data)) {
    const matching = paths.filter((p) => p.path[0] === key);
    if (matching.length === 0) {
      if (wildcard) {
        result[key] = applyModifier(value, wildcard.modifier);
      }
      continue;
    }
    const whole = matching.find((p) => p.path.length === 1);
    if (whole) {
      result[key] = applyModifier(value, whole.modifier);
      continue;
    }
    result[key] = pickValue(
      value,
      matching.map((p) => ({ path: p.path.slice(1), modifier: p.modifier })),
    );
  }
  return result;
}

function applyModifier(value: unknown, modifier: Modifier): unknown {
  return modifier && typeof value === 'string'
    ? excerpt(value, modifier.maxLength, modifier.ellipsis)
    : value;
}

const SKIPPED_ELEMENTS =
  /<(head|style|script|iframe|embed|applet|object|svg|picture|dialog|template|button|form|textarea|select)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdo',
  'big',
  'br',
  'cite',
  'code',
  'em',
  'i',
  'label',
  'q',
  'small',
  'span',
  'strong',
  'strike',
  'sub',
  'sup',
  'time',
]);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A plain-text excerpt of an HTML (or plain) string, like PocketBase's `:excerpt`: non-content elements are
 * dropped, block elements separate words, whitespace collapses, and the text is cut to `maxLength` code
 * points (plus "..." when `ellipsis` and something was cut). A pragmatic approximation, not an HTML parser.
 */
export function excerpt(html: string, maxLength: number, ellipsis: boolean): string {
  const text = html
    .replace(SKIPPED_ELEMENTS, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?([A-Za-z][A-Za-z0-9]*)\b[^>]*>/g, (_tag, name: string) =>
      INLINE_TAGS.has(name.toLowerCase()) ? '' : ' ',
    )
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, code: string) => decodeEntity(entity, code))
    .replace(/\s+/g, ' ')
    .trim();
  const points = Array.from(text);
  if (points.length <= maxLength) {
    return text;
  }
  const cut = points.slice(0, maxLength).join('').trimEnd();
  return ellipsis ? `${cut}...` : cut;
}

function decodeEntity(entity: string, code: string): string {
  const lower = code.toLowerCase();
  if (lower.startsWith('#')) {
    const value = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isInteger(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : entity;
  }
  return ENTITIES[lower] ?? entity;
}
