import { compileFilter, COMPILE_LIMITS } from './compiler';
import { FilterError } from './errors';
import { CollectionSchema, FilterContext } from './schema';
import { ALICE, BOB, collections, context, resolverFor, TestDb, users, voices } from './testing/fixture';

type Case = [expression: string, ids: string[], overrides?: Partial<FilterContext>];

const ALL = ['v1', 'v2', 'v3', 'v4', 'v5'];
const asAlice = { auth: ALICE };

function compileError(expression: string, overrides: Partial<FilterContext> = {}): FilterError {
  try {
    compileFilter(expression, context(overrides));
  } catch (error) {
    if (error instanceof FilterError) {
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

/** The fixture schema with one collection replaced. */
function withCollection(replacement: CollectionSchema): Partial<FilterContext> {
  return {
    resolveCollection: resolverFor(collections.map((c) => (c.name === replacement.name ? replacement : c))),
  };
}

describe('compileFilter against SQLite', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await TestDb.open();
  });

  afterAll(async () => {
    await db.close();
  });

  const check =
    ([expression, ids, overrides]: Case) =>
    async (): Promise<void> => {
      expect(await db.ids(expression, overrides)).toEqual(ids);
    };

  describe('plain fields', () => {
    it.each<Case>([
      ["name = 'Calm Narrator'", ['v1']],
      ['name = "Calm Narrator"', ['v1']],
      ["'Calm Narrator' = name", ['v1']],
      ["name != 'Calm Narrator'", ['v2', 'v3', 'v4', 'v5']],
      ["language = 'en'", ['v1', 'v2']],
      ["language = ''", ['v4']],
      ['language = null', ['v4']],
      ['language != null', ['v1', 'v2', 'v3', 'v5']],
      ["description = ''", ['v3', 'v4']],
      ["description != ''", ['v1', 'v2', 'v5']],
      ['null = description', ['v3', 'v4']],
      ['description = language', ['v4']],
      ['description != language', ['v1', 'v2', 'v3', 'v5']],
      ["'a' = 'a'", ALL],
      ["'a' = 'b'", []],
      ['null = null', ALL],
      ["null != ''", []],
      ['public = true', ['v1', 'v3', 'v5']],
      ['public = false', ['v2', 'v4']],
      ['public != true', ['v2', 'v4']],
      ['rating > 3', ['v1', 'v5']],
      ['rating >= 3', ['v1', 'v2', 'v5']],
      ['rating < 3', ['v4']],
      ['rating <= 0', ['v4']],
      ['rating = 0', ['v4']],
      ['rating = null', ['v3']],
      ['rating != 4.5', ['v2', 'v3', 'v4', 'v5']],
      ['rating = -1', []],
      ['rating > -14', ['v1', 'v2', 'v4', 'v5']],
      ["id = 'v3'", ['v3']],
      ["created > '2024-06-01'", ['v2', 'v3', 'v5']],
    ])('%s', (...c) => check(c)());

    it('rejects a field of another letter case (names are exact)', () => {
      expect(compileError('PUBLIC = 1').reason).toBe('unknown field "PUBLIC"');
    });
  });

  describe('logic and precedence', () => {
    it.each<Case>([
      ["language = 'en' && public = true", ['v1']],
      ["language = 'en' || public = true", ['v1', 'v2', 'v3', 'v5']],
      ["language = 'de' || language = 'fr' && public = false", ['v3']],
      ["(language = 'de' || language = 'fr') && public = true", ['v3', 'v5']],
      ["language = 'en' && (rating > 4 || rating < 3.5) && name ~ 'host'", ['v2']],
      ['rating > 1 // the rest is a comment && rating > 100', ['v1', 'v2', 'v5']],
    ])('%s', (...c) => check(c)());
  });

  describe('datetime macros (now = 2024-06-15 10:20:30.400Z)', () => {
    it.each<Case>([
      ['published >= @todayStart && published <= @todayEnd', ['v2']],
      ['created > @now', ['v3', 'v5']],
      ['created < @yesterday', ['v1', 'v4']],
      ['created >= @monthStart', ['v2', 'v3', 'v5']],
      ['created <= @monthEnd', ['v1', 'v2', 'v3', 'v4']],
      ['created >= @yearStart && created <= @yearEnd', ['v1', 'v2', 'v3']],
      ['@tomorrow > @now && @yesterday < @now', ALL],
      ['@second = 30 && @minute = 20 && @hour = 10 && @day = 15 && @month = 6 && @year = 2024', ALL],
      ['@weekday = 6', ALL],
    ])('%s', (...c) => check(c)());

    it('formats dates like PocketBase', () => {
      const { params } = compileFilter(
        'created = @now || created = @todayEnd || created = @monthEnd || created = @yearStart || created = @yesterday',
        context(),
      );
      expect(params).toEqual([
        '2024-06-15 10:20:30.400Z',
        '2024-06-15 23:59:59.999Z',
        '2024-06-30 23:59:59.999Z',
        '2024-01-01 00:00:00.000Z',
        '2024-06-14 10:20:30.400Z',
      ]);
    });
  });

  describe('~ (LIKE)', () => {
    it.each<Case>([
      ["name ~ 'calm'", ['v1']],
      ["name ~ 'CALM'", ['v1']],
      ["name !~ 'calm'", ['v2', 'v3', 'v4', 'v5']],
      ["description !~ 'loud'", ['v1', 'v3', 'v5']],
      ["name ~ 'Calm%'", ['v1']],
      ["name ~ '%Host'", ['v2']],
      ["name ~ 'alm%'", []],
      ["name ~ '100\\%'", ['v3']],
      ["name ~ '100%'", []],
      ["name ~ '_'", ['v4']],
      ["name ~ 'm_N'", []],
      ["name ~ 'Calm_N%'", ['v1']],
      [`name ~ "O'Brien"`, ['v5']],
      ["name ~ 'O\\'Brien'", ['v5']],
      [`name ~ '"quoted"'`, ['v5']],
      ["name ~ '\\ back'", ['v5']],
      ["description ~ 'ümlaut'", ['v5']],
      // SQLite folds case for ASCII only.
      ["description ~ 'ÜMLAUT'", []],
      ["name ~ ''", ALL],
      ["'Calm Narrator Deluxe' ~ name", ['v1']],
      ['name ~ language', ['v2', 'v4']],
      ['name ~ null', []],
      ['rating ~ 4', ['v1']],
    ])('%s', (...c) => check(c)());
  });

  describe('multi-valued fields (array-like values)', () => {
    it.each<Case>([
      ["tags ?= 'calm'", ['v1', 'v4']],
      ["tags = 'calm'", ['v4']],
      ["tags ?!= 'calm'", ['v1', 'v2', 'v3', 'v5']],
      ["tags != 'calm'", ['v2', 'v3', 'v5']],
      ["tags = ''", ['v3', 'v5']],
      ["tags != ''", ['v1', 'v2', 'v4']],
      ["tags ?~ 'narr'", ['v1']],
      ["tags ~ 'ca'", ['v4']],
      ["tags ?= 'calm' && tags ?= 'narration'", ['v1']],
      ["tags:each ?= 'energetic'", ['v2']],
      ["tags:each = 'calm'", ['v4']],
      ["tags ?= 'Calm'", []],
      ["tags:lower ?= 'calm'", ['v1', 'v4']],
      ['tags:length = 2', ['v1']],
      ['tags:length > 0', ['v1', 'v2', 'v4']],
      ['tags:length = 0', ['v3', 'v5']],
      ["samples ?= 'solo.wav'", ['v5']],
      ['samples:length = 1', ['v1', 'v5']],
      ['samples:length = 2', ['v4']],
      ["language:each = 'en'", ['v1', 'v2']],
      ['language:length = 1', ['v1', 'v2', 'v3', 'v5']],
      ["editors ?= 'u1'", ['v2', 'v4']],
      ["editors = 'u3'", ['v5']],
      ['editors ?= @request.auth.id', ['v2', 'v4'], asAlice],
      ["editors ?= 'zz-missing'", ['v4']],
      ['editors:length = 3', ['v4']],
      ["'calm' ?= tags", ['v1', 'v4']],
      ["'calm' = tags", ['v4']],
    ])('%s', (...c) => check(c)());
  });

  describe('relations', () => {
    it.each<Case>([
      ["user.name = 'Alice'", ['v1', 'v3']],
      ["user.id = 'u1'", ['v1', 'v3']],
      ["user = 'u1'", ['v1', 'v3']],
      ["user.name = ''", ['v4']],
      ["user.name != 'Alice'", ['v2', 'v4', 'v5']],
      ["user.team.name = 'Alpha'", ['v1', 'v3']],
      ["user.team.name = ''", ['v4', 'v5']],
      ["user.team = ''", ['v4', 'v5']],
      ['user.verified = true', ['v1', 'v3', 'v5']],
      ["user.email ~ 'example.com'", ['v1', 'v2', 'v3', 'v5']],
      ["user.name:lower = 'alice'", ['v1', 'v3']],
      ["user.created > '2024-02-15'", ['v5']],
      ["user.name = 'Alice' || rating = 5", ['v1', 'v3', 'v5']],
      ["rating = 5 && user.name = 'Carol'", ['v5']],
      ["editors.name ?= 'Bob'", ['v1', 'v4']],
      ["editors.name = 'Alice'", ['v2']],
      ["editors.role = 'member'", ['v1', 'v5']],
      ["editors.name ?= 'nobody'", []],
      ["editors.name = ''", ['v3']],
      ["editors.id ?= 'zz-missing'", []],
      ["editors.team.name ?= 'Beta'", ['v1', 'v4']],
      // One related record per join path, as in PocketBase: both conditions must hold for the same editor.
      ["editors.name ?= 'Alice' && editors.role ?= 'member'", []],
      ["editors.name ?= 'Bob' && editors.role ?= 'member'", ['v1', 'v4']],
      // Field-to-field comparisons treat NULL and '' alike: v4 has a dangling editor id and no user.
      ['editors.name ?= user.name', ['v4', 'v5']],
      ['editors.role ?= user.role', ['v4', 'v5']],
      ['editors.team = user.team', ['v5']],
      ['editors.verified = user.verified', ['v5']],
    ])('%s', (...c) => check(c)());
  });

  describe('back-relations', () => {
    it.each<Case>([
      ["notes_via_voice.text ?= 'world'", ['v1']],
      ["notes_via_voice.text = 'hello'", []],
      ["notes_via_voice.text ~ 'o'", ['v1']],
      ["notes_via_voice.author.name ?= 'Bob'", ['v1', 'v2']],
      ["notes_via_voices.text ?= 'hello'", ['v1', 'v2']],
      ["notes_via_voices.text ?= 'world'", ['v2']],
      ["notes_via_voice.id = ''", ['v3', 'v4', 'v5']],
      ["notes_via_voice.id != ''", ['v1', 'v2']],
    ])('%s', (...c) => check(c)());
  });

  describe('@collection', () => {
    it.each<Case>([
      ["@collection.teams.name ?= 'Alpha'", ALL],
      ["@collection.teams.name ?= 'Gamma'", []],
      ["@collection.teams.name = 'Alpha'", []],
      ["@collection.users.name ?= user.name && @collection.users.role ?= 'admin'", ['v1', 'v3']],
      ["@collection.users.name ?= 'Bob' && @collection.users.role ?= 'admin'", []],
      ["@collection.users:a.name ?= 'Bob' && @collection.users:b.role ?= 'admin'", ALL],
      ['@collection.notes.voice ?= id', ['v1', 'v2']],
      ['@collection.pbc_notes.voice ?= id', ['v1', 'v2']],
    ])('%s', (...c) => check(c)());
  });

  describe('@request', () => {
    it.each<Case>([
      ['user = @request.auth.id', ['v1', 'v3'], asAlice],
      ['user = @request.auth.id', ['v2'], { auth: BOB }],
      // PocketBase semantics: a guest's empty id equals an empty relation. Guard rules with `@request.auth.id != ''`.
      ['user = @request.auth.id', ['v4']],
      ["@request.auth.id != '' && user = @request.auth.id", []],
      ["@request.auth.id = ''", ALL],
      ["@request.auth.role = 'admin'", ALL, asAlice],
      ["@request.auth.role = 'admin'", [], { auth: BOB }],
      ["@request.auth.collectionName = 'users'", ALL, asAlice],
      ['@request.auth.verified = true', ALL, asAlice],
      ['@request.auth.verified = true', [], { auth: BOB }],
      ["@request.auth.team.name = 'Alpha'", ALL, asAlice],
      ["@request.auth.team.name = 'Alpha'", [], { auth: BOB }],
      ["@request.auth.team.name = 'Alpha'", []],
      ['@request.auth.name:isset = true', ALL, asAlice],
      ['@request.auth.name:isset = true', []],
      ["@request.auth.name:lower = 'alice'", ALL, asAlice],
      ['@request.auth.missing = null', ALL, asAlice],
      ['name = @request.body.name', ['v2'], { body: { name: 'Energetic Host' } }],
      ['rating = @request.body.rating', ['v2'], { body: { rating: '3' } }],
      ['rating = @request.body.rating', ['v2'], { body: { rating: 3 } }],
      ['public = @request.body.public', ['v2', 'v4'], { body: { public: false } }],
      ['@request.body.role:isset = false', ALL, { body: {} }],
      ['@request.body.role:isset = false', [], { body: { role: 'x' } }],
      ['@request.body.name:isset = true', ALL, { body: { name: null } }],
      ['@request.body.tags:length = 2', ALL, { body: { tags: ['a', 'b'] } }],
      ['@request.body.tags:length = 0', ALL, {}],
      ["@request.body.tags:each ?= 'calm'", ALL, { body: { tags: ['x', 'calm'] } }],
      ["@request.body.tags:each = 'calm'", [], { body: { tags: ['x', 'calm'] } }],
      ["@request.body.tags:each ~ 'a'", ALL, { body: { tags: ['calm', 'aa'] } }],
      ['tags ?= @request.body.tags:each', ['v2'], { body: { tags: ['energetic', 'x'] } }],
      ['@request.body.name:changed = false', ['v1'], { body: { name: 'Calm Narrator' } }],
      ['@request.body.name:changed = true', ['v2', 'v3', 'v4', 'v5'], { body: { name: 'Calm Narrator' } }],
      ['@request.body.name:changed = false', ALL, { body: {} }],
      ["@request.body.user.name = 'Bob'", ALL, { body: { user: 'u2' } }],
      ["@request.body.user.name = 'Bob'", [], { body: {} }],
      ["@request.body.editors.role ?= 'admin'", ALL, { body: { editors: ['u1', 'u2'] } }],
      ["@request.body.editors.role = 'member'", [], { body: { editors: ['u1', 'u2'] } }],
      ["@request.body.data.a.b = 'deep'", ALL, { body: { data: { a: { b: 'deep' } } } }],
      ["@request.body.name:lower = 'calm narrator'", ALL, { body: { name: 'CALM Narrator' } }],
      ['@request.body.name:lower = name:lower', ['v1'], { body: { name: 'CALM Narrator' } }],
      ["@request.query.page = '2'", ALL, { query: { page: '2' } }],
      ["@request.query.missing = ''", ALL, { query: {} }],
      ['@request.query.missing:isset = false', ALL],
      ["@request.headers.x_token = 'abc'", ALL, { headers: { 'X-Token': 'abc' } }],
      ["@request.headers.x_token = 'abc'", []],
      ["@request.method = 'GET'", ALL, { method: 'get' }],
      ["@request.context = 'default'", ALL],
      ["@request.context = 'realtime'", ALL, { context: 'realtime' }],
    ])('%s', (...c) => check(c)());
  });

  describe('json fields', () => {
    it.each<Case>([
      ['data.pitch > 1', ['v1']],
      ['data.pitch < 1', ['v2']],
      ["data.styles.0 = 'soft'", ['v1']],
      ["data.meta.engine = 'piper'", ['v1']],
      ['data.meta.engine = null', ['v2', 'v3', 'v4', 'v5']],
      ['data = null', ['v4']],
      ["data = 'not json'", ['v3']],
      ['data.styles:length = 2', ['v1']],
      ['data:length = 3', ['v5']],
      ['data.0 = 1', ['v5']],
      ["data ~ 'piper'", ['v1']],
      ["data.meta.engine:lower = 'piper'", ['v1']],
    ])('%s', (...c) => check(c)());
  });

  describe('list rules of related collections (user filters)', () => {
    const verifiedOnly = withCollection({ ...users, listRule: 'verified = true' });

    it.each<Case>([
      ["user.name = 'Bob'", [], verifiedOnly],
      ["user.name = ''", ['v2', 'v4'], verifiedOnly],
      ["editors.name ?= 'Bob'", [], verifiedOnly],
      ["user.name = 'Bob'", ['v2'], { ...verifiedOnly, allowHidden: true }],
      ["user = 'u2'", ['v2'], verifiedOnly],
      [
        "user.name != ''",
        ['v1', 'v3'],
        { ...withCollection({ ...users, listRule: 'id = @request.auth.id' }), ...asAlice },
      ],
      ["user.name != ''", [], withCollection({ ...users, listRule: 'id = @request.auth.id' })],
      ["user.name != ''", ['v1', 'v3'], withCollection({ ...users, listRule: "team.name = 'Alpha'" })],
      ["@collection.users.name ?= 'Bob'", [], verifiedOnly],
      ["user.name != ''", ['v1', 'v2', 'v3', 'v5'], withCollection({ ...users, listRule: '' })],
    ])('%s', (...c) => check(c)());

    it('rejects superuser-only collections unless hidden fields are allowed', () => {
      const locked = withCollection({ ...users, listRule: null });
      expect(compileError("user.name = 'x'", locked).reason).toBe(
        'the records of "users" cannot be used in filters ("user.name")',
      );
      expect(compileError("@collection.users.name ?= 'x'", locked).reason).toContain(
        'cannot be used in filters',
      );
      expect(() => compileFilter("user.name = 'x'", context({ ...locked, allowHidden: true }))).not.toThrow();
      expect(() => compileFilter("user = 'x'", context(locked))).not.toThrow();
      const { listRule: _omitted, ...withoutRule } = users;
      expect(compileError("user.name = 'x'", withCollection(withoutRule)).reason).toContain(
        'cannot be used in filters',
      );
    });

    it('reports an invalid list rule without SQL', () => {
      const error = compileError("user.name = 'x'", withCollection({ ...users, listRule: 'nope = 1' }));
      expect(error.reason).toBe(
        'the list rule of "users" is invalid (unknown field "nope"), so "user.name" cannot be used',
      );
    });
  });

  describe('errors', () => {
    it.each<[string, Partial<FilterContext>, number, string]>([
      ['unknown = 1', {}, 0, 'unknown field "unknown"'],
      ["rating > 1 && nope.x = 'a'", {}, 14, 'unknown field "nope" in "nope.x"'],
      ['name.foo = 1', {}, 0, '"name" is not a relation field, so "name.foo" cannot be resolved'],
      ['internal = 1', {}, 0, 'the field "internal" cannot be used in filters'],
      ['user.passwordHash = 1', {}, 0, 'the field "passwordHash" cannot be used in filters'],
      [
        'user.passwordHash = 1',
        { allowHidden: true },
        0,
        'the field "passwordHash" cannot be used in filters',
      ],
      ['user.secret = 1', {}, 0, 'the field "secret" cannot be used in filters'],
      ['@request.auth.passwordHash = 1', asAlice, 0, 'the field "passwordHash" cannot be used in filters'],
      ['@request.auth.secret = 1', asAlice, 0, 'the field "secret" cannot be used in filters'],
      ['name:each = 1', {}, 0, 'the ":each" modifier needs a select, file or relation field, not "name"'],
      ['name:length = 1', {}, 0, 'the ":length" modifier needs a multi-valued or JSON field'],
      ['name:isset = 1', {}, 0, 'the ":isset" modifier can only be used on @request.* fields'],
      ['name:changed = 1', {}, 0, 'the ":changed" modifier can only be used on @request.body.* fields'],
      ['data:each = 1', {}, 0, 'the ":each" modifier is not supported on the JSON field "data"'],
      [
        '@request.query.a:each = 1',
        {},
        0,
        'the ":each" modifier is not supported on "@request.query.a:each"',
      ],
      ['@request.method:length = 1', {}, 0, 'not supported'],
      ['@request.nope = 1', {}, 0, 'unknown request field "@request.nope"'],
      ['@request = 1', {}, 0, 'unknown identifier "@request"'],
      ['@request.auth = 1', {}, 0, 'expected a field name after "@request.auth"'],
      ['@request.method.x = 1', {}, 0, 'unknown field "@request.method.x"'],
      ['@collection.teams = 1', {}, 0, 'expected a field after "@collection.teams"'],
      ['@collection.nope.x = 1', {}, 0, 'unknown collection "nope" in "@collection.nope.x"'],
      ['@collection.teams.nope = 1', {}, 0, 'unknown field "nope"'],
      [
        "@collection.teams.name = 'x'",
        { allowCollectionJoins: false },
        0,
        '@collection references are not allowed here',
      ],
      ['@other.x = 1', {}, 0, 'unknown identifier "@other.x"'],
      ['notes_via_author.id = 1', {}, 0, '"notes_via_author" is not a relation of "notes" to "voices"'],
      ['nope_via_voice.id = 1', {}, 0, 'unknown collection "nope"'],
    ])('%s', (expression, overrides, position, message) => {
      const error = compileError(expression, overrides);
      expect(error.position).toBe(position);
      expect(error.reason).toContain(message);
      expect(error.message).not.toMatch(/SELECT|EXISTS|"t"\./);
    });

    it(`limits relation paths to ${COMPILE_LIMITS.maxRelationDepth} hops`, async () => {
      const chained: CollectionSchema = {
        ...voices,
        fields: [
          ...voices.fields,
          { name: 'next', column: 'id', type: 'relation', relation: { collection: 'voices' } },
        ],
      };
      const overrides = { collection: chained, ...withCollection(chained) };
      const path = (hops: number): string => `${'next.'.repeat(hops)}name = 'Calm Narrator'`;
      expect(await db.ids(path(6), overrides)).toEqual(['v1']);
      const error = compileError(path(7), overrides);
      expect(error.reason).toContain('goes through more than 6 relations');
    });

    it(`allows at most ${COMPILE_LIMITS.maxCollectionJoins} different @collection references`, async () => {
      const three =
        '@collection.teams:a.id != "" && @collection.teams:b.id != "" && @collection.teams:c.id != ""';
      expect(await db.ids(three)).toEqual(ALL);
      expect(compileError(`${three} && @collection.teams:d.id != ""`).reason).toContain(
        'at most 3 different @collection references',
      );
      expect(await db.ids(`${three} && @collection.teams:a.name != ""`)).toEqual(ALL);
    });

    it('limits the number of joined tables', () => {
      const many = Array.from({ length: 30 }, (_, i) => `@request.body.e${i}.name ?= 'x'`).join(' || ');
      const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`e${i}`, ['u1']]));
      const relations: CollectionSchema = {
        ...voices,
        fields: [
          ...voices.fields,
          ...Array.from({ length: 30 }, (_, i) => ({
            name: `e${i}`,
            column: 'editors',
            type: 'relation' as const,
            multiple: true,
            relation: { collection: 'users' },
          })),
        ],
      };
      expect(() => compileFilter(many, context({ collection: relations, body }))).not.toThrow();
      const deep = Array.from({ length: 31 }, (_, i) => `e${i}.team.name ?= 'x'`).join(' || ');
      expect(compileError(deep, { collection: relations }).reason).toBe(
        'the expression references too many different relations',
      );
    });
  });

  describe('generated SQL', () => {
    it('binds every value as a parameter and quotes identifiers', () => {
      const { sql, params } = compileFilter("name = 'x' && rating > 2 && user.name ~ 'a'", context());
      expect(sql).toBe(
        '("t"."name" = ? AND "t"."rating" > ? AND EXISTS (SELECT 1 FROM (SELECT 1) AS "__pbf2" ' +
          'LEFT JOIN "users" AS "__pbf1" ON "__pbf1"."id" = "t"."user_id" WHERE "__pbf1"."name" LIKE ? ESCAPE \'\\\'))',
      );
      expect(params).toEqual(['x', 2, '%a%']);
    });

    it('keeps comparisons without relations out of the EXISTS so indexes stay usable', () => {
      const { sql } = compileFilter("public = true && user.name = 'a' && language = 'en'", context());
      expect(sql.startsWith('("t"."is_public" = 1 AND "t"."language" = ? AND EXISTS (')).toBe(true);
    });

    it('uses the caller alias', () => {
      const { sql } = compileFilter("name = 'x'", context({ alias: 'voice' }));
      expect(sql).toBe('"voice"."name" = ?');
    });

    it('refuses an alias that is not a plain identifier (a programming error)', () => {
      expect(() => compileFilter('id = 1', context({ alias: 't"; --' }))).toThrow('Invalid filter alias');
      expect(() => compileFilter('id = 1', context({ alias: '__pbf1' }))).toThrow('Invalid filter alias');
    });

    it('stays within SQLite limits for 200 comparisons', async () => {
      const ors = Array.from({ length: 200 }, (_, i) => `rating=${i}`).join('||');
      expect(await db.ids(ors)).toEqual(['v2', 'v4', 'v5']);
      const ands = Array.from({ length: 200 }, (_, i) => `rating!=${i + 10}`).join('&&');
      expect(await db.ids(ands)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
      const mixed = Array.from({ length: 80 }, (_, i) => `(editors.name?='n${i}'||tags?='t${i}')`).join('&&');
      expect(await db.ids(mixed)).toEqual([]);
    });

    it('does not fail at runtime on very long LIKE values', async () => {
      const long = 'x'.repeat(60_000);
      expect(await db.ids('name ~ @request.body.q', { body: { q: long } })).toEqual([]);
      expect(await db.ids('name !~ @request.body.q', { body: { q: long } })).toEqual(ALL);
      expect(
        await db.ids('@request.body.q ~ name', { body: { q: `${long} Calm Narrator ${long}` } }),
      ).toEqual(['v1']);
      expect(compileError('name ~ @request.body.q', { body: { q: `%${long}` } }).reason).toBe(
        'the LIKE pattern is too long',
      );
    });
  });
});
