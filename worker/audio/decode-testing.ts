/**
 * Test support (never imported by the app): runs thread entries such as `decode.thread.ts` from tests.
 *
 * ts-jest compiles only what Jest itself loads, and a worker thread is plain Node, so the entry and every
 * module it imports (followed through relative imports) are transpiled into a temporary tree with the same
 * layout, as the build does into `dist/`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

import * as ts from 'typescript';

const WORKER_ROOT = resolve(__dirname, '..');

export interface CompiledThread {
  /** Path of the compiled entry (`.js`). */
  entry: string;
  dir: string;
  cleanup(): void;
}

/** @param source the entry, relative to `worker/` (e.g. `audio/decode.thread.ts`). */
export function compileThreadEntry(source: string): CompiledThread {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-thread-'));
  const pending = [resolve(WORKER_ROOT, source)];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (done.has(file)) {
      continue;
    }
    done.add(file);
    const text = readFileSync(file, 'utf8');
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (imported.fileName.startsWith('.')) {
        pending.push(resolve(dirname(file), `${imported.fileName}.ts`));
      }
    }
    const output = ts.transpileModule(text, {
      compilerOptions: {
        module: ts.ModuleKind.Node16,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
      fileName: file,
    });
    const target = join(dir, relative(WORKER_ROOT, file).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
  }
  return {
    entry: join(dir, source.replace(/\.ts$/, '.js')),
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
