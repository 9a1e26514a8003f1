import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { HubMirror } from '../../test/support/hub-mirror';
import { AppModule } from '../app.module';
import { configureApp } from '../app.setup';
import { TTS_BACKENDS } from '../backends/backend.interface';
import { loadWorkerConfig } from '../config/worker-config';
import type {
  CatalogEntry,
  CatalogFile,
  InstalledModel,
  InstalledModelManifest,
  ModelInstallCheck,
  PullEvent,
  WorkerError,
} from '../contract/worker-api';
import { PACKAGES_STAMP_FILE } from '../packages/packages.service';
import { packTinyPackage } from '../packages/testing/tiny-package';
import { FakeTtsBackend } from '../testing/fake-tts-backend';
import { DEFAULT_MODEL_STORE_OPTIONS, MODEL_STORE_OPTIONS } from './model-store.options';

/**
 * The model store over real HTTP: the in-process worker pulls from the local hub mirror (test/.fixtures/hub, a
 * real Piper voice laid out as `rhasspy/piper-voices`) into temp folders. Engines are fakes: loading the voice
 * is the Piper backend's business, the store only moves verified bytes.
 */
const REPO = 'rhasspy/piper-voices';
const ONNX = 'en/en_US/joe/medium/en_US-joe-medium.onnx';
const JSON_FILE = `${ONNX}.json`;
const ONNX_SIZE = 63_201_294;
const ONNX_SHA = '58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06';
const JSON_SIZE = 4_794;
const JSON_SHA = '3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33';
const FIXTURES = resolve(__dirname, '..', '..', 'test', '.fixtures', 'hub');

class PackagedBackend extends FakeTtsBackend {
  constructor(
    name: string,
    readonly packages: Record<string, string>,
  ) {
    super(name, false, 1);
  }
}

function entry(variant: string, files: CatalogFile[], overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id: `joe-${variant}`,
    name: 'Joe (medium)',
    description: 'US English male voice',
    backend: 'fakevoice',
    backendDisplayName: 'Fake voice',
    backendDescription: 'Test double',
    variant,
    repo: REPO,
    files,
    size: files.reduce((sum, file) => sum + (file.size ?? 0), 0),
    types: ['preset'],
    license: 'MIT',
    hardware: 'cpu',
    languages: ['en'],
    ...overrides,
  };
}

const JOE_FILES: CatalogFile[] = [
  { path: ONNX, size: ONNX_SIZE, sha256: ONNX_SHA },
  { path: JSON_FILE, size: JSON_SIZE, sha256: JSON_SHA },
];
const JSON_ONLY: CatalogFile[] = [{ path: JSON_FILE, size: JSON_SIZE, sha256: JSON_SHA }];

interface PullResult {
  status: number;
  contentType: string | null;
  events: PullEvent[];
  error?: WorkerError;
}

/** POSTs /models/pull and reads the whole SSE stream (or the JSON error). */
async function pull(
  base: string,
  body: object,
  options: { signal?: AbortSignal; onEvent?: (event: PullEvent) => void } = {},
): Promise<PullResult> {
  const response = await fetch(`${base}/models/pull`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      contentType,
      events: [],
      error: (await response.json()) as WorkerError,
    };
  }
  const events: PullEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6));
        if (data.length > 0) {
          const event = JSON.parse(data.join('\n')) as PullEvent;
          events.push(event);
          options.onEvent?.(event);
        }
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) {
      throw error;
    }
  }
  return { status: response.status, contentType, events };
}

function pullBody(
  hub: HubMirror,
  manifest: CatalogEntry,
  destPath = `${manifest.backend}/${manifest.variant}`,
) {
  return { url: hub.url, dest_path: destPath, manifest };
}

const getsOf = (hub: HubMirror, path: string) =>
  hub.requests.filter((r) => r.method === 'GET' && r.file === `${REPO}/${path}`);

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const exists = (path: string) =>
  fs.access(path).then(
    () => true,
    () => false,
  );

