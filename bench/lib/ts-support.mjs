// Loads the tests' TypeScript support code (test/support/*.ts: process harness, hub mirror, recogniser) into
// this plain-Node bench, transpiled on the fly with the project's own `typescript`, so the bench drives the
// services exactly the way the e2e tier does instead of keeping a copy of that code.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

import ts from 'typescript';

const require = createRequire(import.meta.url);
const cache = new Map();

/** `require` of a `.ts` file (CommonJS semantics); relative imports inside it load the same way. */
export function requireTs(file) {
  const path = resolve(file.endsWith('.ts') ? file : `${file}.ts`);
  if (cache.has(path)) {
    return cache.get(path).exports;
  }
  const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
    },
  });
  const module = { exports: {} };
  cache.set(path, module);
  const localRequire = (specifier) =>
    specifier.startsWith('.') ? requireTs(resolve(dirname(path), specifier)) : require(specifier);
  new Function('exports', 'require', 'module', '__filename', '__dirname', outputText)(
    module.exports,
    localRequire,
    module,
    path,
    dirname(path),
  );
  return module.exports;
}
