#!/usr/bin/env node
// `npm run bench`: performance and fidelity of Chorus's Piper path, side by side with the reference runtime
// (PyPI piper-tts) in one run. Prints a table and writes bench/results/<date>.json. Timings are reported, never
// asserted. See the Performance section of README.md for what each figure means.
//
// Needs what `npm test` sets up: node_modules, the built services (dist/; built here when missing), the Piper
// test voice (scripts/fixtures.mjs; fetched here when missing), python3 with venv and pip (the reference
// runtime is installed once into node_modules/.cache/chorus-bench/venv, or $BENCH_VENV), and for the round trip
// sox + pocketsphinx (Debian packages, installed by `npm test`).
//
// Options: --quick (a few samples of everything, for trying the bench itself; figures are not comparable).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { ensureReferenceVenv, PIPER_TTS_VERSION, ReferenceRuntime } from './lib/reference.mjs';
import {
  compareSignals,
  fmt,
  median,
  ms,
  pct,
  percentile,
  ratio,
  round,
  signedMs,
  sum,
  table,
  wordErrors,
} from './lib/stats.mjs';
import { requireTs } from './lib/ts-support.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = join(ROOT, 'bench');
const require = createRequire(import.meta.url);

const QUICK = process.argv.includes('--quick');
/** Modest sample counts so the whole run fits in 15 minutes on 2 cores (printed with the results). */
const SAMPLES = QUICK
  ? {
      short: 3,
      paragraph: 1,
      long: 1,
      stream: 1,
      concurrencyWindowS: 4,
      audioParity: 2,
      roundTrip: 2,
      pulls: 1,
    }
  : {
      short: 20,
      paragraph: 7,
      long: 3,
      stream: 3,
      concurrencyWindowS: 15,
      audioParity: 6,
      roundTrip: 20,
      pulls: 3,
    };
const CONCURRENCY = [1, 4, 16];
/** Speed rounds stop early (keeping at least one) once the run has taken this long, to stay within 15 minutes. */
const SPEED_DEADLINE_S = QUICK ? Infinity : 540;
/** Likewise for the round trip through the recogniser, the last long step. */
const ROUND_TRIP_DEADLINE_S = QUICK ? Infinity : 800;
const HEALTH_IDLE_SAMPLES = QUICK ? 10 : 50;
/**
 * Pause before each timed synthesis: ONNX Runtime's intra-op threads spin for several milliseconds after a run,
 * and on 2 cores a runtime in another process (or another session) would otherwise start against them.
 */
const SETTLE_MS = 100;

const MODEL_ID = 'piper-en-us-joe-medium';
const PRESET_VOICE = 'joe';
const FIXTURE_MODEL = join(ROOT, 'test', '.fixtures', 'piper', 'en_US-joe-medium.onnx');
const HUB_ROOT = join(ROOT, 'test', '.fixtures', 'hub');

const TEXTS = {
  short: 'The quick brown fox jumps over the lazy dog.',
  paragraph: readFileSync(join(BENCH, 'corpus', 'paragraph.txt'), 'utf8').trim(),
  long: readFileSync(join(BENCH, 'corpus', 'long.txt'), 'utf8').trim(),
};
const TEXT_LABELS = { short: 'short sentence', paragraph: 'paragraph', long: '2,000 characters' };
const CONCURRENCY_TEXT = 'The weather forecast predicts heavy rain and strong winds along the coast tonight.';

const benchStarted = performance.now();
const elapsed = () => ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
const log = (message) => process.stderr.write(`[bench ${elapsed()}s] ${message}\n`);

/* ------------------------------------------------------------------------------------------------------------
 * Set-up
 * ---------------------------------------------------------------------------------------------------------- */

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    throw new Error(
      `${what}: \`${command} ${args.join(' ')}\` failed (${result.error?.message ?? result.status})`,
    );
  }
}

function ensurePrerequisites() {
  for (const [project, entry] of [
    ['api', 'dist/api/src/main.js'],
    ['worker', 'dist/worker/main.js'],
  ]) {
    if (!existsSync(join(ROOT, entry))) {
      log(`building the ${project} (${entry} is missing)`);
      run('npm', ['run', '--silent', `build:${project}`], `building the ${project}`);
    }
  }
  // Fetches the voice when missing, else only verifies it (as `npm test` does).
  run(process.execPath, [join(ROOT, 'scripts', 'fixtures.mjs')], 'the Piper test voice');
}

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux), or null. */
function cpuSeconds(pid) {
  try {
    // Fields after the command name, which is in brackets and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** Resident memory of a process in bytes (Linux), or null. */
function rss(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const mib = (bytes) => (bytes === null || bytes === undefined ? '—' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

/** A request, timed: seconds to the response headers, to the first body byte and to the end of the body. */
async function timedFetch(url, init = {}) {
  const started = performance.now();
  const response = await fetch(url, init);
  const headers = performance.now();
  const chunks = [];
  let firstByte;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      if (value.length > 0) {
        firstByte ??= performance.now();
        chunks.push(value);
      }
    }
  }
  const end = performance.now();
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.concat(chunks),
    headersS: (headers - started) / 1000,
    firstByteS: ((firstByte ?? end) - started) / 1000,
    totalS: (end - started) / 1000,
  };
}

function wavFromPcm(samples, sampleRate) {
  const header = Buffer.alloc(44);
  const bytes = samples.length * 2;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(bytes, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, bytes)]);
}

function int16FromBase64(text) {
  const bytes = Buffer.from(text, 'base64');
  return new Int16Array(new Uint8Array(bytes).buffer);
}

function concatInt16(parts) {
  const out = new Int16Array(sum(parts.map((part) => part.length)));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------
 * The paths being compared
 * ---------------------------------------------------------------------------------------------------------- */

/**
 * The worker's own code in this process (its Nest application context without HTTP), reading a copy of the
 * installed voice: GenerateService.generateAll is what POST /generate runs, and PiperBackend.inputIds gives the
 * ids the backend feeds the model.
 */
async function startInProcessWorker(stack, entry) {
  const variantDir = join(stack.modelsDir, entry.backend, entry.variant);
  const root = join(stack.dataDir, 'in-process');
  const copy = join(root, 'models', entry.backend, entry.variant);
  mkdirSync(copy, { recursive: true });
  for (const name of readdirSync(variantDir)) {
    try {
      linkSync(join(variantDir, name), join(copy, name));
    } catch {
      copyFileSync(join(variantDir, name), join(copy, name));
    }
  }
  Object.assign(process.env, {
    INFERENCE_MODELS_PATH: join(root, 'models'),
    PACKAGES_DIR: join(root, 'packages'),
    LOG_LEVEL: 'error',
    PORT: '0',
  });
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { loadWorkerConfigFromProcess } = require(join(ROOT, 'dist/worker/config/worker-config.js'));
  const { readAppInfo } = require(join(ROOT, 'dist/worker/config/app-info.js'));
  const { AppModule } = require(join(ROOT, 'dist/worker/app.module.js'));
  const { GenerateService } = require(join(ROOT, 'dist/worker/generate/generate.service.js'));
  const { PiperBackend } = require(join(ROOT, 'dist/worker/backends/piper/piper.backend.js'));
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot(loadWorkerConfigFromProcess(), readAppInfo(join(ROOT, 'dist', 'worker'))),
    { logger: false },
  );
  return { app, generate: app.get(GenerateService), piper: app.get(PiperBackend, { strict: false }) };
}

