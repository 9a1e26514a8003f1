import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  API_ENTRY,
  REPO_ROOT,
  ServiceProcess,
  Stack,
  WORKER_ENTRY,
  startStack,
  tempDir,
  waitFor,
} from '../support/processes';
import { TestAccount, signUp } from '../support/accounts';
import { parseWav, rms } from '../support/wav';

const SENTENCE = 'Chorus turns text into speech. This sentence should take well over half a second to say.';

describe('foundation: main service + worker as real processes', () => {
  let stack: Stack;
  let user: TestAccount;

  beforeAll(async () => {
    stack = await startStack();
    user = await signUp(stack.api.url, 'speaker');
    // The fleet health loop marks the Local worker online shortly after start.
    await waitFor(
      async () => {
        const health = (await (await fetch(`${stack.api.url}/api/health`)).json()) as {
          fleet: { online: number };
        };
        return health.fleet.online === 1 ? true : undefined;
      },
      15_000,
      'the Local worker to come online',
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function generate(body: Record<string, unknown>): Promise<Response> {
    return fetch(`${stack.api.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.authorization },
      body: JSON.stringify(body),
    });
  }

  it('generates only for signed-in users', async () => {
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const response = await fetch(`${stack.api.url}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ model: 'espeak-ng', input: 'hello' }),
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { status: number }).status).toBe(401);
    }
  });

  it('reports health of the service, database and fleet', async () => {
    const response = await fetch(`${stack.api.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      database: { status: 'ok' },
      fleet: { online: 1, total: 1 },
    });
  });

  it('reports its version from package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const response = await fetch(`${stack.api.url}/api/version`);
    expect(await response.json()).toEqual({
      name: 'chorus',
      version: pkg.version,
      apiVersion: '1',
      workerApiVersion: '1',
    });
  });

  it('reports the worker health with its effective device', async () => {
    const response = await fetch(`${stack.worker.url}/health`);
    expect(response.status).toBe(200);
    const health = (await response.json()) as { status: string; device: string; loadedModels: unknown[] };
    expect(health.status).toBe('ok');
    expect(health.device).toBe('cpu');
    expect(Array.isArray(health.loadedModels)).toBe(true);
  });

  it('generates a valid WAV with the embedded engine, through the main service', async () => {
    const response = await generate({ model: 'espeak-ng', input: SENTENCE, voice: 'en-us' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = parseWav(Buffer.from(await response.arrayBuffer()));
    expect(wav.audioFormat).toBe(1);
    expect(wav.channels).toBe(1);
    expect(wav.bitsPerSample).toBe(16);
    expect(wav.sampleRate).toBeGreaterThanOrEqual(16_000);
    expect(wav.durationSeconds).toBeGreaterThan(0.5);
    expect(rms(wav.samples)).toBeGreaterThan(0.01);
  });

  it('speaks more slowly at a lower speed', async () => {
    const normal = parseWav(
      Buffer.from(await (await generate({ model: 'espeak-ng', input: SENTENCE })).arrayBuffer()),
    );
    const slow = parseWav(
      Buffer.from(await (await generate({ model: 'espeak-ng', input: SENTENCE, speed: 0.5 })).arrayBuffer()),
    );
    expect(slow.durationSeconds).toBeGreaterThan(normal.durationSeconds * 1.4);
  });

  it('speaks other languages by language code', async () => {
    const response = await generate({
      model: 'espeak-ng',
      input: 'Guten Tag. Wie geht es Ihnen?',
      language: 'de',
    });
    expect(response.status).toBe(200);
    expect(parseWav(Buffer.from(await response.arrayBuffer())).durationSeconds).toBeGreaterThan(0.5);
  });

  it('streams PCM in chunks, the first arriving before the response ends', async () => {
    const text = Array.from(
      { length: 6 },
      (_, i) => `This is sentence number ${i + 1} of a streamed reading.`,
    ).join(' ');
    const response = await generate({ model: 'espeak-ng', input: text, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const sampleRate = Number(response.headers.get('x-sample-rate'));
    expect(sampleRate).toBeGreaterThanOrEqual(16_000);
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    let firstChunkAt = 0;
    let ended = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = performance.now();
        break;
      }
      if (chunks.length === 0) {
        firstChunkAt = performance.now();
      }
      chunks.push(value as Uint8Array);
    }
    // Ordering, not timing: the first chunk was in our hands before the stream ended, and more followed it.
    expect(chunks.length).toBeGreaterThan(1);
    expect(firstChunkAt).toBeLessThan(ended);
    const bytes = chunks.reduce((total, chunk) => total + chunk.length, 0);
    expect(bytes % 2).toBe(0);
    expect(bytes / 2 / sampleRate).toBeGreaterThan(3);
  });

  it.each([
    [{ input: 'hello' }, 'model'],
    [{ model: 'espeak-ng' }, 'input'],
    [{ model: 'espeak-ng', input: '' }, 'input'],
    [{ model: 'espeak-ng', input: 'x'.repeat(5001) }, 'input'],
    [{ model: 'espeak-ng', input: 'hello', speed: 10 }, 'speed'],
    [{ model: 'espeak-ng', input: 'hello', speed: 'fast' }, 'speed'],
    [{ model: 'espeak-ng', input: 'hello', stream: 'yes' }, 'stream'],
    [{ model: 'espeak-ng', input: 'hello', voice: 'no-such-voice' }, 'voice'],
    [{ model: 'espeak-ng', input: 'hello', language: 'not a language' }, 'language'],
    [{ model: 'no-such-model', input: 'hello' }, 'model'],
    [{ model: 'espeak-ng', input: 'hello', extra: true }, 'extra'],
  ])('rejects %j with a 400 naming %s', async (body, field) => {
    const response = await generate(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    const error = (await response.json()) as {
      status: number;
      message: string;
      data: Record<string, { code: string }>;
    };
    expect(error.status).toBe(400);
    expect(typeof error.message).toBe('string');
    expect(error.data[field]?.code).toMatch(/^validation_/);
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const response = await fetch(`${stack.api.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.authorization },
      body: '{"model": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: 400,
      message: 'The request body is not valid JSON.',
      data: {},
    });
  });

  it('answers unknown API routes with a JSON 404, never the app', async () => {
    for (const path of ['/api/nope', '/api', '/api/voices/x/y/z']) {
      const response = await fetch(`${stack.api.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        status: 404,
        message: "The requested resource wasn't found.",
        data: {},
      });
    }
  });

  it('serves the Angular app at / and for client-side routes, and the API docs', async () => {
    for (const path of ['/', '/voices', '/history/123', '/_/']) {
      const response = await fetch(`${stack.api.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<app-root');
    }
    const docs = await fetch(`${stack.api.url}/api/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('echoes a request id', async () => {
    const response = await fetch(`${stack.api.url}/api/version`, {
      headers: { 'x-request-id': 'test-id-123' },
    });
    expect(response.headers.get('x-request-id')).toBe('test-id-123');
  });

  it('returns the catalog unchanged', async () => {
    const catalog = JSON.parse(readFileSync(join(REPO_ROOT, 'catalog.json'), 'utf8')) as unknown;
    const user = await signUp(stack.api.url);
    const response = await fetch(`${stack.api.url}/api/models/catalog`, {
      headers: { authorization: user.authorization },
    });
    expect(await response.json()).toEqual(catalog);
  });

  it('gives a clear 503 when no worker is reachable', async () => {
    await stack.worker.stop();
    await waitFor(
      async () => {
        const health = (await (await fetch(`${stack.api.url}/api/health`)).json()) as {
          fleet: { online: number };
        };
        return health.fleet.online === 0 ? true : undefined;
      },
      15_000,
      'the worker to be marked offline',
    );
    const response = await generate({ model: 'espeak-ng', input: 'hello' });
    expect(response.status).toBe(503);
    const error = (await response.json()) as { message: string };
    expect(error.message).toMatch(/worker/i);
  });
});

describe('start-up configuration', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['INFERENCE_URL', 'ftp://example'],
    ['LOG_LEVEL', 'shouting'],
  ])('main service refuses %s=%s naming the variable', async (variable, value) => {
    const dataDir = tempDir('badenv');
    const result = await ServiceProcess.run(API_ENTRY, { DATA_DIR: dataDir, PORT: '0', [variable]: value });
    expect(result.code).toBe(1);
    expect(result.output).toContain(variable);
    expect(result.output).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['PORT', 'eighty'],
    ['INFERENCE_DEVICE', 'tpu'],
    ['INFERENCE_MAX_LOADED_MODELS', '0'],
    ['SERVICE_URL', 'nowhere'],
  ])('worker refuses %s=%s naming the variable', async (variable, value) => {
    const dir = tempDir('badenv');
    const result = await ServiceProcess.run(WORKER_ENTRY, {
      PORT: '0',
      INFERENCE_MODELS_PATH: join(dir, 'models'),
      PACKAGES_DIR: join(dir, 'packages'),
      [variable]: value,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(variable);
  });

  it('main service refuses an invalid catalog naming the entry and field', async () => {
    const dir = tempDir('badcatalog');
    const catalogFile = join(dir, 'catalog.json');
    writeFileSync(catalogFile, JSON.stringify([{ id: 'broken', name: 'Broken' }]));
    const result = await ServiceProcess.run(API_ENTRY, {
      DATA_DIR: dir,
      PORT: '0',
      CATALOG_FILE: catalogFile,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('entry "broken"');
  });
});
