import 'reflect-metadata';
import { createApp } from './bootstrap';
import { ConfigError, loadProcessConfig } from './config/configuration';
import { CatalogValidationError } from './models/catalog.validator';

async function main(): Promise<void> {
  const config = loadProcessConfig();
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as { port: number } | null;
  process.stdout.write(
    `${JSON.stringify({ level: 'info', time: new Date().toISOString(), service: 'chorus', msg: `Chorus main service listening on port ${address?.port ?? config.port}`, port: address?.port })}\n`,
  );
}

main().catch((error: unknown) => {
  // Configuration and catalog problems are the user's to fix: one clear line, no stack trace.
  if (error instanceof ConfigError || error instanceof CatalogValidationError) {
    process.stderr.write(`chorus: ${error.message}\n`);
  } else {
    process.stderr.write(
      `chorus: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
