import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { pendingSchemaChanges } from '../cli/schema-diff';
import { dataSourceOptions } from './data-source-options';

describe('migrations (real SQLite file)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-migrations-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('bring a new database exactly to the entities (no drift)', async () => {
    expect(await pendingSchemaChanges(join(dir, 'data.db'))).toEqual([]);
  });

  it('run at start, are recorded, and running them again is a no-op', async () => {
    const file = join(dir, 'data.db');
    for (let round = 0; round < 2; round++) {
      const dataSource = await new DataSource({ ...dataSourceOptions(file), logging: false }).initialize();
      const applied = await dataSource.query<{ name: string }[]>('SELECT name FROM _migrations');
      expect(applied.map((row) => row.name)).toEqual(
        dataSource.migrations.map((migration) => migration.name),
      );
      await dataSource.destroy();
    }
  });

  it('open the database in WAL mode with a busy timeout', async () => {
    const dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'data.db')),
      logging: false,
    }).initialize();
    try {
      expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      const [timeout] = await dataSource.query<Record<string, number>[]>('PRAGMA busy_timeout');
      expect(Object.values(timeout)[0]).toBeGreaterThanOrEqual(1000);
    } finally {
      await dataSource.destroy();
    }
  });

  it('refuse to roll back', async () => {
    const dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'data.db')),
      logging: false,
    }).initialize();
    try {
      await expect(dataSource.undoLastMigration()).rejects.toThrow(/forward only/);
    } finally {
      await dataSource.destroy();
    }
  });
});
