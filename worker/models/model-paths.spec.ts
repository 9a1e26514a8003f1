import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { confinedPath, isInside, isSafeFilePath, parseModelPath, UnsafePathError } from './model-paths';

describe('parseModelPath', () => {
  it.each(['piper/en_US-joe-medium', 'kokoro/v1.0', 'whisper/tiny_en', 'a/b+c'])('accepts %p', (value) => {
    expect(parseModelPath(value)).toBeDefined();
  });

  it.each([
    'piper',
    'a/b/c',
    '../x',
    'a/..',
    '.staging/x',
    'a/.hidden',
    '/a/b',
    'a\\b/c',
    'a/b/',
    '',
    5,
    'a b/c',
  ])('refuses %p', (value) => {
    expect(parseModelPath(value)).toBeUndefined();
  });
});

describe('isSafeFilePath', () => {
  it.each(['a.onnx', 'onnx/model.onnx', 'en/en_US/joe/medium/x.onnx.json'])('accepts %p', (value) => {
    expect(isSafeFilePath(value)).toBe(true);
  });

  it.each(['../x', '/etc/passwd', 'a/../../b', 'a/./b', './a', 'a\\b', 'a//b', 'a\nb', ''])(
    'refuses %p',
    (value) => {
      expect(isSafeFilePath(value)).toBe(false);
    },
  );
});

describe('isInside', () => {
  it('compares whole path segments', () => {
    expect(isInside('/m', '/m')).toBe(true);
    expect(isInside('/m', '/m/a/b')).toBe(true);
    expect(isInside('/m', '/models')).toBe(false);
    expect(isInside('/m', '/')).toBe(false);
    expect(isInside('/m', '/m/../x')).toBe(false);
  });
});

describe('confinedPath', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'chorus-paths-')));
    root = join(base, 'models');
    outside = join(base, 'outside');
    await fs.mkdir(join(root, 'piper', 'joe'), { recursive: true });
    await fs.mkdir(outside);
    await fs.symlink(outside, join(root, 'piper', 'escape'));
    await fs.symlink(join(root, 'piper', 'joe'), join(root, 'piper', 'alias'));
    await fs.symlink(join(base, 'missing'), join(root, 'dangling'));
  });

  afterAll(() => fs.rm(base, { recursive: true, force: true }));

  it('accepts existing and not yet existing paths inside', async () => {
    await expect(confinedPath(root, 'piper/joe')).resolves.toBe(join(root, 'piper', 'joe'));
    await expect(confinedPath(root, 'piper/new/deeper/file')).resolves.toBe(
      join(root, 'piper', 'new', 'deeper', 'file'),
    );
    await expect(confinedPath(root, 'piper/alias/x')).resolves.toBe(join(root, 'piper', 'alias', 'x'));
  });

  it.each([
    'piper/escape',
    'piper/escape/x',
    'piper/escape/new/deeper',
    'dangling',
    'dangling/x',
    '../outside',
  ])('refuses %p', async (relative) => {
    await expect(confinedPath(root, relative)).rejects.toBeInstanceOf(UnsafePathError);
  });
});
