import { Worker } from 'node:worker_threads';

import { abortReason } from '../../runtime/abort';
import type {
  EspeakPhonemizeTask,
  EspeakRawPhonemes,
  EspeakSynthesisTask,
  EspeakThreadData,
  EspeakVoiceEntry,
  FromEspeakThread,
  ToEspeakThread,
} from './espeak-protocol';

export interface EspeakPoolOptions {
  /** Engine threads to run. */
  size: number;
  /** Path of the compiled thread entry (`espeak.thread.js`). */
  entry: string;
  /** file: URL of the espeak-ng emscripten module. */
  packageUrl: string;
  /** Longest a thread may take to load the engine. */
  startTimeoutMs?: number;
  log?: PoolLog;
}

export interface PoolLog {
  warn(message: string, context?: object): void;
  error(message: string, context?: object): void;
}

export interface EspeakEngineInfo {
  sampleRate: number;
  voices: EspeakVoiceEntry[];
  variants: string[];
}

export class EspeakEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EspeakEngineError';
  }
}

/** The pool was stopped (unload or shutdown) while the task was queued or running. */
export class EspeakStoppedError extends EspeakEngineError {
  constructor() {
    super('the espeak engine was stopped');
    this.name = 'EspeakStoppedError';
  }
}

interface Task {
  id: number;
  message: ToEspeakThread;
  resolve(result: Int16Array | EspeakRawPhonemes): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface EngineThread {
  worker: Worker;
  abort: Int32Array;
  current?: Task;
  heapBytes: number;
  exited: boolean;
}

/**
 * A small pool of espeak engine threads fed from one FIFO queue of sentence-sized tasks.
 *
 * Tasks are single sentences, so concurrent requests interleave sentence by sentence: every stream gets its
 * first audio after about one sentence of work, whatever else is running. A thread that crashes fails only the
 * task it held and is replaced on demand.
 */
export class EspeakThreadPool {
  private readonly threads = new Set<EngineThread>();
  private readonly queue: Task[] = [];
  private info?: EspeakEngineInfo;
  private spawning?: Promise<void>;
  private nextId = 1;
  private stopped = false;

  constructor(private readonly options: EspeakPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new RangeError('pool size must be a positive integer');
    }
  }

  /** Starts every thread and resolves once all have loaded the engine (rejects, stopping them, if one fails). */
  async start(): Promise<EspeakEngineInfo> {
    try {
      await Promise.all(Array.from({ length: this.options.size }, () => this.spawn()));
    } catch (error) {
      await this.stop();
      throw error;
    }
    return this.info!;
  }

  /** Synthesises one piece of text. Rejects with the signal's reason when it aborts (queued or running). */
  run(task: EspeakSynthesisTask, signal?: AbortSignal): Promise<Int16Array> {
    return this.submit((id) => ({ type: 'synthesize', id, task }), signal) as Promise<Int16Array>;
  }

  /**
   * Converts text to phonemes (the glue's raw output, see `espeak-phonemizer.ts` for its reading). Shares the
   * queue with synthesis tasks.
   */
  phonemize(task: EspeakPhonemizeTask, signal?: AbortSignal): Promise<EspeakRawPhonemes> {
    return this.submit((id) => ({ type: 'phonemize', id, task }), signal) as Promise<EspeakRawPhonemes>;
  }

