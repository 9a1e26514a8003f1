import { Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { AuthContext } from './auth/auth-context';
import type { CollectionRegistry } from './collections/collection-registry';
import type { FieldDefinition, ResolvedCollection, ResolvedField } from './collections/collection.types';
import type { RecordsRepository, SqlFragment } from './records.repository';
import { RuleEngine } from './rules';

/** A resolved collection without a database: columns are the snake-cased field names. */
function collection(
  name: string,
  fields: FieldDefinition[],
  rules: Partial<ResolvedCollection['rules']> = {},
): ResolvedCollection {
  const definitions: FieldDefinition[] = [
    { name: 'id', type: 'text' },
    ...fields,
    { name: 'created', type: 'autodate' },
  ];
  const all: ResolvedField[] = definitions.map((field) => ({
    ...field,
    column: field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  }));
  return {
    id: `pbc_${name.padEnd(11, '0').slice(0, 11)}`,
    name,
    type: 'base',
    table: name,
    system: false,
    fields: all,
    fieldsByName: new Map(all.map((field) => [field.name, field])),
    rules: { list: '', view: '', create: '', update: '', delete: '', ...rules },
    hooks: {},
    definition: {
      name,
      type: 'base',
      entity: Object,
      fields,
      rules: { list: '', view: '', create: '', update: '', delete: '' },
    },
  };
}

const users = collection('users', [
  { name: 'email', type: 'email' },
  { name: 'password', type: 'password', hidden: true },
  { name: 'secretNote', type: 'text', hidden: true },
  { name: 'role', type: 'select', values: ['admin', 'user'] },
]);
const notes = collection(
  'notes',
  [
    { name: 'title', type: 'text' },
    { name: 'owner', type: 'relation', relation: { collection: 'users' } },
    { name: 'tags', type: 'select', values: ['a', 'b'], multiple: true },
  ],
  { list: 'owner = @request.auth.id', view: null },
);

const registry = {
  find: (name: string) => [users, notes].find((c) => c.name === name || c.id === name),
} as unknown as CollectionRegistry;

function auth(id: string, extra: Partial<AuthContext> = {}): AuthContext {
  return {
    collection: 'users',
    collectionId: users.id,
    record: { id, collectionId: users.id, collectionName: 'users', role: 'user' },
    isSuperuser: false,
    isAdmin: false,
    method: 'token',
    ...extra,
  };
}

describe('RuleEngine (the records layer over the filter compiler)', () => {
  const snapshots: { alias: string; row: Record<string, unknown>; condition: SqlFragment }[] = [];
  const repository = {
    snapshotMatches: (
      _c: ResolvedCollection,
      alias: string,
      row: Record<string, unknown>,
      condition: SqlFragment,
    ) => {
      snapshots.push({ alias, row, condition });
      return Promise.resolve(true);
    },
    storedMatches: () => Promise.resolve(true),
  } as unknown as RecordsRepository;
  const engine = new RuleEngine(registry, repository);

  it('describes each collection to the compiler as a whitelist (columns, hidden, relations, list rule)', () => {
    const schema = engine.schemaOf(notes);
    expect(schema).toMatchObject({ name: 'notes', table: 'notes', listRule: 'owner = @request.auth.id' });
    expect(schema.fields.find((field) => field.name === 'owner')).toMatchObject({
      column: 'owner',
      type: 'relation',
      relation: { collection: 'users' },
    });
    expect(schema.fields.find((field) => field.name === 'tags')?.multiple).toBe(true);
    expect(engine.schemaOf(users).fields.find((field) => field.name === 'password')?.hidden).toBe(true);
    expect(engine.schemaOf(users).fields.find((field) => field.name === 'secretNote')).toMatchObject({
      column: 'secret_note',
      hidden: true,
    });
  });

  it('decides access like PocketBase: superusers always, null = superusers only, "" = anyone', () => {
    expect(engine.access(notes, null, { auth: auth('u1', { isSuperuser: true }) })).toEqual({ kind: 'all' });
    expect(engine.access(notes, null, { auth: auth('u1') })).toEqual({ kind: 'none' });
    expect(engine.access(notes, '', { auth: null })).toEqual({ kind: 'all' });
    const access = engine.access(notes, notes.rules.list, { auth: auth('abcdefghij12345') });
    expect(access.kind).toBe('where');
    if (access.kind === 'where') {
      // The auth id is bound, never spliced into the SQL text.
      expect(access.condition.sql).toContain('"notes"."owner"');
      expect(access.condition.sql).not.toContain('abcdefghij12345');
      expect(access.condition.params).toContain('abcdefghij12345');
    }
  });

  it('turns a malformed client filter or sort into a 400 naming the position, never SQL', () => {
    const expectBadRequest = (run: () => unknown, pattern: RegExp): void => {
      try {
        run();
        throw new Error('expected a 400');
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        const body = (error as ApiError).getResponse() as { status: number; message: string };
        expect(body.status).toBe(400);
        expect(body.message).toMatch(pattern);
        expect(JSON.stringify(body)).not.toMatch(/SELECT|"notes"\./);
      }
    };
    expectBadRequest(() => engine.filterCondition(notes, 'title = ', { auth: null }), /position \d+/);
    expectBadRequest(() => engine.filterCondition(notes, 'nope = 1', { auth: null }), /position/);
    expectBadRequest(() => engine.sortTerms(notes, '-', { auth: null }), /sort/);
  });

  it('lets only rules (and superusers) see hidden fields; password never', () => {
    expect(() => engine.filterCondition(users, 'secretNote = "x"', { auth: auth('u1') })).toThrow(ApiError);
    expect(
      engine.filterCondition(users, 'secretNote = "x"', { auth: auth('u1', { isSuperuser: true }) }).sql,
    ).toContain('secret_note');
    expect(() =>
      engine.filterCondition(users, 'password = "x"', { auth: auth('u1', { isSuperuser: true }) }),
    ).toThrow(ApiError);
    expect(engine.ruleCondition(users, 'secretNote != ""', { auth: null }).sql).toContain('secret_note');
  });

  it('denies (and does not throw) when a rule itself is broken', () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect(engine.ruleCondition(notes, 'this is not a rule', { auth: null })).toEqual({
      sql: '0',
      params: [],
    });
  });

  it('compiles sorts into ORDER BY terms over the collection alias', () => {
    const terms = engine.sortTerms(notes, '-created,title', { auth: null });
    expect(terms.map((term) => term.sql)).toEqual(['"notes"."created" DESC', '"notes"."title" ASC']);
  });

  it('refuses at start-up a collection whose rule does not compile', () => {
    const broken = collection('broken', [{ name: 'title', type: 'text' }], { list: 'title ==' });
    const strict = new RuleEngine(
      { find: () => undefined, all: () => [broken] } as unknown as CollectionRegistry,
      repository,
    );
    expect(() => strict.onModuleInit()).toThrow(/collection "broken" listRule.*position/);
  });

  it('checks records that are not stored against a one-row snapshot under its own alias', async () => {
    snapshots.length = 0;
    const data = { id: 'abcdefghij12345', title: 'T', owner: 'u1', tags: ['a'], created: '' };
    await expect(
      engine.canAccessData(notes, data, notes.rules.list, { auth: auth('u1') }, 'title = "T"'),
    ).resolves.toBe(true);
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0].alias).toBe('record_snapshot');
    expect(snapshots[0].row).toMatchObject({ id: 'abcdefghij12345', owner: 'u1', tags: '["a"]' });
    expect(snapshots[0].condition.sql).toContain('"record_snapshot"."owner"');
    // A bad subscriber filter simply matches nothing; a null rule never reaches the database.
    await expect(engine.canAccessData(notes, data, '', { auth: null }, 'broken =')).resolves.toBe(false);
    await expect(engine.canAccessData(notes, data, null, { auth: auth('u1') })).resolves.toBe(false);
    await expect(engine.canAccessData(notes, data, '', { auth: null })).resolves.toBe(true);
    expect(snapshots).toHaveLength(1);
  });
});
