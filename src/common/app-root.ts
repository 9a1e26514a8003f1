import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository (or image) root: the nearest folder above `start` whose package.json is Chorus's.
 * Works from the sources (ts-jest) and from dist/api/src alike.
 */
export function findAppRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'chorus') {
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the Chorus package.json above ${start}`);
    }
    dir = parent;
  }
}
