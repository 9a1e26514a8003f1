import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { HubMirror } from './hub-mirror';

const REPO = 'acme/voices';
const FILE = 'en/en_US/model.onnx';
const KEY = `${REPO}/${FILE}`;
/** A constant because it.each tables are built before beforeAll runs. */
const SIZE = 200_000;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends the request target byte-for-byte: fetch (WHATWG URL) would collapse `..` and `%2e%2e` before they
 * ever reached the server, which would make the traversal tests pass vacuously.
 */
function raw(hub: HubMirror, target: string, method = 'GET'): Promise<RawResponse> {
  const { hostname, port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: target, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads a body until it ends or breaks, returning what arrived and the error, if any. */
async function readUntilBreak(res: Response): Promise<{ bytes: Buffer; error: unknown }> {
  const chunks: Uint8Array[] = [];
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return { bytes: Buffer.concat(chunks), error: undefined };
      }
      chunks.push(value as Uint8Array);
    }
  } catch (error: unknown) {
    return { bytes: Buffer.concat(chunks), error };
  }
}

describe('HubMirror', () => {
  let tmp: string;
  let root: string;
  let hub: HubMirror;
  let data: Buffer;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'hub-mirror-'));
    root = path.join(tmp, 'root');
    // A file beside the root: every traversal test aims at it.
    await fs.writeFile(path.join(tmp, 'secret.txt'), 'outside the root');
    hub = await HubMirror.start({ root });
    data = randomBytes(SIZE);
    await hub.addFile(REPO, FILE, data);
  });

  afterAll(async () => {
    await hub.stop();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    hub.resetKnobs();
    hub.clearRequests();
  });

  it('serves a whole file with the hub headers', async () => {
    const res = await fetch(hub.fileUrl(REPO, FILE));
    const body = Buffer.from(await res.arrayBuffer());

    expect(res.status).toBe(200);
    expect(body.equals(data)).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe(`"${sha256(data)}"`);
    expect(res.headers.get('x-linked-etag')).toBe(`"${sha256(data)}"`);
    expect(res.headers.get('x-repo-commit')).toMatch(/^[0-9a-f]{40}$/);
    expect(hub.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        status: 200,
        file: KEY,
        authorization: false,
        outcome: 'complete',
      }),
    ]);
    expect(hub.requests[0].bytesSent).toBe(data.length);
  });

  it('echoes a commit-hash revision as X-Repo-Commit and serves a revision folder when one exists', async () => {
    const commit = 'a'.repeat(40);
    const pinned = await fetch(hub.fileUrl(REPO, FILE, commit));
    await pinned.arrayBuffer();
    expect(pinned.headers.get('x-repo-commit')).toBe(commit);

    await hub.addFile(REPO, 'rev.txt', 'v2 content', 'v2');
    await hub.addFile(REPO, 'rev.txt', 'main content');
    expect(await (await fetch(hub.fileUrl(REPO, 'rev.txt', 'v2'))).text()).toBe('v2 content');
    expect(await (await fetch(hub.fileUrl(REPO, 'rev.txt', 'main'))).text()).toBe('main content');
  });

  it('answers HEAD with headers only', async () => {
    const res = await fetch(hub.fileUrl(REPO, FILE), { method: 'HEAD' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('x-linked-etag')).toBe(`"${sha256(data)}"`);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect(hub.requests[0]).toEqual(expect.objectContaining({ method: 'HEAD', status: 200 }));
  });

  it('recomputes the sha256 when a file is replaced', async () => {
    await hub.addFile(REPO, 'changing.bin', 'first');
    const first = await fetch(hub.fileUrl(REPO, 'changing.bin'), { method: 'HEAD' });
    await hub.addFile(REPO, 'changing.bin', 'second, longer');
    const second = await fetch(hub.fileUrl(REPO, 'changing.bin'), { method: 'HEAD' });

    expect(first.headers.get('etag')).toBe(`"${sha256(Buffer.from('first'))}"`);
    expect(second.headers.get('etag')).toBe(`"${sha256(Buffer.from('second, longer'))}"`);
  });

  describe('ranges', () => {
    it.each([
      ['bytes=1000-', 1000, SIZE - 1],
      ['bytes=10-19', 10, 19],
      ['bytes=199990-300000', 199_990, 199_999],
      ['bytes=-5', 199_995, 199_999],
    ])('%s -> 206', async (range, start, end) => {
      const res = await fetch(hub.fileUrl(REPO, FILE), { headers: { Range: range } });
      const body = Buffer.from(await res.arrayBuffer());

      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${data.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(body.equals(data.subarray(start, end + 1))).toBe(true);
      expect(hub.requests[0].range).toBe(range);
    });

    it.each(['bytes=200000-', 'bytes=999999-1000000'])('%s -> 416', async (range) => {
      const res = await fetch(hub.fileUrl(REPO, FILE), { headers: { Range: range } });

      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${data.length}`);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    });

    it('ignores a range form it does not support and sends the whole file', async () => {
      const res = await fetch(hub.fileUrl(REPO, FILE), { headers: { Range: 'bytes=0-1,5-6' } });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(data.length);
    });
  });

  describe('not found and confinement', () => {
    it('answers unknown files and URLs with a JSON 404', async () => {
      for (const url of [
        hub.fileUrl(REPO, 'missing.bin'),
        hub.fileUrl('nobody/nothing', 'x'),
        `${hub.url}/`,
      ]) {
        const res = await fetch(url);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
      // A folder is not a file.
      expect((await fetch(hub.fileUrl(REPO, 'en'))).status).toBe(404);
    });

    it.each([
      '/acme/voices/resolve/main/../../../secret.txt',
      '/acme/voices/resolve/main/%2e%2e/%2e%2e/%2e%2e/secret.txt',
      '/acme/voices/resolve/main/%2E%2E%2F%2E%2E%2F%2E%2E%2Fsecret.txt',
      '/acme/voices/resolve/main/..%5c..%5c..%5csecret.txt',
      '/../../secret.txt',
      '/%2e%2e/voices/resolve/main/secret.txt',
      '/acme/voices/resolve/main//etc/passwd',
      '/acme/voices/resolve/main/%2Fetc%2Fpasswd',
      `/acme/voices/resolve/main/${encodeURIComponent(path.join(os.tmpdir(), 'x'))}`,
      '/acme/voices/resolve/main/%E0%A4%A',
    ])('refuses %s', async (target) => {
      const res = await raw(hub, target);

      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString())).toEqual({ error: expect.any(String) });
      expect(res.body.toString()).not.toContain('outside the root');
    });

    it('refuses symlinks that lead out of the root but follows ones that stay inside', async () => {
      const repoDir = path.join(root, 'acme', 'voices');
      await fs.symlink(path.join(tmp, 'secret.txt'), path.join(repoDir, 'escape.txt'));
      await fs.symlink(tmp, path.join(repoDir, 'escape-dir'));
      await fs.symlink(path.join(repoDir, FILE), path.join(repoDir, 'alias.onnx'));

      expect((await fetch(hub.fileUrl(REPO, 'escape.txt'))).status).toBe(404);
      expect((await fetch(hub.fileUrl(REPO, 'escape-dir/secret.txt'))).status).toBe(404);
      const alias = await fetch(hub.fileUrl(REPO, 'alias.onnx'));
      expect(alias.status).toBe(200);
      expect(Buffer.from(await alias.arrayBuffer()).equals(data)).toBe(true);
    });

    it('refuses to add files outside the root', async () => {
      await expect(hub.addFile(REPO, '../../escape.bin', 'x')).rejects.toThrow(/unsafe/);
      await expect(hub.addFile('../x', 'a.bin', 'x')).rejects.toThrow();
    });
  });

  describe('knobs', () => {
    it('throttles the body and still delivers every byte', async () => {
      hub.setPathKnobs(KEY, { throttleBytesPerSec: 2_000_000 });
      expect(hub.knobsFor(KEY).throttleBytesPerSec).toBe(2_000_000);
      expect(hub.knobsFor(`${REPO}/other.bin`).throttleBytesPerSec).toBeUndefined();

      const res = await fetch(hub.fileUrl(REPO, FILE));
      const body = Buffer.from(await res.arrayBuffer());
      expect(sha256(body)).toBe(sha256(data));
    });

    it('reports an in-flight paced response and its connection', async () => {
      hub.setKnobs({ throttleBytesPerSec: 400_000 });
      const res = await fetch(hub.fileUrl(REPO, FILE));
      const reader = res.body!.getReader();
      await reader.read();

      expect(hub.activeResponses).toBe(1);
      expect(hub.activeConnections).toBeGreaterThanOrEqual(1);
      expect(hub.requests[0].outcome).toBe('pending');
      await reader.cancel();
    });

    it('cuts a transfer after N bytes once, and a Range resume completes it', async () => {
      hub.setPathKnobs(KEY, { cutAfterBytes: 70_000, cutTimes: 1 });

      const first = await fetch(hub.fileUrl(REPO, FILE));
      expect(first.status).toBe(200);
      const cut = await readUntilBreak(first);
      expect(cut.error).toBeDefined();
      expect(cut.bytes.length).toBe(70_000);
      expect(hub.requests[0]).toEqual(expect.objectContaining({ outcome: 'cut', bytesSent: 70_000 }));

      const resume = await fetch(hub.fileUrl(REPO, FILE), {
        headers: { Range: `bytes=${cut.bytes.length}-` },
      });
      expect(resume.status).toBe(206);
      const rest = Buffer.from(await resume.arrayBuffer());
      const whole = Buffer.concat([cut.bytes, rest]);
      expect(sha256(whole)).toBe(resume.headers.get('x-linked-etag')!.replace(/"/g, ''));
      expect(whole.equals(data)).toBe(true);
    });

    it('cuts every time when cutTimes is not set', async () => {
      hub.setKnobs({ cutAfterBytes: 1000 });
      for (let i = 0; i < 2; i++) {
        const { bytes, error } = await readUntilBreak(await fetch(hub.fileUrl(REPO, FILE)));
        expect(error).toBeDefined();
        expect(bytes.length).toBe(1000);
      }
    });

    it('fails with failStatus for failTimes requests, then recovers', async () => {
      hub.setKnobs({ failStatus: 500, failTimes: 2 });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(hub.fileUrl(REPO, FILE));
        statuses.push(res.status);
        if (res.status === 500) {
          expect(await res.json()).toEqual({ error: expect.stringContaining('500') });
        } else {
          await res.arrayBuffer();
        }
      }
      expect(statuses).toEqual([500, 500, 200]);
      // The counter is per file: another file still gets its two failures.
      expect((await fetch(hub.fileUrl(REPO, 'rev.txt'))).status).toBe(500);
    });

    it('fails forever when failTimes is not set, and can be switched off', async () => {
      hub.setKnobs({ failStatus: 401 });
      expect((await fetch(hub.fileUrl(REPO, FILE))).status).toBe(401);
      expect((await fetch(hub.fileUrl(REPO, FILE))).status).toBe(401);
      hub.setKnobs({ failStatus: undefined });
      expect((await fetch(hub.fileUrl(REPO, FILE), { method: 'HEAD' })).status).toBe(200);
      expect(() => hub.setKnobs({ failStatus: 302 })).toThrow(/failStatus/);
    });

    it('requires a bearer token when requireToken is set', async () => {
      hub.setPathKnobs(KEY, { requireToken: 'hf_secret' });

      const none = await fetch(hub.fileUrl(REPO, FILE));
      expect(none.status).toBe(401);
      expect(none.headers.get('x-error-code')).toBe('GatedRepo');
      expect(await none.json()).toEqual({ error: expect.any(String) });
      const wrong = await fetch(hub.fileUrl(REPO, FILE), { headers: { Authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const right = await fetch(hub.fileUrl(REPO, FILE), { headers: { Authorization: 'Bearer hf_secret' } });
      expect(right.status).toBe(200);
      expect(Buffer.from(await right.arrayBuffer()).equals(data)).toBe(true);

      expect(hub.requests.map((r) => [r.authorization, r.status])).toEqual([
        [false, 401],
        [true, 401],
        [true, 200],
      ]);
      // Other files in the repo are unaffected by a per-file override.
      expect((await fetch(hub.fileUrl(REPO, 'rev.txt'))).status).toBe(200);
    });

    it('corrupts one byte while advertising the true sha256', async () => {
      hub.setKnobs({ corrupt: true });
      const res = await fetch(hub.fileUrl(REPO, FILE));
      const body = Buffer.from(await res.arrayBuffer());

      expect(res.headers.get('x-linked-etag')).toBe(`"${sha256(data)}"`);
      expect(body.length).toBe(data.length);
      expect(sha256(body)).not.toBe(sha256(data));
      const differing = [...body.keys()].filter((i) => body[i] !== data[i]);
      expect(differing).toEqual([Math.floor(data.length / 2)]);
    });

    it('corrupts at corruptOffset, in file coordinates, inside ranges too', async () => {
      hub.setKnobs({ corrupt: true, corruptOffset: 15 });
      const res = await fetch(hub.fileUrl(REPO, FILE), { headers: { Range: 'bytes=10-19' } });
      const body = Buffer.from(await res.arrayBuffer());
      expect(body[5]).toBe(data[15] ^ 0xff);
      expect(Buffer.concat([body.subarray(0, 5), body.subarray(6)])).toEqual(
        Buffer.concat([data.subarray(10, 15), data.subarray(16, 20)]),
      );
    });
  });

  it('sha256File hashes a file on disk', async () => {
    const file = await hub.addFile(REPO, 'hash-me.bin', data);
    await expect(HubMirror.sha256File(file)).resolves.toBe(sha256(data));
  });

  it('stop() closes keep-alive connections', async () => {
    const other = await HubMirror.start({ root });
    await (await fetch(other.fileUrl(REPO, FILE))).arrayBuffer();
    other.setKnobs({ throttleBytesPerSec: 1000 });
    const slow = await fetch(other.fileUrl(REPO, FILE));
    const pending = readUntilBreak(slow);

    expect(other.activeConnections).toBeGreaterThanOrEqual(1);
    await other.stop();
    expect(other.activeConnections).toBe(0);
    const { error } = await pending;
    expect(error).toBeDefined();
  });
});
