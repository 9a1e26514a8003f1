import 'reflect-metadata';
import { ConfigError, loadProcessConfig } from '../config/configuration';
import { runSuperuserCli } from '../users/superuser-cli';

/** `npm run superuser -- upsert <email> <password>` / `delete <email>` (see src/users/superuser-cli.ts). */
async function main(): Promise<number> {
  const config = loadProcessConfig({ LOG_LEVEL: 'silent' });
  const result = await runSuperuserCli(process.argv.slice(2), config);
  (result.code === 0 ? process.stdout : process.stderr).write(`${result.output}\n`);
  return result.code;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    process.stderr.write(
      error instanceof ConfigError
        ? `chorus: ${error.message}\n`
        : `chorus: superuser command failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
