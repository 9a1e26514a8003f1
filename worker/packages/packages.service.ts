import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import type { BackendDependencyState } from '../contract/worker-api';
import { NpmInstaller } from './npm-installer';

/** npm package name → version (or any npm spec: range, tag, `file:` tarball, URL). */
export type PackageSet = Readonly<Record<string, string>>;

/** What a backend declares (a `TtsBackend` fits). */
export interface BackendPackagesRef {
  readonly name: string;
  readonly packages?: PackageSet;
}

/**
 * Written into `PACKAGES_DIR/<backend>/` once npm succeeded: the declared set it installed. Its absence (or a
 * different set) means "not installed", so an interrupted install never counts.
 */
export const PACKAGES_STAMP_FILE = '.chorus-packages.json';

interface PackagesStamp {
  packages: Record<string, string>;
  installedAt: string;
}

/** npm's rules for a package name (lower case, optional scope, URL-safe). */
const PACKAGE_NAME = /^(?:@[a-z0-9~][a-z0-9-._~]*\/)?[a-z0-9~][a-z0-9-._~]*$/;
const BACKEND_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export class PackageNotInstalledError extends Error {
  constructor(backend: string, pkg: string) {
    super(`Package "${pkg}" of backend "${backend}" is not installed; pull one of its models first`);
    this.name = 'PackageNotInstalledError';
  }
}

/**
 * Backend dependencies installed on demand (SPEC §1): each backend's extra npm packages live in
 * `PACKAGES_DIR/<backend>/node_modules` (a persistent volume), installed by the first pull of one of its models
 * and loaded from there by the backend with {@link require} / {@link import}.
 */
