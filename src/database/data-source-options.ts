import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';
import { SafeTypeOrmLogger } from './safe-typeorm-logger';

/**
 * TypeORM options for the SQLite database. Schema changes only through migrations (forward only, run at start).
 * WAL lets readers proceed during a write; the busy timeout makes concurrent writers wait instead of failing.
 */
export function dataSourceOptions(databaseFile: string): DataSourceOptions {
  return {
    type: 'sqlite',
    database: databaseFile,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: '_migrations',
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    enableWAL: true,
    busyTimeout: 10_000,
    busyErrorRetry: 100,
    logging: ['error', 'migration', 'warn'],
    logger: new SafeTypeOrmLogger(),
    maxQueryExecutionTime: 2000,
  };
}

export const DEFAULT_DATABASE_NAME = join('pb_data', 'data.db');
