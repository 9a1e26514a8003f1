import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import { MODEL_STORE_OPTIONS, type ModelStoreOptions } from './model-store.options';

/** One file to fetch from the hub into a `.part` file. */
export interface HubFileRequest {
  /** Full resolve URL of the file. */
  url: string;
  /** HF_TOKEN; sent only to {@link tokenOrigin}, never to a redirect target on another origin (the CDN). */
  token?: string;
  tokenOrigin: string;
  /** Where the bytes go; an existing file is resumed (its bytes are hashed first). */
  partPath: string;
  /** Size from the catalog; otherwise the hub's X-Linked-Size / Content-Length decides. */
  expectedSize?: number;
  /** sha256 from the catalog; otherwise the hub's X-Linked-Etag / ETag when it is a sha256. */
  expectedSha256?: string;
  signal: AbortSignal;
  /** Called as bytes land: `have` bytes of the file are on disk, of `size` when known. */
  onProgress?(have: number, size: number | undefined): void;
}

export interface DownloadedFile {
  size: number;
  sha256: string;
  /** Whether the hub (or the catalog) gave a sha256 the bytes were checked against. */
  verified: boolean;
  /** Bytes already in the `.part` file when the download started. */
  resumedFrom: number;
  /** HTTP requests that carried a `Range` header. */
  rangeRequests: number;
}

export type DownloadErrorKind = 'http' | 'network' | 'integrity' | 'disk';

/** A download that failed for good (after retries, or at once when retrying cannot help). */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly kind: DownloadErrorKind,
    /** Whether the `.part` file is still worth resuming later. */
    readonly resumable: boolean,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** An attempt failed in a way a later attempt may not: the body was cut, the server erred, nothing came. */
class RetryableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryableError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The `.part` file as far as it is written: its length and the running sha256 of exactly those bytes. */
interface PartState {
  hash: Hash;
  have: number;
}

/**
 * The adapter between the worker and a model hub (Hugging Face or a mirror of its `resolve` URLs): streams a
 * file into a `.part` file with resume (`Range`), bounded retries with backoff, redirect handling that keeps the
 * token on the hub's origin, and size + sha256 verification with the hash computed while the bytes stream.
 */
@Injectable()
export class HubClient {
  private readonly logger = new Logger(HubClient.name);

  constructor(@Inject(MODEL_STORE_OPTIONS) private readonly options: ModelStoreOptions) {}

  /**
   * @throws DownloadError; the signal's reason when it aborts.
   */
  async download(request: HubFileRequest): Promise<DownloadedFile> {
    const { signal, partPath } = request;
    signal.throwIfAborted();
    const state: PartState = { hash: createHash('sha256'), have: 0 };
    state.have = await this.hashExisting(partPath, state.hash, signal);
    const resumedFrom = state.have;
    let size = request.expectedSize;
    let sha256 = request.expectedSha256;
    let rangeRequests = 0;
    let failures = 0;
    const startOver = async () => {
      state.hash = createHash('sha256');
      state.have = 0;
      await fs.rm(partPath, { force: true });
    };
    if (size !== undefined && state.have > size) {
      await startOver();
    }

    for (;;) {
      if (size !== undefined && state.have === size) {
        break;
      }
      signal.throwIfAborted();
      const before = state.have;
      try {
        const outcome = await this.attempt(request, state, (hubSize) =>
          request.onProgress?.(state.have, size ?? hubSize),
        );
        rangeRequests += outcome.rangeRequested ? 1 : 0;
        size ??= outcome.size;
        sha256 ??= outcome.sha256;
        if (outcome.kind === 'restart') {
          await startOver();
          continue;
        }
        if (size === undefined || state.have >= size) {
          break;
        }
        throw new RetryableError(`the connection closed after ${state.have} of ${size} bytes`);
      } catch (error) {
        if (signal.aborted) {
          throw signal.reason;
        }
        if (!(error instanceof RetryableError)) {
          throw error;
        }
        // Bounded by failures in a row: an attempt that brought new bytes starts the count again.
        failures = state.have > before ? 1 : failures + 1;
        if (failures > this.options.retries) {
          throw new DownloadError(
            `Download of ${displayName(request.url)} failed after ${failures} attempts in a row: ${error.message}`,
            'network',
            true,
          );
        }
        const wait = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (failures - 1));
        this.logger.warn(
          { file: displayName(request.url), have: state.have, size, failures, waitMs: wait },
          `Download of ${displayName(request.url)} interrupted (${error.message}); resuming in ${wait} ms`,
        );
        await sleep(wait, undefined, { signal });
      }
    }

