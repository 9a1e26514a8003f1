import { compileFilter } from './compiler';
import { FilterError } from './errors';
import { parseFields, pickFields } from './fields';
import { FilterContext } from './schema';
import { compileSort } from './sort';
import { ALICE, BOB, collections, context, resolverFor, TestDb, users } from './testing/fixture';

/**
 * Robustness: random token soup, random valid expressions and mutations of them. Every input must either
 * compile to SQL that SQLite executes without error, or be rejected with a FilterError — never another
 * exception. Reproduce a failure with FILTER_FUZZ_SEED=<seed printed in the failure>.
 */
const SEED = Number(process.env.FILTER_FUZZ_SEED ?? 0x5eed2024);
const ITERATIONS = Number(process.env.FILTER_FUZZ_ITERATIONS ?? 5000);

/** mulberry32: a tiny seeded PRNG, so every run is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS = [
  'id',
  'name',
  'description',
  'rating',
  'public',
  'language',
  'language:each',
  'language:lower',
  'published',
  'created',
  'tags',
  'tags:each',
  'tags:length',
  'tags:lower',
  'samples',
  'samples:length',
  'editors',
  'editors:length',
  'editors.name',
  'editors.team.name',
  'editors.id',
  'editors.verified',
  'user',
  'user.id',
  'user.name',
  'user.team',
  'user.team.name',
  'user.email:lower',
  'data',
  'data.pitch',
  'data.styles.0',
  'data.meta.engine',
  'data:length',
  'data.styles:length',
  'notes_via_voice.text',
  'notes_via_voice.author.name',
  'notes_via_voices.id',
  '@collection.teams.name',
  '@collection.users:a.role',
  '@collection.notes.voice',
  '@request.auth.id',
  '@request.auth.role',
  '@request.auth.team.name',
  '@request.auth.verified',
  '@request.auth.name:lower',
  '@request.body.name',
  '@request.body.tags:each',
  '@request.body.tags:length',
  '@request.body.user.name',
  '@request.body.editors.role',
  '@request.body.name:changed',
  '@request.body.x:isset',
  '@request.body.rating',
  '@request.query.q',
  '@request.query.q:isset',
  '@request.headers.x_token',
  '@request.method',
  '@request.context',
  '@now',
  '@todayStart',
  '@monthEnd',
  '@weekday',
  '@year',
];
const INVALID_FIELDS = [
  'internal',
  'unknown',
  'user.passwordHash',
  'name.foo',
  'tags:isset',
  'data:each',
  '@request.nope',
  '@collection.nope.x',
  'next',
  'a..b',
  '@x',
  'editors.name:changed',
];
const LITERALS = [
  "'x'",
  '""',
  "'calm'",
  "'%'",
  "'100\\%'",
  "'_'",
  "'it\\'s'",
  "'Calm%'",
  "'%e%'",
  "'a\\\\b'",
  "'\\\\'", // PocketBase quoting: the second backslash escapes the quote, so this literal runs on
  "'ü'",
  "' OR 1=1 --'",
  '"); DROP TABLE users; --"',
  '1',
  '-2',
  '3.5',
  '0',
  '99999999999999999999',
  '4.5',
  'true',
  'false',
  'null',
  'TRUE',
  'Null',
  "'2024-06-15 08:30:00.000Z'",
  "'u1'",
  "'en'",
];
const OPERATORS = [
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
const BAD_OPERATORS = ['==', '=!', '!', '?', '?!?', '<>', '~~', '=>'];
const JUNK = [
  '&&',
  '||',
  '&',
  '|',
  '&&&',
  '(',
  ')',
  '()',
  '// c\n',
  '//',
  ';',
  '$',
  '#',
  '.',
  ':',
  '@',
  '\\',
  '"',
  "'",
  '`',
  '/',
  '*',
  ',',
  'ü',
  '\n',
  '\t',
  ' ',
  '-',
  '.5',
  '1.',
  '--',
  '/*',
  '*/',
  'fn(1)',
  '@request',
  'SELECT',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

function operand(random: () => number, valid = true): string {
  if (!valid && random() < 0.05) {
    return pick(random, INVALID_FIELDS);
  }
  return random() < 0.55 ? pick(random, FIELDS) : pick(random, LITERALS);
}

