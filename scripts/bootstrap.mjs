#!/usr/bin/env node
// The two commands of the quick start: `npm start` and `npm test`. Each installs what is missing (npm
// dependencies of the root and of the client, the builds, the test fixtures) and then runs. Plain Node, no
// dependencies, so it works on a fresh clone before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Environment for installs: onnxruntime-node must not fetch CUDA libraries; no telemetry prompts. */
const installEnv = {
  ...process.env,
  ONNXRUNTIME_NODE_INSTALL: process.env.ONNXRUNTIME_NODE_INSTALL ?? 'skip',
  SCARF_ANALYTICS: 'false',
  NG_CLI_ANALYTICS: 'false',
  ADBLOCK: '1',
  DISABLE_OPENCOLLECTIVE: '1',
};

function log(message) {
  process.stdout.write(`\x1b[36m[chorus]\x1b[0m ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: installEnv, ...options });
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit code ${result.status ?? result.signal}`;
    throw new Error(`\`${command} ${args.join(' ')}\` failed (${why})`);
  }
}

function hashFile(file) {
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'none';
}

/** Installs npm dependencies of a package folder when the lockfile changed since the last install. */
function ensureNpmDependencies(dir, label) {
  const lock = join(dir, 'package-lock.json');
  const stamp = join(dir, 'node_modules', '.chorus-install-stamp');
  const wanted = `${hashFile(lock)} ${hashFile(join(dir, 'package.json'))}`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) {
    return;
  }
  log(`installing ${label} dependencies…`);
  // `npm install`, not `npm ci`: the lockfile pins versions either way, and `npm ci` refuses lockfiles that lack
  // other platforms' optional binaries, which registries that mirror only some platforms leave out.
  run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir });
  writeFileSync(stamp, wanted);
}

/** A fingerprint of every file under the given folders (path, size, mtime): cheap and good enough for rebuilds. */
function fingerprint(paths) {
  const hash = createHash('sha256');
  const walk = (path) => {
    if (!existsSync(path)) {
      return;
    }
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name !== 'node_modules' && name !== 'dist' && name !== '.angular') {
          walk(join(path, name));
        }
      }
    } else {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  paths.forEach((path) => walk(join(root, path)));
  return hash.digest('hex');
}

const BUILDS = [
  {
    name: 'api',
    inputs: ['src', 'migrations', 'worker/contract', 'tsconfig.json', 'nest-cli.json'],
    output: 'dist/api/src/main.js',
    script: 'build:api',
  },
  {
    name: 'worker',
    inputs: ['worker', 'tsconfig.json', 'nest-cli.json'],
    output: 'dist/worker/main.js',
    script: 'build:worker',
  },
  {
    name: 'client',
    inputs: [
      'client/src',
      'client/angular.json',
      'client/package.json',
      'client/tsconfig.json',
      'client/tsconfig.app.json',
    ],
    output: 'client/dist/client/browser/index.html',
    script: 'build:client',
  },
];

function ensureBuilt() {
  const stampDir = join(root, 'dist');
  mkdirSync(stampDir, { recursive: true });
  for (const build of BUILDS) {
    const stamp = join(stampDir, `.build-stamp-${build.name}`);
    const wanted = fingerprint(build.inputs);
    if (existsSync(join(root, build.output)) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) {
      continue;
    }
    log(`building ${build.name}…`);
    run('npm', ['run', '--silent', build.script]);
    writeFileSync(stamp, wanted);
  }
}

/**
 * Debian packages outside npm: PocketSphinx (the worker's offline recogniser) for everyone; sox, espeak-ng,
 * PocketSphinx test recordings and Chromium (browser tests) for the test run. Installed with apt-get when running
 * as root (CI, containers); otherwise the missing ones are named so the user can install them.
 */
const RUNTIME_PACKAGES = ['pocketsphinx', 'pocketsphinx-en-us'];
const TEST_PACKAGES = [
  ...RUNTIME_PACKAGES,
  'pocketsphinx-testdata',
  'sox',
  'libsox-fmt-all',
  'espeak-ng',
  'chromium',
];

function missingDebianPackages(packages) {
  return packages.filter((name) => {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return result.status !== 0 || !result.stdout.includes('install ok installed');
  });
}