    const have = state.have;
    if (size !== undefined && have !== size) {
      await fs.rm(partPath, { force: true });
      throw new DownloadError(
        `${displayName(request.url)} has ${have} bytes, expected ${size}`,
        'integrity',
        false,
      );
    }
    const actual = state.hash.digest('hex');
    if (sha256 !== undefined && actual !== sha256) {
      await fs.rm(partPath, { force: true });
      throw new DownloadError(
        `${displayName(request.url)} is corrupt: its sha256 is ${actual}, expected ${sha256}`,
        'integrity',
        false,
      );
    }
    return { size: have, sha256: actual, verified: sha256 !== undefined, resumedFrom, rangeRequests };
  }

  /** Hashes the bytes of an existing `.part` file into `hash`; returns how many there are (0 when none). */
  private async hashExisting(partPath: string, hash: Hash, signal: AbortSignal): Promise<number> {
    let size: number;
    try {
      size = (await fs.stat(partPath)).size;
    } catch {
      return 0;
    }
    if (size === 0) {
      return 0;
    }
    for await (const chunk of createReadStream(partPath, { signal })) {
      hash.update(chunk as Buffer);
    }
    return size;
  }

  /**
   * One HTTP request (following redirects) whose body is appended to the `.part` file at `state.have`, keeping
   * `state` (bytes on disk and their running hash) exact at every moment. `restart`: the server could not honour
   * the range, so the file starts over.
   */
  private async attempt(
    request: HubFileRequest,
    state: PartState,
    /** Called after each chunk, with the file size the hub announced (when it did). */
    progress: (hubSize: number | undefined) => void,
  ): Promise<{ kind: 'restart' | 'done'; size?: number; sha256?: string; rangeRequested: boolean }> {
    const attempt = new AbortController();
    const signal = AbortSignal.any([request.signal, attempt.signal]);
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => attempt.abort(new RetryableError('no data arrived in time')),
        this.options.idleTimeoutMs,
      );
    };
    armIdle();
    try {
      const rangeRequested = state.have > 0;
      const { response, linked, errorMessage } = await this.get(
        request,
        rangeRequested ? `bytes=${state.have}-` : undefined,
        signal,
      );
      const sha256 = etagSha256(linked.etag);
      let size = linked.size;
      const status = response.status;

      if (status === 416 && rangeRequested) {
        // The part is at least as long as the file: done if exactly as long, else start over.
        await response.body?.cancel();
        const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
        size ??= total === undefined ? undefined : Number(total);
        const mismatch = await sizeMismatch(request, size);
        if (mismatch) {
          throw mismatch;
        }
        return { kind: size === state.have ? 'done' : 'restart', size, sha256, rangeRequested };
      }
      if (status !== 200 && status !== 206) {
        await response.body?.cancel().catch(() => undefined);
        throw httpError(status, request.url, errorMessage);
      }
      if (status === 206) {
        const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
        if (!range || Number(range[1]) !== state.have) {
          await response.body?.cancel();
          return { kind: 'restart', size, sha256, rangeRequested };
        }
        size ??= range[3] === '*' ? undefined : Number(range[3]);
      } else {
        size ??= contentLength(response.headers.get('content-length'));
        if (state.have > 0) {
          // The server ignored the range and sends the whole file: take this body from the top.
          state.hash = createHash('sha256');
          state.have = 0;
        }
      }
      const mismatch = await sizeMismatch(request, size);
      if (mismatch) {
        await response.body?.cancel().catch(() => undefined);
        throw mismatch;
      }
      if (!response.body) {
        return { kind: 'done', size, sha256, rangeRequested };
      }
      const file = await openPart(request.partPath, state.have);
      try {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          armIdle();
          await writeAll(file, chunk, state.have);
          state.hash.update(chunk);
          state.have += chunk.length;
          progress(size);
        }
        await file.sync();
      } catch (error) {
        if (error instanceof DownloadError || request.signal.aborted) {
          throw error;
        }
        throw new RetryableError(
          attempt.signal.aborted ? (attempt.signal.reason as Error).message : describeNetworkError(error),
        );
      } finally {
        await file.close();
      }
      return { kind: 'done', size, sha256, rangeRequested };
    } catch (error) {
      if (error instanceof DownloadError || error instanceof RetryableError || request.signal.aborted) {
        throw error;
      }
      throw new RetryableError(
        attempt.signal.aborted ? (attempt.signal.reason as Error).message : describeNetworkError(error),
      );
    } finally {
      clearTimeout(idle);
    }
  }

  /** GET with manual redirects: the token goes only to the hub's own origin; X-Linked-* of any hop are kept. */
  private async get(
    request: HubFileRequest,
    range: string | undefined,
    signal: AbortSignal,
  ): Promise<{ response: Response; linked: { etag?: string; size?: number }; errorMessage?: string }> {
    let url = request.url;
    const linked: { etag?: string; size?: number } = {};
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
      if (range) {
        headers.Range = range;
      }
      if (request.token && new URL(url).origin === request.tokenOrigin) {
        headers.Authorization = `Bearer ${request.token}`;
      }
      const response = await fetch(url, { headers, redirect: 'manual', signal });
      linked.etag ??= response.headers.get('x-linked-etag') ?? undefined;
      linked.size ??= contentLength(response.headers.get('x-linked-size'));
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= this.options.maxRedirects) {
          throw new DownloadError(
            `Too many redirects while downloading ${displayName(request.url)}`,
            'http',
            false,
          );
        }
        url = new URL(location, url).href;
        continue;
      }
      linked.etag ??= response.headers.get('etag') ?? undefined;
      let errorMessage: string | undefined;
      if (response.status >= 400) {
        errorMessage = response.headers.get('x-error-message') ?? undefined;
      }
      return { response, linked, errorMessage };
    }
  }
}

