import { compileFilter } from './compiler';
import { FilterError } from './errors';
import { compileSort } from './sort';
import { context, TestDb } from './testing/fixture';

/** Quotes a value the way PocketBase's JS SDK `pb.filter()` does: single quotes, `'` escaped as `\'`. */
function quote(value: string): string {
  return `'${value.replace(/'/g, "\\'")}'`;
}

const PAYLOADS = [
  "' OR 1=1 --",
  '"); DROP TABLE users; --',
  "x' OR 'a'='a",
  '" OR ""="',
  "'; DELETE FROM voices; SELECT '",
  "%' OR name LIKE '%",
  '?',
  '?, ?) OR (1=1',
  ':p0',
  '$1 OR 1=1',
  '/* comment */ OR 1',
  '\\',
  "\\'",
  'Robert"); DROP TABLE voices;--',
  'ünïcödé ✓ 日本語',
  ') OR (1=1',
  '%_%',
];

describe('SQL injection', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await TestDb.open();
  });

  afterAll(async () => {
    await db.close();
  });

  async function assertIntact(): Promise<void> {
    const [users] = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM users');
    const [voices] = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM voices');
    expect(users.n).toBe(4);
    expect(voices.n).toBeGreaterThanOrEqual(5);
  }

  it.each(PAYLOADS)('binds %j as a value and matches it literally', async (payload) => {
    // Payloads that end in a backslash cannot be written as a PocketBase string literal (the closing quote
    // would be escaped), exactly as in PocketBase; they still arrive safely through request data.
    // A `~` value with an unescaped % is a LIKE pattern by design (PocketBase semantics), not a literal.
    const literal = quote(payload);
    const templates = payload.endsWith('\\')
      ? []
      : ['name = $', 'tags ?= $', ...(payload.includes('%') ? [] : ['name ~ $'])];
    const expressions = templates.map((t) => t.replace('$', literal));
    for (const template of templates) {
      const expression = template.replace('$', literal);
      const { sql, params } = compileFilter(expression, context());
      // The SQL is byte-for-byte what a harmless value produces: the payload only ever travels as a parameter.
      expect(sql).toBe(compileFilter(template.replace('$', "'harmless'"), context()).sql);
      expect(params).toEqual([template.includes('~') ? `%${escapeForLike(payload)}%` : payload]);
      expect(await db.ids(expression)).toEqual([]);
    }

    const viaBody = compileFilter(
      'name = @request.body.name || user.name = @request.query.q',
      context({ body: { name: payload }, query: { q: payload } }),
    );
    expect(viaBody.params).toEqual([payload, payload]);
    expect(await db.ids('name = @request.body.name', { body: { name: payload } })).toEqual([]);

    // Store the payload as a real record: exactly that record matches.
    const id = `inj${PAYLOADS.indexOf(payload)}`;
    await db.run('INSERT INTO voices (id, name, tags) VALUES (?, ?, ?)', [
      id,
      payload,
      JSON.stringify([payload]),
    ]);
    try {
      for (const expression of expressions) {
        expect(await db.ids(expression)).toEqual([id]);
      }
      expect(await db.ids('name = @request.body.name', { body: { name: payload } })).toEqual([id]);
      expect(await db.ids('tags ?= @request.body.name', { body: { name: payload } })).toEqual([id]);
    } finally {
      await db.run('DELETE FROM voices WHERE id = ?', [id]);
    }
    await assertIntact();
  });

  it.each([
    'name"; DROP TABLE users; -- = 1',
    "name = 'x'; DROP TABLE users; --",
    'name = 1; DROP TABLE users',
    "name = 'a' OR 1=1",
    'name = 1 -- comment',
    "name = 'x' /* */",
    "data.a') OR 1=1 -- = 1",
    '"t"."id" = 1',
    'id = 1 UNION SELECT password_hash FROM users',
    "@collection.users\".x = 'a'",
  ])('rejects SQL smuggled outside a string literal: %j', async (expression) => {
    expect(() => compileFilter(expression, context())).toThrow(FilterError);
    await assertIntact();
  });

  it('keeps sort input out of the SQL', () => {
    expect(() => compileSort('name; DROP TABLE users', context())).toThrow(FilterError);
    expect(() => compileSort('-name DESC', context())).toThrow(FilterError);
    expect(() => compileSort('(SELECT 1)', context())).toThrow(FilterError);
  });

  it('never echoes SQL in error messages', () => {
    for (const expression of ["name = 'x' && nope = 1", 'user.passwordHash = 1', 'name ~']) {
      try {
        compileFilter(expression, context());
      } catch (error) {
        expect(error).toBeInstanceOf(FilterError);
        expect((error as FilterError).message).not.toMatch(/SELECT|EXISTS|LEFT JOIN|"t"\./);
      }
    }
  });
});

function escapeForLike(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    const next = value[i + 1];
    if (ch === '\\' && (next === '\\' || next === '%' || next === '_')) {
      out += ch + next;
      i++;
    } else if (ch === '\\' || ch === '%' || ch === '_') {
      out += `\\${ch}`;
    } else {
      out += ch;
    }
  }
  return out;
}
