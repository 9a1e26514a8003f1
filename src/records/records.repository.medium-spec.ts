import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { newRecordId, recordDate } from '../common/records/record-id';
import { dataSourceOptions } from '../database/data-source-options';
import { UserEntity } from '../users/user.entity';
import { USERS_COLLECTION } from '../users/users.collection';
import { SUPERUSERS_COLLECTION } from '../users/superusers.collection';
import { COLLECTIONS } from './collections';
import { CollectionRegistry } from './collections/collection-registry';
import type { ResolvedCollection } from './collections/collection.types';
import { decodeRow, encodeData } from './record-codec';
import { RecordsRepository, uniqueViolationColumn } from './records.repository';

describe('RecordsRepository and CollectionRegistry (real SQLite file)', () => {
  let dir: string;
  let dataSource: DataSource;
  let registry: CollectionRegistry;
  let repository: RecordsRepository;
  let users: ResolvedCollection;

  const open = (): Promise<DataSource> =>
    new DataSource({ ...dataSourceOptions(join(dir, 'data.db')), logging: false }).initialize();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-records-'));
    dataSource = await open();
    registry = new CollectionRegistry(dataSource, COLLECTIONS);
    repository = new RecordsRepository(dataSource);
    users = registry.get('users');
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function user(email: string): Record<string, unknown> {
    const now = recordDate();
    return encodeData(users, {
      id: newRecordId(),
      email,
      emailVisibility: false,
      verified: false,
      password: 'hash',
      tokenKey: 'key',
      name: '',
      avatar: '',
      role: 'user',
      created: now,
      updated: now,
    });
  }

  const firstAdmin = { role: ['admin', 'user'] as const };

  it('resolves the registered collections against the entities (tables, columns, system fields)', () => {
    expect(registry.all().map((collection) => collection.name)).toEqual([
      '_superusers',
      'users',
      'inference_servers',
      'voices',
      'voice_samples',
      'generations',
    ]);
    expect(registry.get('_pb_users_auth_')).toBe(users);
    expect(users.table).toBe('users');
    expect(users.fields.map((field) => field.name)).toEqual([
      'id',
      'password',
      'tokenKey',
      'email',
      'emailVisibility',
      'verified',
      'name',
      'avatar',
      'role',
      'created',
      'updated',
    ]);
    expect(users.fieldsByName.get('tokenKey')?.column).toBe('token_key');
    expect(registry.get('inference_servers').fieldsByName.get('authToken')).toMatchObject({
      column: 'auth_token',
      hidden: true,
    });
    expect(registry.get('inference_servers').id).toMatch(/^pbc_\d{11}$/);
  });

  it('refuses definitions that do not match their entity, at start-up', () => {
    expect(
      () =>
        new CollectionRegistry(dataSource, [
          { ...USERS_COLLECTION, fields: [...USERS_COLLECTION.fields, { name: 'nickname', type: 'text' }] },
        ]),
    ).toThrow(/no property "nickname"/);
    expect(() => new CollectionRegistry(dataSource, [SUPERUSERS_COLLECTION, SUPERUSERS_COLLECTION])).toThrow(
      /twice/,
    );
    expect(
      () =>
        new CollectionRegistry(dataSource, [
          {
            ...USERS_COLLECTION,
            fields: [{ name: 'name', type: 'relation', relation: { collection: 'nowhere' } }],
          },
        ]),
    ).toThrow(/unknown collection "nowhere"/);
    expect(
      () =>
        new CollectionRegistry(dataSource, [
          { ...USERS_COLLECTION, fields: [{ name: 'role', type: 'select' }] },
        ]),
    ).toThrow(/needs values/);
  });

  it('gives the first-record value to exactly one of many concurrent inserts from two connections', async () => {
    const second = await open();
    try {
      const other = new RecordsRepository(second);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? other : repository).insert(users, user(`racer${i}@example.com`), firstAdmin),
        ),
      );
    } finally {
      await second.destroy();
    }
    const rows = await repository.list(users, { where: [], orderBy: [], limit: 100, offset: 0 });
    expect(rows).toHaveLength(20);
    expect(rows.filter((row) => row.role === 'admin')).toHaveLength(1);
    // Later inserts (a table that is not empty) get the normal value.
    await repository.insert(users, user('late@example.com'), firstAdmin);
    expect(
      (await repository.findByField(users, users.fieldsByName.get('email')!, 'late@example.com'))?.role,
    ).toBe('user');
  });

  it('checks rules on values that are not stored, through a one-row snapshot', async () => {
    const row = user('snap@example.com');
    const condition = {
      sql: '"snap"."email" = ? AND "snap"."role" = ?',
      params: ['snap@example.com', 'user'],
    };
    await expect(repository.snapshotMatches(users, 'snap', row, condition)).resolves.toBe(true);
    await expect(
      repository.snapshotMatches(users, 'snap', { ...row, role: 'admin' }, condition),
    ).resolves.toBe(false);
    expect(await repository.count(users)).toBe(0);
  });

  it('finds, updates and deletes rows; names the column of a unique violation', async () => {
    const row = user('a@example.com');
    await repository.insert(users, row);
    const id = String(row.id);
    await repository.update(users, id, { name: 'Ann', id: 'ignored' });
    const stored = decodeRow(users, (await repository.findById(users, id))!);
    expect(stored).toMatchObject({ id, name: 'Ann', email: 'a@example.com', verified: false });
    expect(await repository.findById(users, id, [{ sql: '"users"."name" = ?', params: ['Bob'] }])).toBeNull();
    expect(await repository.storedMatches(users, id, { sql: '"users"."name" = ?', params: ['Ann'] })).toBe(
      true,
    );
    const duplicate = await repository
      .insert(users, { ...user('a@example.com') })
      .catch((error: unknown) => error);
    expect(uniqueViolationColumn(duplicate)).toBe('email');
    await repository.delete(users, id);
    expect(await repository.findById(users, id)).toBeNull();
  });

  it('keeps the user entity and the users collection in step with the migration', async () => {
    const entity = dataSource.getRepository(UserEntity);
    await repository.insert(users, user('typeorm@example.com'));
    expect(await entity.findOneBy({ email: 'typeorm@example.com' })).toMatchObject({
      role: 'user',
      verified: false,
    });
  });
});