describe('model store over HTTP', () => {
  let base: string;
  let hub: HubMirror;
  let tarball: string;
  let voice: FakeTtsBackend;
  const apps: NestExpressApplication[] = [];

  async function startWorker(name: string, env: Record<string, string> = {}) {
    const models = join(base, name, 'models');
    const config = loadWorkerConfig(
      {
        LOG_LEVEL: 'silent',
        INFERENCE_MODELS_PATH: models,
        PACKAGES_DIR: join(base, name, 'packages'),
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...env,
      },
      { hostname: 'test' },
    );
    const backends = [
      voice,
      new FakeTtsBackend('fakeembedded', true),
      new PackagedBackend('fakepkg', { 'chorus-tiny': `file:${tarball}` }),
      new PackagedBackend('fakebroken', { 'chorus-missing': `file:${join(base, 'missing.tgz')}` }),
    ];
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot(config, { version: '9.9.9' })],
    })
      .overrideProvider(TTS_BACKENDS)
      .useValue(backends)
      .overrideProvider(MODEL_STORE_OPTIONS)
      .useValue({
        ...DEFAULT_MODEL_STORE_OPTIONS,
        retries: 3,
        backoffMs: 10,
        maxBackoffMs: 50,
        cancelGraceMs: 150,
      })
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bufferLogs: true,
      bodyParser: false,
    });
    configureApp(app, { version: '9.9.9' });
    await app.listen(0, '127.0.0.1');
    apps.push(app);
    return { base: (await app.getUrl()).replace('[::1]', '127.0.0.1'), models: await fs.realpath(models) };
  }

  let worker: { base: string; models: string };

  beforeAll(async () => {
    base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'chorus-models-')));
    hub = await HubMirror.start({ root: FIXTURES });
    tarball = await packTinyPackage(base);
    voice = new FakeTtsBackend('fakevoice', false, 1);
    worker = await startWorker('main');
  });

  afterAll(async () => {
    for (const app of apps) {
      await app.close();
    }
    await hub.stop();
    await fs.rm(base, { recursive: true, force: true });
  });

  beforeEach(() => {
    hub.resetKnobs();
    hub.clearRequests();
    voice.sentenceDelayMs = 0;
  });

  it('pulls the real joe voice: events in order, manifest.json last, install check and listing', async () => {
    const result = await pull(worker.base, pullBody(hub, entry('joe', JOE_FILES)));
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/event-stream/);
    const { events } = result;
    expect(events[0]).toMatchObject({
      status: 'downloading',
      progress: 0,
      file: ONNX,
      total: ONNX_SIZE + JSON_SIZE,
    });
    expect(events.at(-1)).toEqual({
      status: 'complete',
      progress: 100,
      speed: expect.stringMatching(/^\d+(\.\d)? (B|kB|MB|GB)\/s$/),
      downloaded: ONNX_SIZE + JSON_SIZE,
      total: ONNX_SIZE + JSON_SIZE,
    });
    const downloading = events.slice(0, -1);
    expect(downloading.every((event) => event.status === 'downloading')).toBe(true);
    for (const [index, event] of downloading.entries()) {
      expect(Number.isInteger(event.progress)).toBe(true);
      expect(event.speed).toMatch(/^\d+(\.\d)? (B|kB|MB|GB)\/s$/);
      if (index > 0) {
        expect(event.progress).toBeGreaterThan(downloading[index - 1].progress); // at most one per percent
      }
    }
    expect(events.length).toBeLessThanOrEqual(102);

    const dir = join(worker.models, 'fakevoice', 'joe');
    expect((await fs.readdir(dir)).sort()).toEqual([
      'en_US-joe-medium.onnx',
      'en_US-joe-medium.onnx.json',
      'manifest.json',
    ]);
    const manifestStat = await fs.stat(join(dir, 'manifest.json'));
    for (const file of ['en_US-joe-medium.onnx', 'en_US-joe-medium.onnx.json']) {
      expect(manifestStat.mtimeMs).toBeGreaterThanOrEqual((await fs.stat(join(dir, file))).mtimeMs);
    }
    const manifest = JSON.parse(
      await fs.readFile(join(dir, 'manifest.json'), 'utf8'),
    ) as InstalledModelManifest;
    expect(manifest).toMatchObject({
      formatVersion: 1,
      backend: 'fakevoice',
      variant: 'joe',
      size: ONNX_SIZE + JSON_SIZE,
      source: hub.url,
      entry: { id: 'joe-joe', license: 'MIT' },
      files: [
        {
          target: 'en_US-joe-medium.onnx',
          path: ONNX,
          repo: REPO,
          revision: 'main',
          size: ONNX_SIZE,
          sha256: ONNX_SHA,
        },
        { target: 'en_US-joe-medium.onnx.json', size: JSON_SIZE, sha256: JSON_SHA },
      ],
    });
    expect(await exists(join(worker.models, '.staging'))).toBe(false);
    expect(getsOf(hub, ONNX).map((r) => [r.range, r.authorization])).toEqual([[undefined, false]]);

    const check = await fetch(`${worker.base}/models/fakevoice/joe?verify=true`);
    expect(check.status).toBe(200);
    expect((await check.json()) as ModelInstallCheck).toMatchObject({
      installed: true,
      verified: true,
      path: 'fakevoice/joe',
      loaded: false,
      files: [{ sha256: ONNX_SHA }, { sha256: JSON_SHA }],
    });
    const listed = (await (await fetch(`${worker.base}/models`)).json()) as InstalledModel[];
    expect(listed).toContainEqual({
      backend: 'fakevoice',
      variant: 'joe',
      path: 'fakevoice/joe',
      id: 'joe-joe',
      name: 'Joe (medium)',
      size: ONNX_SIZE + JSON_SIZE,
      installedAt: manifest.installedAt,
      loaded: false,
    });

    // Pulling it again finds it installed: no download.
    hub.clearRequests();
    const again = await pull(worker.base, pullBody(hub, entry('joe', JOE_FILES)));
    expect(again.events.map((event) => event.status)).toEqual(['complete']);
    expect(hub.requests).toEqual([]);
  });

  it('resumes a transfer cut mid-file with a Range request and verifies it', async () => {
    hub.setPathKnobs(`${REPO}/${ONNX}`, { cutAfterBytes: 20_000_000, cutTimes: 1 });
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-cut', JOE_FILES)));
    expect(events.at(-1)).toMatchObject({ status: 'complete', progress: 100 });
    // The Range starts where the bytes written stopped: at the cut, or a little before it when the last
    // buffered chunk was lost with the connection.
    const gets = getsOf(hub, ONNX);
    expect(gets.map((r) => [r.range === undefined, r.outcome])).toEqual([
      [true, 'cut'],
      [false, 'complete'],
    ]);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(gets[1].range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(19_000_000);
    expect(resumedAt).toBeLessThanOrEqual(20_000_000);
    const check = (await (
      await fetch(`${worker.base}/models/fakevoice/joe-cut?verify=true`)
    ).json()) as ModelInstallCheck;
    expect(check).toMatchObject({ installed: true, verified: true });
  });

  it('refuses a corrupt file (the hub ETag as reference): error event, nothing installed, staging cleaned', async () => {
    hub.setPathKnobs(`${REPO}/${JSON_FILE}`, { corrupt: true });
    const files = [{ path: JSON_FILE }]; // no sha256 in the catalog: the hub's X-Linked-Etag decides
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-corrupt', files)));
    expect(events.at(-1)).toMatchObject({
      status: 'error',
      message: expect.stringMatching(
        /en_US-joe-medium\.onnx\.json is corrupt: its sha256 is [0-9a-f]{64}, expected 3d6d5410/,
      ),
    });
    expect((await fetch(`${worker.base}/models/fakevoice/joe-corrupt`)).status).toBe(404);
    expect(await exists(join(worker.models, 'fakevoice', 'joe-corrupt'))).toBe(false);
    expect(await exists(join(worker.models, '.staging', 'fakevoice', 'joe-corrupt'))).toBe(false);
  });

  it('refuses a file whose catalog sha256 is wrong, dropping the files verified before it', async () => {
    const files = [
      { path: JSON_FILE, target: 'a.json', sha256: JSON_SHA },
      { path: JSON_FILE, target: 'b.json', sha256: 'f'.repeat(64) },
    ];
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-badsha', files)));
    expect(events.at(-1)).toMatchObject({ status: 'error', message: expect.stringContaining('is corrupt') });
    const response = await fetch(`${worker.base}/models/fakevoice/joe-badsha`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      message: 'Model fakevoice/joe-badsha is not installed: not installed',
    });
    expect(await exists(join(worker.models, '.staging', 'fakevoice', 'joe-badsha'))).toBe(false);
  });

  describe('refuses unsafe and invalid requests before any event', () => {
    const cases: [string, (hub: HubMirror) => object, string][] = [
      ['dest_path ../x', (h) => pullBody(h, entry('joe', JSON_ONLY), '../x'), 'dest_path'],
      ['dest_path /etc/passwd', (h) => pullBody(h, entry('joe', JSON_ONLY), '/etc/passwd'), 'dest_path'],
      ['dest_path a/../../b', (h) => pullBody(h, entry('joe', JSON_ONLY), 'a/../../b'), 'dest_path'],
      [
        'dest_path not matching the manifest',
        (h) => pullBody(h, entry('joe', JSON_ONLY), 'fakevoice/other'),
        'dest_path',
      ],
      ['file path ../x', (h) => pullBody(h, entry('t', [{ path: '../x' }])), 'manifest.files.0.path'],
      [
        'file path /etc/passwd',
        (h) => pullBody(h, entry('t', [{ path: '/etc/passwd' }])),
        'manifest.files.0.path',
      ],
      [
        'file path a/../../b',
        (h) => pullBody(h, entry('t', [{ path: 'a/../../b' }])),
        'manifest.files.0.path',
      ],
      [
        'target ../x',
        (h) => pullBody(h, entry('t', [{ path: JSON_FILE, target: '../x' }])),
        'manifest.files.0.target',
      ],
      [
        'target /etc/passwd',
        (h) => pullBody(h, entry('t', [{ path: JSON_FILE, target: '/etc/passwd' }])),
        'manifest.files.0.target',
      ],
      [
        'target a/../../b',
        (h) => pullBody(h, entry('t', [{ path: JSON_FILE, target: 'a/../../b' }])),
        'manifest.files.0.target',
      ],
      [
        'an unknown backend',
        (h) => pullBody(h, entry('t', JSON_ONLY, { backend: 'nope' })),
        'manifest.backend',
      ],
      [
        'an embedded backend',
        (h) => pullBody(h, entry('t', JSON_ONLY, { backend: 'fakeembedded' })),
        'manifest.backend',
      ],
      ['a non-http URL', (h) => ({ ...pullBody(h, entry('t', JSON_ONLY)), url: 'file:///etc' }), 'url'],
    ];

    it.each(cases)('%s', async (_name, body, field) => {
      const result = await pull(worker.base, body(hub));
      expect(result.status).toBe(400);
      expect(result.contentType).toMatch(/application\/json/);
      expect(result.error).toMatchObject({ status: 400, data: { [field]: expect.any(Object) } });
      expect(hub.requests).toEqual([]);
    });

    it('a variant folder that is a symlink out of the models directory', async () => {
      const outside = join(base, 'outside');
      await fs.mkdir(outside, { recursive: true });
      await fs.writeFile(join(outside, 'precious.txt'), 'keep me');
      await fs.mkdir(join(worker.models, 'fakevoice'), { recursive: true });
      await fs.symlink(outside, join(worker.models, 'fakevoice', 'linked'));
      const result = await pull(worker.base, pullBody(hub, entry('linked', JSON_ONLY)));
      expect(result.status).toBe(400);
      expect(result.error?.data.dest_path).toEqual({ code: 'unsafe_path', message: expect.any(String) });
      expect((await fetch(`${worker.base}/models/fakevoice/linked`)).status).toBe(400);
      expect((await fetch(`${worker.base}/models/fakevoice/linked`, { method: 'DELETE' })).status).toBe(400);
      expect(await fs.readdir(outside)).toEqual(['precious.txt']);
      const listed = (await (await fetch(`${worker.base}/models`)).json()) as InstalledModel[];
      expect(listed.map((model) => model.path)).not.toContain('fakevoice/linked');
      await fs.rm(join(worker.models, 'fakevoice', 'linked'));
    });

    it.each([
      ['GET', '/models/fakevoice/.staging'],
      ['GET', '/models/..%2F..%2Fetc/passwd'],
      ['DELETE', '/models/fakevoice/..%2F..'],
    ])('%s %s', async (method, path) => {
      const response = await fetch(`${worker.base}${path}`, { method });
      expect([400, 404]).toContain(response.status);
      expect(await response.json()).toMatchObject({ status: response.status });
    });
  });

  it('shares one download between two concurrent pulls of the same dest_path', async () => {
    hub.setPathKnobs(`${REPO}/${ONNX}`, { throttleBytesPerSec: 80_000_000 });
    const body = pullBody(hub, entry('joe-shared', JOE_FILES));
    const first = pull(worker.base, body);
    await until(() => getsOf(hub, ONNX).length > 0);
    const second = pull(worker.base, body);
    const [a, b] = await Promise.all([first, second]);
    expect(a.events.at(-1)).toMatchObject({ status: 'complete', progress: 100 });
    expect(b.events.at(-1)).toMatchObject({ status: 'complete', progress: 100 });
    expect(b.events.length).toBeGreaterThan(1); // it followed the progress, not only the end
    expect(getsOf(hub, ONNX)).toHaveLength(1);
    expect(getsOf(hub, JSON_FILE)).toHaveLength(1);
  });

  it('refuses a concurrent pull of different files into the same dest_path', async () => {
    hub.setPathKnobs(`${REPO}/${ONNX}`, { throttleBytesPerSec: 100_000_000 });
    const first = pull(worker.base, pullBody(hub, entry('joe-conflict', JOE_FILES)));
    await until(() => getsOf(hub, ONNX).length > 0);
    const other = await pull(worker.base, pullBody(hub, entry('joe-conflict', JSON_ONLY)));
    expect(other.status).toBe(409);
    expect(other.error?.data.dest_path.code).toBe('pull_conflict');
    expect((await fetch(`${worker.base}/models/fakevoice/joe-conflict`, { method: 'DELETE' })).status).toBe(
      409,
    );
    expect((await first).events.at(-1)?.status).toBe('complete');
  });

  it('cancels a pull when its last client leaves, keeps the .part, and the next pull resumes it', async () => {
    hub.setPathKnobs(`${REPO}/${ONNX}`, { throttleBytesPerSec: 30_000_000 });
    const controller = new AbortController();
    await pull(worker.base, pullBody(hub, entry('joe-cancel', JOE_FILES)), {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.progress >= 5) {
          controller.abort();
        }
      },
    });
    await until(() => getsOf(hub, ONNX)[0]?.outcome === 'aborted');
    const part = join(worker.models, '.staging', 'fakevoice', 'joe-cancel', 'en_US-joe-medium.onnx.part');
    const kept = (await fs.stat(part)).size;
    expect(kept).toBeGreaterThan(0);
    expect((await fetch(`${worker.base}/models/fakevoice/joe-cancel`)).status).toBe(404);

    hub.resetKnobs();
    hub.clearRequests();
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-cancel', JOE_FILES)));
    expect(events.at(-1)).toMatchObject({ status: 'complete' });
    expect(getsOf(hub, ONNX).map((r) => r.range)).toEqual([expect.stringMatching(/^bytes=\d+-$/)]);
    expect(Number(/\d+/.exec(getsOf(hub, ONNX)[0].range ?? '')?.[0])).toBeGreaterThanOrEqual(kept);
  });

  it('reports progress from the hub sizes when the catalog gives none', async () => {
    hub.setPathKnobs(`${REPO}/${ONNX}`, { throttleBytesPerSec: 120_000_000 });
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-nosize', [{ path: ONNX }])));
    const downloading = events.filter((event) => event.status === 'downloading' && event.progress > 0);
    expect(downloading.length).toBeGreaterThan(2);
    expect(downloading.every((event) => event.total === ONNX_SIZE)).toBe(true);
    expect(events.at(-1)).toMatchObject({ status: 'complete', total: ONNX_SIZE });
  });

  it('stops running pulls at shutdown without waiting for them, keeping the .part', async () => {
    const closing = await startWorker('closing');
    hub.setPathKnobs(`${REPO}/${ONNX}`, { throttleBytesPerSec: 10_000_000 });
    let resolveStarted: () => void;
    const started = new Promise<void>((resolve) => (resolveStarted = resolve));
    const result = pull(closing.base, pullBody(hub, entry('joe-shutdown', JOE_FILES)), {
      onEvent: (event) => event.progress > 0 && resolveStarted(),
    });
    await started;
    const app = apps.pop() as NestExpressApplication;
    const before = performance.now();
    const closed = app.close();
    const { events } = await result;
    await closed;
    expect(performance.now() - before).toBeLessThan(2_000);
    expect(events.at(-1)).toMatchObject({
      status: 'error',
      message: 'The pull was cancelled: the worker is shutting down',
    });
    const part = join(closing.models, '.staging', 'fakevoice', 'joe-shutdown', 'en_US-joe-medium.onnx.part');
    expect((await fs.stat(part)).size).toBeGreaterThan(0);
  });

  it('sends HF_TOKEN to a gated repository, and fails clearly without it', async () => {
    const gated = await startWorker('gated', { HF_TOKEN: 'hf_test_token' });
    hub.setKnobs({ failStatus: 401, failTimes: 0, requireToken: 'hf_test_token' });
    const body = pullBody(hub, entry('joe-gated', JSON_ONLY));
    const denied = await pull(worker.base, body);
    expect(denied.events.at(-1)).toMatchObject({
      status: 'error',
      message: expect.stringContaining('set HF_TOKEN'),
    });
    expect(hub.requests.map((r) => [r.status, r.authorization])).toEqual([[401, false]]);

    hub.clearRequests();
    const allowed = await pull(gated.base, body);
    expect(allowed.events.at(-1)).toMatchObject({ status: 'complete' });
    expect(hub.requests.map((r) => [r.status, r.authorization])).toEqual([[200, true]]);
  });

  it('installs the backend packages first (status installing), once', async () => {
    const { events } = await pull(
      worker.base,
      pullBody(hub, entry('joe', JSON_ONLY, { backend: 'fakepkg' })),
    );
    expect(events.map((event) => event.status)).toEqual(['installing', 'downloading', 'complete']);
    const packages = join(base, 'main', 'packages', 'fakepkg');
    expect(await exists(join(packages, 'node_modules', 'chorus-tiny', 'package.json'))).toBe(true);
    expect(await exists(join(packages, PACKAGES_STAMP_FILE))).toBe(true);

    const second = await pull(worker.base, pullBody(hub, entry('joe2', JSON_ONLY, { backend: 'fakepkg' })));
    expect(second.events.map((event) => event.status)).toEqual(['downloading', 'complete']);
    const status = (await (await fetch(`${worker.base}/backends/fakepkg/status`)).json()) as object;
    expect(status).toMatchObject({ name: 'fakepkg' });
  });

  it('reports a failed package install as an error event and installs nothing', async () => {
    const { events } = await pull(
      worker.base,
      pullBody(hub, entry('joe', JSON_ONLY, { backend: 'fakebroken' })),
    );
    expect(events.map((event) => event.status)).toEqual(['installing', 'error']);
    expect(events.at(-1)?.message).toMatch(/^Installing the backend's packages failed: npm install exited/);
    expect(hub.requests).toEqual([]);
    expect((await fetch(`${worker.base}/models/fakebroken/joe`)).status).toBe(404);
  });

  it('checks free space before downloading', async () => {
    const huge = [{ path: JSON_FILE, size: 10 ** 15, sha256: JSON_SHA }];
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-huge', huge)));
    expect(events.at(-1)).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Not enough disk space/),
    });
    expect(hub.requests).toEqual([]);
  });

  it('deletes an installed model, refusing (409) while it generates, unloading it when idle', async () => {
    const { events } = await pull(worker.base, pullBody(hub, entry('joe-del', JSON_ONLY)));
    expect(events.at(-1)?.status).toBe('complete');

    voice.sentenceDelayMs = 100;
    const generation = fetch(`${worker.base}/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        backend: 'fakevoice',
        text: 'One. Two. Three.',
        model_path: 'fakevoice/joe-del',
      }),
    });
    await until(() => voice.loaded.has('fakevoice/joe-del'));
    const busy = await fetch(`${worker.base}/models/fakevoice/joe-del`, { method: 'DELETE' });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as WorkerError).message).toMatch(/in use .* it was not deleted/);
    expect((await generation).status).toBe(200);

    const listed = (await (await fetch(`${worker.base}/models`)).json()) as InstalledModel[];
    expect(listed.find((model) => model.path === 'fakevoice/joe-del')?.loaded).toBe(true);
    const deleted = await fetch(`${worker.base}/models/fakevoice/joe-del`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({
      backend: 'fakevoice',
      variant: 'joe-del',
      path: 'fakevoice/joe-del',
      unloaded: true,
    });
    expect(voice.loaded.has('fakevoice/joe-del')).toBe(false);
    expect(await exists(join(worker.models, 'fakevoice', 'joe-del'))).toBe(false);
    expect((await fetch(`${worker.base}/models/fakevoice/joe-del`)).status).toBe(404);
    expect((await fetch(`${worker.base}/models/fakevoice/joe-del`, { method: 'DELETE' })).status).toBe(404);
  });

  it('unloads a model on request', async () => {
    const unload = (body: object) =>
      fetch(`${worker.base}/models/unload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const generated = await fetch(`${worker.base}/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ backend: 'fakevoice', text: 'Hi.', model_path: 'fakevoice/any' }),
    });
    expect(generated.status).toBe(200);
    const first = await unload({ backend: 'fakevoice', model_path: 'fakevoice/any' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'unloaded' });
    expect(voice.loaded.has('fakevoice/any')).toBe(false);
    expect(await (await unload({ backend: 'fakevoice', model_path: 'fakevoice/any' })).json()).toEqual({
      status: 'not_loaded',
    });
    expect((await unload({ backend: 'nope', model_path: 'nope/x' })).status).toBe(404);
    const invalid = await unload({ backend: 'fakevoice', model_path: '../x' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      data: { model_path: { code: 'validation_is_safe_relative_path' } },
    });
  });
});
