import { espeakLanguage, piperTerminator, readClauses } from './espeak-clauses';

/** [terminator, endOfSentence] of each clause, as piper-tts 1.8.0's espeak-ng bridge reports them. */
const ends = (text: string, language = 'en') =>
  readClauses(text, language).map((clause) => [clause.terminator, clause.endOfSentence]);

describe('readClauses (espeak-ng clause terminators)', () => {
  it.each<[string, (string | boolean)[][]]>([
    [
      "Hello, world! How are you? I'm fine; thanks: really.",
      [
        [',', false],
        ['!', true],
        ['?', true],
        [';', false],
        [':', false],
        ['.', true],
      ],
    ],
    // an ellipsis ends a clause without punctuation Piper keeps; the end of the text ends a sentence
    [
      'e.g. this works... Or not?! Yes',
      [
        ['', false],
        ['?', true],
        ['', true],
      ],
    ],
    // punctuation before a closing quote still ends the clause
    [
      '"Quoted," he said.',
      [
        [',', false],
        ['.', true],
      ],
    ],
    [
      'Dr. Smith went home',
      [
        ['.', true],
        ['', true],
      ],
    ],
    ['Pi is 3.14 exactly.', [['.', true]]],
    // dashes between spaces are clause breaks (semicolon type)
    [
      'Wait — what? No – never.',
      [
        [';', false],
        ['?', true],
        [';', false],
        ['.', true],
      ],
    ],
    // a run of ? and ! counts once, by its first mark
    [
      'Really?!? Yes!!!',
      [
        ['?', true],
        ['!', true],
      ],
    ],
    ["The U.S.A.'s economy.", [['.', true]]],
    // a blank line after punctuation makes a paragraph end (no punctuation kept)
    [
      'One.\n\nTwo.',
      [
        ['', true],
        ['.', true],
      ],
    ],
    [
      'a, b',
      [
        [',', false],
        ['', true],
      ],
    ],
    // punctuation before any letter or digit is no clause end
    [
      ', leading comma. Ok',
      [
        ['.', true],
        ['', true],
      ],
    ],
    ['It ends with a colon:', [[':', false]]],
    [
      'Ellipsis… here.',
      [
        ['', false],
        ['.', true],
      ],
    ],
    ['Two dots.. here', [['', true]]],
    [
      '(Parenthetical.) Next.',
      [
        ['.', true],
        ['.', true],
      ],
    ],
    // punctuation glued to the next word is no clause end
    ['x!y and z?w', [['', true]]],
  ])('%j', (text, expected) => {
    expect(ends(text)).toEqual(expected);
  });

  it('keeps an ordinal dot inside the clause in languages that write ordinals with one', () => {
    expect(ends('am 3. mai', 'de')).toEqual([['', true]]);
    expect(ends('am 3. mai', 'en')).toEqual([['', true]]); // lower case after the dot: an abbreviation in any language
    expect(ends('Ludwig XIV. war König.', 'de')).toEqual([['.', true]]);
    expect(ends('Ludwig XIV. War König.', 'en')).toEqual([
      ['.', true],
      ['.', true],
    ]);
  });

  it('treats CJK full stops as clause ends without a following space, and keeps no punctuation for them', () => {
    expect(ends('你好。世界', 'cmn')).toEqual([
      ['', true],
      ['', true],
    ]);
  });

  it('returns the text each clause covers', () => {
    expect(readClauses('Hello, world! Bye', 'en').map((clause) => clause.text)).toEqual([
      'Hello, ',
      'world! ',
      'Bye',
    ]);
  });

  it('always returns at least one clause', () => {
    expect(ends('')).toEqual([['', true]]);
  });

  it('cuts a clause too long for espeak without punctuation', () => {
    const words = Array.from({ length: 200 }, () => 'word').join(' ');
    const clauses = readClauses(`${words}.`, 'en');
    expect(clauses.length).toBeGreaterThan(1);
    expect(clauses[0]).toMatchObject({ terminator: '', endOfSentence: false });
    expect(clauses.at(-1)).toMatchObject({ terminator: '.', endOfSentence: true });
  });
});

describe('piperTerminator', () => {
  it('maps only plain clause types to punctuation', () => {
    expect(piperTerminator(40 | 0x80000)).toEqual({ terminator: '.', endOfSentence: true });
    expect(piperTerminator(40 | 0x80000 | 0x400000)).toEqual({ terminator: '.', endOfSentence: true }); // flags above bit 20 are ignored
    expect(piperTerminator(40 | 0x80000 | 0x8000)).toEqual({ terminator: '', endOfSentence: true }); // optional space after
    expect(piperTerminator(40 | 0x80000 | 0x10000)).toEqual({ terminator: '', endOfSentence: true }); // end of text
    expect(piperTerminator(0x4000)).toEqual({ terminator: '', endOfSentence: false });
  });
});

describe('espeakLanguage', () => {
  it.each([
    ['en-us', 'en'],
    ['gmw/en-US', 'en'],
    ['de+f3', 'de'],
    ['cmn', 'cmn'],
  ])('%s → %s', (voice, language) => {
    expect(espeakLanguage(voice)).toBe(language);
  });
});