/**
 * An integrity error (the part deleted) when the hub's size of the file differs from the catalog's: those bytes
 * could never verify, so downloading them would only waste time and disk.
 */
async function sizeMismatch(
  request: HubFileRequest,
  hubSize: number | undefined,
): Promise<DownloadError | undefined> {
  if (request.expectedSize === undefined || hubSize === undefined || hubSize === request.expectedSize) {
    return undefined;
  }
  await fs.rm(request.partPath, { force: true });
  return new DownloadError(
    `${displayName(request.url)} has ${hubSize} bytes on the hub, the catalog expects ${request.expectedSize}`,
    'integrity',
    false,
  );
}

function httpError(status: number, url: string, hubMessage: string | undefined): Error {
  const name = displayName(url);
  if (status === 408 || status === 429 || status >= 500) {
    return new RetryableError(`the hub answered ${status}`);
  }
  if (status === 401 || status === 403) {
    return new DownloadError(
      `The hub refused access to ${name} (${status}): the repository is gated or private; accept its terms on the hub and set HF_TOKEN on the worker`,
      'http',
      false,
    );
  }
  if (status === 404) {
    return new DownloadError(`${name} was not found on the hub (404)`, 'http', false);
  }
  const detail = hubMessage ? `: ${hubMessage.slice(0, 200)}` : '';
  return new DownloadError(`The hub answered ${status} for ${name}${detail}`, 'http', false);
}

/** The file part of a resolve URL, for messages (never the host: it may be an internal mirror). */
function displayName(url: string): string {
  try {
    const path = new URL(url).pathname;
    const at = path.indexOf('/resolve/');
    const tail =
      at >= 0
        ? path
            .slice(at + '/resolve/'.length)
            .split('/')
            .slice(1)
            .join('/')
        : path;
    return decodeURIComponent(tail || path);
  } catch {
    return url;
  }
}

/** `"<64 hex>"` or `W/"<64 hex>"` → the sha256; anything else (git sha1, md5, opaque) → undefined. */
export function etagSha256(etag: string | undefined | null): string | undefined {
  if (!etag) {
    return undefined;
  }
  const value = etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
  return SHA256_HEX.test(value) ? value : undefined;
}

function contentLength(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) {
    return undefined;
  }
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : undefined;
}

async function openPart(partPath: string, start: number): Promise<fs.FileHandle> {
  try {
    const file = await fs.open(partPath, start > 0 ? 'r+' : 'w');
    await file.truncate(start);
    return file;
  } catch (error) {
    throw asDiskError(error);
  }
}

async function writeAll(file: fs.FileHandle, chunk: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    let bytesWritten: number;
    try {
      ({ bytesWritten } = await file.write(chunk, offset, chunk.length - offset, position + offset));
    } catch (error) {
      throw asDiskError(error);
    }
    offset += bytesWritten;
  }
}

/** Disk problems are not retried: the disk will not have grown a second later. */
export function asDiskError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new DownloadError(
      'The disk of the models directory is full (ENOSPC): free some space or grow the volume, then pull again',
      'disk',
      false,
    );
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new DownloadError(
      `The worker cannot write into the models directory (${code}); check the permissions of INFERENCE_MODELS_PATH`,
      'disk',
      false,
    );
  }
  return error;
}

/** Duck-typed: errors of `fetch` may come from another realm (a test VM), where `instanceof Error` fails. */
function describeNetworkError(error: unknown): string {
  if (!error || typeof error !== 'object') {
    return String(error);
  }
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  const causeCode =
    cause && typeof cause === 'object'
      ? ((cause as { code?: unknown }).code ?? (cause as { message?: unknown }).message)
      : undefined;
  const text = typeof message === 'string' && message ? message : typeof name === 'string' ? name : 'error';
  return typeof causeCode === 'string' && causeCode ? `${text} (${causeCode})` : text;
}
