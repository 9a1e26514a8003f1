import { mkdirSync } from 'node:fs';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/configuration';
import { dataSourceOptions } from '../database/data-source-options';
import { hashPassword, newTokenKey } from '../records/auth/password';
import { isEmail } from '../records/record-input';
import { SuperusersRepository } from './superusers.repository';

export const SUPERUSER_USAGE = [
  'Usage: npm run superuser -- <command> [arguments]',
  '',
  'Commands:',
  '  upsert <email> <password>   create a superuser, or reset the password of an existing one',
  '  delete <email>              delete a superuser',
  '',
  'The database is the one of the service: <DATA_DIR>/pb_data/data.db (DATA_DIR defaults to ./data).',
].join('\n');

export interface CliResult {
  code: number;
  output: string;
}

export const MIN_PASSWORD_LENGTH = 8;

/**
 * The installer's "recover mode": manages `_superusers` straight in the database (migrations run first, so it
 * also works on a fresh DATA_DIR). Never prints the password.
 */
export async function runSuperuserCli(args: readonly string[], config: AppConfig): Promise<CliResult> {
  const [command, rawEmail, password] = args;
  const email = (rawEmail ?? '').trim().toLowerCase();
  if (command !== 'upsert' && command !== 'delete') {
    return { code: 2, output: SUPERUSER_USAGE };
  }
  if (!isEmail(email)) {
    return {
      code: 2,
      output: `Invalid e-mail address ${JSON.stringify(rawEmail ?? '')}.\n\n${SUPERUSER_USAGE}`,
    };
  }
  if (command === 'upsert' && (password === undefined || [...password].length < MIN_PASSWORD_LENGTH)) {
    return { code: 2, output: `The password must be at least ${MIN_PASSWORD_LENGTH} characters.` };
  }
  if (command === 'upsert' && [...password].length > 71) {
    return { code: 2, output: 'The password must be at most 71 characters.' };
  }
  mkdirSync(config.pbDataDir, { recursive: true });
  const dataSource = await new DataSource({
    ...dataSourceOptions(config.databaseFile),
    logging: ['error'],
  }).initialize();
  try {
    const repository = new SuperusersRepository(dataSource);
    if (command === 'upsert') {
      const outcome = await repository.upsert(email, await hashPassword(password), newTokenKey());
      return { code: 0, output: `Successfully ${outcome} superuser "${email}".` };
    }
    const deleted = await repository.delete(email);
    return deleted
      ? { code: 0, output: `Successfully deleted superuser "${email}".` }
      : { code: 1, output: `Superuser "${email}" does not exist.` };
  } finally {
    await dataSource.destroy();
  }
}
