import { ApiError } from '../common/api-error';
import type { CatalogEntry, PullRequest } from '../contract/worker-api';
import { planPull, resolveUrl } from './pull-plan';

const ONNX = 'en/en_US/joe/medium/en_US-joe-medium.onnx';

function entry(overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id: 'piper-en_US-joe-medium',
    name: 'Joe',
    description: 'A voice',
    backend: 'piper',
    backendDisplayName: 'Piper',
    backendDescription: 'Piper voices',
    variant: 'en_US-joe-medium',
    repo: 'rhasspy/piper-voices',
    files: [
      { path: ONNX, size: 10 },
      { path: `${ONNX}.json`, size: 5, sha256: 'A'.repeat(64) },
    ],
    size: 15,
    types: ['preset'],
    license: 'MIT',
    hardware: 'cpu',
    languages: ['en'],
    ...overrides,
  };
}

function request(overrides: Partial<PullRequest> = {}, manifest: Partial<CatalogEntry> = {}): PullRequest {
  return {
    url: 'https://hub.example/',
    dest_path: 'piper/en_US-joe-medium',
    manifest: entry(manifest),
    ...overrides,
  };
}

function codes(run: () => unknown): Record<string, string> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(400);
    return Object.fromEntries(
      Object.entries((error as ApiError).data).map(([field, problem]) => [field, problem.code]),
    );
  }
  throw new Error('expected a 400');
}

