import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadWorkerConfig } from '../config/worker-config';
import { NpmInstallError, type NpmInstaller } from './npm-installer';
import { exportTarget, packageSpecs, PACKAGES_STAMP_FILE, PackagesService } from './packages.service';

/** Stands in for npm: "installs" a package by writing its package.json and an index.js. */
class FakeNpm {
  calls: { prefix: string; specs: string[] }[] = [];
  fail = false;
  delayMs = 0;

  async install(prefix: string, specs: readonly string[]): Promise<void> {
    this.calls.push({ prefix, specs: [...specs] });
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.fail) {
      throw new NpmInstallError('npm install exited with code 1: E404: 404 Not Found');
    }
    for (const spec of specs) {
      const name = spec.slice(0, spec.lastIndexOf('@'));
      const dir = join(prefix, 'node_modules', name);
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
      await fs.writeFile(join(dir, 'index.js'), `module.exports = { name: ${JSON.stringify(name)} };`);
    }
  }
}

describe('PackagesService', () => {
  let base: string;
  let npm: FakeNpm;
  let packages: PackagesService;

  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'chorus-packages-')));
    npm = new FakeNpm();
    packages = new PackagesService(
      loadWorkerConfig({ PACKAGES_DIR: base }, { hostname: 'test' }),
      npm as unknown as NpmInstaller,
    );
  });

  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  it('installs once, stamps the set and loads the package from the backend folder', async () => {
    const set = { 'tiny-lib': '1.2.3' };
    expect(await packages.isInstalled('piper', set)).toBe(false);
    expect(await packages.isInstalled({ name: 'piper', packages: {} })).toBe(true);
    await packages.install('piper', set);
    await packages.install('piper', set);
    expect(npm.calls).toEqual([{ prefix: join(base, 'piper'), specs: ['tiny-lib@1.2.3'] }]);
    expect(await packages.isInstalled('piper', set)).toBe(true);
    expect(await packages.isInstalled('piper')).toBe(true);
    expect(await packages.isInstalled({ name: 'piper', packages: set })).toBe(true);
    expect(await packages.isInstalled('piper', { 'tiny-lib': '2.0.0' })).toBe(false);
    expect(packages.require<{ name: string }>('piper', 'tiny-lib')).toEqual({ name: 'tiny-lib' });
    expect(await packages.resolveImport('piper', 'tiny-lib')).toBe(
      join(base, 'piper', 'node_modules', 'tiny-lib', 'index.js'),
    );
    expect(await packages.dependencyState({ name: 'piper', packages: set })).toEqual({
      installed: true,
      packages: ['tiny-lib@1.2.3'],
    });
  });

  it('persists across instances (the stamp file)', async () => {
    await packages.install('piper', { 'tiny-lib': '1.2.3' });
    const again = new PackagesService(
      loadWorkerConfig({ PACKAGES_DIR: base }, { hostname: 'test' }),
      npm as unknown as NpmInstaller,
    );
    expect(await again.isInstalled('piper', { 'tiny-lib': '1.2.3' })).toBe(true);
  });

  it('does not count a failed or interrupted install', async () => {
    npm.fail = true;
    await expect(packages.install('piper', { 'tiny-lib': '1' })).rejects.toBeInstanceOf(NpmInstallError);
    expect(await packages.isInstalled('piper', { 'tiny-lib': '1' })).toBe(false);
    await expect(fs.access(join(base, 'piper', PACKAGES_STAMP_FILE))).rejects.toThrow();
    expect(await packages.dependencyState({ name: 'piper', packages: { 'tiny-lib': '1' } })).toMatchObject({
      installed: false,
      detail: expect.stringContaining('first pull'),
    });
  });

  it('counts a package removed behind its back as missing', async () => {
    await packages.install('piper', { 'tiny-lib': '1' });
    await fs.rm(join(base, 'piper', 'node_modules', 'tiny-lib'), { recursive: true });
    expect(await packages.isInstalled('piper', { 'tiny-lib': '1' })).toBe(false);
    expect(() => packages.require('piper', 'tiny-lib')).toThrow('not installed');
  });

  it('runs one install per backend at a time', async () => {
    npm.delayMs = 50;
    await Promise.all([packages.install('piper', { a: '1' }), packages.install('piper', { a: '1' })]);
    expect(npm.calls).toHaveLength(1);
  });

  it('never loads a package from outside the backend folder', () => {
    expect(() => packages.require('piper', 'jest')).toThrow('not installed'); // present in the repo, not in piper
    expect(() => packages.backendDir('../etc')).toThrow('Invalid backend name');
  });
});

describe('packageSpecs', () => {
  it('builds name@spec arguments', () => {
    expect(packageSpecs({ 'onnxruntime-web': '1.20.0', '@scope/x': 'file:/tmp/x.tgz' })).toEqual([
      'onnxruntime-web@1.20.0',
      '@scope/x@file:/tmp/x.tgz',
    ]);
  });

  it.each([
    [{ '--global': '1' }],
    [{ x: '--registry=http://evil' }],
    [{ x: '1 other' }],
    [{ x: '' }],
    [{ 'Bad Name': '1' }],
  ])('refuses %p', (set) => {
    expect(() => packageSpecs(set)).toThrow();
  });
});

describe('exportTarget', () => {
  it('resolves exports for import under node/import/default conditions', () => {
    expect(exportTarget('./main.mjs', '.')).toBe('./main.mjs');
    expect(exportTarget({ import: './esm.js', require: './cjs.js' }, '.')).toBe('./esm.js');
    expect(exportTarget({ '.': { require: './cjs.js', default: './d.js' } }, '.')).toBe('./d.js');
    expect(exportTarget({ '.': [{ import: './a.js' }, './b.js'] }, '.')).toBe('./a.js');
    expect(exportTarget({ './sub/*': { import: './dist/*.js' } }, './sub/x')).toBe('./dist/x.js');
    expect(exportTarget({ '.': { require: './cjs.js' } }, '.')).toBeUndefined();
    expect(exportTarget({ '.': './a.js' }, './other')).toBeUndefined();
  });
});
