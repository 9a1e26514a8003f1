/**
 * Test support for the filter specs (not used by the app): a small schema and a seeded in-memory SQLite
 * database, so tests can assert which records an expression really matches.
 */
import sqlite3 from 'sqlite3';
import { compileFilter } from '../compiler';
import { CollectionSchema, FieldSchema, FilterContext } from '../schema';

const system: FieldSchema[] = [
  { name: 'id', column: 'id', type: 'text' },
  { name: 'created', column: 'created', type: 'autodate' },
  { name: 'updated', column: 'updated', type: 'autodate' },
];

export const teams: CollectionSchema = {
  id: 'pbc_teams',
  name: 'teams',
  table: 'teams',
  listRule: '',
  fields: [...system, { name: 'name', column: 'name', type: 'text' }],
};

export const users: CollectionSchema = {
  id: 'pbc_users',
  name: 'users',
  table: 'users',
  listRule: '',
  fields: [
    ...system,
    { name: 'name', column: 'name', type: 'text' },
    { name: 'email', column: 'email', type: 'email' },
    { name: 'passwordHash', column: 'password_hash', type: 'password', hidden: true },
    { name: 'secret', column: 'secret', type: 'text', hidden: true },
    { name: 'role', column: 'role', type: 'select' },
    { name: 'verified', column: 'verified', type: 'bool' },
    { name: 'team', column: 'team_id', type: 'relation', relation: { collection: 'teams' } },
  ],
};

export const voices: CollectionSchema = {
  id: 'pbc_voices',
  name: 'voices',
  table: 'voices',
  listRule: '',
  fields: [
    ...system,
    { name: 'name', column: 'name', type: 'text' },
    { name: 'description', column: 'description', type: 'text' },
    { name: 'user', column: 'user_id', type: 'relation', relation: { collection: 'users' } },
    { name: 'tags', column: 'tags', type: 'select', multiple: true },
    { name: 'language', column: 'language', type: 'select' },
    { name: 'public', column: 'is_public', type: 'bool' },
    { name: 'rating', column: 'rating', type: 'number' },
    { name: 'data', column: 'data', type: 'json' },
    {
      name: 'editors',
      column: 'editors',
      type: 'relation',
      multiple: true,
      relation: { collection: 'users' },
    },
    { name: 'published', column: 'published', type: 'date' },
    { name: 'samples', column: 'samples', type: 'file', multiple: true },
    { name: 'internal', column: 'internal_note', type: 'text', hidden: true },
  ],
};

export const notes: CollectionSchema = {
  id: 'pbc_notes',
  name: 'notes',
  table: 'notes',
  listRule: '',
  fields: [
    ...system,
    { name: 'voice', column: 'voice_id', type: 'relation', relation: { collection: 'voices' } },
    { name: 'author', column: 'author_id', type: 'relation', relation: { collection: 'users' } },
    { name: 'text', column: 'body', type: 'text' },
    {
      name: 'voices',
      column: 'voice_ids',
      type: 'relation',
      multiple: true,
      relation: { collection: 'voices' },
    },
  ],
};

export const collections: CollectionSchema[] = [teams, users, voices, notes];

export function resolverFor(list: CollectionSchema[]): (name: string) => CollectionSchema | undefined {
  return (name) => list.find((c) => c.name === name || c.id === name);
}

export const ALICE = { id: 'u1', collectionName: 'users', name: 'Alice', role: 'admin', verified: true };
export const BOB = { id: 'u2', collectionName: 'users', name: 'Bob', role: 'member', verified: false };

export const NOW = new Date(Date.UTC(2024, 5, 15, 10, 20, 30, 400)); // 2024-06-15 10:20:30.400Z, a Saturday

export function context(overrides: Partial<FilterContext> = {}): FilterContext {
  return {
    collection: voices,
    alias: 't',
    resolveCollection: resolverFor(collections),
    auth: null,
    now: NOW,
    ...overrides,
  };
}

const DDL = [
  `CREATE TABLE teams (id varchar PRIMARY KEY NOT NULL, name varchar NOT NULL DEFAULT '', created varchar NOT NULL DEFAULT '', updated varchar NOT NULL DEFAULT '')`,
  `CREATE TABLE users (id varchar PRIMARY KEY NOT NULL, name varchar NOT NULL DEFAULT '', email varchar, password_hash varchar, secret varchar, role varchar, verified boolean NOT NULL DEFAULT (0), team_id varchar, created varchar NOT NULL DEFAULT '', updated varchar NOT NULL DEFAULT '')`,
  `CREATE TABLE voices (id varchar PRIMARY KEY NOT NULL, name varchar NOT NULL DEFAULT '', description varchar, user_id varchar, tags varchar, language varchar, is_public boolean NOT NULL DEFAULT (0), rating real, data text, editors varchar, published varchar, samples varchar, internal_note varchar, created varchar NOT NULL DEFAULT '', updated varchar NOT NULL DEFAULT '')`,
  `CREATE TABLE notes (id varchar PRIMARY KEY NOT NULL, voice_id varchar, author_id varchar, body varchar, voice_ids varchar, created varchar NOT NULL DEFAULT '', updated varchar NOT NULL DEFAULT '')`,
];

type Row = Record<string, string | number | null>;

