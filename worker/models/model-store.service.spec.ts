import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadWorkerConfig } from '../config/worker-config';
import type { InstalledModelFile } from '../contract/worker-api';
import { UnsafePathError } from './model-paths';
import { ModelStore } from './model-store.service';
import { planPull, type PullPlan } from './pull-plan';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('ModelStore', () => {
  let base: string;
  let models: string;
  let store: ModelStore;

  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'chorus-store-')));
    models = join(base, 'models');
    store = new ModelStore(loadWorkerConfig({ INFERENCE_MODELS_PATH: models }, { hostname: 'test' }));
    await store.onModuleInit();
  });

  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  function plan(variant = 'v1', files = ['a.onnx', 'b.json']): PullPlan {
    return planPull({
      url: 'http://hub.test',
      dest_path: `fake/${variant}`,
      manifest: {
        id: `fake-${variant}`,
        name: `Fake ${variant}`,
        description: '',
        backend: 'fake',
        backendDisplayName: 'Fake',
        backendDescription: '',
        variant,
        repo: 'acme/fake',
        files: files.map((path) => ({ path })),
        size: 0,
        types: ['preset'],
        license: 'MIT',
        hardware: 'cpu',
        languages: ['en'],
        extraField: { kept: true },
      } as never,
    });
  }

  /** Stages the files of a plan with the given contents and installs them. */
  async function install(p: PullPlan, contents: Record<string, string>) {
    const staging = await store.prepareStaging(p);
    const files: InstalledModelFile[] = [];
    for (const file of p.files) {
      const content = contents[file.target];
      await fs.writeFile(join(staging, file.target), content);
      files.push({ ...file, size: Buffer.byteLength(content), sha256: sha(content) });
    }
    return store.install(p, staging, files);
  }

  it('installs a staged variant with manifest.json and lists it', async () => {
    const manifest = await install(plan(), { 'a.onnx': 'weights', 'b.json': '{}' });
    expect(manifest).toMatchObject({
      formatVersion: 1,
      backend: 'fake',
      variant: 'v1',
      size: 9,
      source: 'http://hub.test',
    });
    expect(manifest.entry).toMatchObject({ extraField: { kept: true } });
    expect((await fs.readdir(join(models, 'fake', 'v1'))).sort()).toEqual([
      'a.onnx',
      'b.json',
      'manifest.json',
    ]);
    expect(await fs.readdir(join(models))).toEqual(expect.not.arrayContaining(['.staging']));
    expect((await store.list()).map((m) => `${m.backend}/${m.variant}`)).toEqual(['fake/v1']);
    await expect(store.check('fake', 'v1', true)).resolves.toMatchObject({ installed: true, verified: true });
  });

  it('replaces an existing variant', async () => {
    await install(plan(), { 'a.onnx': 'old', 'b.json': 'old' });
    await install(plan('v1', ['c.onnx']), { 'c.onnx': 'new' });
    expect((await fs.readdir(join(models, 'fake', 'v1'))).sort()).toEqual(['c.onnx', 'manifest.json']);
    expect(await fs.readdir(join(models, '.trash'))).toEqual([]);
  });

  it('does not count folders without a valid manifest or with missing or changed files', async () => {
    await install(plan('good'), { 'a.onnx': 'weights', 'b.json': '{}' });
    await install(plan('short'), { 'a.onnx': 'weights', 'b.json': '{}' });
    await fs.writeFile(join(models, 'fake', 'short', 'a.onnx'), 'w');
    await install(plan('missing'), { 'a.onnx': 'weights', 'b.json': '{}' });
    await fs.rm(join(models, 'fake', 'missing', 'b.json'));
    await install(plan('tampered'), { 'a.onnx': 'weights', 'b.json': '{}' });
    await fs.writeFile(join(models, 'fake', 'tampered', 'a.onnx'), 'WEIGHTS');
    await fs.mkdir(join(models, 'fake', 'nomanifest'));
    await fs.writeFile(join(models, 'fake', 'nomanifest', 'a.onnx'), 'x');
    await fs.mkdir(join(models, 'fake', 'badmanifest'));
    await fs.writeFile(join(models, 'fake', 'badmanifest', 'manifest.json'), '{"formatVersion":1}');
    await fs.mkdir(join(models, '.staging', 'fake', 'partial'), { recursive: true });

    expect((await store.list()).map((m) => m.variant)).toEqual(['good', 'tampered']);
    await expect(store.check('fake', 'short')).resolves.toEqual({
      installed: false,
      reason: 'a.onnx has 1 bytes instead of 7',
    });
    await expect(store.check('fake', 'missing')).resolves.toEqual({
      installed: false,
      reason: 'b.json is missing',
    });
    await expect(store.check('fake', 'tampered', true)).resolves.toEqual({
      installed: false,
      reason: 'a.onnx does not match its sha256',
    });
    await expect(store.check('fake', 'nomanifest')).resolves.toMatchObject({ installed: false });
    await expect(store.check('fake', 'nope')).resolves.toEqual({ installed: false, reason: 'not installed' });
  });

  it('removes a variant through the trash', async () => {
    await install(plan(), { 'a.onnx': 'weights', 'b.json': '{}' });
    await expect(store.remove('fake', 'v1')).resolves.toBe(true);
    await expect(fs.access(join(models, 'fake'))).rejects.toThrow();
    await expect(store.remove('fake', 'v1')).resolves.toBe(false);
  });

  it('keeps the .part files of the same pull and drops those of another', async () => {
    const staging = await store.prepareStaging(plan());
    await fs.writeFile(join(staging, 'a.onnx.part'), '12345');
    expect(await store.stagedBytes(await store.prepareStaging(plan()))).toBe(5);
    expect(await store.stagedBytes(await store.prepareStaging(plan('v1', ['other.onnx'])))).toBe(0);
    await store.discardStaging('fake', 'v1');
    await expect(fs.access(join(models, '.staging', 'fake'))).rejects.toThrow();
  });

  it('refuses variant folders that link out of the models directory', async () => {
    const outside = join(base, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(join(outside, 'keep.txt'), 'precious');
    await fs.mkdir(join(models, 'fake'), { recursive: true });
    await fs.symlink(outside, join(models, 'fake', 'linked'));
    await expect(store.check('fake', 'linked')).rejects.toBeInstanceOf(UnsafePathError);
    await expect(store.remove('fake', 'linked')).rejects.toBeInstanceOf(UnsafePathError);
    expect(await store.list()).toEqual([]);
    expect(await fs.readFile(join(outside, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('empties the trash and drops week-old partial downloads at start-up, and reports free space', async () => {
    await fs.mkdir(join(models, '.trash', 'old'), { recursive: true });
    const fresh = await store.prepareStaging(plan('fresh'));
    await fs.writeFile(join(fresh, 'a.onnx.part'), 'x');
    const stale = await store.prepareStaging(plan('stale'));
    await fs.writeFile(join(stale, 'a.onnx.part'), 'x');
    const longAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const name of ['', 'a.onnx.part', '.chorus-pull.json']) {
      await fs.utimes(join(stale, name), longAgo, longAgo);
    }
    await store.onModuleInit();
    expect(await fs.readdir(join(models, '.trash')).catch(() => [])).toEqual([]);
    expect(await fs.readdir(join(models, '.staging', 'fake'))).toEqual(['fresh']);
    expect(await store.freeBytes()).toBeGreaterThan(0);
  });
});
