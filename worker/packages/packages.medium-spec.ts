import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadWorkerConfig } from '../config/worker-config';
import { NpmInstaller, NpmInstallError } from './npm-installer';
import { PACKAGES_STAMP_FILE, PackagesService } from './packages.service';
import { packTinyPackage } from './testing/tiny-package';

describe('PackagesService with the real npm', () => {
  let base: string;
  let tarball: string;

  beforeAll(async () => {
    base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'chorus-npm-')));
    tarball = await packTinyPackage(base);
  });

  afterAll(() => fs.rm(base, { recursive: true, force: true }));

  function service(): PackagesService {
    const config = loadWorkerConfig(
      { PACKAGES_DIR: join(base, 'packages'), PATH: process.env.PATH, HOME: process.env.HOME },
      { hostname: 'test' },
    );
    return new PackagesService(config, new NpmInstaller(config));
  }

  it('installs a local tarball into PACKAGES_DIR/<backend>, loads it, and remembers it across restarts', async () => {
    const set = { 'chorus-tiny': `file:${tarball}` };
    const packages = service();
    expect(await packages.isInstalled('tinybackend', set)).toBe(false);
    await packages.install('tinybackend', set);
    const dir = join(base, 'packages', 'tinybackend');
    expect(await fs.readdir(join(dir, 'node_modules'))).toContain('chorus-tiny');
    expect(JSON.parse(await fs.readFile(join(dir, PACKAGES_STAMP_FILE), 'utf8'))).toMatchObject({
      packages: set,
    });
    expect(packages.require<{ hello: () => string }>('tinybackend', 'chorus-tiny').hello()).toBe(
      'hi from chorus-tiny',
    );
    expect(await service().isInstalled('tinybackend', set)).toBe(true);
  });

  it('reports a failing npm install clearly and does not count it', async () => {
    const packages = service();
    const set = { 'chorus-missing': `file:${join(base, 'missing.tgz')}` };
    const error = await packages.install('broken', set).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NpmInstallError);
    expect((error as Error).message).toMatch(/^npm install exited with code \d+: /);
    expect((error as Error).message).toContain('no such file or directory');
    expect(await packages.isInstalled('broken', set)).toBe(false);
  });
});