/** ONNX Runtime called directly on phoneme ids, with the worker's session settings: the floor. */
async function startBareSession(ort, threads) {
  const session = await ort.InferenceSession.create(FIXTURE_MODEL, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const withSpeaker = session.inputNames.includes('sid');
  return {
    session,
    /** Raw float audio of each sentence, and the seconds spent in run() (tensor set-up included). */
    async synthesize(sentences, scales) {
      const audio = [];
      let seconds = 0;
      for (const ids of sentences) {
        const started = performance.now();
        const feeds = {
          input: new ort.Tensor(
            'int64',
            BigInt64Array.from(ids, (id) => BigInt(id)),
            [1, ids.length],
          ),
          input_lengths: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
          scales: new ort.Tensor('float32', Float32Array.from(scales), [3]),
        };
        if (withSpeaker) {
          feeds.sid = new ort.Tensor('int64', BigInt64Array.of(0n), [1]);
        }
        const results = await session.run(feeds);
        seconds += (performance.now() - started) / 1000;
        audio.push(results[session.outputNames[0]].data);
      }
      return { audio, seconds };
    },
  };
}

/* ------------------------------------------------------------------------------------------------------------
 * Main
 * ---------------------------------------------------------------------------------------------------------- */

async function main() {
  const date = new Date();
  const results = {
    benchVersion: 1,
    date: date.toISOString(),
    quick: QUICK,
    machine: {
      cpuModel: cpus()[0]?.model?.trim() ?? 'unknown',
      cores: availableParallelism(),
      memoryGiB: round(totalmem() / 2 ** 30, 1),
      platform: `${platform()} ${release()}`,
      loadAverageAtStart: loadavg().map((value) => round(value, 2)),
    },
    versions: {
      chorus: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      node: process.version,
      onnxruntimeNode: packageVersion('onnxruntime-node'),
      espeakNgEmscripten: packageVersion('@echogarden/espeak-ng-emscripten'),
    },
    settings: { samples: SAMPLES, concurrency: CONCURRENCY },
    notes: [],
  };
  const notes = results.notes;

  ensurePrerequisites();
  // Other processes on the machine show up in the load average; it is printed with the figures.
  const loadSamples = [loadavg()[0]];
  const loadSampler = setInterval(() => loadSamples.push(loadavg()[0]), 5000);
  loadSampler.unref();
  const { startStack, waitFor } = requireTs(join(ROOT, 'test/support/processes.ts'));
  const { HubMirror } = requireTs(join(ROOT, 'test/support/hub-mirror.ts'));
  const { signUp } = requireTs(join(ROOT, 'test/support/accounts.ts'));
  const { recogniseWithPocketSphinx, words } = requireTs(join(ROOT, 'test/support/recognizer.ts'));
  const { parseWav } = requireTs(join(ROOT, 'test/support/wav.ts'));
  require('reflect-metadata');
  const { defaultPiperOptions } = require(join(ROOT, 'dist/worker/backends/piper/piper.backend.js'));
  const { toPiperPcm } = require(join(ROOT, 'dist/worker/backends/piper/piper-audio.js'));
  const { splitSentences } = require(join(ROOT, 'dist/worker/text/sentences.js'));
  const { readSseJson } = require(join(ROOT, 'dist/api/src/common/sse.js'));
  const ort = require('onnxruntime-node');

  const catalog = JSON.parse(readFileSync(join(ROOT, 'catalog.json'), 'utf8'));
  const entry = (Array.isArray(catalog) ? catalog : catalog.models).find((model) => model.id === MODEL_ID);
  const modelPath = `${entry.backend}/${entry.variant}`;
  const voiceConfig = JSON.parse(readFileSync(`${FIXTURE_MODEL}.json`, 'utf8'));
  const inference = voiceConfig.inference ?? {};
  const lengthScale = inference.length_scale ?? 1;
  const defaultScales = [inference.noise_scale ?? 0.667, lengthScale, inference.noise_w ?? 0.8];
  const sampleRate = voiceConfig.audio.sample_rate;
  const threads = defaultPiperOptions().intraOpNumThreads;
  results.settings.onnxThreads = threads;
  results.settings.sampleRate = sampleRate;
  results.settings.texts = Object.fromEntries(
    Object.entries(TEXTS).map(([key, text]) => [key, { characters: [...text].length }]),
  );

  // The reference runtime's virtualenv (cached) — before the services start, so pip has the machine.
  let referencePython = null;
  try {
    const venv = process.env.BENCH_VENV
      ? resolve(process.env.BENCH_VENV)
      : join(ROOT, 'node_modules', '.cache', 'chorus-bench', 'venv');
    const installed = ensureReferenceVenv({
      venv,
      python: process.env.PYTHON || 'python3',
      onnxruntimeVersion: results.versions.onnxruntimeNode,
      log,
    });
    referencePython = installed.python;
    results.settings.referenceRequirements = installed.requirements;
  } catch (error) {
    notes.push(`Reference runtime unavailable: ${error.message}. Its columns are empty.`);
    log(`reference runtime unavailable: ${error.message}`);
  }

  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) {
      await step().catch(() => undefined);
    }
  };
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    log('starting the local hub mirror, the worker and the main service');
    const hub = await HubMirror.start({ root: HUB_ROOT });
    cleanups.push(() => hub.stop());
    // The production health-probe period (startStack's default suits tests, not measurements).
    const stack = await startStack({ apiEnv: { HF_ENDPOINT: hub.url, FLEET_HEALTH_INTERVAL_MS: '15000' } });
    cleanups.push(() => stack.stop());
    const api = stack.api.url;
    const worker = stack.worker.url;
    const workerPid = stack.worker.child.pid;
    const apiPid = stack.api.child.pid;
    await waitFor(
      async () => {
        const health = await (await fetch(`${api}/api/health`)).json();
        return health.status === 'ok' ? true : undefined;
      },
      30_000,
      'the worker to be online',
    );
    const admin = await signUp(api, 'bench');
    const auth = { authorization: admin.authorization, 'content-type': 'application/json' };
    await sleep(2000);
    const memory = {
      workerIdle: rss(workerPid),
      apiIdle: rss(apiPid),
    };
    results.memory = memory;

    /* ---------------------------------------------------------------------------------------------------- 5 */
    log('pull: installing the voice from the local hub mirror, and a plain HTTP copy of the same files');
    const files = entry.files.map((file) => ({
      url: `${hub.url}/${file.repo ?? entry.repo}/resolve/${file.revision ?? entry.revision ?? 'main'}/${file.path}`,
      size: file.size,
    }));
    const totalBytes = sum(files.map((file) => file.size));
    for (const file of files) {
      // The mirror hashes each file once for its ETag; do it before anything is timed.
      await (await fetch(file.url, { method: 'HEAD' })).arrayBuffer();
    }
    const pullSeconds = [];
    for (let attempt = 0; attempt < SAMPLES.pulls; attempt++) {
      if (attempt > 0) {
        const removed = await fetch(`${api}/api/models/${MODEL_ID}`, { method: 'DELETE', headers: auth });
        await removed.arrayBuffer();
        if (removed.status !== 200) {
          notes.push(`Second pull skipped: DELETE /api/models/${MODEL_ID} answered ${removed.status}.`);
          break;
        }
      }
      const started = performance.now();
      const response = await fetch(`${api}/api/models/${MODEL_ID}/pull`, { headers: auth });
      if (response.status !== 200) {
        throw new Error(
          `pull: GET /api/models/${MODEL_ID}/pull answered ${response.status}: ${await response.text()}`,
        );
      }
      const finals = new Map();
      for await (const job of readSseJson(response.body)) {
        if (job && job.id && job.status) {
          finals.set(job.id, job);
        }
        if (
          finals.size > 0 &&
          [...finals.values()].every((j) => j.status === 'complete' || j.status === 'error')
        ) {
          break;
        }
      }
      const failed = [...finals.values()].find((job) => job.status !== 'complete');
      if (failed || finals.size === 0) {
        throw new Error(`pull failed: ${failed?.error ?? 'no job reported'}`);
      }
      pullSeconds.push((performance.now() - started) / 1000);
    }
    // The worker's model store on its own (POST /models/pull, what the main service's job drives).
    const workerPullSeconds = [];
    for (let attempt = 0; attempt < SAMPLES.pulls; attempt++) {
      const removed = await fetch(`${stack.worker.url}/models/${modelPath}`, { method: 'DELETE' });
      await removed.arrayBuffer();
      if (removed.status !== 200) {
        notes.push(`Worker-only pull skipped: DELETE /models/${modelPath} answered ${removed.status}.`);
        break;
      }
      const started = performance.now();
      const response = await fetch(`${stack.worker.url}/models/pull`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: hub.url, dest_path: modelPath, manifest: entry }),
      });
      let last;
      for await (const event of readSseJson(response.body)) {
        last = event;
        if (event.status === 'complete' || event.status === 'error') {
          break;
        }
      }
      if (response.status !== 200 || last?.status !== 'complete') {
        throw new Error(`worker pull failed (${response.status}): ${last?.message ?? 'no complete event'}`);
      }
      workerPullSeconds.push((performance.now() - started) / 1000);
    }
    const copySeconds = [];
    const syncedCopySeconds = [];
    const copyDir = join(stack.dataDir, 'plain-copy');
    mkdirSync(copyDir, { recursive: true });
    for (let attempt = 0; attempt < (QUICK ? 1 : 5); attempt++) {
      // Plain, then flushed to disk (the model store fsyncs what it installs, so that a crash never leaves a
      // half-written model that looks complete).
      for (const flush of [false, true]) {
        const started = performance.now();
        for (const [index, file] of files.entries()) {
          const target = join(copyDir, `file-${index}-${attempt}-${flush}`);
          const response = await fetch(file.url);
          await pipeline(Readable.fromWeb(response.body), createWriteStream(target));
          if (flush) {
            const handle = await open(target, 'r+');
            await handle.sync();
            await handle.close();
          }
        }
        (flush ? syncedCopySeconds : copySeconds).push((performance.now() - started) / 1000);
      }
    }
    rmSync(copyDir, { recursive: true, force: true });
    // What verifying the bytes costs on this machine: one sha256 pass over the same files.
    const hashStarted = performance.now();
    for (const name of readdirSync(join(stack.modelsDir, entry.backend, entry.variant))) {
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(join(stack.modelsDir, entry.backend, entry.variant, name))) {
        hash.update(chunk);
      }
      hash.digest();
    }
    const hashSeconds = (performance.now() - hashStarted) / 1000;
    results.pull = {
      sha256Seconds: round(hashSeconds),
      bytes: totalBytes,
      pullSeconds: pullSeconds.map((value) => round(value)),
      workerPullSeconds: workerPullSeconds.map((value) => round(value)),
      workerPullMBps: round(totalBytes / 1e6 / median(workerPullSeconds), 1),
      plainCopySeconds: copySeconds.map((value) => round(value)),
      pullMBps: round(totalBytes / 1e6 / median(pullSeconds), 1),
      plainCopyMBps: round(totalBytes / 1e6 / median(copySeconds), 1),
      syncedCopySeconds: syncedCopySeconds.map((value) => round(value)),
      syncedCopyMBps: round(totalBytes / 1e6 / median(syncedCopySeconds), 1),
      ratio: round(median(pullSeconds) / median(copySeconds), 2),
    };

    /* ------------------------------------------------------------------------------------- warm-up, memory */
    const workerBody = (text) =>
      JSON.stringify({
        backend: entry.backend,
        text,
        model_path: modelPath,
        voice_path: `${modelPath}/${PRESET_VOICE}`,
        speed: 1,
        language: 'en',
      });
    const apiBody = (text, stream = false) =>
      JSON.stringify({ model: MODEL_ID, input: text, voice: PRESET_VOICE, stream });
    const json = { 'content-type': 'application/json' };

    log('first request on the worker (loads the voice)');
    const cold = await timedFetch(`${worker}/generate`, {
      method: 'POST',
      headers: json,
      body: workerBody(TEXTS.short),
    });
    if (cold.status !== 200) {
      throw new Error(`worker /generate answered ${cold.status}: ${cold.body.toString()}`);
    }
    results.coldFirstRequestSeconds = round(cold.totalS);
    await sleep(500);
    memory.workerVoiceLoaded = rss(workerPid);

    log('starting the in-process worker, the bare ONNX Runtime session and the reference runtime');
    const inProcess = await startInProcessWorker(stack, entry);
    cleanups.push(() => inProcess.app.close());
    const bare = await startBareSession(ort, threads);
    cleanups.push(() => bare.session.release());
    let reference = null;
    if (referencePython) {
      reference = new ReferenceRuntime(referencePython, join(BENCH, 'reference.py'));
      cleanups.push(async () => reference.stop());
      const loaded = await reference.request({
        op: 'load',
        model: FIXTURE_MODEL,
        config: `${FIXTURE_MODEL}.json`,
        threads,
      });
      results.versions.piperTts = loaded.versions['piper-tts'];
      results.versions.onnxruntimePython = loaded.versions.onnxruntime;
      results.versions.python = loaded.versions.python;
      if (loaded.versions['piper-tts'] !== PIPER_TTS_VERSION) {
        notes.push(`The venv holds piper-tts ${loaded.versions['piper-tts']}, not ${PIPER_TTS_VERSION}.`);
      }
    }

    const signal = () => new globalThis.AbortController().signal;
    const inProcessRun = async (text) => {
      const started = performance.now();
      const audio = await inProcess.generate.generateAll(JSON.parse(workerBody(text)), signal());
      return {
        seconds: (performance.now() - started) / 1000,
        samples: sum(audio.chunks.map((c) => c.length)),
      };
    };
    await inProcessRun(TEXTS.short);
    /** The ids the worker feeds the model for a text: its sentence split, then the backend's phonemes per part. */
    const workerIds = async (text) => {
      const out = [];
      for (const sentence of splitSentences(text, { language: 'en' })) {
        out.push(...(await inProcess.piper.inputIds(modelPath, sentence)));
      }
      return out;
    };
    const ids = {};
    for (const key of Object.keys(TEXTS)) {
      ids[key] = await workerIds(TEXTS[key]);
    }

    /* ------------------------------------------------------------------------------------------ 1 and 2 */
    const paths = {
      api: async (text) => {
        const r = await timedFetch(`${api}/api/generate`, {
          method: 'POST',
          headers: auth,
          body: apiBody(text),
        });
        if (r.status !== 200) {
          throw new Error(`/api/generate answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
        }
        return { seconds: r.totalS, firstByteS: r.firstByteS, audioS: parseWav(r.body).durationSeconds };
      },
      worker: async (text) => {
        const r = await timedFetch(`${worker}/generate`, {
          method: 'POST',
          headers: json,
          body: workerBody(text),
        });
        if (r.status !== 200) {
          throw new Error(`worker /generate answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
        }
        return { seconds: r.totalS, firstByteS: r.firstByteS, audioS: parseWav(r.body).durationSeconds };
      },
      inProcess: async (text) => {
        const r = await inProcessRun(text);
        return { seconds: r.seconds, audioS: r.samples / sampleRate };
      },
      bare: async (_text, key) => {
        const r = await bare.synthesize(ids[key], defaultScales);
        return { seconds: r.seconds, audioS: sum(r.audio.map((a) => a.length)) / sampleRate };
      },
    };
    if (reference) {
      paths.reference = async (text) => {
        const r = await reference.request({ op: 'synth', text });
        return { seconds: r.seconds, audioS: r.samples / r.sample_rate };
      };
      paths.referenceIds = async (_text, key) => {
        const r = await reference.request({ op: 'synth_ids', sentences: ids[key] });
        return { seconds: r.seconds, audioS: r.samples / r.sample_rate };
      };
    }
    log(`warming up ${Object.keys(paths).length} paths`);
    for (const fn of Object.values(paths)) {
      await fn(TEXTS.short, 'short');
      await fn(TEXTS.paragraph, 'paragraph');
    }
    const samples = {};
    for (const key of Object.keys(TEXTS)) {
      samples[key] = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
      log(`speed: ${TEXT_LABELS[key]} × ${SAMPLES[key]} rounds over ${Object.keys(paths).length} paths`);
      // Round robin, so that drift in the machine's load hits every path alike.
      for (let round_ = 0; round_ < SAMPLES[key]; round_++) {
        if (round_ > 0 && (performance.now() - benchStarted) / 1000 > SPEED_DEADLINE_S) {
          notes.push(
            `${TEXT_LABELS[key]}: ${round_} of ${SAMPLES[key]} rounds, stopped to stay within the time budget ` +
              '(the machine is slower or busier than 2 idle cores).',
          );
          break;
        }
        for (const [name, fn] of Object.entries(paths)) {
          await sleep(SETTLE_MS);
          samples[key][name].push(await fn(TEXTS[key], key));
        }
      }
    }
    memory.workerVoiceLoadedAfterRuns = rss(workerPid);
    const summary = (list) => ({
      n: list.length,
      p50: round(median(list.map((s) => s.seconds)), 4),
      p95: round(
        percentile(
          list.map((s) => s.seconds),
          95,
        ),
        4,
      ),
      min: round(Math.min(...list.map((s) => s.seconds)), 4),
      audioSeconds: round(median(list.map((s) => s.audioS)), 3),
      rtf: round(median(list.map((s) => s.seconds / s.audioS)), 4),
      firstByteP50:
        list[0]?.firstByteS === undefined ? undefined : round(median(list.map((s) => s.firstByteS)), 4),
      samplesSeconds: list.map((s) => round(s.seconds, 4)),
    });
    results.speed = {};
    for (const key of Object.keys(TEXTS)) {
      const row = Object.fromEntries(
        Object.entries(samples[key]).map(([name, list]) => [name, summary(list)]),
      );
      const ratios = (of) => ({
        workerVsReference: round(of('worker', 'reference'), 3),
        workerVsFloor: round(of('worker', 'bare'), 3),
        referenceVsFloor: round(of('reference', 'bare'), 3),
        inProcessVsReference: round(of('inProcess', 'reference'), 3),
        floorVsReferenceFloor: round(of('bare', 'referenceIds'), 3),
      });
      const list = (name) => samples[key][name] ?? [];
      // Paired: the two samples of one round were taken seconds apart, so a burst of outside load on the
      // machine skews one ratio rather than a whole column.
      row.ratios = ratios((a, b) =>
        median(
          list(a)
            .slice(0, list(b).length)
            .map((sample, i) => sample.seconds / list(b)[i].seconds),
        ),
      );
      row.ratiosOfP50 = ratios((a, b) => (row[a]?.p50 ?? NaN) / (row[b]?.p50 ?? NaN));
      row.ratiosOfMinima = ratios((a, b) => (row[a]?.min ?? NaN) / (row[b]?.min ?? NaN));
      results.speed[key] = row;
    }

    /* ------------------------------------------------------------------------------------------------ 3 */
    log(`streaming: ${TEXT_LABELS.long} through the main service × ${SAMPLES.stream}`);
    const streamRuns = [];
    const wholeRuns = [];
    for (let i = 0; i < SAMPLES.stream; i++) {
      // Alternating with the whole-WAV request, so both meet the same machine.
      const r = await timedFetch(`${api}/api/generate`, {
        method: 'POST',
        headers: auth,
        body: apiBody(TEXTS.long, true),
      });
      if (r.status !== 200) {
        throw new Error(`/api/generate (stream) answered ${r.status}`);
      }
      streamRuns.push({
        firstByteS: r.firstByteS,
        totalS: r.totalS,
        audioS: r.body.length / 2 / Number(r.headers.get('x-sample-rate') ?? sampleRate),
      });
      const whole = await paths.api(TEXTS.long, 'long');
      wholeRuns.push(whole);
    }
    results.streaming = {
      text: TEXT_LABELS.long,
      streamFirstByteP50: round(median(streamRuns.map((r) => r.firstByteS)), 4),
      streamTotalP50: round(median(streamRuns.map((r) => r.totalS)), 4),
      wholeFirstByteP50: round(median(wholeRuns.map((r) => r.firstByteS)), 4),
      wholeTotalP50: round(median(wholeRuns.map((r) => r.seconds)), 4),
      audioSeconds: round(median(streamRuns.map((r) => r.audioS)), 2),
      n: streamRuns.length,
    };
    results.streaming.firstAudioShareOfWhole = round(
      results.streaming.streamFirstByteP50 / results.streaming.wholeTotalP50,
      4,
    );

    /* ------------------------------------------------------------------------------------------------ 4 */
    const healthOnce = async () => {
      const started = performance.now();
      const response = await fetch(`${api}/api/health`);
      await response.arrayBuffer();
      return { seconds: (performance.now() - started) / 1000, ok: response.status === 200 };
    };
    const idleHealth = [];
    for (let i = 0; i < HEALTH_IDLE_SAMPLES; i++) {
      idleHealth.push((await healthOnce()).seconds);
    }
    results.healthIdle = {
      n: idleHealth.length,
      p50: round(median(idleHealth), 4),
      p99: round(percentile(idleHealth, 99), 4),
    };
    results.concurrency = [];
    for (const clients of CONCURRENCY) {
      log(`concurrency: ${clients} client(s) for ${SAMPLES.concurrencyWindowS} s through the main service`);
      const latencies = [];
      const errors = {};
      let audioSeconds = 0;
      const health = [];
      let healthErrors = 0;
      const apiMemory = [];
      const workerMemory = [];
      const started = performance.now();
      const deadline = started + SAMPLES.concurrencyWindowS * 1000;
      const client = async () => {
        while (performance.now() < deadline) {
          try {
            const r = await timedFetch(`${api}/api/generate`, {
              method: 'POST',
              headers: auth,
              body: apiBody(CONCURRENCY_TEXT),
            });
            if (r.status === 200) {
              latencies.push(r.totalS);
              audioSeconds += parseWav(r.body).durationSeconds;
            } else {
              errors[r.status] = (errors[r.status] ?? 0) + 1;
            }
          } catch (error) {
            errors[error.message] = (errors[error.message] ?? 0) + 1;
          }
        }
      };
      let loaded = true;
      const poller = (async () => {
        while (loaded) {
          try {
            const r = await healthOnce();
            health.push(r.seconds);
            healthErrors += r.ok ? 0 : 1;
          } catch {
            healthErrors++;
          }
          await sleep(100);
        }
      })();
      const sampler = setInterval(() => {
        apiMemory.push(rss(apiPid));
        workerMemory.push(rss(workerPid));
      }, 250);
      const cpuBefore = { api: cpuSeconds(apiPid), worker: cpuSeconds(workerPid), bench: process.cpuUsage() };
      await Promise.all(Array.from({ length: clients }, client));
      const wallS = (performance.now() - started) / 1000;
      const benchCpu = process.cpuUsage(cpuBefore.bench);
      loaded = false;
      await poller;
      clearInterval(sampler);
      results.concurrency.push({
        clients,
        requests: latencies.length,
        wallSeconds: round(wallS, 2),
        audioSecondsPerWallSecond: round(audioSeconds / wallS, 2),
        latencyP50: round(median(latencies), 4),
        latencyP95: round(percentile(latencies, 95), 4),
        errors: sum(Object.values(errors)),
        errorKinds: errors,
        healthN: health.length,
        healthP50: round(median(health), 4),
        healthP99: round(percentile(health, 99), 4),
        healthErrors,
        apiRssMax: Math.max(...apiMemory.filter((value) => value !== null), 0) || null,
        workerRssMax: Math.max(...workerMemory.filter((value) => value !== null), 0) || null,
        // Cores busy on average over the level, per process (2.0 = both cores of a 2-core machine).
        cpuCores: {
          worker: round((cpuSeconds(workerPid) - cpuBefore.worker) / wallS, 2),
          api: round((cpuSeconds(apiPid) - cpuBefore.api) / wallS, 2),
          benchClients: round((benchCpu.user + benchCpu.system) / 1e6 / wallS, 2),
        },
      });
    }
    memory.apiUnderLoad = results.concurrency.at(-1).apiRssMax;
    memory.workerUnderLoad = results.concurrency.at(-1).workerRssMax;

    /* ------------------------------------------------------------------------------------------------ 7 */
    const corpus = readFileSync(join(BENCH, 'corpus', 'sentences.txt'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    results.fidelity = { corpusSentences: corpus.length };
    if (reference) {
      log(`fidelity (a): phoneme ids of ${corpus.length} sentences`);
      const referenceIds = (await reference.request({ op: 'ids', texts: corpus })).results;
      const idMap = voiceConfig.phoneme_id_map;
      const byId = new Map();
      for (const [phoneme, list] of Object.entries(idMap)) {
        if (list.length === 1 && !['_', '^', '$'].includes(phoneme)) {
          byId.set(list[0], phoneme);
        }
      }
      const decode = (sentences) => sentences.map((list) => list.map((id) => byId.get(id) ?? '').join(''));
      let equalWorker = 0;
      let equalBackend = 0;
      let equalJoined = 0;
      const mismatches = [];
      for (const [index, text] of corpus.entries()) {
        const expected = JSON.stringify(referenceIds[index].ids);
        const viaWorker = await workerIds(text);
        const viaBackend = await inProcess.piper.inputIds(modelPath, text);
        const workerEqual = JSON.stringify(viaWorker) === expected;
        equalWorker += workerEqual ? 1 : 0;
        equalBackend += JSON.stringify(viaBackend) === expected ? 1 : 0;
        const joined = (sentences) => JSON.stringify(sentences.map((list) => list.slice(1, -1)).flat());
        const joinedEqual = joined(viaWorker) === joined(referenceIds[index].ids);
        equalJoined += joinedEqual ? 1 : 0;
        if (!workerEqual) {
          mismatches.push({
            text,
            kind: joinedEqual ? 'sentence split only' : 'phonemes',
            ours: decode(viaWorker),
            reference: referenceIds[index].phonemes,
          });
        }
      }
      results.fidelity.phonemeIds = {
        sentences: corpus.length,
        equalShare: round(equalWorker / corpus.length, 4),
        equalShareBackendWholeText: round(equalBackend / corpus.length, 4),
        equalShareIgnoringSentenceSplit: round(equalJoined / corpus.length, 4),
        mismatches,
      };

      log(`fidelity (b): audio with noise scales at 0, ${SAMPLES.audioParity} sentences`);
      const zero = [0, lengthScale, 0];
      const parityTexts = pick(corpus, SAMPLES.audioParity);
      const sameText = [];
      const sameIds = [];
      for (const text of parityTexts) {
        const ours = await bare.synthesize(await workerIds(text), zero);
        const ourPcm = concatInt16(ours.audio.map((audio) => toPiperPcm(audio)));
        const theirs = await reference.request({
          op: 'synth',
          text,
          noise_scale: 0,
          noise_w: 0,
          audio: true,
        });
        sameText.push({ text, ...compareSignals(int16FromBase64(theirs.audio), ourPcm) });
        const refIds = (await reference.request({ op: 'ids', texts: [text] })).results[0].ids;
        const oursOnRef = await bare.synthesize(refIds, zero);
        const theirsOnRef = await reference.request({
          op: 'synth_ids',
          sentences: refIds,
          noise_scale: 0,
          noise_w: 0,
          audio: true,
        });
        sameIds.push({
          text,
          ...compareSignals(
            int16FromBase64(theirsOnRef.audio),
            concatInt16(oursOnRef.audio.map((a) => toPiperPcm(a))),
          ),
        });
      }
      const aggregate = (list) => ({
        sentences: list.length,
        identical: list.filter((c) => c.maxAbsDifference === 0 && c.referenceSamples === c.ourSamples).length,
        sameLength: list.filter((c) => c.referenceSamples === c.ourSamples).length,
        maxAbsDifference: Math.max(...list.map((c) => c.maxAbsDifference)),
        minSnrDb: round(Math.min(...list.map((c) => c.snrDb)), 2),
        medianSnrDb: round(median(list.map((c) => c.snrDb)), 2),
        perSentence: list.map((c) => ({
          ...c,
          snrDb: round(c.snrDb, 2),
          identicalShare: round(c.identicalShare, 4),
        })),
      });
      results.fidelity.audio = { sameText: aggregate(sameText), sameIds: aggregate(sameIds) };

      log(`fidelity (c): round trip through PocketSphinx, ${SAMPLES.roundTrip} sentences`);
      const plain = corpus.filter(
        (text) => /^[A-Za-z ,.'?!]+$/.test(text) && text.length >= 35 && text.length <= 80,
      );
      const roundTexts = pick(plain, SAMPLES.roundTrip);
      const trips = [];
      try {
        for (const text of roundTexts) {
          if (trips.length > 0 && (performance.now() - benchStarted) / 1000 > ROUND_TRIP_DEADLINE_S) {
            notes.push(
              `Round trip: ${trips.length} of ${roundTexts.length} sentences, stopped for the time budget.`,
            );
            break;
          }
          const ours = await timedFetch(`${worker}/generate`, {
            method: 'POST',
            headers: json,
            body: workerBody(text),
          });
          const theirs = await reference.request({ op: 'synth', text, audio: true });
          const [heardOurs, heardTheirs] = await Promise.all([
            recogniseWithPocketSphinx(ours.body),
            recogniseWithPocketSphinx(wavFromPcm(int16FromBase64(theirs.audio), theirs.sample_rate)),
          ]);
          const expected = words(text);
          trips.push({
            text,
            ours: heardOurs,
            reference: heardTheirs,
            words: expected.length,
            oursErrors: wordErrors(expected, words(heardOurs)),
            referenceErrors: wordErrors(expected, words(heardTheirs)),
          });
        }
        const total = sum(trips.map((t) => t.words));
        results.fidelity.roundTrip = {
          recogniser: 'pocketsphinx_continuous (en-us), via sox at 16 kHz',
          sentences: trips.length,
          words: total,
          werOurs: round(sum(trips.map((t) => t.oursErrors)) / total, 4),
          werReference: round(sum(trips.map((t) => t.referenceErrors)) / total, 4),
          oursBetter: trips.filter((t) => t.oursErrors < t.referenceErrors).length,
          referenceBetter: trips.filter((t) => t.oursErrors > t.referenceErrors).length,
          perSentence: trips,
        };
      } catch (error) {
        notes.push(
          `Round trip not measured: ${error.message} (needs sox, pocketsphinx, pocketsphinx-en-us).`,
        );
      }
    } else {
      notes.push('Fidelity needs the reference runtime: not measured.');
    }

    /* ------------------------------------------------------------------------------------------------ 6 */
    log('memory: unloading the voice on the worker');
    const unload = await fetch(`${worker}/models/unload`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ backend: entry.backend, model_path: modelPath }),
    });
    results.unloadStatus = unload.status === 200 ? (await unload.json()).status : `HTTP ${unload.status}`;
    await sleep(3000);
    memory.workerAfterUnload = rss(workerPid);
    // Load and unload a few times more: memory the allocator keeps for reuse stays level, a leak grows.
    memory.workerAfterLaterUnloads = [];
    for (let cycle = 0; cycle < (QUICK ? 1 : 5); cycle++) {
      await timedFetch(`${worker}/generate`, {
        method: 'POST',
        headers: json,
        body: workerBody(TEXTS.paragraph),
      });
      await (
        await fetch(`${worker}/models/unload`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ backend: entry.backend, model_path: modelPath }),
        })
      ).arrayBuffer();
      await sleep(1500);
      memory.workerAfterLaterUnloads.push(rss(workerPid));
    }
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  clearInterval(loadSampler);
  results.machine.loadAverageAtEnd = loadavg().map((value) => round(value, 2));
  results.machine.loadAverage1mDuringRun = {
    min: round(Math.min(...loadSamples), 2),
    median: round(median(loadSamples), 2),
    max: round(Math.max(...loadSamples), 2),
  };
  results.elapsedSeconds = round((performance.now() - benchStarted) / 1000, 1);
  explain(results);
  const report = render(results);
  process.stdout.write(`${report}\n`);

  const resultsDir = join(BENCH, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = date
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const file = join(resultsDir, `${stamp}${QUICK ? '-quick' : ''}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  log(`wrote ${file.slice(ROOT.length + 1)}`);
}

/** `count` items spread evenly over `list`. */
function pick(list, count) {
  if (list.length <= count) {
    return [...list];
  }
  return Array.from({ length: count }, (_, index) => list[Math.floor((index * list.length) / count)]);
}

/* ------------------------------------------------------------------------------------------------------------
 * Why we are behind, where we are: derived from the figures of this run
 * ---------------------------------------------------------------------------------------------------------- */

function explain(results) {
  const notes = results.notes;
  for (const [key, row] of Object.entries(results.speed ?? {})) {
    if (!row.reference) {
      continue;
    }
    const label = TEXT_LABELS[key];
    const gap = row.worker.p50 - row.reference.p50;
    if (!(row.ratios.workerVsReference > 1.05)) {
      continue;
    }
    // The fastest sample of each path is the one least disturbed by outside load: split the gap with those.
    const http = row.worker.min - row.inProcess.min;
    const pipeline = row.inProcess.min - row.bare.min;
    const runtime = row.bare.min - row.referenceIds.min;
    const refPhonemes = row.reference.min - row.referenceIds.min;
    notes.push(
      `${label}: the worker takes ${ratio(row.ratios.workerVsReference)} piper-tts's time (${signedMs(gap)} at ` +
        `the p50). Split, from the fastest sample of ` +
        `each path (worker ${ms(row.worker.min)}, piper-tts ${ms(row.reference.min)}): HTTP + Nest + WAV encoding ` +
        `${signedMs(http)} (worker − in-process); our pipeline around the model (sentence split, espeak-ng as ` +
        `WebAssembly in its thread, thread hops, 16-bit conversion) ${signedMs(pipeline)} (in-process − bare ONNX Runtime), ` +
        `against ${signedMs(refPhonemes)} for piper-tts's own phonemes (native espeak-ng) and conversion; ONNX Runtime binding ` +
        `${signedMs(runtime)} (onnxruntime-node − Python onnxruntime, same ids, same threads). Parts of ` +
        'opposite sign or larger than the gap are noise from other load on the machine.',
    );
  }
  const ids = results.fidelity?.phonemeIds;
  if (ids && ids.equalShare < 1) {
    const splitOnly = ids.mismatches.filter((m) => m.kind === 'sentence split only').length;
    notes.push(
      `Phoneme ids: ${ids.mismatches.length} of ${ids.sentences} sentences differ from piper-tts ` +
        `(${splitOnly} only in where a sentence is split, ${ids.mismatches.length - splitOnly} in phonemes); ` +
        'see fidelity.phonemeIds.mismatches in the JSON. Likely sources: the worker phonemizes with the ' +
        'eSpeak NG emscripten build (@echogarden/espeak-ng-emscripten) and finds clause terminators itself, ' +
        "while piper-tts links its own eSpeak NG and gets them from espeak's clause callback.",
    );
  }
  const pull = results.pull;
  if (pull && pull.ratio > 1.5) {
    const gap = median(pull.pullSeconds) - median(pull.plainCopySeconds);
    notes.push(
      `Pull: installing through the main service takes ${ratio(pull.ratio)} a plain copy (${fmt(gap, 3)} s ` +
        `more). The worker's store alone takes ${fmt(median(pull.workerPullSeconds), 3)} s, so the main ` +
        `service's job (job records, SSE relay) adds ${fmt(median(pull.pullSeconds) - median(pull.workerPullSeconds), 3)} s. ` +
        `Flushing the copy to disk as the store does (fsync) brings the copy to ` +
        `${fmt(median(pull.syncedCopySeconds), 3)} s; hashing the bytes costs at most ${fmt(pull.sha256Seconds, 3)} s ` +
        'here; the rest is the store staging .part files, checking sizes, moving them and writing the manifest.',
    );
  }
  const memory = results.memory;
  if (
    memory?.workerAfterUnload &&
    memory.workerIdle &&
    memory.workerAfterUnload - memory.workerIdle > 50 * 2 ** 20
  ) {
    const series = [memory.workerAfterUnload, ...(memory.workerAfterLaterUnloads ?? [])];
    const steps = series.slice(1).map((value, index) => value - series[index]);
    const slowing = steps.length >= 2 && steps.at(-1) < steps[0] / 2;
    const flat = steps.length >= 2 && Math.abs(steps.at(-1)) < 4 * 2 ** 20;
    notes.push(
      `Memory: unloading the voice does not give its memory back to the system: the worker stays ` +
        `${mib(memory.workerAfterUnload - memory.workerIdle)} above its idle RSS (${mib(memory.workerIdle)}); ` +
        `after each further load + unload: ${series.slice(1).map(mib).join(', ')}. ` +
        (flat
          ? `It levels off at ${mib(series.at(-1))}: memory the native allocator keeps for reuse (ONNX ` +
            "Runtime's arena, the espeak thread's WebAssembly heap) after the threads end, not a per-cycle leak."
          : slowing
            ? 'The growth slows down cycle after cycle (levelling off, as memory the native allocator keeps for ' +
              'reuse does), but it is not flat: worth a longer run before calling it a leak or not.'
            : 'It keeps growing by similar steps: a leak to chase (the ended model and phonemizer threads).'),
    );
  }
  const levels = results.concurrency ?? [];
  const best = levels.reduce(
    (a, b) => (b.audioSecondsPerWallSecond > (a?.audioSecondsPerWallSecond ?? 0) ? b : a),
    null,
  );
  const last = levels.at(-1);
  if (
    best &&
    last &&
    last !== best &&
    last.audioSecondsPerWallSecond < 0.85 * best.audioSecondsPerWallSecond
  ) {
    notes.push(
      `Concurrency: ${last.clients} clients produce ${fmt(last.audioSecondsPerWallSecond, 2)} audio s per s against ` +
        `${fmt(best.audioSecondsPerWallSecond, 2)} with ${best.clients}; cores used (worker / main / clients) ` +
        `${last.cpuCores.worker} / ${last.cpuCores.api} / ${last.cpuCores.benchClients} against ` +
        `${best.cpuCores.worker} / ${best.cpuCores.api} / ${best.cpuCores.benchClients}. When the worker gets ` +
        'fewer cores while the main service and the clients stay small, the cores went to other processes ' +
        '(see the load average) or the worker could not keep both busy.',
    );
  }
  const audio = results.fidelity?.audio;
  const trip = results.fidelity?.roundTrip;
  if (
    audio &&
    trip &&
    audio.sameText.identical === audio.sameText.sentences &&
    trip.werOurs !== trip.werReference
  ) {
    notes.push(
      `Round trip: with the noise scales at 0 both runtimes give bit-identical audio for the same text (7b), so ` +
        `the WER difference (${pct(trip.werOurs)} vs ${pct(trip.werReference)}) comes from the random noise ` +
        'each side draws at the default scales, and from PocketSphinx, not from a difference in synthesis.',
    );
  }
  if (audio && audio.sameIds.identical < audio.sameIds.sentences) {
    notes.push(
      'Audio on identical ids is not bit-identical: the two ONNX Runtime builds (onnxruntime-node and the Python ' +
        'wheel) may pick different kernels or reduction orders; the SNR shows how far apart they are.',
    );
  }
}

