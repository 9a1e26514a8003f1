import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HubMirror } from '../../test/support/hub-mirror';
import { asDiskError, DownloadError, etagSha256, HubClient, type HubFileRequest } from './hub.client';
import { DEFAULT_MODEL_STORE_OPTIONS } from './model-store.options';

const REPO = 'acme/voices';
const FILE = 'en/voice.onnx';
const SIZE = 256 * 1024;

describe('HubClient', () => {
  let base: string;
  let hub: HubMirror;
  let data: Buffer;
  let sha256: string;
  let part: string;
  let client: HubClient;
  const servers: http.Server[] = [];

  beforeAll(async () => {
    base = await fs.mkdtemp(join(tmpdir(), 'chorus-hub-client-'));
    hub = await HubMirror.start({ root: join(base, 'hub') });
    data = randomBytes(SIZE);
    sha256 = createHash('sha256').update(data).digest('hex');
    await hub.addFile(REPO, FILE, data);
    client = new HubClient({ ...DEFAULT_MODEL_STORE_OPTIONS, retries: 2, backoffMs: 5, maxBackoffMs: 20 });
  });

  afterAll(async () => {
    await hub.stop();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await fs.rm(base, { recursive: true, force: true });
  });

  beforeEach(async () => {
    hub.resetKnobs();
    hub.clearRequests();
    part = join(base, `file-${Math.random().toString(36).slice(2)}.part`);
    await fs.rm(part, { force: true });
  });

  const request = (overrides: Partial<HubFileRequest> = {}): HubFileRequest => ({
    url: hub.fileUrl(REPO, FILE),
    tokenOrigin: hub.url,
    partPath: part,
    signal: new AbortController().signal,
    ...overrides,
  });

  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('downloads a file, verifying it against the hub ETag, and reports progress', async () => {
    const progress: number[] = [];
    const result = await client.download(request({ onProgress: (have) => progress.push(have) }));
    expect(result).toEqual({ size: SIZE, sha256, verified: true, resumedFrom: 0, rangeRequests: 0 });
    expect(await fs.readFile(part)).toEqual(data);
    expect(progress.at(-1)).toBe(SIZE);
    expect(hub.requests.map((r) => [r.method, r.range])).toEqual([['GET', undefined]]);
  });

  it('resumes a cut transfer with a Range request', async () => {
    hub.setKnobs({ cutAfterBytes: 100_000, cutTimes: 1 });
    const result = await client.download(request({ expectedSize: SIZE }));
    expect(result).toMatchObject({ size: SIZE, sha256, verified: true, rangeRequests: 1 });
    expect(hub.requests.map((r) => r.outcome)).toEqual(['cut', 'complete']);
    // From the bytes written: the cut point, or a little before when the last chunk went down with the socket.
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(hub.requests[1].range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(100_000);
  });

  it('resumes a .part left by an earlier pull, hashing its bytes first', async () => {
    await fs.writeFile(part, data.subarray(0, 1000));
    const result = await client.download(request({ expectedSha256: sha256 }));
    expect(result).toMatchObject({ resumedFrom: 1000, rangeRequests: 1, sha256 });
    expect(hub.requests[0].range).toBe('bytes=1000-');
  });

  it('starts over when the server ignores the range', async () => {
    await fs.writeFile(part, Buffer.alloc(1000, 7)); // not even the right bytes: the 200 body replaces them
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(SIZE), ETag: `"${sha256}"` });
      res.end(data);
    });
    const result = await client.download(request({ url: `${url}/x`, tokenOrigin: url }));
    expect(result).toMatchObject({ size: SIZE, sha256, verified: true });
    expect(await fs.readFile(part)).toEqual(data);
  });

  it('refuses a corrupt file and deletes its .part', async () => {
    hub.setKnobs({ corrupt: true });
    const error = await client.download(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ kind: 'integrity', resumable: false });
    expect((error as Error).message).toMatch(/voice\.onnx is corrupt: its sha256 is [0-9a-f]{64}, expected/);
    await expect(fs.access(part)).rejects.toThrow();
  });

  it('refuses a file whose catalog sha256 differs', async () => {
    const error = await client.download(request({ expectedSha256: 'f'.repeat(64) })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'integrity' });
  });

  it('refuses a file whose size differs from the catalog', async () => {
    const error = await client.download(request({ expectedSize: SIZE + 1 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'integrity' });
    expect((error as Error).message).toContain(
      `has ${SIZE} bytes on the hub, the catalog expects ${SIZE + 1}`,
    );
    expect(hub.requests).toHaveLength(1);
  });

  it('does not retry a 404', async () => {
    const error = await client
      .download(request({ url: hub.fileUrl(REPO, 'missing.onnx') }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'http',
      resumable: false,
      message: 'missing.onnx was not found on the hub (404)',
    });
    expect(hub.requests).toHaveLength(1);
  });

  it('retries server errors with backoff', async () => {
    hub.setKnobs({ failStatus: 503, failTimes: 2 });
    await expect(client.download(request())).resolves.toMatchObject({ sha256 });
    expect(hub.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('gives up after its retries, keeping the .part resumable', async () => {
    hub.setKnobs({ failStatus: 500 });
    const error = await client.download(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', resumable: true });
    expect((error as Error).message).toContain('failed after 3 attempts in a row: the hub answered 500');
    expect(hub.requests).toHaveLength(3);
  });

  it('sends the token to the hub for gated repositories', async () => {
    hub.setKnobs({ requireToken: 'hf_secret' });
    const denied = await client.download(request()).catch((e: unknown) => e);
    expect(denied).toMatchObject({ kind: 'http', resumable: false });
    expect((denied as Error).message).toContain('set HF_TOKEN');
    await expect(client.download(request({ token: 'hf_secret' }))).resolves.toMatchObject({ sha256 });
    expect(hub.requests.map((r) => [r.status, r.authorization])).toEqual([
      [401, false],
      [200, true],
    ]);
  });

  it('never sends the token to a redirect target on another origin, and keeps the X-Linked headers', async () => {
    const seen: (string | undefined)[] = [];
    const front = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(302, {
        Location: hub.fileUrl(REPO, FILE),
        'X-Linked-Etag': `"${'e'.repeat(64)}"`,
        'X-Linked-Size': String(SIZE),
      });
      res.end();
    });
    const error = await client
      .download(
        request({ url: `${front}/acme/voices/resolve/main/${FILE}`, tokenOrigin: front, token: 'hf_secret' }),
      )
      .catch((e: unknown) => e);
    expect(seen).toEqual(['Bearer hf_secret']);
    expect(hub.requests.map((r) => r.authorization)).toEqual([false]);
    // The linked ETag of the first hop wins over the CDN's: here it is wrong on purpose.
    expect(error).toMatchObject({ kind: 'integrity' });
  });

  it('drops a response that stalls and says so', async () => {
    const stalling = new HubClient({
      ...DEFAULT_MODEL_STORE_OPTIONS,
      retries: 1,
      backoffMs: 1,
      idleTimeoutMs: 100,
    });
    hub.setKnobs({ delayMs: 2_000 });
    const error = await stalling.download(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect((error as Error).message).toContain('no data arrived in time');
  });

  it('stops when its signal aborts, keeping the .part', async () => {
    hub.setKnobs({ throttleBytesPerSec: 200_000 });
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const download = client.download(
      request({
        signal: controller.signal,
        onProgress: (have) => {
          if (have > 20_000) {
            controller.abort(reason);
          }
        },
      }),
    );
    await expect(download).rejects.toBe(reason);
    expect((await fs.stat(part)).size).toBeGreaterThan(20_000);
  });
});

describe('etagSha256', () => {
  it('accepts only sha256 tags', () => {
    expect(etagSha256(`"${'A'.repeat(64)}"`)).toBe('a'.repeat(64));
    expect(etagSha256(`W/"${'b'.repeat(64)}"`)).toBe('b'.repeat(64));
    expect(etagSha256('"0123456789abcdef0123456789abcdef01234567"')).toBeUndefined();
    expect(etagSha256(undefined)).toBeUndefined();
  });
});

describe('asDiskError', () => {
  it('names a full disk clearly', () => {
    const full = asDiskError(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    expect(full).toBeInstanceOf(DownloadError);
    expect((full as Error).message).toMatch(/disk of the models directory is full \(ENOSPC\)/);
    const other = new Error('x');
    expect(asDiskError(other)).toBe(other);
  });
});
