import { Inject, Injectable } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';

/** How long one `npm install` may run before it is killed (large native packages take minutes). */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** Characters of npm's stderr kept for the error message. */
const STDERR_TAIL = 4_000;

export class NpmInstallError extends Error {
  constructor(
    message: string,
    /** The end of npm's stderr, for the log (not for the client: it may name local paths). */
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'NpmInstallError';
  }
}

/** How to start npm: the CLI next to the running Node binary when it is there, else `npm` on the PATH. */
export function npmCommand(execPath: string = process.execPath): { command: string; prefixArgs: string[] } {
  const nodeDir = dirname(execPath);
  const candidates = [
    join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Unix layouts (node images, nvm)
    join(nodeDir, 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Windows layout
  ];
  const cli = candidates.find((candidate) => existsSync(candidate));
  return cli ? { command: execPath, prefixArgs: [cli] } : { command: 'npm', prefixArgs: [] };
}

/**
 * The adapter around the `npm` child process (the only place the worker starts one). Arguments are passed as
 * an array, never through a shell; the child gets the trimmed environment of `config.packages.installEnv`.
 */
@Injectable()
export class NpmInstaller {
  private readonly env: Readonly<Record<string, string>>;

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.env = config.packages.installEnv;
  }

  /** `npm install --prefix <prefix> --no-audit --no-fund --omit=dev <specs...>`. */
  install(prefix: string, specs: readonly string[], signal?: AbortSignal): Promise<void> {
    const { command, prefixArgs } = npmCommand();
    const args = [
      ...prefixArgs,
      'install',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      '--omit=dev',
      '--no-update-notifier',
      ...specs,
    ];
    return new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: prefix,
        env: { ...this.env },
        stdio: ['ignore', 'ignore', 'pipe'],
        signal,
        timeout: INSTALL_TIMEOUT_MS,
        windowsHide: true,
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL);
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError') {
          reject(new NpmInstallError('the installation was cancelled', stderr));
        } else if (error.code === 'ENOENT') {
          reject(
            new NpmInstallError(
              'npm is not available on this worker, so backend packages cannot be installed',
            ),
          );
        } else {
          reject(new NpmInstallError(`npm could not be started (${error.code ?? error.message})`, stderr));
        }
      });
      child.once('close', (code, killedBy) => {
        if (code === 0) {
          resolve();
          return;
        }
        const how = killedBy ? `was stopped (${killedBy})` : `exited with code ${code}`;
        reject(new NpmInstallError(`npm install ${how}: ${lastErrorLine(stderr)}`, stderr));
      });
    });
  }
}

/** The most telling part of npm's stderr: its error code and first error line, else its last line. */
export function lastErrorLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const prefix = /^npm (?:error|ERR!)\s*/;
  const errors = lines.filter((line) => prefix.test(line)).map((line) => line.replace(prefix, ''));
  const code = errors.map((line) => /^code (\S+)$/.exec(line)?.[1]).find(Boolean);
  const detail = errors.find(
    (line) => line && !/^(code|syscall|path|errno) /.test(line) && !/^A complete log/.test(line),
  );
  const text = detail ? (code ? `${code}: ${detail}` : detail) : (lines.at(-1) ?? 'no output');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
