import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const API_ENTRY = join(REPO_ROOT, 'dist', 'api', 'src', 'main.js');
export const WORKER_ENTRY = join(REPO_ROOT, 'dist', 'worker', 'main.js');

/** A free TCP port on loopback (the OS picks; closed again before use). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `chorus-${prefix}-`));
}

/** A built service running as a real child process, with its output captured for assertions and diagnosis. */
export class ServiceProcess {
  output = '';
  private exited?: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly url: string,
    readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  }

  /** Starts `entry` with `env` and waits until `readyPath` answers 200 (or the process dies). */
  static async start(options: {
    name: string;
    entry: string;
    port: number;
    env: Record<string, string>;
    readyPath: string;
    timeoutMs?: number;
  }): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [options.entry], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(options.name, `http://127.0.0.1:${options.port}`, child);
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        throw new Error(`${options.name} exited with ${child.exitCode} during start-up:\n${service.output}`);
      }
      try {
        const response = await fetch(`${service.url}${options.readyPath}`);
        if (response.ok) {
          return service;
        }
      } catch {
        // not listening yet
      }
      await new Promise((wait) => setTimeout(wait, 100));
    }
    child.kill('SIGKILL');
    throw new Error(`${options.name} did not become ready in time:\n${service.output}`);
  }

  /** Runs `entry` to completion (for start-up failures): resolves with its exit code and output. */
  static run(
    entry: string,
    env: Record<string, string>,
    timeoutMs = 30_000,
  ): Promise<{ code: number | null; output: string }> {
    return new Promise((resolveRun) => {
      const child = spawn(process.execPath, [entry], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolveRun({ code, output });
      });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

export interface Stack {
  api: ServiceProcess;
  worker: ServiceProcess;
  dataDir: string;
  modelsDir: string;
  stop(): Promise<void>;
}

/** Starts a worker and a main service wired to it, each on a free port with its own temp folders. */
export async function startStack(
  options: { apiEnv?: Record<string, string>; workerEnv?: Record<string, string> } = {},
): Promise<Stack> {
  const dataDir = tempDir('data');
  const modelsDir = join(dataDir, 'models');
  const workerPort = await freePort();
  const worker = await ServiceProcess.start({
    name: 'worker',
    entry: WORKER_ENTRY,
    port: workerPort,
    readyPath: '/health',
    env: {
      PORT: String(workerPort),
      INFERENCE_MODELS_PATH: modelsDir,
      PACKAGES_DIR: join(dataDir, 'packages'),
      ...options.workerEnv,
    },
  });
  const apiPort = await freePort();
  let api: ServiceProcess;
  try {
    api = await ServiceProcess.start({
      name: 'api',
      entry: API_ENTRY,
      port: apiPort,
      readyPath: '/api/version',
      env: {
        PORT: String(apiPort),
        DATA_DIR: dataDir,
        INFERENCE_URL: worker.url,
        FLEET_HEALTH_INTERVAL_MS: '500',
        ...options.apiEnv,
      },
    });
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return {
    api,
    worker,
    dataDir,
    modelsDir,
    async stop() {
      await Promise.all([api.stop(), worker.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it returns a value (not undefined) or the timeout passes. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
}