@Injectable()
export class PackagesService {
  private readonly logger = new Logger(PackagesService.name);
  private readonly root: string;
  private readonly installs = new Map<string, Promise<void>>();

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerConfig,
    private readonly npm: NpmInstaller,
  ) {
    this.root = resolve(config.inference.packagesDir);
  }

  /** `PACKAGES_DIR/<backend>`. */
  backendDir(backend: string): string {
    if (!BACKEND_NAME.test(backend)) {
      throw new Error(`Invalid backend name ${JSON.stringify(backend)}`);
    }
    return join(this.root, backend);
  }

  /**
   * Whether the backend's packages are installed: the stamp records exactly the declared set and every package
   * is present. With a bare name and no set, whatever set was installed last counts (nothing declared = true).
   */
  async isInstalled(backend: string | BackendPackagesRef, packages?: PackageSet): Promise<boolean> {
    const name = typeof backend === 'string' ? backend : backend.name;
    const declared = packages ?? (typeof backend === 'string' ? undefined : (backend.packages ?? {}));
    if (declared && Object.keys(declared).length === 0) {
      return true;
    }
    const dir = this.backendDir(name);
    const stamp = await readStamp(dir);
    if (!stamp || (declared && !samePackages(stamp.packages, declared))) {
      return false;
    }
    for (const pkg of Object.keys(stamp.packages)) {
      if (!(await exists(join(dir, 'node_modules', pkg, 'package.json')))) {
        return false;
      }
    }
    return true;
  }

  /** For `TtsBackend.dependencies()`. */
  async dependencyState(backend: BackendPackagesRef): Promise<BackendDependencyState> {
    const packages = Object.entries(backend.packages ?? {}).map(([name, version]) => `${name}@${version}`);
    const installed = await this.isInstalled(backend);
    return installed
      ? { installed, packages }
      : { installed, packages, detail: `Installed by the first pull of a ${backend.name} model` };
  }

  /**
   * Installs the set into `PACKAGES_DIR/<backend>` unless it is installed already. One install per backend at a
   * time: a second caller waits for the running one (and then installs only if its set differs).
   *
   * @throws NpmInstallError when npm fails; Error for an invalid name or spec.
   */
  async install(backend: string, packages: PackageSet, signal?: AbortSignal): Promise<void> {
    const specs = packageSpecs(packages);
    for (let running = this.installs.get(backend); running; running = this.installs.get(backend)) {
      await running.catch(() => undefined);
    }
    const work = (async () => {
      if (!(await this.isInstalled(backend, packages))) {
        await this.runInstall(backend, packages, specs, signal);
      }
    })().finally(() => this.installs.delete(backend));
    this.installs.set(backend, work);
    return work;
  }

  /** Loads a CommonJS package (or the `require` export of a dual one) from the backend's folder. */
  require<T = unknown>(backend: string, pkg: string): T {
    const dir = this.backendDir(backend);
    const requireFrom = createRequire(join(dir, 'package.json'));
    let entry: string;
    try {
      entry = requireFrom.resolve(pkg, { paths: [dir] });
    } catch {
      throw new PackageNotInstalledError(backend, pkg);
    }
    this.assertInside(dir, entry, backend, pkg);
    return requireFrom(entry) as T;
  }

  /** Loads a package as ES module (ESM-only packages included) from the backend's folder. */
  async import<T = unknown>(backend: string, pkg: string): Promise<T> {
    const entry = await this.resolveImport(backend, pkg);
    return (await import(pathToFileURL(entry).href)) as T;
  }

  /** Absolute path of the file `import(pkg)` loads: `exports` (node/import/default), else `module`/`main`. */
  async resolveImport(backend: string, pkg: string): Promise<string> {
    const dir = this.backendDir(backend);
    const [name, subpath] = splitSpecifier(pkg);
    const pkgDir = join(dir, 'node_modules', name);
    let manifest: { exports?: unknown; module?: unknown; main?: unknown };
    try {
      manifest = JSON.parse(await fs.readFile(join(pkgDir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      throw new PackageNotInstalledError(backend, pkg);
    }
    const target =
      manifest.exports === undefined
        ? subpath === '.'
          ? (stringOr(manifest.module) ?? stringOr(manifest.main) ?? 'index.js')
          : subpath
        : exportTarget(manifest.exports, subpath);
    if (!target) {
      throw new Error(`Package "${name}" of backend "${backend}" does not export ${JSON.stringify(subpath)}`);
    }
    let entry = resolve(pkgDir, target);
    if (!(await exists(entry)) && (await exists(`${entry}.js`))) {
      entry = `${entry}.js`;
    } else if (!(await exists(entry)) && (await exists(join(entry, 'index.js')))) {
      entry = join(entry, 'index.js');
    }
    this.assertInside(dir, entry, backend, pkg);
    return entry;
  }

  private async runInstall(
    backend: string,
    packages: PackageSet,
    specs: string[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const dir = this.backendDir(backend);
    await fs.mkdir(dir, { recursive: true });
    // The old stamp goes first: from here until the new one is written, the backend counts as not installed.
    await fs.rm(join(dir, PACKAGES_STAMP_FILE), { force: true });
    const started = performance.now();
    this.logger.log({ backend, packages: specs }, `Installing packages of backend ${backend}`);
    await this.npm.install(dir, specs, signal);
    for (const pkg of Object.keys(packages)) {
      if (!(await exists(join(dir, 'node_modules', pkg, 'package.json')))) {
        throw new Error(`npm finished but package "${pkg}" is missing from ${backend}'s folder`);
      }
    }
    const stamp: PackagesStamp = {
      packages: sortedPackages(packages),
      installedAt: new Date().toISOString(),
    };
    const temp = join(dir, `${PACKAGES_STAMP_FILE}.${randomUUID()}.tmp`);
    await fs.writeFile(temp, `${JSON.stringify(stamp, null, 2)}\n`);
    await fs.rename(temp, join(dir, PACKAGES_STAMP_FILE));
    this.logger.log(
      { backend, installMs: Math.round(performance.now() - started) },
      `Installed packages of backend ${backend}`,
    );
  }

  private assertInside(dir: string, entry: string, backend: string, pkg: string): void {
    if (!entry.startsWith(join(dir, 'node_modules') + sep)) {
      throw new PackageNotInstalledError(backend, pkg);
    }
  }
}

/** `name@spec` arguments for npm; refuses anything that could read as an option or carry a second argument. */
export function packageSpecs(packages: PackageSet): string[] {
  return Object.entries(packages).map(([name, spec]) => {
    if (!PACKAGE_NAME.test(name)) {
      throw new Error(`Invalid npm package name ${JSON.stringify(name)}`);
    }
    if (!spec || spec.startsWith('-') || /[\s\0]/.test(spec)) {
      throw new Error(`Invalid npm version spec for ${name}: ${JSON.stringify(spec)}`);
    }
    return `${name}@${spec}`;
  });
}

function samePackages(a: Readonly<Record<string, string>>, b: PackageSet): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

function sortedPackages(packages: PackageSet): Record<string, string> {
  return Object.fromEntries(Object.entries(packages).sort(([x], [y]) => x.localeCompare(y)));
}

async function readStamp(dir: string): Promise<PackagesStamp | undefined> {
  try {
    const stamp = JSON.parse(
      await fs.readFile(join(dir, PACKAGES_STAMP_FILE), 'utf8'),
    ) as Partial<PackagesStamp>;
    if (!stamp.packages || typeof stamp.packages !== 'object') {
      return undefined;
    }
    return stamp as PackagesStamp;
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path, fsConstants.F_OK);
    return true;
  } catch {
    return false;
  }
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** `@scope/name/sub/path` → [`@scope/name`, `./sub/path`]; `name` → [`name`, `.`]. */
function splitSpecifier(specifier: string): [string, string] {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  if (!PACKAGE_NAME.test(name)) {
    throw new Error(`Invalid npm package name ${JSON.stringify(name)}`);
  }
  const rest = parts.slice(nameLength);
  if (rest.some((segment) => segment === '..' || segment === '')) {
    throw new Error(`Invalid package subpath ${JSON.stringify(specifier)}`);
  }
  return [name, rest.length > 0 ? `./${rest.join('/')}` : '.'];
}

/** Conditions tried, in order, for an `import()` from Node. */
const IMPORT_CONDITIONS = ['node', 'import', 'default'];

/** Resolves `exports` for a subpath (exact keys and `./dir/*` patterns) under the import conditions. */
export function exportTarget(exportsField: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    exportsField !== null &&
    typeof exportsField === 'object' &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((key) => key.startsWith('.'));
  const map: Record<string, unknown> = isSubpathMap
    ? (exportsField as Record<string, unknown>)
    : { '.': exportsField };
  if (subpath in map) {
    return conditionalTarget(map[subpath]);
  }
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1))) {
      const match = subpath.slice(star, subpath.length - (key.length - star - 1));
      return conditionalTarget(value)?.replaceAll('*', match);
    }
  }
  return undefined;
}

function conditionalTarget(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionalTarget(item);
      if (target) {
        return target;
      }
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [condition, nested] of Object.entries(value)) {
      if (IMPORT_CONDITIONS.includes(condition)) {
        const target = conditionalTarget(nested);
        if (target) {
          return target;
        }
      }
    }
  }
  return undefined;
}
