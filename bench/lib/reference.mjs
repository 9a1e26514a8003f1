// The reference runtime: PyPI `piper-tts` in a throwaway virtualenv the bench creates once and caches, driven
// through bench/reference.py (one JSON request per line).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

/** The reference Piper release the figures are compared with. */
export const PIPER_TTS_VERSION = '1.8.0';

const STAMP = '.chorus-bench-requirements';

function pipInstall(venv, requirements, log) {
  const pip = join(venv, 'bin', 'pip');
  const result = spawnSync(
    pip,
    ['install', '--disable-pip-version-check', '--no-input', '--quiet', ...requirements],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 600_000 },
  );
  if (result.status !== 0) {
    const detail = (result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' | ');
    log(`pip install ${requirements.join(' ')} failed: ${detail}`);
    return false;
  }
  return true;
}

/**
 * Makes sure `venv` holds piper-tts (pinned) with the same onnxruntime release as onnxruntime-node, so the two
 * runtimes differ in their bindings and orchestration, not in the kernels. Falls back to the onnxruntime that
 * piper-tts picks when that release is not on the index for this platform. Returns the venv's python and what
 * was installed, or throws with the reason.
 */
export function ensureReferenceVenv({ venv, python, onnxruntimeVersion, log }) {
  const wanted = [`piper-tts==${PIPER_TTS_VERSION}`, `onnxruntime==${onnxruntimeVersion}`];
  const venvPython = join(venv, 'bin', 'python');
  const stamp = join(venv, STAMP);
  if (existsSync(venvPython) && existsSync(stamp)) {
    const recorded = readFileSync(stamp, 'utf8').trim();
    if (recorded === wanted.join(' ') || recorded === `${wanted[0]} (onnxruntime unpinned)`) {
      return { python: venvPython, requirements: recorded };
    }
  }
  log(`creating the reference virtualenv in ${venv} (piper-tts ${PIPER_TTS_VERSION}, once)`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  const created = spawnSync(python, ['-m', 'venv', venv], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (created.status !== 0) {
    throw new Error(
      `\`${python} -m venv\` failed (${(created.stderr || created.error?.message || '').trim()}); ` +
        'install python3-venv, or set PYTHON',
    );
  }
  let recorded = wanted.join(' ');
  if (!pipInstall(venv, wanted, log)) {
    recorded = `${wanted[0]} (onnxruntime unpinned)`;
    if (!pipInstall(venv, [wanted[0]], log)) {
      throw new Error(`could not install ${wanted[0]} from the Python package index`);
    }
  }
  writeFileSync(stamp, `${recorded}\n`);
  return { python: venvPython, requirements: recorded };
}

/** A running bench/reference.py. */
export class ReferenceRuntime {
  constructor(python, script) {
    this.child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.waiting = [];
    this.child.stderr.on('data', (chunk) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const next = this.waiting.shift();
      if (!next) {
        return;
      }
      try {
        const answer = JSON.parse(line);
        if (answer.ok) {
          next.resolve(answer);
        } else {
          next.reject(new Error(`reference runtime: ${answer.error}`));
        }
      } catch (error) {
        next.reject(error);
      }
    });
    this.child.on('exit', (code) => {
      for (const next of this.waiting.splice(0)) {
        next.reject(new Error(`reference runtime exited (${code}): ${this.stderr.trim()}`));
      }
    });
  }

  /** One request; answers come back in order. */
  request(body) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${JSON.stringify(body)}\n`);
    });
  }

  get pid() {
    return this.child.pid;
  }

  stop() {
    if (this.child.exitCode === null) {
      this.child.stdin.end();
      this.child.kill('SIGTERM');
    }
  }
}
