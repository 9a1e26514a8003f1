import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseWav } from '../../audio/wav';
import { parsePocketsphinxOutput } from './pocketsphinx-output';
import { PocketsphinxBackend } from './pocketsphinx.backend';

describe('parsePocketsphinxOutput', () => {
  it('joins the hypothesis of each utterance and drops markers and log lines', () => {
    expect(parsePocketsphinxOutput('go forward\n\nten meters\n')).toBe('go forward ten meters');
    expect(parsePocketsphinxOutput('INFO: cmd_ln.c(703): Parsing\n<s> hello <sil> world </s>\n')).toBe(
      'hello world',
    );
    expect(parsePocketsphinxOutput('hello world (utt-1 -12345)\n')).toBe('hello world');
    expect(parsePocketsphinxOutput('[NOISE]\n\n')).toBe('');
  });
});

/**
 * The backend around a stand-in executable (a shell script recording its arguments and input): the command
 * line, the temporary WAV, parsing and failures. The real recogniser runs in pocketsphinx.medium-spec.ts.
 */
describe('PocketsphinxBackend (stand-in executable)', () => {
  let dir: string;
  let modelDir: string;
  const signal = new AbortController().signal;
  const audio = { sampleRate: 48000, channels: 2, samples: new Float32Array(48000 * 2).fill(0.25) };

  function backend(script: string, binary = 'fake_pocketsphinx') {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'fake_pocketsphinx'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, 'fake_pocketsphinx'), 0o755);
    return new PocketsphinxBackend({
      binary,
      modelDir,
      concurrency: 1,
      tempDir: dir,
      searchPath: `/nonexistent:${bin}`,
    });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-ps-unit-'));
    modelDir = join(dir, 'model');
    mkdirSync(join(modelDir, 'en-us'), { recursive: true });
    writeFileSync(join(modelDir, 'en-us.lm.bin'), '');
    writeFileSync(join(modelDir, 'cmudict-en-us.dict'), '');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the recogniser on a 16 kHz mono WAV with the model files and parses its output', async () => {
    const ps = backend(
      `echo "$@" > "${dir}/args"; cp "$2" "${dir}/input.wav"; echo "hello there"; echo; echo "general kenobi"`,
    );
    expect(await ps.dependencies()).toMatchObject({ installed: true, packages: [] });
    await ps.load();
    await expect(
      ps.transcribe({ modelPath: 'pocketsphinx', audio, language: 'en-GB' }, signal),
    ).resolves.toEqual({
      text: 'hello there general kenobi',
      language: 'en',
    });
    const args = readFileSync(join(dir, 'args'), 'utf8').trim().split(' ');
    expect(args).toEqual([
      '-infile',
      expect.stringMatching(/chorus-pocketsphinx-.*\/input\.wav$/),
      '-hmm',
      join(modelDir, 'en-us'),
      '-lm',
      join(modelDir, 'en-us.lm.bin'),
      '-dict',
      join(modelDir, 'cmudict-en-us.dict'),
      '-samprate',
      '16000',
      '-logfn',
      '/dev/null',
    ]);
    expect(parseWav(readFileSync(join(dir, 'input.wav')))).toMatchObject({
      sampleRate: 16000,
      channels: 1,
      bitsPerSample: 16,
      frames: 16000,
    });
    // The temporary folder is gone.
    expect(readFileSync(join(dir, 'args'), 'utf8')).toContain(dir);
    expect(() => readFileSync(args[1])).toThrow();
  });

  it('reports a failing recogniser with its exit and error output', async () => {
    const ps = backend('echo "ERROR: model is corrupt" >&2; exit 3');
    await expect(ps.transcribe({ modelPath: 'pocketsphinx', audio, language: null }, signal)).rejects.toThrow(
      /pocketsphinx_continuous failed: .*ERROR: model is corrupt/,
    );
  });

  it('kills the recogniser when the signal aborts', async () => {
    const ps = backend('sleep 30');
    const controller = new AbortController();
    const started = performance.now();
    const pending = ps.transcribe({ modelPath: 'pocketsphinx', audio, language: null }, controller.signal);
    setTimeout(() => controller.abort(new Error('client gone')), 100);
    await expect(pending).rejects.toThrow('client gone');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('finds an absolute binary, and reports what is missing', async () => {
    const absolute = backend('true', join(dir, 'bin', 'fake_pocketsphinx'));
    expect((await absolute.dependencies()).installed).toBe(true);
    rmSync(join(modelDir, 'en-us.lm.bin'));
    expect(await backend('true', 'not_there').dependencies()).toEqual({
      installed: false,
      packages: [],
      detail: `not_there was not found; model files missing: ${join(modelDir, 'en-us.lm.bin')} (install the system packages pocketsphinx pocketsphinx-en-us)`,
    });
  });

  it('neither speaks nor recognises other languages', async () => {
    const ps = backend('true');
    await expect(ps.synthesize()).rejects.toMatchObject({
      data: { backend: { code: 'capability_not_supported' } },
    });
    await expect(
      ps.transcribe({ modelPath: 'pocketsphinx', audio, language: 'fr' }, signal),
    ).rejects.toMatchObject({
      data: { language: { code: 'unsupported_language' } },
    });
    expect(ps.resolveModelPath()).toBe('pocketsphinx');
    expect(ps.memoryBytes()).toBe(0);
  });
});