  private submit(
    message: (id: number) => ToEspeakThread,
    signal?: AbortSignal,
  ): Promise<Int16Array | EspeakRawPhonemes> {
    if (this.stopped) {
      return Promise.reject(new EspeakStoppedError());
    }
    if (signal?.aborted) {
      return Promise.reject(abortReason(signal));
    }
    return new Promise<Int16Array | EspeakRawPhonemes>((resolve, reject) => {
      const id = this.nextId++;
      const entry: Task = { id, message: message(id), resolve, reject, signal };
      if (signal) {
        entry.onAbort = () => this.abortTask(entry);
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      this.dispatch();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const error = new EspeakStoppedError();
    for (const task of this.queue.splice(0)) {
      this.settle(task, () => task.reject(error));
    }
    await Promise.all(
      [...this.threads].map(async (thread) => {
        if (thread.current) {
          const task = thread.current;
          thread.current = undefined;
          this.settle(task, () => task.reject(error));
        }
        this.threads.delete(thread);
        await thread.worker.terminate();
      }),
    );
  }

  get engineInfo(): EspeakEngineInfo | undefined {
    return this.info;
  }

  /** WebAssembly memory of all threads. */
  get heapBytes(): number {
    let total = 0;
    for (const thread of this.threads) {
      total += thread.heapBytes;
    }
    return total;
  }

  stats(): { threads: number; busy: number; queued: number } {
    let busy = 0;
    for (const thread of this.threads) {
      busy += thread.current ? 1 : 0;
    }
    return { threads: this.threads.size, busy, queued: this.queue.length };
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) {
        return;
      }
      if (!thread.current && !thread.exited) {
        const task = this.queue.shift()!;
        thread.current = task;
        thread.worker.postMessage(task.message);
      }
    }
    if (this.queue.length > 0 && this.threads.size < this.options.size && !this.spawning && !this.stopped) {
      // A thread died: replace it. Queued tasks wait for it; if it cannot start they fail instead of hanging.
      this.spawning = this.spawn()
        .catch((error: unknown) => {
          if (this.threads.size === 0) {
            for (const task of this.queue.splice(0)) {
              this.settle(task, () => task.reject(error));
            }
          }
        })
        .finally(() => {
          this.spawning = undefined;
          this.dispatch();
        });
    }
  }

  private spawn(): Promise<void> {
    const abort = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const data: EspeakThreadData = { packageUrl: this.options.packageUrl, abort };
    const worker = new Worker(this.options.entry, { workerData: data, name: 'espeak' });
    const thread: EngineThread = { worker, abort: new Int32Array(abort), heapBytes: 0, exited: false };

    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const timeout = setTimeout(() => {
        fail(new EspeakEngineError('the espeak engine did not start in time'));
        void worker.terminate();
      }, this.options.startTimeoutMs ?? 30_000);
      timeout.unref();

      const fail = (error: Error) => {
        clearTimeout(timeout);
        if (!ready) {
          ready = true; // settle once
          reject(error);
        }
      };

      worker.on('message', (message: FromEspeakThread) => {
        if (message.type === 'ready') {
          clearTimeout(timeout);
          ready = true;
          thread.heapBytes = message.heapBytes;
          this.info ??= {
            sampleRate: message.sampleRate,
            voices: message.voices,
            variants: message.variants,
          };
          if (this.stopped) {
            void worker.terminate();
            reject(new EspeakEngineError('the espeak engine was stopped'));
            return;
          }
          this.threads.add(thread);
          resolve();
          this.dispatch();
        } else if (message.type === 'init-error') {
          fail(new EspeakEngineError(`the espeak engine failed to start: ${message.message}`));
          void worker.terminate();
        } else {
          this.onResult(thread, message);
        }
      });
      worker.on('error', (error) => {
        this.options.log?.error('An espeak engine thread crashed', { err: error });
        fail(error);
        this.onExit(thread, error);
      });
      worker.on('exit', (code) => {
        fail(new EspeakEngineError(`the espeak engine thread exited (code ${code})`));
        this.onExit(thread, new EspeakEngineError(`the espeak engine thread exited (code ${code})`));
      });
    });
  }

  private onResult(
    thread: EngineThread,
    message: Exclude<FromEspeakThread, { type: 'ready' | 'init-error' }>,
  ): void {
    const task = thread.current;
    if (!task || task.id !== message.id) {
      return; // a task already failed by stop()
    }
    thread.current = undefined;
    switch (message.type) {
      case 'audio':
        thread.heapBytes = message.heapBytes;
        this.settle(task, () => task.resolve(message.pcm));
        break;
      case 'phonemes':
        thread.heapBytes = message.heapBytes;
        this.settle(task, () => task.resolve(message.phonemes));
        break;
      case 'aborted':
        this.settle(task, () =>
          task.reject(task.signal ? abortReason(task.signal) : new EspeakEngineError('synthesis aborted')),
        );
        break;
      case 'error':
        this.settle(task, () => task.reject(new EspeakEngineError(message.message)));
        break;
    }
    this.dispatch();
  }

  private onExit(thread: EngineThread, error: Error): void {
    if (thread.exited) {
      return;
    }
    thread.exited = true;
    const wasMember = this.threads.delete(thread);
    const task = thread.current;
    thread.current = undefined;
    if (task) {
      this.settle(task, () =>
        task.reject(new EspeakEngineError(`the espeak engine failed: ${error.message}`)),
      );
    }
    if (wasMember && !this.stopped) {
      this.options.log?.warn('An espeak engine thread stopped; it will be replaced on demand', {
        error: error.message,
      });
      this.dispatch();
    }
  }

  private abortTask(task: Task): void {
    const index = this.queue.indexOf(task);
    if (index >= 0) {
      this.queue.splice(index, 1);
      this.settle(task, () =>
        task.reject(task.signal ? abortReason(task.signal) : new EspeakEngineError('aborted')),
      );
      return;
    }
    for (const thread of this.threads) {
      if (thread.current === task) {
        Atomics.store(thread.abort, 0, task.id); // the thread answers `aborted` within one audio block
      }
    }
  }

  private settle(task: Task, settle: () => void): void {
    if (task.signal && task.onAbort) {
      task.signal.removeEventListener('abort', task.onAbort);
    }
    settle();
  }
}
