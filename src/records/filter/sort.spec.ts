import { FilterError } from './errors';
import { FilterContext } from './schema';
import { compileSort } from './sort';
import { collections, context, resolverFor, TestDb, users } from './testing/fixture';

function sortError(sort: string, overrides: Partial<FilterContext> = {}): FilterError {
  try {
    compileSort(sort, context(overrides));
  } catch (error) {
    if (error instanceof FilterError) {
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(sort)} to be rejected`);
}

describe('compileSort', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await TestDb.open();
  });

  afterAll(async () => {
    await db.close();
  });

  async function order(sort: string, overrides: Partial<FilterContext> = {}): Promise<string[]> {
    const compiled = compileSort(sort, context(overrides));
    const rows = await db.all<{ id: string }>(
      `SELECT "t"."id" AS id FROM "voices" AS "t" ORDER BY ${compiled.sql}`,
      compiled.params,
    );
    return rows.map((r) => r.id);
  }

  it('builds ORDER BY terms with directions', () => {
    expect(compileSort('-created,+name, rating', context())).toEqual({
      terms: [
        { sql: '"t"."created"', params: [], direction: 'DESC' },
        { sql: '"t"."name"', params: [], direction: 'ASC' },
        { sql: '"t"."rating"', params: [], direction: 'ASC' },
      ],
      sql: '"t"."created" DESC, "t"."name" ASC, "t"."rating" ASC',
      params: [],
    });
  });

  it('returns no terms for an empty or blank sort', () => {
    expect(compileSort('', context())).toEqual({ terms: [], sql: '', params: [] });
    expect(compileSort('   ', context())).toEqual({ terms: [], sql: '', params: [] });
  });

  it.each<[string, string[]]>([
    ['-rating', ['v5', 'v1', 'v2', 'v4', 'v3']],
    ['rating', ['v3', 'v4', 'v2', 'v1', 'v5']],
    ['name', ['v1', 'v2', 'v5', 'v3', 'v4']],
    ['-name:lower', ['v4', 'v3', 'v5', 'v2', 'v1']],
    ['user.name,-id', ['v4', 'v3', 'v1', 'v2', 'v5']],
    ['user.team.name,id', ['v4', 'v5', 'v1', 'v3', 'v2']],
    ['tags:length,id', ['v3', 'v5', 'v2', 'v4', 'v1']],
    ['-data.pitch,id', ['v1', 'v2', 'v3', 'v4', 'v5']],
    ['-@rowid', ['v5', 'v4', 'v3', 'v2', 'v1']],
    ['public,-created', ['v2', 'v4', 'v5', 'v3', 'v1']],
  ])('%s', async (sort, ids) => {
    expect(await order(sort)).toEqual(ids);
  });

  it('supports @random', async () => {
    expect(compileSort('@random', context()).sql).toBe('RANDOM() ASC');
    expect((await order('@random')).sort()).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it("applies the related collection's list rule to relation sort keys (user sorts)", async () => {
    const overrides = {
      resolveCollection: resolverFor(
        collections.map((c) => (c.name === 'users' ? { ...users, listRule: "name != 'Bob'" } : c)),
      ),
    };
    const compiled = compileSort('user.name', context(overrides));
    expect(compiled.params).toEqual(['Bob']);
    expect(compiled.terms[0].params).toEqual(['Bob']);
    expect(await order('user.name,id', overrides)).toEqual(['v2', 'v4', 'v1', 'v3', 'v5']);
  });

  it.each<[string, number, string]>([
    ['unknown', 0, 'unknown field "unknown"'],
    ['-created,-internal', 10, 'the field "internal" cannot be used in filters'],
    ['user.passwordHash', 0, 'the field "passwordHash" cannot be used in filters'],
    ['tags', 0, 'cannot sort by the multi-valued "tags"'],
    ['editors.name', 0, 'cannot sort by the multi-valued "editors.name"'],
    ['notes_via_voice.text', 0, 'cannot sort by the multi-valued'],
    ['@request.auth.id', 0, 'cannot sort by "@request.auth.id"'],
    ['@collection.users.name', 0, 'cannot sort by "@collection.users.name"'],
    ['name desc', 0, 'invalid sort field "name desc"'],
    ['-', 1, 'invalid sort field ""'],
    ['name,,id', 5, 'empty sort field'],
    ['name,', 5, 'empty sort field'],
    ['true', 0, 'invalid sort field "true"'],
    ['@now', 0, 'invalid sort field "@now"'],
    ['tags:isset', 0, 'the ":isset" modifier can only be used on @request.* fields'],
    ['id,id,id,id,id,id,id,id,name', 24, 'too many sort fields (at most 8)'],
    [`x${'a'.repeat(255)}`, 0, 'longer than 255 characters'],
  ])('rejects %j at %i', (sort, position, message) => {
    const error = sortError(sort);
    expect(error.position).toBe(position);
    expect(error.reason).toContain(message);
    expect(error.message).toBe(`Invalid sort at position ${position}: ${error.reason}`);
    expect(error.source).toBe('sort');
  });

  it('allows hidden fields when the context allows them', () => {
    expect(compileSort('internal', context({ allowHidden: true })).sql).toBe('"t"."internal_note" ASC');
  });
});
