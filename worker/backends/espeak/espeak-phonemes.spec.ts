import { clausePhonemes, splitClausePhonemes, tokenizeAsciiWord } from './espeak-phonemes';

describe('tokenizeAsciiWord', () => {
  it('splits at separators and recognises pauses and the linking phoneme', () => {
    expect(tokenizeAsciiWord("r_'eI_d_I2_;_,oU")).toEqual([
      { name: 'r', kind: 'phoneme' },
      { name: "'eI", kind: 'phoneme' },
      { name: 'd', kind: 'phoneme' },
      { name: 'I2', kind: 'phoneme' },
      { name: ';', kind: 'link' },
      { name: ',oU', kind: 'phoneme' },
    ]);
    expect(tokenizeAsciiWord('_:__:k_w').map((token) => token.kind)).toEqual([
      'pause',
      'pause',
      'phoneme',
      'phoneme',
    ]);
    expect(tokenizeAsciiWord('(en)_h_V').map((token) => token.kind)).toEqual([
      'switch',
      'phoneme',
      'phoneme',
    ]);
  });
});

// Pairs as the emscripten espeak-ng glue returns them (IPA, ASCII); expectations from piper-tts 1.8.0.
describe('clausePhonemes', () => {
  it.each([
    // the linking j after an i-vowel: nameless in this build's IPA, `;` in ASCII, `ʲ` in Piper's
    ['ð_ɪ_ ˈɛ_n_d', "D_I2_; 'E_n_d", 'ðɪʲ ˈɛnd'],
    ['ɹ_ˈeɪ_d_ɪ__ˌoʊ', "r_'eI_d_I2_;_,oU", 'ɹˈeɪdɪʲˌoʊ'],
    ['p_i__ˈæ_n_oʊ', "p_i_;_'a_n_oU", 'piʲˈænoʊ'],
    // pauses have no IPA name either, and stay nameless
    ['s_ˈiː__', "s_'i:__:__:", 'sˈiː'],
    ['_k_w_ˈoʊ_ɾ_ᵻ_d', "_:__:k_w_'oU_t#_I#_d", 'kwˈoʊɾᵻd'],
    // a superscript phoneme joins the previous one without a separator (Russian palatalisation)
    ['p__rʲ_i_vʲ_ˈe_t', "p_@-_r_;_i_v_;_'e_t", 'prʲivʲˈet'],
    ['dʲ_ˈe_ɭ_a', "d;_'e_l_a#", 'dʲˈeɭa'],
    // language switches are kept for the caller to drop
    ['(en)_h_ˈa_l_əʊ', "(en)_h_'a_l_oU", '(en)hˈaləʊ'],
  ])('%s', (ipa, ascii, expected) => {
    expect(clausePhonemes(ipa, ascii)).toBe(expected);
  });

  it('falls back to removing the separators when the two conversions do not line up', () => {
    expect(clausePhonemes('ð_ɪ_ ˈɛ_n_d', undefined)).toBe('ðɪ ˈɛnd');
    expect(clausePhonemes('ð_ɪ_ ˈɛ_n_d', 'D_I2_;')).toBe('ðɪ ˈɛnd'); // word counts differ
  });
});

describe('splitClausePhonemes', () => {
  it('splits the clauses and cleans each', () => {
    expect(splitClausePhonemes('h_ə_l_ˈoʊ | w_ˈɜː_l_d', "h_@_l_'oU | w_'3:_l_d")).toEqual([
      'həlˈoʊ',
      'wˈɜːld',
    ]);
    expect(splitClausePhonemes('a |  | b', 'a |  | b')).toEqual(['a', '', 'b']);
  });
});