/** A grammatical expression; with `valid` false it may also name fields that don't exist or can't be used. */
function expression(random: () => number, valid: boolean, depth = 0): string {
  if (depth > 3 || random() < 0.45) {
    return `${operand(random, valid)} ${pick(random, OPERATORS)} ${operand(random, valid)}`;
  }
  const count = 2 + Math.floor(random() * 3);
  const parts = Array.from({ length: count }, () => expression(random, valid, depth + 1));
  const joined = parts.reduce((acc, part) => `${acc} ${random() < 0.5 ? '&&' : '||'} ${part}`);
  return random() < 0.6 ? `(${joined})` : joined;
}

function tokenSoup(random: () => number): string {
  const length = 1 + Math.floor(random() * 25);
  const tokens: string[] = [];
  for (let i = 0; i < length; i++) {
    const r = random();
    tokens.push(
      r < 0.3
        ? pick(random, [...FIELDS, ...INVALID_FIELDS])
        : r < 0.5
          ? pick(random, LITERALS)
          : r < 0.7
            ? pick(random, OPERATORS)
            : r < 0.75
              ? pick(random, BAD_OPERATORS)
              : pick(random, JUNK),
    );
  }
  return tokens.map((t) => t + pick(random, ['', ' ', ' ', '  ', '\n'])).join('');
}

function mutate(random: () => number, input: string): string {
  let text = input;
  const rounds = 1 + Math.floor(random() * 3);
  for (let i = 0; i < rounds; i++) {
    const at = Math.floor(random() * (text.length + 1));
    const to = Math.min(text.length, at + Math.floor(random() * 6));
    switch (Math.floor(random() * 6)) {
      case 0:
        text = text.slice(0, at) + text.slice(to);
        break;
      case 1:
        text = text.slice(0, at) + pick(random, [...JUNK, ...OPERATORS, ...LITERALS]) + text.slice(at);
        break;
      case 2:
        text = text.slice(0, at) + String.fromCharCode(32 + Math.floor(random() * 95)) + text.slice(at + 1);
        break;
      case 3:
        text = text.slice(0, at) + text.slice(at, to) + text.slice(at);
        break;
      case 4:
        text = text.slice(0, at);
        break;
      default:
        text = text.slice(at) + text.slice(0, at);
    }
  }
  return text;
}

function randomContext(random: () => number): Partial<FilterContext> {
  const listRule = pick(random, [
    undefined,
    '',
    'verified = true',
    'id = @request.auth.id',
    "team.name = 'Alpha'",
    null,
  ]);
  return {
    auth: pick(random, [null, ALICE, BOB]),
    allowHidden: random() < 0.3,
    allowCollectionJoins: random() < 0.8,
    resolveCollection: resolverFor(collections.map((c) => (c.name === 'users' ? { ...users, listRule } : c))),
    body: pick(random, [
      undefined,
      {},
      { name: 'Calm Narrator', tags: ['calm', 'x'], user: 'u2', editors: ['u1', 'u2'], rating: '3', x: null },
      { name: "' OR 1=1 --", tags: 'calm', user: ['u1', 'u3'], editors: 'u3', rating: 'abc' },
      { name: 42, tags: [1, true, null, { a: 1 }], user: 7, editors: [] },
    ]),
    query: pick(random, [undefined, { q: 'calm' }, { q: ['a', 'b'] }]),
    headers: pick(random, [undefined, { 'X-Token': 'abc' }, { 'x-token': ['a', 'b'] }]),
    method: pick(random, [undefined, 'GET', 'post']),
  };
}

