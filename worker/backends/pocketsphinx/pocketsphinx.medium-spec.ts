import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { DecodedAudio } from '../../audio/wav';
import { decodeWav } from '../../audio/wav';
import { loadWorkerConfig } from '../../config/worker-config';
import { editDistance, wordErrorRate, words } from '../../transcribe/word-error-rate';
import { PocketsphinxBackend, type PocketsphinxOptions } from './pocketsphinx.backend';

/**
 * The real recogniser (Debian packages pocketsphinx, pocketsphinx-en-us) on the real recordings of
 * pocketsphinx-testdata, whose transcripts are known, and on espeak-ng speech.
 */
jest.setTimeout(120_000);

const TESTDATA = '/usr/share/pocketsphinx/test/data';
const config = loadWorkerConfig({ PATH: process.env.PATH }, { hostname: 'test' });
const options: PocketsphinxOptions = { ...config.transcription.pocketsphinx, concurrency: 2 };

function rawPcm16k(path: string): DecodedAudio {
  const raw = readFileSync(path);
  const samples = new Float32Array(raw.length / 2);
  for (let i = 0; i < samples.length; i++) {
    samples[i] = raw.readInt16LE(i * 2) / 0x8000;
  }
  return { sampleRate: 16_000, channels: 1, samples };
}

/** `<s> text </s> (id)` lines → id → text. */
function transcripts(path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^(.*)\((\S+)\)\s*$/.exec(line.trim());
    if (match) {
      out.set(match[2], match[1].replace(/<\/?s>/g, '').trim());
    }
  }
  return out;
}

describe('PocketsphinxBackend (real pocketsphinx_continuous)', () => {
  const backend = new PocketsphinxBackend(options);
  const signal = new AbortController().signal;
  const recognise = async (audio: DecodedAudio, language: string | null = null) =>
    backend.transcribe({ modelPath: 'pocketsphinx', audio, language }, signal);

  beforeAll(async () => {
    const dependencies = await backend.dependencies();
    if (!dependencies.installed) {
      throw new Error(
        `PocketSphinx is not installed (${dependencies.detail}): apt-get install pocketsphinx pocketsphinx-en-us pocketsphinx-testdata`,
      );
    }
    expect(existsSync(join(TESTDATA, 'goforward.raw'))).toBe(true);
    await backend.load();
  });

  it('recognises goforward.raw exactly', async () => {
    const result = await recognise(rawPcm16k(join(TESTDATA, 'goforward.raw')));
    expect(result).toEqual({ text: 'go forward ten meters', language: 'en' });
  });

  it('recognises the LibriVox and card recordings with most words right', async () => {
    const cases = [
      ...[...transcripts(join(TESTDATA, 'librivox/transcription'))].map(([id, text]) => ({
        file: join(TESTDATA, 'librivox', `${id}.wav`),
        text,
      })),
      ...[...transcripts(join(TESTDATA, 'cards/cards.transcription'))].map(([id, text]) => ({
        file: join(TESTDATA, 'cards', `${id}.wav`),
        text,
      })),
    ];
    expect(cases.length).toBe(10);
    let errors = 0;
    let total = 0;
    const lines: string[] = [];
    const results = await Promise.all(
      cases.map(async ({ file, text }) => ({
        text,
        hypothesis: (await recognise(decodeWav(readFileSync(file)))).text,
      })),
    );
    for (const { text, hypothesis } of results) {
      errors += editDistance(words(text), words(hypothesis));
      total += words(text).length;
      lines.push(`${wordErrorRate(text, hypothesis).toFixed(2)}  ${text}  →  ${hypothesis}`);
    }
    const wer = errors / total;
    process.stdout.write(
      `PocketSphinx on pocketsphinx-testdata: WER ${(wer * 100).toFixed(1)} % over ${total} words\n${lines.join('\n')}\n`,
    );
    expect(wer).toBeLessThan(0.45); // 39 % with Debian 12's pocketsphinx 0.8+5prealpha
  });

  it('recognises espeak-ng speech (klatt voice) with at least half of the words right', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chorus-ps-espeak-'));
    try {
      const sentences = [
        'the weather today is sunny and warm',
        'i would like a cup of coffee',
        'turn left at the next street',
        'my name is john and i live in new york',
      ];
      let errors = 0;
      let total = 0;
      for (const [index, sentence] of sentences.entries()) {
        const wav = join(dir, `${index}.wav`);
        execFileSync('espeak-ng', ['-v', 'en-us+klatt', '-s', '150', '-w', wav, sentence]);
        const decoded = decodeWav(readFileSync(wav)); // 22050 Hz: the backend resamples to 16 kHz
        const { text } = await recognise(decoded, 'en-US');
        errors += editDistance(words(sentence), words(text));
        total += words(sentence).length;
      }
      process.stdout.write(
        `PocketSphinx on espeak-ng speech: WER ${((errors / total) * 100).toFixed(1)} %\n`,
      );
      expect(errors / total).toBeLessThan(0.5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses languages other than English', async () => {
    await expect(recognise(rawPcm16k(join(TESTDATA, 'goforward.raw')), 'de')).rejects.toMatchObject({
      data: { language: { code: 'unsupported_language' } },
    });
  });

  it('stops the recogniser when the signal aborts and leaves no temporary files', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('chorus-pocketsphinx-')).length;
    const controller = new AbortController();
    const long = rawPcm16k(join(TESTDATA, 'goforward.raw'));
    const repeated = new Float32Array(long.samples.length * 20);
    for (let i = 0; i < 20; i++) {
      repeated.set(long.samples, i * long.samples.length);
    }
    const started = performance.now();
    const pending = backend.transcribe(
      { modelPath: 'pocketsphinx', audio: { ...long, samples: repeated }, language: null },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('client gone')), 200);
    await expect(pending).rejects.toThrow('client gone');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('chorus-pocketsphinx-')).length).toBe(
      before,
    );
  });

  it('reports missing pieces instead of failing at run time', async () => {
    const missing = new PocketsphinxBackend({
      ...options,
      binary: 'no-such-pocketsphinx',
      modelDir: '/nonexistent',
    });
    const state = await missing.dependencies();
    expect(state.installed).toBe(false);
    expect(state.detail).toMatch(
      /no-such-pocketsphinx was not found; model files missing: .*apt|install the system packages/,
    );
    await expect(missing.load()).rejects.toMatchObject({ status: 503 });
  });
});
