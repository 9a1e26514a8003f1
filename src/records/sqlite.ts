import type { Database } from 'sqlite3';
import type { DataSource } from 'typeorm';

/**
 * Runs parameterised SQL on TypeORM's SQLite connection, bypassing TypeORM's query logging: a failed query is
 * logged there WITH its parameters, and ours carry password hashes, token keys and worker tokens, which must
 * never reach a log. SQLite itself waits on a busy database (the connection's busy_timeout).
 */
export function runQuery<T>(
  dataSource: DataSource,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const connection = (dataSource.driver as unknown as { databaseConnection?: Database }).databaseConnection;
  if (!connection) {
    return Promise.reject(new Error('the SQLite connection is not open'));
  }
  return new Promise((resolve, reject) => {
    connection.all(sql, [...params], (error: Error | null, rows: T[]) => {
      // A fresh error without the statement or its parameters attached.
      if (error) {
        reject(new Error(error.message));
      } else {
        resolve(rows);
      }
    });
  });
}
