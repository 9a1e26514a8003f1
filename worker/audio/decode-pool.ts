import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { abortReason } from '../runtime/abort';
import { KeyedQueue } from '../runtime/keyed-queue';
import { AudioDecodeError } from './decode-errors';
import type { DecodedUpload } from './decode-pipeline';
import type { DecoderPackageUrls, DecodeThreadData, FromDecodeThread } from './decode-protocol';

export interface AudioDecodePoolOptions {
  /** Compiled thread entry (`decode.thread.js`). */
  entry: string;
  packages: DecoderPackageUrls;
  /** Uploads decoded at once (one thread each). */
  concurrency: number;
  /** Uploads allowed to wait for a thread; one more is refused with `QueueFullError`. */
  queueLimit: number;
  /** Longest one decode may take once its thread started. */
  timeoutMs: number;
}

/** file: URLs of the decoder packages, resolved from the worker's own node_modules. */
export function decoderPackageUrls(): DecoderPackageUrls {
  const url = (name: string) => pathToFileURL(require.resolve(name)).href;
  return {
    mp3: url('mpg123-decoder'),
    flac: url('@wasm-audio-decoders/flac'),
    vorbis: url('@wasm-audio-decoders/ogg-vorbis'),
    opus: url('opus-decoder'),
  };
}

/**
 * Two decodes at once (one on a single core): decoding and resampling run at hundreds of times real time, so
 * two threads keep up with far more uploads than the recognisers behind them can serve, and bound the memory
 * (an upload plus its decoded audio each).
 */
export function defaultAudioDecodePoolOptions(queueLimit: number): AudioDecodePoolOptions {
  return {
    entry: join(__dirname, 'decode.thread.js'),
    packages: decoderPackageUrls(),
    concurrency: Math.min(2, availableParallelism()),
    queueLimit,
    timeoutMs: 120_000,
  };
}

const QUEUE_KEY = 'audio-decode';

/**
 * Decodes uploads in worker threads, one short-lived thread per upload: a decoder that crashes or runs away
 * takes only its thread with it, memory (WebAssembly heaps, the upload) is returned when the thread ends, and
 * an abort (client gone) terminates the thread at once. Starting a thread costs a few tens of milliseconds,
 * small next to recognition.
 */
export class AudioDecodePool {
  private readonly queue: KeyedQueue;
  private readonly threads = new Set<Worker>();

  constructor(private readonly options: AudioDecodePoolOptions) {
    this.queue = new KeyedQueue(options.queueLimit);
  }

  /**
   * @throws AudioDecodeError for uploads that are not usable audio; `QueueFullError` when too many uploads wait;
   *   the signal's reason when it aborts; an Error for internal failures.
   */
  decode(bytes: Uint8Array, maxDurationSeconds: number, signal?: AbortSignal): Promise<DecodedUpload> {
    return this.queue.run(
      QUEUE_KEY,
      this.options.concurrency,
      () => this.runThread(bytes, maxDurationSeconds, signal),
      signal,
    );
  }

  stats() {
    return this.queue.statsOf(QUEUE_KEY) ?? { active: 0, waiting: 0 };
  }

  /** Stops every running decode (shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.threads].map((thread) => thread.terminate()));
  }

  private runThread(
    bytes: Uint8Array,
    maxDurationSeconds: number,
    signal?: AbortSignal,
  ): Promise<DecodedUpload> {
    signal?.throwIfAborted();
    return new Promise<DecodedUpload>((resolve, reject) => {
      const data: DecodeThreadData = { packages: this.options.packages, bytes, maxDurationSeconds };
      const thread = new Worker(this.options.entry, { workerData: data });
      this.threads.add(thread);
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) {
          return;
        }
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.threads.delete(thread);
        void thread.terminate();
        outcome();
      };
      const onAbort = () => finish(() => reject(abortReason(signal!)));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`decoding took longer than ${this.options.timeoutMs} ms`))),
        this.options.timeoutMs,
      );
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.once('message', (message: FromDecodeThread) =>
        finish(() => {
          if (message.type === 'decoded') {
            resolve(message.result);
          } else if (message.code === 'internal') {
            reject(new Error(`audio decoding failed: ${message.message}`));
          } else {
            reject(new AudioDecodeError(message.code, message.message));
          }
        }),
      );
      thread.once('error', (error) => finish(() => reject(error)));
      thread.once('exit', (code) =>
        finish(() => reject(new Error(`the audio decode thread exited (code ${code}) without a result`))),
      );
    });
  }
}
