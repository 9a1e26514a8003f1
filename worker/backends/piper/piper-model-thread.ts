import { Worker } from 'node:worker_threads';

import { abortReason } from '../../runtime/abort';
import type {
  FromPiperThread,
  PiperProvider,
  PiperSynthesisTask,
  PiperThreadData,
  ToPiperThread,
} from './piper-protocol';

export class PiperThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PiperThreadError';
  }
}

/** The model was unloaded while the task waited or ran. */
export class PiperStoppedError extends PiperThreadError {
  constructor() {
    super('the Piper model was unloaded');
    this.name = 'PiperStoppedError';
  }
}

export interface PiperThreadInfo {
  provider: PiperProvider;
  cudaError?: string;
  inputNames: string[];
  loadMs: number;
}

interface Task {
  id: number;
  task: PiperSynthesisTask;
  resolve(pcm: Int16Array): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  settled: boolean;
}

/**
 * One loaded Piper model: a worker thread holding its ONNX session, fed one sentence task at a time from a FIFO.
 * Concurrent requests on the model therefore interleave sentence by sentence. An aborted task leaves the queue at
 * once; one already running finishes in the thread (a sentence takes well under a second) and its audio is
 * dropped.
 */
export class PiperModelThread {
  private readonly queue: Task[] = [];
  private current?: Task;
  private nextId = 1;
  private stopped = false;
  private exited = false;
  private released?: () => void;

  private constructor(
    private readonly worker: Worker,
    readonly info: PiperThreadInfo,
  ) {}

  /** Starts the thread and resolves once the model is loaded and has run once. */
  static start(entry: string, data: PiperThreadData, timeoutMs = 120_000): Promise<PiperModelThread> {
    const worker = new Worker(entry, { workerData: data, name: 'piper' });
    return new Promise<PiperModelThread>((resolve, reject) => {
      let thread: PiperModelThread | undefined;
      let failed = false;
      const fail = (error: Error) => {
        if (!thread && !failed) {
          failed = true;
          clearTimeout(timer);
          void worker.terminate();
          reject(error);
        }
      };
      const timer = setTimeout(
        () => fail(new PiperThreadError('the Piper model did not load in time')),
        timeoutMs,
      );
      timer.unref();
      worker.on('message', (message: FromPiperThread) => {
        if (thread) {
          thread.onMessage(message);
        } else if (failed) {
          return;
        } else if (message.type === 'ready') {
          clearTimeout(timer);
          thread = new PiperModelThread(worker, {
            provider: message.provider,
            cudaError: message.cudaError,
            inputNames: message.inputNames,
            loadMs: message.loadMs,
          });
          resolve(thread);
        } else if (message.type === 'init-error') {
          fail(new PiperThreadError(`the Piper model could not be loaded: ${message.message}`));
        }
      });
      worker.on('error', (error) => (thread ? thread.onExit(error) : fail(error)));
      worker.on('exit', (code) => {
        const error = new PiperThreadError(`the Piper model thread exited (code ${code})`);
        return thread ? thread.onExit(error) : fail(error);
      });
    });
  }

  get alive(): boolean {
    return !this.stopped && !this.exited;
  }

  /** Runs one task (the sentences of one of the worker's sentences). Rejects with the signal's reason on abort. */
  synthesize(task: PiperSynthesisTask, signal?: AbortSignal): Promise<Int16Array> {
    if (!this.alive) {
      return Promise.reject(
        this.stopped ? new PiperStoppedError() : new PiperThreadError('the Piper model thread stopped'),
      );
    }
    if (signal?.aborted) {
      return Promise.reject(abortReason(signal));
    }
    return new Promise<Int16Array>((resolve, reject) => {
      const entry: Task = { id: this.nextId++, task, resolve, reject, signal, settled: false };
      if (signal) {
        entry.onAbort = () => {
          const index = this.queue.indexOf(entry);
          if (index >= 0) {
            this.queue.splice(index, 1);
          }
          this.settle(entry, () => reject(abortReason(signal)));
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      this.dispatch();
    });
  }

  stats(): { busy: boolean; queued: number } {
    return { busy: this.current !== undefined, queued: this.queue.length };
  }

  /** Fails queued work, releases the ONNX session in the thread and ends the thread. Idempotent. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    const error = new PiperStoppedError();
    for (const task of this.queue.splice(0)) {
      this.settle(task, () => task.reject(error));
    }
    if (this.current) {
      const task = this.current;
      this.settle(task, () => task.reject(error));
    }
    if (!this.exited) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        this.released = () => {
          clearTimeout(timer);
          resolve();
        };
        // Waits for a running inference to finish, then releases the session's native memory.
        this.worker.postMessage({ type: 'release' } satisfies ToPiperThread);
      });
    }
    await this.worker.terminate();
  }

  private dispatch(): void {
    if (this.current || this.exited) {
      return;
    }
    const task = this.queue.shift();
    if (!task) {
      return;
    }
    this.current = task;
    this.worker.postMessage({ type: 'synthesize', id: task.id, task: task.task } satisfies ToPiperThread);
  }

  private onMessage(message: FromPiperThread): void {
    if (message.type === 'released') {
      this.released?.();
      return;
    }
    if (message.type !== 'audio' && message.type !== 'error') {
      return;
    }
    const task = this.current;
    if (!task || task.id !== message.id) {
      return;
    }
    this.current = undefined;
    if (message.type === 'audio') {
      this.settle(task, () => task.resolve(message.pcm));
    } else {
      this.settle(task, () =>
        task.reject(new PiperThreadError(`Piper inference failed: ${message.message}`)),
      );
    }
    this.dispatch();
  }

  private onExit(error: Error): void {
    if (this.exited) {
      return;
    }
    this.exited = true;
    this.released?.();
    const failure = this.stopped
      ? new PiperStoppedError()
      : new PiperThreadError(`the Piper model thread failed: ${error.message}`);
    for (const task of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) {
      this.settle(task, () => task.reject(failure));
    }
    this.current = undefined;
  }

  private settle(task: Task, settle: () => void): void {
    if (task.settled) {
      return;
    }
    task.settled = true;
    if (task.signal && task.onAbort) {
      task.signal.removeEventListener('abort', task.onAbort);
    }
    settle();
  }
}
