import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records layer: the `users` and `_superusers` auth collections and `_params` (server-wide settings such as the
 * token signing secret). Forward only (SPEC §9): there is no rollback.
 */
export class RecordsAuth1763800000000 implements MigrationInterface {
  name = 'RecordsAuth1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "_params" (` +
        `"id" varchar PRIMARY KEY NOT NULL, ` +
        `"value" text NOT NULL, ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "_superusers" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"email" varchar NOT NULL, ` +
        `"email_visibility" boolean NOT NULL DEFAULT (0), ` +
        `"verified" boolean NOT NULL DEFAULT (1), ` +
        `"password" varchar NOT NULL, ` +
        `"token_key" varchar NOT NULL, ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL, ` +
        `CONSTRAINT "UQ_9deca8c5c36d027feb35221a06c" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "users" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"email" varchar NOT NULL, ` +
        `"email_visibility" boolean NOT NULL DEFAULT (0), ` +
        `"verified" boolean NOT NULL DEFAULT (0), ` +
        `"password" varchar NOT NULL, ` +
        `"token_key" varchar NOT NULL, ` +
        `"name" varchar NOT NULL DEFAULT (''), ` +
        `"avatar" varchar NOT NULL DEFAULT (''), ` +
        `"role" varchar NOT NULL DEFAULT ('user'), ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL, ` +
        `CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
  }

  down(): Promise<void> {
    return Promise.reject(new Error('Migrations are forward only: restore a backup to go back.'));
  }
}
