import { MigrationInterface, QueryRunner } from 'typeorm';

/** Initial schema: the fleet of inference servers. Forward only (SPEC §9): there is no rollback. */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inference_servers" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"name" varchar NOT NULL, ` +
        `"url" varchar NOT NULL, ` +
        `"auth_token" varchar NOT NULL DEFAULT (''), ` +
        `"enabled" boolean NOT NULL DEFAULT (1), ` +
        `"priority" integer NOT NULL DEFAULT (0), ` +
        `"is_local" boolean NOT NULL DEFAULT (0), ` +
        `"status" varchar NOT NULL DEFAULT ('unknown'), ` +
        `"device" varchar NOT NULL DEFAULT (''), ` +
        `"version" varchar NOT NULL DEFAULT (''), ` +
        `"last_check" varchar NOT NULL DEFAULT (''), ` +
        `"last_error" varchar NOT NULL DEFAULT (''), ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL, ` +
        `CONSTRAINT "UQ_2b017e5ca331f3ff5c064113e78" UNIQUE ("url"))`,
    );
  }

  down(): Promise<void> {
    return Promise.reject(new Error('Migrations are forward only: restore a backup to go back.'));
  }
}