describe('fuzz', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await TestDb.open();
  });

  afterAll(async () => {
    await db.close();
  });

  it(`filters: ${ITERATIONS} random and mutated expressions compile and run, or fail with FilterError (seed ${SEED})`, async () => {
    let compiled = 0;
    let rejected = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const iterationSeed = (SEED + i) >>> 0;
      const random = prng(iterationSeed);
      const kind = random();
      const input =
        kind < 0.25
          ? tokenSoup(random)
          : kind < 0.7
            ? expression(random, kind < 0.6)
            : mutate(random, expression(random, true));
      const overrides = randomContext(random);
      const where = `(seed ${SEED}, iteration ${i}, iteration seed ${iterationSeed}) input ${JSON.stringify(input)}`;
      let result: { sql: string; params: unknown[] };
      try {
        result = compileFilter(input, context(overrides));
      } catch (error) {
        if (!(error instanceof FilterError)) {
          throw new Error(`non-FilterError ${String(error)} ${where}`);
        }
        if (
          error.position < 0 ||
          error.position > input.length ||
          /__pbf|"t"\.|json_each|LEFT JOIN/.test(error.message)
        ) {
          throw new Error(`bad FilterError ${JSON.stringify(error.message)} ${where}`);
        }
        rejected++;
        continue;
      }
      try {
        await db.all(`SELECT "t"."id" FROM "voices" AS "t" WHERE ${result.sql}`, result.params);
      } catch (error) {
        throw new Error(`SQLite rejected the SQL: ${String(error)} ${where}\nSQL: ${result.sql}`);
      }
      compiled++;
    }
    // Both outcomes must be well represented, or the generator is not testing much.
    expect(compiled).toBeGreaterThan(ITERATIONS * 0.2);
    expect(rejected).toBeGreaterThan(ITERATIONS * 0.2);
  }, 60_000);

  it(`filters: large expressions near the limits compile and run, or fail with FilterError (seed ${SEED})`, async () => {
    let compiled = 0;
    const fields = FIELDS.filter((f) => !f.startsWith('@collection'));
    const values = [...fields, ...LITERALS.filter((l) => l !== "'\\\\'")];
    for (let i = 0; i < 60; i++) {
      const random = prng((SEED ^ 0xb16) + i);
      const count = 50 + Math.floor(random() * 100);
      const parts = Array.from(
        { length: count },
        () => `${pick(random, fields)}${pick(random, OPERATORS)}${pick(random, values)}`,
      );
      let input = parts.reduce(
        (acc, part) => `${acc}${random() < 0.5 ? '&&' : '||'}${random() < 0.1 ? `(${part})` : part}`,
      );
      if (random() < 0.5) {
        input = input.slice(0, 3500);
      }
      const where = `(seed ${SEED}, large iteration ${i}) input ${JSON.stringify(input)}`;
      let result: { sql: string; params: unknown[] };
      try {
        result = compileFilter(input, context({ ...randomContext(random), allowHidden: true }));
      } catch (error) {
        if (!(error instanceof FilterError)) {
          throw new Error(`non-FilterError ${String(error)} ${where}`);
        }
        continue;
      }
      await db
        .all(`SELECT "t"."id" FROM "voices" AS "t" WHERE ${result.sql}`, result.params)
        .catch((error: unknown) => {
          throw new Error(`SQLite rejected the SQL: ${String(error)} ${where}`);
        });
      compiled++;
    }
    expect(compiled).toBeGreaterThan(10);
  }, 60_000);

  it(`sorts: random sort strings compile and run, or fail with FilterError (seed ${SEED})`, async () => {
    const parts = [
      '-',
      '+',
      '',
      ' ',
      ',',
      '@random',
      '@rowid',
      '@x',
      ...FIELDS.slice(0, 40),
      ...JUNK.slice(0, 12),
    ];
    for (let i = 0; i < 1000; i++) {
      const random = prng((SEED ^ 0x50f7) + i);
      const input = Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(random, parts)).join(
        pick(random, [',', '', ' ,']),
      );
      const where = `(seed ${SEED}, sort iteration ${i}) input ${JSON.stringify(input)}`;
      try {
        const sort = compileSort(input, context(randomContext(random)));
        const order = sort.sql === '' ? '' : ` ORDER BY ${sort.sql}`;
        await db.all(`SELECT "t"."id" FROM "voices" AS "t"${order}`, sort.params).catch((error: unknown) => {
          throw new Error(`SQLite rejected the sort: ${String(error)} ${where}\nSQL: ${sort.sql}`);
        });
      } catch (error) {
        if (!(error instanceof FilterError) || error.source !== 'sort') {
          throw error instanceof Error && error.message.includes('SQLite')
            ? error
            : new Error(`${String(error)} ${where}`);
        }
      }
    }
  });

  it(`fields: random fields strings parse or fail with FilterError, and picking never throws (seed ${SEED})`, () => {
    const parts = [
      'id',
      'name',
      '*',
      'expand',
      'user',
      '.',
      ',',
      ':excerpt(',
      ')',
      '5',
      'true',
      ':',
      '(',
      ' ',
      'x-y',
    ];
    const record = {
      id: 'v1',
      name: '<p>Hello <b>world</b></p>',
      expand: { user: { id: 'u1', name: 'Alice' } },
      list: [{ a: 1 }, 2],
    };
    for (let i = 0; i < 2000; i++) {
      const random = prng((SEED ^ 0xf1e1d5) + i);
      const input = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(random, parts)).join('');
      try {
        pickFields(record, parseFields(input));
      } catch (error) {
        if (!(error instanceof FilterError) || error.source !== 'fields') {
          throw new Error(
            `${String(error)} (seed ${SEED}, fields iteration ${i}) input ${JSON.stringify(input)}`,
          );
        }
      }
    }
  });
});
