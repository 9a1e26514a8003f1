import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../bootstrap';
import { findAppRoot } from '../common/app-root';
import { loadConfig } from '../config/configuration';
import { buildOpenApiDocument, serialiseOpenApi } from '../openapi';

/** Relative path of the committed OpenAPI document the Angular client is generated from. */
export const OPENAPI_FILE = join('client', 'openapi', 'chorus-api.json');

/** Builds the OpenAPI document from the real application (on a throw-away database) without listening. */
export async function renderOpenApi(): Promise<string> {
  const root = findAppRoot();
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-openapi-'));
  try {
    const app = await createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, root), {
      logs: false,
    });
    try {
      return serialiseOpenApi(buildOpenApiDocument(app));
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  renderOpenApi()
    .then((text) => {
      const file = join(findAppRoot(), OPENAPI_FILE);
      writeFileSync(file, text);
      process.stdout.write(`wrote ${file}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    });
}
