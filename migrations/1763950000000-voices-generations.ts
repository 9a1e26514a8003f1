import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voices, their cloning samples, and the generation history (src/voices, src/generations), each also a records
 * collection. Forward only (SPEC §9): there is no rollback.
 */
export class VoicesGenerations1763950000000 implements MigrationInterface {
  name = 'VoicesGenerations1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "voices" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"user" varchar(15) NOT NULL, ` +
        `"name" varchar NOT NULL, ` +
        `"description" text NOT NULL DEFAULT (''), ` +
        `"language" varchar NOT NULL DEFAULT (''), ` +
        `"avatar" varchar NOT NULL DEFAULT (''), ` +
        `"model" varchar NOT NULL, ` +
        `"preset_voice" varchar NOT NULL DEFAULT (''), ` +
        `"options" text NOT NULL DEFAULT ('{}'), ` +
        `"tags" text NOT NULL DEFAULT ('[]'), ` +
        `"public" boolean NOT NULL DEFAULT (0), ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_voices_user" ON "voices" ("user") `);
    await queryRunner.query(
      `CREATE TABLE "voice_samples" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"voice" varchar(15) NOT NULL, ` +
        `"audio" varchar NOT NULL DEFAULT (''), ` +
        `"transcript" text NOT NULL DEFAULT (''), ` +
        `"duration" real NOT NULL DEFAULT (0), ` +
        `"sample_rate" integer NOT NULL DEFAULT (0), ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_voice_samples_voice" ON "voice_samples" ("voice") `);
    await queryRunner.query(
      `CREATE TABLE "generations" (` +
        `"id" varchar(15) PRIMARY KEY NOT NULL, ` +
        `"user" varchar(15) NOT NULL, ` +
        `"text" text NOT NULL, ` +
        `"model" varchar NOT NULL, ` +
        `"voice" varchar NOT NULL DEFAULT (''), ` +
        `"voice_name" varchar NOT NULL DEFAULT (''), ` +
        `"preset_voice" varchar NOT NULL DEFAULT (''), ` +
        `"language" varchar NOT NULL DEFAULT (''), ` +
        `"speed" real NOT NULL DEFAULT (1), ` +
        `"duration" real NOT NULL DEFAULT (0), ` +
        `"sample_rate" integer NOT NULL DEFAULT (0), ` +
        `"audio" varchar NOT NULL DEFAULT (''), ` +
        `"server" varchar NOT NULL DEFAULT (''), ` +
        `"server_name" varchar NOT NULL DEFAULT (''), ` +
        `"streamed" boolean NOT NULL DEFAULT (0), ` +
        `"first_byte_ms" integer NOT NULL DEFAULT (0), ` +
        `"total_ms" integer NOT NULL DEFAULT (0), ` +
        `"created" varchar NOT NULL, ` +
        `"updated" varchar NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_generations_user_created" ON "generations" ("user", "created") `,
    );
  }

  down(): Promise<void> {
    return Promise.reject(new Error('Migrations are forward only: restore a backup to go back.'));
  }
}