const SEED: Record<string, Row[]> = {
  teams: [
    { id: 't1', name: 'Alpha', created: '2023-01-01 00:00:00.000Z' },
    { id: 't2', name: 'Beta', created: '2023-02-01 00:00:00.000Z' },
  ],
  users: [
    {
      id: 'u1',
      name: 'Alice',
      email: 'alice@example.com',
      password_hash: 'hash-a',
      secret: 's1',
      role: 'admin',
      verified: 1,
      team_id: 't1',
      created: '2024-01-01 10:00:00.000Z',
    },
    {
      id: 'u2',
      name: 'Bob',
      email: 'bob@example.com',
      password_hash: 'hash-b',
      secret: 's2',
      role: 'member',
      verified: 0,
      team_id: 't2',
      created: '2024-02-01 10:00:00.000Z',
    },
    {
      id: 'u3',
      name: 'Carol',
      email: 'carol@EXAMPLE.com',
      password_hash: 'hash-c',
      secret: 's3',
      role: 'member',
      verified: 1,
      team_id: '',
      created: '2024-03-01 10:00:00.000Z',
    },
    {
      id: 'u4',
      name: 'dave',
      email: '',
      password_hash: null,
      secret: null,
      role: '',
      verified: 1,
      team_id: null,
      created: '2024-04-01 10:00:00.000Z',
    },
  ],
  voices: [
    {
      id: 'v1',
      name: 'Calm Narrator',
      description: 'A <b>calm</b> voice',
      user_id: 'u1',
      tags: '["calm","narration"]',
      language: 'en',
      is_public: 1,
      rating: 4.5,
      data: '{"pitch":1.2,"styles":["soft","warm"],"meta":{"engine":"piper"}}',
      editors: '["u2","u3"]',
      published: '2024-03-01 12:00:00.000Z',
      samples: '["a.wav"]',
      internal_note: 'n1',
      created: '2024-03-01 12:00:00.000Z',
    },
    {
      id: 'v2',
      name: 'Energetic Host',
      description: 'Loud',
      user_id: 'u2',
      tags: '["energetic"]',
      language: 'en',
      is_public: 0,
      rating: 3,
      data: '{"pitch":0.9}',
      editors: '["u1"]',
      published: '2024-06-15 08:30:00.000Z',
      samples: '[]',
      internal_note: 'n2',
      created: '2024-06-15 08:30:00.000Z',
    },
    {
      id: 'v3',
      name: 'Quiet 100% Whisper',
      description: '',
      user_id: 'u1',
      tags: '[]',
      language: 'de',
      is_public: 1,
      rating: null,
      data: 'not json',
      editors: '[]',
      published: '',
      samples: null,
      internal_note: null,
      created: '2024-06-15 11:00:00.000Z',
    },
    {
      id: 'v4',
      name: 'under_score',
      description: null,
      user_id: '',
      tags: '["calm"]',
      language: '',
      is_public: 0,
      rating: 0,
      data: null,
      editors: '["u1","u2","zz-missing"]',
      published: '2023-12-31 23:59:59.999Z',
      samples: '["b.wav","c.wav"]',
      internal_note: '',
      created: '2023-12-31 23:59:59.999Z',
    },
    {
      id: 'v5',
      name: `O'Brien "quoted" \\ back`,
      description: 'ümlaut Ünïcode',
      user_id: 'u3',
      tags: null,
      language: 'fr',
      is_public: 1,
      rating: 5,
      data: '[1,2,3]',
      editors: 'u3',
      published: '2025-01-01 00:00:00.000Z',
      samples: 'solo.wav',
      internal_note: 'n5',
      created: '2025-01-01 00:00:00.000Z',
    },
  ],
  notes: [
    { id: 'n1', voice_id: 'v1', author_id: 'u1', body: 'hello', voice_ids: '["v1","v2"]' },
    { id: 'n2', voice_id: 'v1', author_id: 'u2', body: 'world', voice_ids: '["v2"]' },
    { id: 'n3', voice_id: 'v2', author_id: 'u2', body: 'x', voice_ids: '[]' },
  ],
};

/** A promise-based wrapper over one in-memory sqlite3 database. */
export class TestDb {
  private constructor(private readonly db: sqlite3.Database) {}

  static async open(): Promise<TestDb> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const handle = new sqlite3.Database(':memory:', (error) => (error ? reject(error) : resolve(handle)));
    });
    const test = new TestDb(db);
    for (const statement of DDL) {
      await test.run(statement);
    }
    for (const [table, rows] of Object.entries(SEED)) {
      for (const row of rows) {
        const columns = Object.keys(row);
        await test.run(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          Object.values(row),
        );
      }
    }
    return test;
  }

  run(statement: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.run(statement, params, (error) => (error ? reject(error) : resolve()));
    });
  }

  all<T>(statement: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      this.db.all(statement, params, (error, rows) => (error ? reject(error) : resolve(rows as T[])));
    });
  }

  /** Ids of `context.collection` records matching `expression`, sorted. */
  async ids(expression: string, overrides: Partial<FilterContext> = {}): Promise<string[]> {
    const ctx = context(overrides);
    const { sql, params } = compileFilter(expression, ctx);
    const rows = await this.all<{ id: string }>(
      `SELECT "t"."id" AS id FROM "${ctx.collection.table}" AS "t" WHERE ${sql} ORDER BY "t"."id"`,
      params,
    );
    return rows.map((r) => r.id);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}