describe('planPull', () => {
  it('resolves every file, target and URL', () => {
    const plan = planPull(request());
    expect(plan).toMatchObject({
      backend: 'piper',
      variant: 'en_US-joe-medium',
      destPath: 'piper/en_US-joe-medium',
      hubUrl: 'https://hub.example',
      hubOrigin: 'https://hub.example',
      totalSize: 15,
    });
    expect(plan.files).toEqual([
      {
        path: ONNX,
        repo: 'rhasspy/piper-voices',
        revision: 'main',
        target: 'en_US-joe-medium.onnx',
        size: 10,
        sha256: undefined,
        url: `https://hub.example/rhasspy/piper-voices/resolve/main/${ONNX}`,
      },
      expect.objectContaining({ target: 'en_US-joe-medium.onnx.json', sha256: 'a'.repeat(64) }),
    ]);
    expect(plan.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(planPull(request()).fingerprint).toBe(plan.fingerprint);
    expect(planPull(request({}, { files: [{ path: ONNX }] })).fingerprint).not.toBe(plan.fingerprint);
  });

  it('takes per-file repositories, revisions and targets, and encodes them', () => {
    const plan = planPull(
      request(
        { url: 'http://127.0.0.1:9000/mirror' },
        {
          revision: 'v1.0',
          files: [
            { path: 'onnx/model q.onnx', target: 'onnx/model.onnx' },
            { path: 'tokenizer.json', repo: 'other/repo', revision: 'refs/pr/1' },
          ],
          size: 0,
        },
      ),
    );
    expect(plan.files.map((file) => [file.target, file.url])).toEqual([
      [
        'onnx/model.onnx',
        'http://127.0.0.1:9000/mirror/rhasspy/piper-voices/resolve/v1.0/onnx/model%20q.onnx',
      ],
      ['tokenizer.json', 'http://127.0.0.1:9000/mirror/other/repo/resolve/refs%2Fpr%2F1/tokenizer.json'],
    ]);
    expect(plan.totalSize).toBeUndefined();
  });

  it('uses the catalog size when a file size is missing', () => {
    expect(planPull(request({}, { files: [{ path: ONNX }], size: 99 })).totalSize).toBe(99);
  });

  it.each<[string, Partial<PullRequest>, Partial<CatalogEntry>, Record<string, string>]>([
    ['a dest_path with ..', { dest_path: '../x' }, {}, { dest_path: 'validation_is_safe_relative_path' }],
    [
      'an absolute dest_path',
      { dest_path: '/etc/passwd' },
      {},
      { dest_path: 'validation_is_safe_relative_path' },
    ],
    [
      'a dest_path a/../../b',
      { dest_path: 'a/../../b' },
      {},
      { dest_path: 'validation_is_safe_relative_path' },
    ],
    [
      'a hidden dest_path',
      { dest_path: '.staging/x' },
      {},
      { dest_path: 'validation_is_safe_relative_path' },
    ],
    [
      'a dest_path of three parts',
      { dest_path: 'piper/a/b' },
      {},
      { dest_path: 'validation_is_safe_relative_path' },
    ],
    ['a dest_path not matching', { dest_path: 'piper/other' }, {}, { dest_path: 'dest_path_mismatch' }],
    ['a file URL', { url: 'file:///etc' }, {}, { url: 'validation_is_url' }],
    ['a URL with credentials', { url: 'https://u:p@hub.example' }, {}, { url: 'validation_is_url' }],
    ['a file path ../x', {}, { files: [{ path: '../x' }] }, { 'manifest.files.0.path': 'unsafe_path' }],
    [
      'a file path /etc/passwd',
      {},
      { files: [{ path: '/etc/passwd' }] },
      { 'manifest.files.0.path': 'unsafe_path' },
    ],
    [
      'a file path a/../../b',
      {},
      { files: [{ path: 'a/../../b' }] },
      { 'manifest.files.0.path': 'unsafe_path' },
    ],
    [
      'a file path with a backslash',
      {},
      { files: [{ path: 'a\\b' }] },
      { 'manifest.files.0.path': 'unsafe_path' },
    ],
    [
      'a file path with a dot',
      {},
      { files: [{ path: 'a/./b' }] },
      { 'manifest.files.0.path': 'unsafe_path' },
    ],
    [
      'a target ../x',
      {},
      { files: [{ path: 'x', target: '../x' }] },
      { 'manifest.files.0.target': 'unsafe_path' },
    ],
    [
      'a target /etc/passwd',
      {},
      { files: [{ path: 'x', target: '/etc/passwd' }] },
      { 'manifest.files.0.target': 'unsafe_path' },
    ],
    [
      'the manifest.json target',
      {},
      { files: [{ path: 'x', target: 'manifest.json' }] },
      { 'manifest.files.0.target': 'unsafe_path' },
    ],
    [
      'a .part target',
      {},
      { files: [{ path: 'x', target: 'y.part' }] },
      { 'manifest.files.0.target': 'unsafe_path' },
    ],
    [
      'two files with one target',
      {},
      { files: [{ path: 'a/x' }, { path: 'b/x' }] },
      { 'manifest.files.1.target': 'duplicate_target' },
    ],
    [
      'a target inside another file',
      {},
      {
        files: [
          { path: 'a', target: 'x' },
          { path: 'b', target: 'x/y' },
        ],
      },
      { 'manifest.files.1.target': 'duplicate_target' },
    ],
    ['a repo with ..', {}, { repo: '../etc' }, { 'manifest.repo': 'validation_match_invalid' }],
    [
      'no repository',
      {},
      { repo: null },
      {
        'manifest.files.0.repo': 'validation_match_invalid',
        'manifest.files.1.repo': 'validation_match_invalid',
      },
    ],
    ['a revision with ..', {}, { revision: 'a/../b' }, { 'manifest.revision': 'validation_match_invalid' }],
    [
      'a bad sha256',
      {},
      { files: [{ path: 'x', sha256: 'abc' }] },
      { 'manifest.files.0.sha256': 'validation_match_invalid' },
    ],
    [
      'a negative size',
      {},
      { files: [{ path: 'x', size: -1 }] },
      { 'manifest.files.0.size': 'validation_invalid_type' },
    ],
    ['no files', {}, { files: [] }, { 'manifest.files': 'validation_required' }],
  ])('refuses %s', (_name, overrides, manifest, expected) => {
    expect(codes(() => planPull(request(overrides, manifest)))).toEqual(expected);
  });

  it('refuses a manifest that is not an object', () => {
    expect(codes(() => planPull({ ...request(), manifest: 'x' as unknown as CatalogEntry }))).toEqual({
      manifest: 'validation_invalid_type',
    });
  });
});

describe('resolveUrl', () => {
  it('encodes each segment', () => {
    expect(resolveUrl('http://h', 'o/r', 'main', 'a b/c#d.onnx')).toBe(
      'http://h/o/r/resolve/main/a%20b/c%23d.onnx',
    );
  });
});
