import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/configuration';
import { dataSourceOptions } from '../database/data-source-options';
import { verifyPassword } from '../records/auth/password';
import { runSuperuserCli } from './superuser-cli';

describe('superuser CLI (real SQLite file)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-superuser-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const config = () => loadConfig({ DATA_DIR: dir }, process.cwd());

  async function rows(): Promise<{ email: string; password: string; token_key: string; verified: number }[]> {
    const dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'pb_data', 'data.db')),
      logging: false,
    }).initialize();
    try {
      return await dataSource.query<
        { email: string; password: string; token_key: string; verified: number }[]
      >('SELECT email, password, token_key, verified FROM _superusers');
    } finally {
      await dataSource.destroy();
    }
  }

  it('creates a superuser on a fresh DATA_DIR, then resets its password and token key', async () => {
    expect(await runSuperuserCli(['upsert', ' Root@Example.com ', 'first password'], config())).toEqual({
      code: 0,
      output: 'Successfully created superuser "root@example.com".',
    });
    const [created] = await rows();
    expect(created).toMatchObject({ email: 'root@example.com', verified: 1 });
    await expect(verifyPassword('first password', created.password)).resolves.toBe(true);

    const again = await runSuperuserCli(['upsert', 'root@example.com', 'second password'], config());
    expect(again.output).toBe('Successfully updated superuser "root@example.com".');
    const [updated] = await rows();
    expect(await rows()).toHaveLength(1);
    await expect(verifyPassword('second password', updated.password)).resolves.toBe(true);
    expect(updated.token_key).not.toBe(created.token_key);
  });

  it('deletes a superuser, and says so when there is none', async () => {
    await runSuperuserCli(['upsert', 'root@example.com', 'a password'], config());
    expect((await runSuperuserCli(['delete', 'root@example.com'], config())).code).toBe(0);
    expect(await rows()).toHaveLength(0);
    expect(await runSuperuserCli(['delete', 'root@example.com'], config())).toEqual({
      code: 1,
      output: 'Superuser "root@example.com" does not exist.',
    });
  });

  it.each([
    [[], /Usage/],
    [['create', 'a@b.co', 'password1'], /Usage/],
    [['upsert', 'not-an-email', 'password1'], /Invalid e-mail/],
    [['upsert', 'a@b.co', 'short'], /at least 8/],
    [['upsert', 'a@b.co'], /at least 8/],
  ])('refuses %j with usage help and exit code 2', async (args, message) => {
    const result = await runSuperuserCli(args, config());
    expect(result.code).toBe(2);
    expect(result.output).toMatch(message);
  });
});
