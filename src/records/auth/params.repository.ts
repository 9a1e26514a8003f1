import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordDate } from '../../common/records/record-id';
import { runQuery } from '../sqlite';

/** The only place that touches `_params` (see ParamEntity). */
@Injectable()
export class ParamsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The value of `id`, created with `create()` the first time. INSERT OR IGNORE then SELECT: processes starting
   * together all end up with the one value that won. Values may be secrets: they never go through TypeORM's
   * query logging.
   */
  async getOrCreate(id: string, create: () => string): Promise<string> {
    const now = recordDate();
    await runQuery(
      this.dataSource,
      'INSERT OR IGNORE INTO "_params" ("id", "value", "created", "updated") VALUES (?, ?, ?, ?)',
      [id, create(), now, now],
    );
    const [row] = await runQuery<{ value: string }>(
      this.dataSource,
      'SELECT "value" FROM "_params" WHERE "id" = ?',
      [id],
    );
    if (!row) {
      throw new Error(`parameter ${id} could not be stored`);
    }
    return row.value;
  }
}
