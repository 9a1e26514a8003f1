import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT, startApi, tempDir } from '../support/processes';

const SPEC_FILE = join(REPO_ROOT, 'client', 'openapi', 'chorus-api.json');
const CLIENT_API_DIR = join(REPO_ROOT, 'client', 'src', 'app', 'api');

function listFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) {
        walk(full);
      } else {
        files.set(relative(dir, full), readFileSync(full, 'utf8'));
      }
    }
  };
  walk(dir);
  return files;
}

describe('generated artefacts are up to date', () => {
  it('the committed OpenAPI document equals the one the running service serves', async () => {
    const api = await startApi(tempDir('openapi'));
    try {
      const served = await (await fetch(`${api.url}/api/openapi.json`)).text();
      const committed = readFileSync(SPEC_FILE, 'utf8');
      // Text equality (not just deep equality): the committed file is byte-for-byte what `npm run openapi` writes.
      expect(`${JSON.stringify(JSON.parse(served), null, 2)}\n`).toBe(committed);
    } finally {
      await api.stop();
    }
  });

  it('the committed Angular client equals a fresh generation from the committed document', () => {
    const out = tempDir('client-api');
    const result = spawnSync('npx', ['ng-openapi-gen', '--config', 'ng-openapi-gen.json', '--output', out], {
      cwd: join(REPO_ROOT, 'client'),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    const fresh = listFiles(out);
    const committed = listFiles(CLIENT_API_DIR);
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [file, text] of fresh) {
      expect({ file, text: committed.get(file) }).toEqual({ file, text });
    }
  });
});
