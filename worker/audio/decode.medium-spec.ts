import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AudioDecodeError } from './decode-errors';
import type { DecodedUpload } from './decode-pipeline';
import { AudioDecodePool, decoderPackageUrls } from './decode-pool';
import { compileThreadEntry, type CompiledThread } from './decode-testing';
import { resample } from './resample';
import { decodeWav } from './wav';

/**
 * The real decoders (WebAssembly builds of mpg123, libFLAC, libvorbis, libopus) in real worker threads, on
 * files made at test time by sox from espeak-ng speech, and on the committed Opus/WebM fixtures (testdata/,
 * made from pocketsphinx-testdata's goforward.raw; see testdata/README.md).
 *
 * Needs `sox` (with libsox-fmt-mp3 / libsox-fmt-all) and `espeak-ng` on PATH.
 */
jest.setTimeout(60_000);

const TESTDATA = join(__dirname, 'testdata');
const GOFORWARD_RAW = '/usr/share/pocketsphinx/test/data/goforward.raw';

function tool(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` failed: ${(error as Error).message}. ` +
        'The audio tests need sox (apt-get install sox libsox-fmt-all) and espeak-ng.',
    );
  }
}

/** Mono float samples of a WAV file (channels averaged). */
function monoOf(wav: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const decoded = decodeWav(wav);
  const frames = decoded.samples.length / decoded.channels;
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < decoded.channels; c++) {
      sum += decoded.samples[i * decoded.channels + c];
    }
    samples[i] = sum / decoded.channels;
  }
  return { samples, sampleRate: decoded.sampleRate };
}

/** Highest normalised cross-correlation of `a` and `b` over lags within ±maxLag samples. */
function similarity(a: Float32Array, b: Float32Array, maxLag = 1600): number {
  let best = -1;
  const energy = (x: Float32Array, from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) {
      sum += x[i] * x[i];
    }
    return sum;
  };
  for (let lag = -maxLag; lag <= maxLag; lag += 1) {
    const from = Math.max(0, -lag);
    const to = Math.min(a.length, b.length - lag);
    if (to - from < a.length / 2) {
      continue;
    }
    let dot = 0;
    for (let i = from; i < to; i++) {
      dot += a[i] * b[i + lag];
    }
    const norm = Math.sqrt(energy(a, from, to) * energy(b, from + lag, to + lag));
    best = Math.max(best, norm > 0 ? dot / norm : 0);
  }
  return best;
}

