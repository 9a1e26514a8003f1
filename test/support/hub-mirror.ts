/**
 * A local stand-in for the Hugging Face hub's file endpoint, for tests and benchmarks.
 *
 * It serves a folder laid out like the hub:
 *
 *   GET|HEAD /{owner}/{repo}/resolve/{revision}/{path...}  ->  <root>/{owner}/{repo}/{path...}
 *
 * If a folder `<root>/{owner}/{repo}@{revision}` exists it is used instead of `<root>/{owner}/{repo}`, so a
 * test can serve two revisions of one repo with different content; any other revision falls back to the
 * plain folder. The revision never has to exist otherwise: pinned-commit downloads work against a plain copy.
 *
 * Unlike the real hub, files are served directly (no 302 to a CDN) because what the code under test cares
 * about is the headers it reads (ETag / X-Linked-Etag = sha256, X-Repo-Commit, Content-Length) and the body.
 *
 * Fault injection ("knobs") is settable globally (`setKnobs`) or per file (`setPathKnobs`), at run time,
 * so one mirror instance can drive retry, resume, auth and integrity paths of a downloader.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface HubKnobs {
  /** Pace response bodies to about this many bytes per second; 0 or undefined means unlimited. */
  throttleBytesPerSec?: number;
  /**
   * Close the connection after this many body bytes of a GET response, leaving the body shorter than its
   * Content-Length, the way a dropped transfer looks to a client.
   */
  cutAfterBytes?: number;
  /** Apply `cutAfterBytes` only to the first N body-bearing GETs of each file, so a retry/resume can succeed. */
  cutTimes?: number;
  /** Answer with this status (400..599) and a hub-like JSON error instead of the file. */
  failStatus?: number;
  /** Apply `failStatus` only to the first N requests (GET or HEAD) of each file. */
  failTimes?: number;
  /** When set, requests must carry `Authorization: Bearer <requireToken>`, else 401 (a gated repo). */
  requireToken?: string;
  /** Flip one byte of the body (XOR 0xff) while still advertising the true sha256 in the headers. */
  corrupt?: boolean;
  /** Which byte `corrupt` flips, as an offset in the file; default floor(size / 2). */
  corruptOffset?: number;
  /** Wait this long before answering at all (to exercise client timeouts). */
  delayMs?: number;
}

export interface HubRequestRecord {
  method: string;
  /** The raw request target without the query string, exactly as the client sent it. */
  path: string;
  /** The `Range` header, if any. */
  range: string | undefined;
  /** Whether an `Authorization` header was present (its value is never recorded). */
  authorization: boolean;
  status: number;
  /** `owner/repo/path` of the file the request routed to, when the URL was a well-formed resolve URL. */
  file: string | undefined;
  /** Body bytes written so far (equals the body length once `outcome` is 'complete'). */
  bytesSent: number;
  /** 'pending' while the body is being sent; 'cut' when a `cutAfterBytes` knob closed it; 'aborted' when the client left. */
  outcome: 'pending' | 'complete' | 'cut' | 'aborted';
}

export interface HubMirrorOptions {
  /** Folder laid out as `<owner>/<repo>/<path>`; created if missing. */
  root: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Knobs in force from the start. */
  knobs?: HubKnobs;
}

interface RoutedRequest {
  owner: string;
  repo: string;
  revision: string;
  /** Decoded path segments inside the repo. */
  segments: string[];
  /** `owner/repo/path`, the key for per-file knobs and counters. */
  key: string;
}

interface HashCacheEntry {
  size: number;
  mtimeMs: number;
  sha256: Promise<string>;
}

const MAX_CHUNK = 64 * 1024;
const FORTY_HEX = /^[0-9a-f]{40}$/;

export class HubMirror {
  /** Every request seen, in arrival order; entries are updated in place while their body is sent. */
  readonly requests: HubRequestRecord[] = [];

  private knobs: HubKnobs = {};
  private readonly pathKnobs = new Map<string, HubKnobs>();
  /** How many times a limited knob (`cut`, `fail`) was applied, keyed by `<kind>\0<file key>`. */
  private readonly applied = new Map<string, number>();
  private readonly hashes = new Map<string, HashCacheEntry>();
  private readonly sockets = new Set<Socket>();
  private inFlight = 0;
  private connectionsSeen = 0;
  /** Aborts pending throttle/delay sleeps on stop(), so no timer outlives the server (Jest open handles). */
  private readonly lifetime = new AbortController();

