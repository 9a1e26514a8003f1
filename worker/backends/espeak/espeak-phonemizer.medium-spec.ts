import { compileThreadEntry, type CompiledThread } from '../../audio/decode-testing';
import { defaultEspeakOptions } from './espeak.backend';
import { EspeakPhonemizer } from './espeak-phonemizer';
import { EspeakThreadPool } from './espeak-thread-pool';

/** The real engine in a real thread (the entry transpiled into a temporary tree, see the pool's medium spec). */
const THREAD_ENTRY = 'backends/espeak/espeak.thread.ts';

jest.setTimeout(30_000);

describe('EspeakPhonemizer (real engine thread)', () => {
  let compiled: CompiledThread;
  let pool: EspeakThreadPool;
  let phonemizer: EspeakPhonemizer;

  beforeAll(async () => {
    compiled = compileThreadEntry(THREAD_ENTRY);
    pool = new EspeakThreadPool({
      size: 1,
      entry: compiled.entry,
      packageUrl: defaultEspeakOptions().packageUrl,
    });
    await pool.start();
    phonemizer = new EspeakPhonemizer(pool);
  });

  afterAll(async () => {
    await pool?.stop();
    compiled?.cleanup();
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
