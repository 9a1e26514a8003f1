import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';

import { npmCommand } from '../npm-installer';

/** Packs a tiny package into a tarball with the real npm: a package spec can be a tarball, so no registry is needed. */
export async function packTinyPackage(dir: string, name = 'chorus-tiny', version = '1.0.0'): Promise<string> {
  const source = join(dir, `${name}-src`);
  await fs.mkdir(source, { recursive: true });
  await fs.writeFile(join(source, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
  await fs.writeFile(join(source, 'index.js'), `module.exports = { hello: () => 'hi from ${name}' };\n`);
  const { command, prefixArgs } = npmCommand();
  const file = execFileSync(command, [...prefixArgs, 'pack', '--silent', '--pack-destination', dir], {
    cwd: source,
    encoding: 'utf8',
  }).trim();
  return join(dir, file.split('\n').at(-1) ?? '');
}
