import { DataSource } from 'typeorm';
import { newRecordId, recordDate } from '../common/records/record-id';
import { runQuery } from '../records/sqlite';

/**
 * The `_superusers` table as the CLI needs it (the records API reaches it through the registry). Queries carry
 * password hashes, so they bypass TypeORM's logging of failed queries.
 */
export class SuperusersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async exists(email: string): Promise<boolean> {
    const rows = await runQuery(this.dataSource, 'SELECT 1 FROM "_superusers" WHERE "email" = ?', [email]);
    return rows.length > 0;
  }

  /**
   * Creates the superuser, or resets the password of an existing one (a new token key too, which signs out its
   * sessions). One statement (INSERT ... ON CONFLICT), so concurrent runs cannot create duplicates.
   */
  async upsert(email: string, passwordHash: string, tokenKey: string): Promise<'created' | 'updated'> {
    const existed = await this.exists(email);
    const now = recordDate();
    await runQuery(
      this.dataSource,
      `INSERT INTO "_superusers" ("id", "email", "email_visibility", "verified", "password", "token_key", "created", "updated")
       VALUES (?, ?, 0, 1, ?, ?, ?, ?)
       ON CONFLICT ("email") DO UPDATE SET "password" = excluded."password", "token_key" = excluded."token_key", "updated" = excluded."updated"`,
      [newRecordId(), email, passwordHash, tokenKey, now, now],
    );
    return existed ? 'updated' : 'created';
  }

  async delete(email: string): Promise<boolean> {
    const existed = await this.exists(email);
    await runQuery(this.dataSource, 'DELETE FROM "_superusers" WHERE "email" = ?', [email]);
    return existed;
  }
}
