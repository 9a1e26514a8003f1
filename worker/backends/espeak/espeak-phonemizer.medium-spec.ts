import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import * as ts from 'typescript';

import { defaultEspeakOptions } from './espeak.backend';
import { EspeakPhonemizer } from './espeak-phonemizer';
import { EspeakThreadPool } from './espeak-thread-pool';

/** The real engine in a real thread (the entry transpiled into a temporary tree, see the pool's medium spec). */
const WORKER_ROOT = join(__dirname, '..', '..');
const THREAD_SOURCES = ['backends/espeak/espeak.thread.ts', 'audio/pcm.ts', 'audio/time-stretch.ts'];

jest.setTimeout(30_000);

describe('EspeakPhonemizer (real engine thread)', () => {
  let dir: string;
  let pool: EspeakThreadPool;
  let phonemizer: EspeakPhonemizer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-espeak-phonemes-'));
    for (const source of THREAD_SOURCES) {
      const output = ts.transpileModule(readFileSync(join(WORKER_ROOT, source), 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.Node16,
          target: ts.ScriptTarget.ES2022,
          esModuleInterop: true,
        },
        fileName: source,
      });
      const target = join(dir, source.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, output.outputText);
    }
    pool = new EspeakThreadPool({
      size: 1,
      entry: join(dir, 'backends/espeak/espeak.thread.js'),
      packageUrl: defaultEspeakOptions().packageUrl,
    });
    await pool.start();
    phonemizer = new EspeakPhonemizer(pool);
  });

  afterAll(async () => {
    await pool?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // Expectations: piper-tts 1.8.0's espeakbridge.get_phonemes for the same texts.
  it('gives clause phonemes with their terminators, as Piper does', async () => {
    const result = await phonemizer.phonemize('en-us', "Hello, world! The end; isn't it?");
    expect(result).toEqual({
      exact: true,
      clauses: [
        { phonemes: 'həlˈoʊ', terminator: ',', endOfSentence: false },
        { phonemes: 'wˈɜːld', terminator: '!', endOfSentence: true },
        { phonemes: 'ðɪʲ ˈɛnd', terminator: ';', endOfSentence: false },
        { phonemes: 'ˈɪzənt ɪt', terminator: '?', endOfSentence: true },
      ],
    });
  });

  it('reads markup-like text as text, even right after a synthesis', async () => {
    // The synthesis turns on espeak's SSML and [[phoneme]] input; phonemization must not inherit them.
    await pool.run({ voice: 'en-us', rate: 175, tempo: 1, text: 'Hello.' });
    const result = await phonemizer.phonemize('en-us', 'a <b>bold</b> & [[h@loU]] x');
    expect(result.clauses.map((clause) => clause.phonemes)).toEqual([
      'ɐ bˈiː bˈoʊld slˈæʃ bˈiː ænd ˈeɪtʃ æt lˈoʊ jˈuː ˈɛks',
    ]);
  });

  it('speaks other languages with their voice', async () => {
    const result = await phonemizer.phonemize('es', '¿Dónde está la biblioteca?');
    expect(result.clauses).toEqual([
      { phonemes: 'dˈonde estˈa la βˌiβliʲotˈeka', terminator: '?', endOfSentence: true },
    ]);
  });

  it('rejects an unknown voice', async () => {
    await expect(phonemizer.phonemize('no-such-voice', 'Hi.')).rejects.toThrow(/could not select voice/);
  });
});
