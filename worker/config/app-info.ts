import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Injection token of {@link AppInfo}. */
export const APP_INFO = Symbol('APP_INFO');

/** Facts about the running build (not configuration: they never come from the environment). */
export interface AppInfo {
  readonly version: string;
}

const ROOT_PACKAGE_NAME = 'chorus';

/**
 * Reads the version of the root `package.json` (`chorus`), walking up from this file so it works from
 * `worker/config/` under ts-jest as well as from `dist/worker/config/` and inside the container image.
 */
export function readAppInfo(startDir: string = __dirname): AppInfo {
  let dir = startDir;
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === ROOT_PACKAGE_NAME && typeof pkg.version === 'string') {
        return Object.freeze({ version: pkg.version });
      }
    } catch {
      // No (readable) package.json here: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) {
      return Object.freeze({ version: '0.0.0-unknown' });
    }
    dir = parent;
  }
}
