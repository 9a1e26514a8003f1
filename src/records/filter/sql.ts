/**
 * A tiny SQL fragment builder. Values only ever enter SQL as `?` placeholders with their value carried
 * alongside in text order, and identifiers only through `ident()`, which accepts plain names alone; the
 * `sql` template tag interpolates fragments, never strings, so a value cannot be spliced in by mistake.
 */
export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isPlainIdentifier(name: string): boolean {
  return PLAIN_IDENTIFIER.test(name);
}

/** A quoted identifier. Names come from the schema whitelist; anything unusual is a programming error. */
export function ident(name: string): Sql {
  if (!isPlainIdentifier(name)) {
    throw new Error(`Not a plain SQL identifier: ${JSON.stringify(name)}`);
  }
  return new Sql(`"${name}"`, []);
}

/** A fixed piece of SQL written in this folder (keywords, operators, constants) — never user input. */
export function raw(text: string): Sql {
  return new Sql(text, []);
}

export function param(value: string | number | null): Sql {
  return new Sql('?', [value]);
}

export function sql(strings: TemplateStringsArray, ...parts: Sql[]): Sql {
  let text = strings[0];
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    text += part.text + strings[i + 1];
    params.push(...part.params);
  });
  return new Sql(text, params);
}

export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

/**
 * Joins conditions with AND/OR as a balanced tree of parentheses: SQLite's parser would otherwise build a
 * left-deep tree, and 200 chained comparisons plus their own depth can approach its expression depth limit.
 */
export function combine(parts: readonly Sql[], operator: 'AND' | 'OR'): Sql {
  if (parts.length === 1) {
    return parts[0];
  }
  if (parts.length <= 8) {
    return sql`(${joinSql(parts, ` ${operator} `)})`;
  }
  const middle = Math.ceil(parts.length / 2);
  return sql`(${combine(parts.slice(0, middle), operator)} ${raw(operator)} ${combine(parts.slice(middle), operator)})`;
}