function ensureSystemPackages(packages, required) {
  if (process.platform !== 'linux' || spawnSync('which', ['dpkg-query']).status !== 0) {
    if (required) {
      log(`not a Debian-like system: make sure these are installed: ${packages.join(', ')}`);
    }
    return;
  }
  const missing = missingDebianPackages(packages);
  if (missing.length === 0) {
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    const message = `missing system packages: ${missing.join(' ')} — install them with: sudo apt-get install -y ${missing.join(' ')}`;
    if (required) {
      throw new Error(message);
    }
    log(`${message} (transcription with PocketSphinx stays unavailable until then)`);
    return;
  }
  log(`installing system packages: ${missing.join(' ')}…`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env: aptEnv });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env: aptEnv });
}

function ensureInstalledAndBuilt() {
  ensureNpmDependencies(root, 'service');
  ensureNpmDependencies(join(root, 'client'), 'client');
  ensureBuilt();
}

function start() {
  ensureSystemPackages(RUNTIME_PACKAGES, false);
  ensureInstalledAndBuilt();
  const dataDir = resolve(process.env.DATA_DIR ?? join(root, 'data'));
  const apiPort = process.env.PORT ?? '8090';
  const workerPort = process.env.INFERENCE_PORT ?? '8000';
  const workerEnv = {
    ...process.env,
    PORT: workerPort,
    INFERENCE_MODELS_PATH: process.env.INFERENCE_MODELS_PATH ?? join(dataDir, 'models'),
    PACKAGES_DIR: process.env.PACKAGES_DIR ?? join(dataDir, 'packages'),
  };
  const apiEnv = {
    ...process.env,
    PORT: apiPort,
    DATA_DIR: dataDir,
    INFERENCE_URL: process.env.INFERENCE_URL ?? `http://localhost:${workerPort}`,
  };
  const children = [
    spawn(process.execPath, [join(root, 'dist/worker/main.js')], {
      cwd: root,
      env: workerEnv,
      stdio: 'inherit',
    }),
    spawn(process.execPath, [join(root, 'dist/api/src/main.js')], {
      cwd: root,
      env: apiEnv,
      stdio: 'inherit',
    }),
  ];
  log(
    `main service on http://localhost:${apiPort} (API docs: /api/docs), worker on http://localhost:${workerPort}; data in ${dataDir}. Ctrl-C stops both.`,
  );
  let exiting = false;
  const stopAll = (signal) => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      exiting = true;
      stopAll('SIGTERM');
    });
  }
  let remaining = children.length;
  let code = 0;
  for (const child of children) {
    child.on('exit', (exitCode, signal) => {
      remaining--;
      if (!exiting) {
        // One service stopping on its own takes the other down: a half-running pair only confuses.
        exiting = true;
        code = exitCode ?? 1;
        log(`a service exited (${exitCode ?? signal}); stopping the other`);
        stopAll('SIGTERM');
      }
      if (remaining === 0) {
        process.exit(code);
      }
    });
  }
}

function test() {
  ensureSystemPackages(TEST_PACKAGES, true);
  ensureInstalledAndBuilt();
  log('checking test fixtures…');
  run(process.execPath, [join(root, 'scripts/fixtures.mjs')]);
  const steps = [
    ['type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
    ['lint', 'npx', ['eslint', '.']],
    ['format', 'npx', ['prettier', '--check', '.']],
    ['unit tests', 'npx', ['jest', '-c', 'jest.unit.config.js']],
    ['medium tests', 'npx', ['jest', '-c', 'jest.medium.config.js']],
    ['e2e tests', 'npx', ['jest', '-c', 'jest.e2e.config.js']],
  ];
  for (const [label, command, args] of steps) {
    log(`${label}…`);
    run(command, args);
  }
  log('all test tiers passed');
}

const command = process.argv[2];
try {
  if (command === 'start') {
    start();
  } else if (command === 'test') {
    test();
  } else if (command === 'setup') {
    ensureInstalledAndBuilt();
  } else {
    throw new Error('usage: bootstrap.mjs start|test|setup');
  }
} catch (error) {
  process.stderr.write(`\x1b[31m[chorus]\x1b[0m ${error.message}\n`);
  process.exit(1);
}
