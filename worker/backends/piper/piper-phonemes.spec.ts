import { mergeVowelClusters, phonemeIds, phonemeSentences, textPhonemes } from './piper-phonemes';

const clause = (
  phonemes: string,
  terminator: '' | '.' | ',' | '?' | '!' | ':' | ';',
  endOfSentence: boolean,
) => ({
  phonemes,
  terminator,
  endOfSentence,
});

describe('phonemeSentences', () => {
  it('re-attaches clause punctuation, with a space after , : ; and splits sentences', () => {
    expect(
      phonemeSentences([
        clause('həlˈoʊ', ',', false),
        clause('wˈɜːld', '!', true),
        clause('jˈɛs', ':', false),
        clause('nˈoʊ', '', true),
      ]),
    ).toEqual([Array.from('həlˈoʊ, wˈɜːld!'), Array.from('jˈɛs: nˈoʊ')]);
  });

  it('drops language-switch flags, decomposes accents and skips empty sentences', () => {
    expect(phonemeSentences([clause('(en)ʃˈɔː(fr)', '.', true), clause('', '', true)])).toEqual([
      ['ʃ', 'ˈ', 'ɔ', 'ː', '.'],
    ]);
    expect(phonemeSentences([clause('é', '', true)])).toEqual([['e', '\u0301']]);
  });

  it('keeps a sentence without a final terminator', () => {
    expect(phonemeSentences([clause('a', ',', false)])).toEqual([['a', ',', ' ']]);
  });

  it('merges vowel clusters', () => {
    expect(phonemeSentences([clause('baɪ', '.', true)], [['a', 'ɪ']])).toEqual([['b', 'aɪ', '.']]);
  });
});

describe('mergeVowelClusters', () => {
  it('prefers the longest cluster', () => {
    expect(
      mergeVowelClusters(
        ['a', 'ɪ', 'ə', 'x', 'a'],
        [
          ['a', 'ɪ'],
          ['a', 'ɪ', 'ə'],
        ],
      ),
    ).toEqual(['aɪə', 'x', 'a']);
  });
});

describe('textPhonemes', () => {
  it('is the decomposed code points', () => {
    expect(textPhonemes('Öl')).toEqual(['O', '\u0308', 'l']);
  });
});

describe('phonemeIds', () => {
  const idMap = new Map<string, number[]>([
    ['_', [0]],
    ['^', [1]],
    ['$', [2]],
    [' ', [3]],
    ['a', [4]],
    ['b', [5, 6]],
  ]);

  it('is ^ _ then each phoneme followed by _, then $', () => {
    expect(phonemeIds(['a', ' ', 'b'], idMap)).toEqual({ ids: [1, 0, 4, 0, 3, 0, 5, 6, 0, 2], missing: [] });
    expect(phonemeIds([], idMap).ids).toEqual([1, 0, 2]);
  });

  it('skips phonemes the voice does not know, as Piper does', () => {
    expect(phonemeIds(['a', 'x', 'b'], idMap)).toEqual({ ids: [1, 0, 4, 0, 5, 6, 0, 2], missing: ['x'] });
  });
});
