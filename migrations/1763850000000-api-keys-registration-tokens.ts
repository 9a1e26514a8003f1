import { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys of users, and one-hour worker registration tokens. Forward only. */
export class ApiKeysRegistrationTokens1763850000000 implements MigrationInterface {
  name = 'ApiKeysRegistrationTokens1763850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "registration_tokens" ("id" varchar(15) PRIMARY KEY NOT NULL, "token_hash" varchar NOT NULL, ` +
        `"created_by" varchar NOT NULL, "expires" varchar NOT NULL, "last_used" varchar NOT NULL DEFAULT (''), ` +
        `"created" varchar NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_16b5dac37db33afe5a290d8da2" ON "registration_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" varchar(15) PRIMARY KEY NOT NULL, "user" varchar NOT NULL, ` +
        `"name" varchar NOT NULL, "prefix" varchar NOT NULL, "key_hash" varchar NOT NULL, ` +
        `"last_used" varchar NOT NULL DEFAULT (''), "expires" varchar NOT NULL DEFAULT (''), ` +
        `"created" varchar NOT NULL, "updated" varchar NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_608711fb5a584a9128b6ac4881" ON "api_keys" ("user")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_57384430aa1959f4578046c9b8" ON "api_keys" ("key_hash")`,
    );
  }

  down(): Promise<void> {
    return Promise.reject(new Error('Migrations are forward only: restore a backup to go back.'));
  }
}
