import { ChildProcess, SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const API_ENTRY = join(REPO_ROOT, 'dist', 'api', 'src', 'main.js');
export const WORKER_ENTRY = join(REPO_ROOT, 'dist', 'worker', 'main.js');
export const SUPERUSER_CLI = join(REPO_ROOT, 'dist', 'api', 'src', 'cli', 'superuser.js');

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

/** An unreachable worker URL, for main services started without a worker. */
const NO_WORKER = 'http://127.0.0.1:9';

/** Starts the built main service on a free port with `dataDir` (no worker unless `INFERENCE_URL` is given). */
export async function startApi(dataDir: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  return ServiceProcess.start({
    name: 'api',
    entry: API_ENTRY,
    port,
    readyPath: '/api/version',
    env: { PORT: String(port), DATA_DIR: dataDir, INFERENCE_URL: NO_WORKER, ...env },
  });
}

/** Starts the built worker (on `env.PORT`, else a free port) with its models and packages under `dir`. */
export async function startWorker(
  dir: string,
  env: Record<string, string> = {},
  name = 'worker',
): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  return ServiceProcess.start({
    name,
    entry: WORKER_ENTRY,
    port,
    readyPath: '/health',
    env: {
      PORT: String(port),
      INFERENCE_MODELS_PATH: join(dir, 'models'),
      PACKAGES_DIR: join(dir, 'packages'),
      ...env,
    },
  });
}

/** Runs the real superuser CLI (`upsert <email> <password>`, `delete <email>`) against `dataDir`. */
export function runSuperuserCli(dataDir: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [SUPERUSER_CLI, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });
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
  const worker = await startWorker(dataDir, options.workerEnv);
  let api: ServiceProcess;
  try {
    api = await startApi(dataDir, {
      INFERENCE_URL: worker.url,
      FLEET_HEALTH_INTERVAL_MS: '500',
      ...options.apiEnv,
    });
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return {
    api,
    worker,
    dataDir,
    modelsDir: join(dataDir, 'models'),
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