  private constructor(
    private readonly server: http.Server,
    /** The root folder with symlinks resolved, which confinement checks compare against. */
    readonly root: string,
    readonly url: string,
  ) {}

  static async start(options: HubMirrorOptions): Promise<HubMirror> {
    await fs.mkdir(options.root, { recursive: true });
    const root = await fs.realpath(options.root);
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const hub = new HubMirror(server, root, `http://${host}:${address.port}`);
    if (options.knobs) {
      hub.setKnobs(options.knobs);
    }
    server.on('connection', (socket) => hub.track(socket));
    server.on('request', (req, res) => void hub.handle(req, res));
    return hub;
  }

  /** sha256 of a file as lower-case hex, streamed so large model files do not sit in memory. */
  static async sha256File(file: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
    }
    return hash.digest('hex');
  }

  /** Open TCP connections right now (keep-alive connections count until the client or stop() closes them). */
  get activeConnections(): number {
    return this.sockets.size;
  }

  /** Connections accepted since start. */
  get totalConnections(): number {
    return this.connectionsSeen;
  }

  /** Responses whose body is still being sent. */
  get activeResponses(): number {
    return this.inFlight;
  }

  /**
   * Merges into the global knobs; a key set to `undefined` removes it. Resets the `cutTimes` / `failTimes`
   * counters of every file, so "the first N requests" count from this call.
   */
  setKnobs(partial: HubKnobs): void {
    this.knobs = HubMirror.merge(this.knobs, partial);
    this.applied.clear();
  }

  /**
   * Per-file overrides on top of the global knobs, keyed by `owner/repo/path/in/repo` (revision-independent).
   * `null` removes the overrides. Resets that file's `cutTimes` / `failTimes` counters.
   */
  setPathKnobs(key: string, partial: HubKnobs | null): void {
    if (partial === null) {
      this.pathKnobs.delete(key);
    } else {
      this.pathKnobs.set(key, HubMirror.merge(this.pathKnobs.get(key) ?? {}, partial));
    }
    for (const kind of ['cut', 'fail']) {
      this.applied.delete(`${kind}\0${key}`);
    }
  }

  /** Drops all global and per-file knobs and their counters. */
  resetKnobs(): void {
    this.knobs = {};
    this.pathKnobs.clear();
    this.applied.clear();
  }

  /** The knobs that apply to a file right now. */
  knobsFor(key: string): HubKnobs {
    return { ...this.knobs, ...this.pathKnobs.get(key) };
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  /** The resolve URL of a file, e.g. fileUrl('rhasspy/piper-voices', 'en/en_US/joe/medium/x.onnx'). */
  fileUrl(repo: string, filePath: string, revision = 'main'): string {
    const encode = (p: string) => p.split('/').map(encodeURIComponent).join('/');
    return `${this.url}/${encode(repo)}/resolve/${encodeURIComponent(revision)}/${encode(filePath)}`;
  }

  /**
   * Writes `data` to `<root>/<repo>[@revision]/<filePath>` (creating folders) and returns its absolute path.
   * Refuses paths that would land outside the root, for the same reason the server does.
   */
  async addFile(
    repo: string,
    filePath: string,
    data: Buffer | Uint8Array | string,
    revision?: string,
  ): Promise<string> {
    const [owner, name, ...rest] = repo.split('/');
    if (!owner || !name || rest.length > 0) {
      throw new Error(`repo must be "owner/name", got ${JSON.stringify(repo)}`);
    }
    const segments = filePath.split('/');
    for (const s of [owner, name, ...segments]) {
      if (!HubMirror.isSafeSegment(s)) {
        throw new Error(`unsafe path segment ${JSON.stringify(s)}`);
      }
    }
    if (revision !== undefined && !HubMirror.isSafeSegment(revision)) {
      throw new Error(`unsafe revision ${JSON.stringify(revision)}`);
    }
    const target = path.join(
      this.root,
      owner,
      revision === undefined ? name : `${name}@${revision}`,
      ...segments,
    );
    await fs.mkdir(path.dirname(target), { recursive: true });
    // A symlinked folder on the way could still point outside; check where the folder really is.
    const realDir = await fs.realpath(path.dirname(target));
    if (!this.isInside(realDir)) {
      throw new Error(`${filePath} would be written outside the hub root`);
    }
    await fs.writeFile(target, data);
    this.hashes.delete(path.join(realDir, path.basename(target)));
    return target;
  }

  /** Stops listening, aborts paced bodies and destroys every open connection (keep-alive ones included). */
  async stop(): Promise<void> {
    this.lifetime.abort();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Wait for each socket's own 'close' too: the server's callback can run before our bookkeeping listener,
    // and callers expect activeConnections to read 0 once stop() resolves.
    const gone = [...this.sockets].map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.destroy();
        }),
    );
    await Promise.all([closed, ...gone]);
  }

  // ---------------------------------------------------------------------------------------------------------

  private static merge(base: HubKnobs, partial: HubKnobs): HubKnobs {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(partial)) {
      if (v === undefined) {
        delete out[k];
      } else {
        out[k] = v;
      }
    }
    const merged = out as HubKnobs;
    if (merged.failStatus !== undefined && !(merged.failStatus >= 400 && merged.failStatus <= 599)) {
      throw new Error(`failStatus must be 400..599, got ${merged.failStatus}`);
    }
    return merged;
  }

  private static isSafeSegment(s: string): boolean {
    return s !== '' && s !== '.' && s !== '..' && !/[/\\\0]/.test(s);
  }

  private isInside(real: string): boolean {
    return real === this.root || real.startsWith(this.root + path.sep);
  }

  private track(socket: Socket): void {
    this.connectionsSeen++;
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Parses the request target by hand: WHATWG URL parsing would silently collapse `..` and `%2e%2e`. */
  private static route(target: string): RoutedRequest | undefined {
    const rawPath = target.split('?', 1)[0];
    if (!rawPath.startsWith('/')) {
      return undefined;
    }
    let parts: string[];
    try {
      parts = rawPath.slice(1).split('/').map(decodeURIComponent);
    } catch {
      return undefined;
    }
    const [owner, repo, verb, revision, ...segments] = parts;
    if (verb !== 'resolve' || revision === undefined || segments.length === 0) {
      return undefined;
    }
    // Any empty, dot or slash-bearing segment is refused outright rather than normalised: a client that
    // sends one has a bug worth seeing, and it closes off absolute paths (`//etc`) and encoded traversal.
    if (![owner, repo, ...segments].every((s) => HubMirror.isSafeSegment(s)) || revision === '') {
      return undefined;
    }
    return { owner, repo, revision, segments, key: [owner, repo, ...segments].join('/') };
  }

  /** Finds the file on disk, following symlinks only while they stay under the root. */
  private async locate(
    r: RoutedRequest,
  ): Promise<{ file: string; size: number; mtimeMs: number } | undefined> {
    const dirs: string[] = [];
    if (HubMirror.isSafeSegment(r.revision)) {
      dirs.push(path.join(this.root, r.owner, `${r.repo}@${r.revision}`));
    }
    dirs.push(path.join(this.root, r.owner, r.repo));
    for (const dir of dirs) {
      try {
        await fs.access(dir);
      } catch {
        continue;
      }
      // The first repo folder that exists decides; no falling through per file, which would mix revisions.
      try {
        const real = await fs.realpath(path.join(dir, ...r.segments));
        if (!this.isInside(real)) {
          return undefined;
        }
        const st = await fs.stat(real);
        return st.isFile() ? { file: real, size: st.size, mtimeMs: st.mtimeMs } : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  private sha256Of(file: string, size: number, mtimeMs: number): Promise<string> {
    const cached = this.hashes.get(file);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) {
      return cached.sha256;
    }
    const sha256 = HubMirror.sha256File(file);
    this.hashes.set(file, { size, mtimeMs, sha256 });
    sha256.catch(() => this.hashes.delete(file));
    return sha256;
  }

  /** True if a limited knob still applies to this file, and counts this use. */
  private consume(kind: 'cut' | 'fail', key: string, times: number | undefined): boolean {
    const counter = `${kind}\0${key}`;
    const used = this.applied.get(counter) ?? 0;
    if (times !== undefined && used >= times) {
      return false;
    }
    this.applied.set(counter, used + 1);
    return true;
  }

  private static parseRange(
    header: string,
    size: number,
  ): { start: number; end: number } | 'unsatisfiable' | undefined {
    // Only single byte ranges; anything else is ignored and the whole file is sent, as RFC 9110 allows.
    const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
    if (!m || (m[1] === '' && m[2] === '')) {
      return undefined;
    }
    if (m[1] === '') {
      const suffix = Number(m[2]);
      if (suffix === 0 || size === 0) {
        return 'unsatisfiable';
      }
      return { start: Math.max(0, size - suffix), end: size - 1 };
    }
    const start = Number(m[1]);
    const end = m[2] === '' ? undefined : Number(m[2]);
    // An inverted range is malformed (ignored); a well-formed one starting past the end is a 416.
    if (end !== undefined && end < start) {
      return undefined;
    }
    if (start >= size) {
      return 'unsatisfiable';
    }
    return { start, end: Math.min(end ?? size - 1, size - 1) };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rec: HubRequestRecord = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?', 1)[0],
      range: req.headers.range,
      authorization: req.headers.authorization !== undefined,
      status: 0,
      file: undefined,
      bytesSent: 0,
      outcome: 'pending',
    };
    this.requests.push(rec);
    // The request body is never used, but it must be drained or a keep-alive connection stalls.
    req.resume();
    try {
      await this.respond(req, res, rec);
    } catch (err: unknown) {
      // A bug or I/O error here must show up as a failed request, not an unhandled rejection in the test run.
      if (!res.headersSent && !res.destroyed) {
        this.sendError(res, rec, 500, `hub-mirror internal error: ${String(err)}`);
      } else {
        rec.outcome = 'aborted';
        res.destroy();
      }
    }
  }

  private async respond(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    rec: HubRequestRecord,
  ): Promise<void> {
    if (rec.method !== 'GET' && rec.method !== 'HEAD') {
      return this.sendError(res, rec, 405, `Method ${rec.method} not allowed`, { Allow: 'GET, HEAD' });
    }
    const routed = HubMirror.route(req.url ?? '');
    if (!routed) {
      return this.sendError(res, rec, 404, 'Not Found', { 'X-Error-Code': 'EntryNotFound' });
    }
    rec.file = routed.key;
    const knobs = this.knobsFor(routed.key);

    if (knobs.delayMs) {
      if (!(await this.pause(knobs.delayMs)) || res.destroyed) {
        return this.markAborted(rec);
      }
    }
    if (knobs.failStatus !== undefined && this.consume('fail', routed.key, knobs.failTimes)) {
      return this.sendError(res, rec, knobs.failStatus, `Injected failure (${knobs.failStatus})`);
    }
    if (knobs.requireToken !== undefined && req.headers.authorization !== `Bearer ${knobs.requireToken}`) {
      // Missing and wrong tokens both get 401 so tests can treat "not authorised" as one case.
      return this.sendError(
        res,
        rec,
        401,
        `Access to model ${routed.owner}/${routed.repo} is restricted. You must be authenticated to access it.`,
        { 'X-Error-Code': 'GatedRepo' },
      );
    }

    const found = await this.locate(routed);
    if (!found) {
      return this.sendError(res, rec, 404, `Entry not found: ${routed.segments.join('/')}`, {
        'X-Error-Code': 'EntryNotFound',
      });
    }
    const sha256 = await this.sha256Of(found.file, found.size, found.mtimeMs);
    const commit = FORTY_HEX.test(routed.revision)
      ? routed.revision
      : createHash('sha1').update(`${routed.owner}/${routed.repo}@${routed.revision}`).digest('hex');
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      ETag: `"${sha256}"`,
      'X-Linked-Etag': `"${sha256}"`,
      'X-Linked-Size': String(found.size),
      'X-Repo-Commit': commit,
    };

    let start = 0;
    let end = found.size - 1;
    let status = 200;
    if (req.headers.range !== undefined) {
      const range = HubMirror.parseRange(req.headers.range, found.size);
      if (range === 'unsatisfiable') {
        return this.sendError(res, rec, 416, 'Requested Range Not Satisfiable', {
          'Content-Range': `bytes */${found.size}`,
          'Accept-Ranges': 'bytes',
        });
      }
      if (range) {
        ({ start, end } = range);
        status = 206;
        headers['Content-Range'] = `bytes ${start}-${end}/${found.size}`;
      }
    }
    const length = end - start + 1;
    headers['Content-Length'] = String(length);
    rec.status = status;
    res.writeHead(status, headers);
    if (rec.method === 'HEAD' || length === 0) {
      res.end();
      rec.outcome = 'complete';
      return;
    }

    const cutAfter =
      knobs.cutAfterBytes !== undefined && this.consume('cut', routed.key, knobs.cutTimes)
        ? knobs.cutAfterBytes
        : undefined;
    const flipAt = knobs.corrupt ? (knobs.corruptOffset ?? Math.floor(found.size / 2)) : undefined;
    this.inFlight++;
    try {
      await this.pump(res, rec, found.file, start, length, knobs.throttleBytesPerSec, cutAfter, flipAt);
    } finally {
      this.inFlight--;
    }
  }

  /** Sends `length` bytes from `start`, applying throttle, cut and corruption. */
  private async pump(
    res: http.ServerResponse,
    rec: HubRequestRecord,
    file: string,
    start: number,
    length: number,
    rate: number | undefined,
    cutAfter: number | undefined,
    flipAt: number | undefined,
  ): Promise<void> {
    // Small chunks under a throttle keep the pacing smooth instead of one burst per second.
    const chunkSize = rate ? Math.max(1, Math.min(MAX_CHUNK, Math.floor(rate / 20))) : MAX_CHUNK;
    const began = Date.now();
    const fh = await fs.open(file, 'r');
    try {
      let sent = 0;
      while (sent < length) {
        if (res.destroyed) {
          return this.markAborted(rec);
        }
        let want = Math.min(chunkSize, length - sent);
        if (cutAfter !== undefined) {
          want = Math.min(want, cutAfter - sent);
        }
        if (want <= 0) {
          break;
        }
        const buf = Buffer.allocUnsafe(want);
        const { bytesRead } = await fh.read(buf, 0, want, start + sent);
        if (bytesRead === 0) {
          throw new Error(`${file} shrank while being served`);
        }
        const chunk = buf.subarray(0, bytesRead);
        if (flipAt !== undefined && flipAt >= start + sent && flipAt < start + sent + bytesRead) {
          chunk[flipAt - start - sent] ^= 0xff;
        }
        if (!(await HubMirror.write(res, chunk))) {
          return this.markAborted(rec);
        }
        sent += bytesRead;
        rec.bytesSent = sent;
        if (rate) {
          const due = began + (sent / rate) * 1000;
          const wait = due - Date.now();
          if (wait > 0 && !(await this.pause(wait))) {
            return this.markAborted(rec);
          }
        }
      }
      if (cutAfter !== undefined && sent < length) {
        rec.outcome = 'cut';
        // end() rather than destroy(): a FIN after the flushed bytes guarantees the client receives exactly
        // `cutAfter` bytes before seeing the premature close; an RST could discard some of them.
        const socket = res.socket;
        if (socket) {
          socket.end(() => socket.destroy());
        }
        return;
      }
      await new Promise<void>((resolve) => res.end(resolve));
      rec.outcome = 'complete';
    } finally {
      await fh.close();
    }
  }

  /** Writes with backpressure; false if the client went away. */
  private static write(res: http.ServerResponse, chunk: Buffer): Promise<boolean> {
    return new Promise((resolve) => {
      if (res.destroyed) {
        return resolve(false);
      }
      const onClose = () => resolve(false);
      res.once('close', onClose);
      res.write(chunk, (err) => {
        res.off('close', onClose);
        resolve(!err && !res.destroyed);
      });
    });
  }

  /** Sleeps unless the mirror is stopping; false if it is. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.lifetime.signal });
      return true;
    } catch {
      return false;
    }
  }

  private markAborted(rec: HubRequestRecord): void {
    rec.outcome = 'aborted';
  }

  private sendError(
    res: http.ServerResponse,
    rec: HubRequestRecord,
    status: number,
    message: string,
    extra: http.OutgoingHttpHeaders = {},
  ): void {
    rec.status = status;
    const body = JSON.stringify({ error: message });
    // Header values must be printable Latin-1; paths in messages are client-controlled, so squash the rest.
    const headerMessage = message.replace(/[^\x20-\x7e]/g, '?');
    res.writeHead(status, {
      ...extra,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Error-Message': headerMessage,
    });
    res.end(rec.method === 'HEAD' ? undefined : body);
    rec.outcome = 'complete';
  }
}
