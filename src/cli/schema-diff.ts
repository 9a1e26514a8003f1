import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options';

/**
 * Prints the SQL that would bring a database migrated by migrations/ in line with the entities.
 * Empty output means entities and migrations agree. Used to write new migrations:
 *   npm run migration:diff
 */
export async function pendingSchemaChanges(databaseFile = ':memory:'): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(databaseFile), logging: false });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const log = await dataSource.driver.createSchemaBuilder().log();
    return log.upQueries.map((query) => query.query);
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  pendingSchemaChanges(process.argv[2])
    .then((queries) => {
      for (const query of queries) {
        process.stdout.write(`${query};\n`);
      }
      process.stderr.write(queries.length ? `${queries.length} pending change(s)\n` : 'schema up to date\n');
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    });
}