/* ------------------------------------------------------------------------------------------------------------
 * The printed report
 * ---------------------------------------------------------------------------------------------------------- */

function render(r) {
  const out = [];
  const section = (title) => out.push('', title, '='.repeat([...title].length));
  out.push(
    `Chorus bench — ${r.date}${r.quick ? ' (QUICK: too few samples to compare)' : ''}`,
    `Machine: ${r.machine.cpuModel}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.platform}; ` +
      `1-min load average during the run ${r.machine.loadAverage1mDuringRun.min}–${r.machine.loadAverage1mDuringRun.max} ` +
      `(median ${r.machine.loadAverage1mDuringRun.median}; above the core count means other processes competed)`,
    `Versions: Node ${r.versions.node}, onnxruntime-node ${r.versions.onnxruntimeNode}, ` +
      `piper-tts ${r.versions.piperTts ?? '—'} (Python ${r.versions.python ?? '—'}, onnxruntime ` +
      `${r.versions.onnxruntimePython ?? '—'}), espeak-ng-emscripten ${r.versions.espeakNgEmscripten}, Chorus ${r.versions.chorus}`,
    `Voice: ${MODEL_ID} (${r.settings.sampleRate} Hz); ONNX Runtime intra-op threads: ${r.settings.onnxThreads} on every side`,
    `Samples (modest, to fit 15 min on 2 cores): short ${r.settings.samples.short}, paragraph ${r.settings.samples.paragraph}, ` +
      `2,000 chars ${r.settings.samples.long} per path; stream ${r.settings.samples.stream}; ` +
      `${r.settings.samples.concurrencyWindowS} s per concurrency level; p95 of fewer than 20 samples is close to the max`,
  );

  if (r.speed) {
    section('1. Piper speed vs the reference runtime (p50 seconds, real-time factor = time / audio)');
    const names = {
      worker: 'Chorus worker (HTTP /generate)',
      inProcess: 'Chorus worker code in-process',
      reference: 'piper-tts (text to audio)',
      referenceIds: 'piper-tts, on our ids (model only)',
      bare: 'bare onnxruntime-node (floor)',
    };
    const rows = [];
    for (const [key, row] of Object.entries(r.speed)) {
      for (const [name, label] of Object.entries(names)) {
        if (row[name]) {
          rows.push([
            `${TEXT_LABELS[key]} (${r.settings.texts[key].characters} ch, ${fmt(row[name].audioSeconds, 1)} s audio)`,
            label,
            fmt(row[name].p50, 3),
            fmt(row[name].rtf, 4),
          ]);
        }
      }
    }
    out.push(table(['text', 'runtime', 'p50 s', 'RTF'], rows));
    out.push('');
    out.push(
      'Ratios: median of the per-round ratios (in brackets: ratio of the fastest samples); both resist outside load:',
    );
    out.push(
      table(
        [
          'text',
          'worker ÷ piper-tts',
          'worker ÷ floor',
          'piper-tts ÷ floor',
          'in-process ÷ piper-tts',
          'node ORT ÷ py ORT',
        ],
        Object.entries(r.speed).map(([key, row]) => [
          TEXT_LABELS[key],
          ...[
            'workerVsReference',
            'workerVsFloor',
            'referenceVsFloor',
            'inProcessVsReference',
            'floorVsReferenceFloor',
          ].map((name) => `${ratio(row.ratios[name])} (${ratio(row.ratiosOfMinima[name])})`),
        ]),
      ),
    );

    section('2. Orchestration overhead (latency, seconds)');
    const overheadRows = [];
    for (const [key, row] of Object.entries(r.speed)) {
      for (const [name, label] of [
        ['api', 'main service /api/generate'],
        ['worker', 'worker /generate'],
        ['inProcess', 'in-process synthesis'],
      ]) {
        overheadRows.push([
          TEXT_LABELS[key],
          label,
          row[name].n,
          fmt(row[name].p50, 3),
          fmt(row[name].p95, 3),
          name === 'inProcess' ? '' : signedMs(row[name].p50 - row.inProcess.p50),
        ]);
      }
    }
    out.push(table(['text', 'path', 'n', 'p50', 'p95', 'p50 over in-process'], overheadRows));
    out.push(`Cold first request on the worker (loads the voice): ${fmt(r.coldFirstRequestSeconds, 3)} s`);
  }

  if (r.streaming) {
    const s = r.streaming;
    section(`3. Streaming through the main service (${s.text}, ${fmt(s.audioSeconds, 1)} s of audio, p50)`);
    out.push(
      table(
        ['request', 'first audio byte', 'whole result'],
        [
          ['stream: true (PCM)', `${fmt(s.streamFirstByteP50, 3)} s`, `${fmt(s.streamTotalP50, 3)} s`],
          ['stream: false (WAV)', `${fmt(s.wholeFirstByteP50, 3)} s`, `${fmt(s.wholeTotalP50, 3)} s`],
        ],
      ),
    );
    out.push(
      `First streamed audio arrives after ${pct(s.firstAudioShareOfWhole)} of the time the whole WAV takes.`,
    );
  }

  if (r.concurrency) {
    section('4. Concurrency through the main service (one sentence per request)');
    out.push(
      table(
        [
          'clients',
          'requests',
          'audio s / wall s',
          'p50 latency',
          'p95 latency',
          'errors',
          '/api/health p99',
          'cores: worker / main / clients',
        ],
        r.concurrency.map((c) => [
          c.clients,
          c.requests,
          fmt(c.audioSecondsPerWallSecond, 2),
          `${fmt(c.latencyP50, 3)} s`,
          `${fmt(c.latencyP95, 3)} s`,
          c.errors,
          ms(c.healthP99),
          `${fmt(c.cpuCores.worker, 2)} / ${fmt(c.cpuCores.api, 2)} / ${fmt(c.cpuCores.benchClients, 2)}`,
        ]),
      ),
    );
    out.push(
      `/api/health idle: p50 ${ms(r.healthIdle.p50)}, p99 ${ms(r.healthIdle.p99)} (${r.healthIdle.n} requests)`,
    );
  }

  if (r.pull) {
    const p = r.pull;
    section(`5. Pull throughput (${(p.bytes / 1e6).toFixed(1)} MB from the local hub mirror, median)`);
    out.push(
      table(
        ['transfer', 'seconds', 'MB/s'],
        [
          ['install through /api/models/:id/pull', fmt(median(p.pullSeconds), 3), fmt(p.pullMBps, 1)],
          [
            'install, worker alone (POST /models/pull)',
            fmt(median(p.workerPullSeconds), 3),
            fmt(p.workerPullMBps, 1),
          ],
          ['plain HTTP copy of the same files', fmt(median(p.plainCopySeconds), 3), fmt(p.plainCopyMBps, 1)],
          ['plain HTTP copy + fsync', fmt(median(p.syncedCopySeconds), 3), fmt(p.syncedCopyMBps, 1)],
        ],
      ),
    );
    out.push(
      `Install ÷ plain copy: ${ratio(p.ratio)}. The install also hashes every byte (one sha256 pass over these ` +
        `files takes ${fmt(p.sha256Seconds, 3)} s here), stages .part files, moves them into place, writes a ` +
        'manifest and reports progress through the main service.',
    );
  }

  if (r.memory) {
    const m = r.memory;
    section('6. Memory (VmRSS of the service processes)');
    out.push(
      table(
        ['process', 'state', 'RSS'],
        [
          ['worker', 'idle (nothing loaded)', mib(m.workerIdle)],
          ['worker', 'voice loaded (first request)', mib(m.workerVoiceLoaded)],
          ['worker', 'voice loaded (after the speed runs)', mib(m.workerVoiceLoadedAfterRuns)],
          ['worker', '16 clients (max)', mib(m.workerUnderLoad)],
          ['worker', `after POST /models/unload (${r.unloadStatus ?? '—'})`, mib(m.workerAfterUnload)],
          [
            'worker',
            `after ${m.workerAfterLaterUnloads?.length ?? 0} more load + unload cycles`,
            (m.workerAfterLaterUnloads ?? []).map(mib).join(', '),
          ],
          ['main service', 'idle', mib(m.apiIdle)],
          ['main service', '16 clients (max)', mib(m.apiUnderLoad)],
        ],
      ),
    );
  }

  const f = r.fidelity;
  if (f?.phonemeIds) {
    section('7. Fidelity against piper-tts');
    const p = f.phonemeIds;
    out.push(
      `(a) Phoneme ids equal to piper-tts's: ${pct(p.equalShare)} of ${p.sentences} sentences as the worker speaks ` +
        `them (sentence split, then phonemes); ${pct(p.equalShareBackendWholeText)} phonemizing each sentence ` +
        `whole; ${pct(p.equalShareIgnoringSentenceSplit)} ignoring where sentences are split.`,
    );
    for (const mismatch of p.mismatches.slice(0, 8)) {
      out.push(`    ${mismatch.kind}: ${JSON.stringify(mismatch.text)}`);
      out.push(`      ours:      ${mismatch.ours.join(' | ')}`);
      out.push(`      piper-tts: ${mismatch.reference.join(' | ')}`);
    }
    if (p.mismatches.length > 8) {
      out.push(`    … ${p.mismatches.length - 8} more in the JSON`);
    }
    if (f.audio) {
      const row = (label, a) => [
        label,
        `${a.identical}/${a.sentences}`,
        `${a.sameLength}/${a.sentences}`,
        a.maxAbsDifference,
        `${fmt(a.minSnrDb, 1)} dB`,
        `${fmt(a.medianSnrDb, 1)} dB`,
      ];
      out.push(
        "(b) Audio with noise_scale = noise_w = 0 (16-bit PCM, ours by onnxruntime-node + the worker's PCM conversion):",
      );
      out.push(
        table(
          ['input', 'bit-identical', 'same length', 'max |diff|', 'min SNR', 'median SNR'],
          [
            row('same text (each side its own ids)', f.audio.sameText),
            row('same ids (runtime only)', f.audio.sameIds),
          ],
        ),
      );
    }
    if (f.roundTrip) {
      out.push(
        `(c) Round trip through ${f.roundTrip.recogniser}, ${f.roundTrip.sentences} sentences, ${f.roundTrip.words} words: ` +
          `WER ours ${pct(f.roundTrip.werOurs)}, piper-tts ${pct(f.roundTrip.werReference)} (default noise scales); ` +
          `fewer errors: ours in ${f.roundTrip.oursBetter} sentences, piper-tts in ${f.roundTrip.referenceBetter}.`,
      );
    }
  }

  if (r.notes.length > 0) {
    section('Notes');
    for (const note of r.notes) {
      out.push(`- ${note}`);
    }
  }
  out.push('', `Total time: ${fmt(r.elapsedSeconds, 0)} s`);
  return out.join('\n');
}

main().catch((error) => {
  process.stderr.write(`[bench] FAILED: ${error?.stack ?? error}\n`);
  process.exit(1);
});
