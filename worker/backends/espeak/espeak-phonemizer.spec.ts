import { EspeakPhonemizer, type PhonemizePool } from './espeak-phonemizer';
import type { EspeakPhonemizeTask, EspeakRawPhonemes } from './espeak-protocol';

/** A pool answering from a table of (text → raw glue output). */
function fakePool(answers: Record<string, EspeakRawPhonemes>): PhonemizePool & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    phonemize: (task: EspeakPhonemizeTask) => {
      calls.push(task.text);
      const answer = answers[task.text];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`unexpected text ${task.text}`));
    },
  };
}

describe('EspeakPhonemizer', () => {
  it('pairs espeak clauses with their terminators', async () => {
    const pool = fakePool({
      'Hello, the end!': { ipa: 'h_ə_l_ˈoʊ | ð_ɪ_ ˈɛ_n_d', ascii: "h_@_l_'oU | D_I2_; 'E_n_d" },
    });
    const result = await new EspeakPhonemizer(pool).phonemize('en-us', 'Hello, the end!');
    expect(result).toEqual({
      exact: true,
      clauses: [
        { phonemes: 'həlˈoʊ', terminator: ',', endOfSentence: false },
        { phonemes: 'ðɪʲ ˈɛnd', terminator: '!', endOfSentence: true },
      ],
    });
  });

  it('converts clause by clause when espeak split the text differently', async () => {
    const pool = fakePool({
      // pretend espeak found three clauses where the terminator reading finds two
      'Hello, world.': { ipa: 'h_ə | l_ˈoʊ | w_ˈɜː_l_d', ascii: "h_@ | l_'oU | w_'3:_l_d" },
      'Hello, ': { ipa: 'h_ə | l_ˈoʊ', ascii: "h_@ | l_'oU" },
      'world.': { ipa: 'w_ˈɜː_l_d', ascii: "w_'3:_l_d" },
    });
    const result = await new EspeakPhonemizer(pool).phonemize('en-us', 'Hello, world.');
    expect(result.exact).toBe(false);
    expect(result.clauses).toEqual([
      { phonemes: 'hə lˈoʊ', terminator: ',', endOfSentence: false },
      { phonemes: 'wˈɜːld', terminator: '.', endOfSentence: true },
    ]);
    expect(pool.calls).toEqual(['Hello, world.', 'Hello, ', 'world.']);
  });
});