describe('audio decoding in worker threads (real decoders)', () => {
  let compiled: CompiledThread;
  let pool: AudioDecodePool;
  let dir: string;
  let speech: Float32Array; // espeak-ng speech at 16 kHz, the reference every format is compared with
  let speechSeconds: number;

  const file = (name: string) => readFileSync(join(dir, name));
  const decode = (bytes: Uint8Array, maxSeconds = 600) => pool.decode(bytes, maxSeconds);

  beforeAll(() => {
    compiled = compileThreadEntry('audio/decode.thread.ts');
    pool = new AudioDecodePool({
      entry: compiled.entry,
      packages: decoderPackageUrls(),
      concurrency: 2,
      queueLimit: 32,
      timeoutMs: 30_000,
    });
    dir = mkdtempSync(join(tmpdir(), 'chorus-decode-'));
    tool('espeak-ng', [
      '-w',
      join(dir, 'speech.wav'),
      'The quick brown fox jumps over the lazy dog. Go forward ten meters.',
    ]);
    const source = monoOf(file('speech.wav'));
    speechSeconds = source.samples.length / source.sampleRate;
    speech = resample(source.samples, source.sampleRate, 16_000);
    const sox = (output: string, ...options: string[]) =>
      tool('sox', [join(dir, 'speech.wav'), ...options, join(dir, output)]);
    sox('u8-mono-8k.wav', '-e', 'unsigned', '-b', '8', '-r', '8000');
    sox('s16-stereo-44k.wav', '-b', '16', '-c', '2', '-r', '44100');
    sox('s24-stereo-48k-extensible.wav', '-b', '24', '-c', '2', '-r', '48000');
    sox('s32-mono-22k.wav', '-e', 'signed', '-b', '32');
    sox('f32-mono-96k.wav', '-e', 'floating-point', '-b', '32', '-r', '96000');
    sox('f64-mono-16k.wav', '-e', 'floating-point', '-b', '64', '-r', '16000');
    sox('s16-quad-32k-extensible.wav', '-b', '16', '-c', '4', '-r', '32000');
    sox('stereo-44k.mp3', '-c', '2', '-r', '44100');
    sox('mono-22k.mp3', '-C', '64');
    sox('s24-stereo-48k.flac', '-b', '24', '-c', '2', '-r', '48000');
    sox('s16-mono-16k.flac', '-b', '16', '-r', '16000');
    sox('stereo-44k.ogg', '-c', '2', '-r', '44100');
    sox('mono-32k.ogg', '-r', '32000');
  });

  afterAll(async () => {
    await pool?.close();
    compiled?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  function expectSpeech(result: DecodedUpload, minSimilarity: number, durationTolerance = 0.02): void {
    expect(result.sampleRate).toBe(16_000);
    expect(Object.prototype.toString.call(result.samples)).toBe('[object Float32Array]');
    expect(result.durationSeconds).toBeCloseTo(result.samples.length / 16_000, 6);
    expect(Math.abs(result.durationSeconds - speechSeconds)).toBeLessThan(durationTolerance + 0.002);
    expect(similarity(speech, result.samples)).toBeGreaterThan(minSimilarity);
  }

  it.each<[string, string, number, number]>([
    ['8-bit unsigned PCM, 8 kHz', 'u8-mono-8k.wav', 8000, 1],
    ['16-bit PCM, stereo, 44.1 kHz', 's16-stereo-44k.wav', 44100, 2],
    ['24-bit PCM, stereo, 48 kHz (WAVE_FORMAT_EXTENSIBLE)', 's24-stereo-48k-extensible.wav', 48000, 2],
    ['32-bit PCM, 22.05 kHz', 's32-mono-22k.wav', 22050, 1],
    ['32-bit float, 96 kHz', 'f32-mono-96k.wav', 96000, 1],
    ['64-bit float, 16 kHz', 'f64-mono-16k.wav', 16000, 1],
    ['16-bit PCM, four channels (WAVE_FORMAT_EXTENSIBLE)', 's16-quad-32k-extensible.wav', 32000, 4],
  ])('decodes WAV: %s', async (_name, name, rate, channels) => {
    const result = await decode(file(name));
    expect(result).toMatchObject({ format: 'wav', sourceSampleRate: rate, sourceChannels: channels });
    // 8 kHz keeps only the band below 4 kHz: still clearly the same speech.
    expectSpeech(result, rate === 8000 ? 0.85 : 0.99);
  });

  it.each<[string, string, number, number]>([
    ['stereo 44.1 kHz', 'stereo-44k.mp3', 44100, 2],
    ['mono 22.05 kHz, 64 kbps', 'mono-22k.mp3', 22050, 1],
  ])('decodes MP3: %s', async (_name, name, rate, channels) => {
    const result = await decode(file(name));
    expect(result).toMatchObject({ format: 'mp3', sourceSampleRate: rate, sourceChannels: channels });
    expectSpeech(result, 0.9, 0.1); // the encoder adds up to ~50 ms of delay and padding
  });

  it.each<[string, string, number, number]>([
    ['24-bit stereo 48 kHz', 's24-stereo-48k.flac', 48000, 2],
    ['16-bit mono 16 kHz', 's16-mono-16k.flac', 16000, 1],
  ])('decodes FLAC: %s', async (_name, name, rate, channels) => {
    const result = await decode(file(name));
    expect(result).toMatchObject({ format: 'flac', sourceSampleRate: rate, sourceChannels: channels });
    expectSpeech(result, 0.99);
  });

  it.each<[string, string, number, number]>([
    ['stereo 44.1 kHz', 'stereo-44k.ogg', 44100, 2],
    ['mono 32 kHz', 'mono-32k.ogg', 32000, 1],
  ])('decodes OGG/Vorbis: %s', async (_name, name, rate, channels) => {
    const result = await decode(file(name));
    expect(result).toMatchObject({ format: 'ogg-vorbis', sourceSampleRate: rate, sourceChannels: channels });
    expectSpeech(result, 0.9);
  });

  describe('Opus (committed fixtures of a real recording)', () => {
    let reference: Float32Array;

    beforeAll(() => {
      const raw = readFileSync(GOFORWARD_RAW);
      reference = new Float32Array(raw.length / 2);
      for (let i = 0; i < reference.length; i++) {
        reference[i] = raw.readInt16LE(i * 2) / 0x8000;
      }
    });

    it('decodes OGG/Opus (opusenc, mono) to the exact length given by the last granule position', async () => {
      const result = await decode(readFileSync(join(TESTDATA, 'goforward.opus')));
      expect(result).toMatchObject({ format: 'ogg-opus', sourceSampleRate: 16000, sourceChannels: 1 });
      expect(result.samples.length).toBe(reference.length);
      expect(similarity(reference, result.samples, 400)).toBeGreaterThan(0.8);
    });

    it('decodes WebM/Opus (live muxing: Segment of unknown size, stereo)', async () => {
      const result = await decode(readFileSync(join(TESTDATA, 'goforward.webm')));
      expect(result).toMatchObject({ format: 'webm', sourceChannels: 2 });
      expect(Math.abs(result.durationSeconds - reference.length / 16_000)).toBeLessThan(0.03);
      expect(similarity(reference, result.samples, 400)).toBeGreaterThan(0.8);
    });
  });

  describe('bad input', () => {
    it.each<[string, () => Uint8Array, string, RegExp]>([
      ['an empty file', () => new Uint8Array(0), 'invalid_audio', /empty/],
      ['text', () => Buffer.from('{"not": "audio"}'), 'invalid_audio', /text, not audio/],
      [
        'random bytes',
        () => Uint8Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251),
        'unsupported_audio',
        /not recognised/,
      ],
      [
        'a WAV header without samples',
        () => file('s16-stereo-44k.wav').subarray(0, 44),
        'invalid_audio',
        /no audio samples/,
      ],
      [
        'µ-law WAV',
        () => {
          tool('sox', [join(dir, 'speech.wav'), '-e', 'mu-law', join(dir, 'ulaw.wav')]);
          return file('ulaw.wav');
        },
        'unsupported_audio',
        /unsupported WAV encoding 7/,
      ],
      [
        'MP3 bytes cut to garbage',
        () => Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000, 7)]),
        'invalid_audio',
        /ID3/,
      ],
      [
        'a truncated FLAC header',
        () => file('s16-mono-16k.flac').subarray(0, 30),
        'invalid_audio',
        /no audio|could not be decoded/,
      ],
      ['an OGG page header only', () => file('mono-32k.ogg').subarray(0, 20), 'invalid_audio', /truncated/],
      [
        'AAC in ADTS',
        () => Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0, 0, 0]),
        'unsupported_audio',
        /AAC/,
      ],
    ])('refuses %s', async (_name, bytes, code, message) => {
      const error = await decode(bytes()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AudioDecodeError);
      expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
    });

    it.each(['s16-stereo-44k.wav', 'stereo-44k.mp3', 'stereo-44k.ogg', 's24-stereo-48k.flac'])(
      'refuses %s when longer than the limit',
      async (name) => {
        const error = await decode(file(name), 1).catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: 'audio_too_long',
          message: expect.stringMatching(/limit is 1 s|longer than the 1 s/),
        });
      },
    );

    it('decodes a file cut in the middle as far as it goes', async () => {
      const mp3 = file('stereo-44k.mp3');
      const result = await decode(mp3.subarray(0, Math.floor(mp3.length / 2)));
      expect(result.durationSeconds).toBeGreaterThan(speechSeconds * 0.3);
      expect(result.durationSeconds).toBeLessThan(speechSeconds * 0.7);
      const webm = readFileSync(join(TESTDATA, 'goforward.webm'));
      const cut = await decode(webm.subarray(0, Math.floor(webm.length * 0.6)));
      expect(cut.durationSeconds).toBeGreaterThan(1);
    });
  });

  it('stops a decode when its signal aborts and frees the thread', async () => {
    const controller = new AbortController();
    const pending = pool.decode(file('stereo-44k.ogg'), 600, controller.signal);
    controller.abort(new Error('client gone'));
    await expect(pending).rejects.toThrow('client gone');
    expect(pool.stats()).toMatchObject({ active: 0, waiting: 0 });
  });

  it('decodes many uploads concurrently, queueing beyond its threads', async () => {
    const names = [
      'stereo-44k.mp3',
      's24-stereo-48k.flac',
      'stereo-44k.ogg',
      's16-stereo-44k.wav',
      'mono-22k.mp3',
    ];
    const results = await Promise.all(names.map((name) => decode(file(name))));
    for (const result of results) {
      expect(Math.abs(result.durationSeconds - speechSeconds)).toBeLessThan(0.1);
    }
  });
});
