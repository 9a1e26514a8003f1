import { DataSource, EntitySchema } from 'typeorm';
import { compileFilter } from './compiler';
import { compileSort } from './sort';
import { ALICE, context } from './testing/fixture';
import { addOrderBySort, andWhereFilter, toNamedParameters } from './typeorm';

interface VoiceRow {
  id: string;
  name: string;
  user_id: string;
  tags: string;
  is_public: boolean;
  rating: number | null;
}

interface UserRow {
  id: string;
  name: string;
}

const VoiceEntity = new EntitySchema<VoiceRow>({
  name: 'Voice',
  tableName: 'voices',
  columns: {
    id: { type: 'varchar', primary: true },
    name: { type: 'varchar' },
    user_id: { type: 'varchar' },
    tags: { type: 'varchar' },
    is_public: { type: 'boolean' },
    rating: { type: 'real', nullable: true },
  },
});

const UserEntity = new EntitySchema<UserRow>({
  name: 'User',
  tableName: 'users',
  columns: { id: { type: 'varchar', primary: true }, name: { type: 'varchar' } },
});

describe('TypeORM QueryBuilder integration', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'sqlite',
      database: ':memory:',
      entities: [VoiceEntity, UserEntity],
    });
    await dataSource.initialize();
    // Schema by hand, as migrations would make it (schema sync stays off everywhere).
    await dataSource.query(
      'CREATE TABLE "users" ("id" varchar PRIMARY KEY NOT NULL, "name" varchar NOT NULL)',
    );
    await dataSource.query(
      'CREATE TABLE "voices" ("id" varchar PRIMARY KEY NOT NULL, "name" varchar NOT NULL, "user_id" varchar NOT NULL, ' +
        '"tags" varchar NOT NULL, "is_public" boolean NOT NULL, "rating" real)',
    );
    await dataSource.getRepository(UserEntity).insert([
      { id: 'u1', name: 'Alice' },
      { id: 'u2', name: 'Bob' },
    ]);
    await dataSource.getRepository(VoiceEntity).insert([
      { id: 'v1', name: 'Calm', user_id: 'u1', tags: '["calm"]', is_public: true, rating: 4 },
      { id: 'v2', name: 'Loud', user_id: 'u2', tags: '["loud","calm"]', is_public: false, rating: 2 },
      { id: 'v3', name: 'Quiet', user_id: 'u1', tags: '[]', is_public: false, rating: null },
    ]);
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  it('converts positional parameters to named ones', () => {
    const compiled = compileFilter("name = 'x' || rating > 2", context());
    expect(toNamedParameters(compiled, 'filter')).toEqual({
      sql: '("t"."name" = :filter0 OR "t"."rating" > :filter1)',
      parameters: { filter0: 'x', filter1: 2 },
    });
    expect(() => toNamedParameters(compiled, 'bad-prefix')).toThrow('Invalid parameter prefix');
  });

  it('applies a rule, a user filter and a sort to one query builder', async () => {
    const ctx = context({ alias: 'voice', auth: ALICE });
    const rule = compileFilter('user = @request.auth.id || public = true', { ...ctx, allowHidden: true });
    const filter = compileFilter("tags ?= 'calm' && user.name ~ 'ali'", ctx);
    const sort = compileSort('-rating,name', ctx);

    const qb = dataSource.getRepository(VoiceEntity).createQueryBuilder('voice');
    andWhereFilter(qb, rule, 'rule');
    andWhereFilter(qb, filter, 'filter');
    addOrderBySort(qb, sort, 'sort');
    const rows = await qb.skip(0).take(10).getMany();
    expect(rows.map((r) => r.id)).toEqual(['v1']);

    const count = await dataSource
      .getRepository(VoiceEntity)
      .createQueryBuilder('voice')
      .andWhere(toNamedParameters(rule, 'rule').sql, toNamedParameters(rule, 'rule').parameters)
      .getCount();
    expect(count).toBe(2);
  });

  it('sorts by a relation with parameters', async () => {
    const ctx = context({ alias: 'voice' });
    const qb = dataSource.getRepository(VoiceEntity).createQueryBuilder('voice');
    addOrderBySort(qb, compileSort('-user.name,id', ctx), 's');
    expect((await qb.getMany()).map((r) => r.id)).toEqual(['v2', 'v1', 'v3']);
  });
});
