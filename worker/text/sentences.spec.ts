import { DEFAULT_MAX_SENTENCE_LENGTH, isSpeakable, splitSentences } from './sentences';

describe('splitSentences', () => {
  it.each<[string, string, string | undefined, string[]]>([
    [
      'plain English',
      'Hello world. This is Chorus speaking.',
      'en',
      ['Hello world.', 'This is Chorus speaking.'],
    ],
    [
      'titles and initials',
      'Dr. Smith met Mr. J. R. R. Tolkien. They talked.',
      'en',
      ['Dr. Smith met Mr. J. R. R. Tolkien.', 'They talked.'],
    ],
    [
      'e.g. and i.e.',
      'Use a fruit, e.g. an apple. Or not.',
      'en',
      ['Use a fruit, e.g. an apple.', 'Or not.'],
    ],
    [
      'numbered references',
      'See No. 5 and Fig. 3 for details. Done.',
      'en',
      ['See No. 5 and Fig. 3 for details.', 'Done.'],
    ],
    [
      'decimals',
      'Pi is about 3.14 today. It was 2.71 yesterday.',
      'en',
      ['Pi is about 3.14 today.', 'It was 2.71 yesterday.'],
    ],
    [
      'a year at the end',
      'I was born in 1990. Then I grew up.',
      'en',
      ['I was born in 1990.', 'Then I grew up.'],
    ],
    ['ellipsis inside a sentence', 'Well... maybe later. Fine.', 'en', ['Well... maybe later.', 'Fine.']],
    ['ellipsis before a new sentence', 'Wait... What? No!', 'en', ['Wait...', 'What?', 'No!']],
    // UAX #29 does not count U+2026 as a sentence terminator; engines pause at it anyway.
    ['the ellipsis character', 'Wait… What? No!', 'en', ['Wait… What?', 'No!']],
    [
      'dotted acronyms',
      'He joined the U.S. Army in May. Good.',
      'en',
      ['He joined the U.S. Army in May.', 'Good.'],
    ],
    ['questions and exclamations', 'Really?! Yes! Okay.', 'en', ['Really?!', 'Yes!', 'Okay.']],
    ['quotes', '"Stop." She stopped.', 'en', ['"Stop."', 'She stopped.']],
    [
      'German abbreviations and ordinals',
      'Herr Dr. Müller kam am 3. Mai. Das ist z.B. gut. Neu!',
      'de',
      ['Herr Dr. Müller kam am 3. Mai.', 'Das ist z.B. gut.', 'Neu!'],
    ],
    [
      'French',
      "M. Dupont est arrivé. Il pleut aujourd'hui !",
      'fr',
      ['M. Dupont est arrivé.', "Il pleut aujourd'hui !"],
    ],
    [
      'Spanish inverted marks',
      '¿Dónde está la Sra. García? ¡Aquí!',
      'es',
      ['¿Dónde está la Sra. García?', '¡Aquí!'],
    ],
    ['Chinese', '你好。今天天气很好！我们走吧？', 'zh', ['你好。', '今天天气很好！', '我们走吧？']],
    ['Japanese', 'こんにちは。元気ですか？はい。', 'ja', ['こんにちは。', '元気ですか？', 'はい。']],
    ['Russian', 'Привет. Как дела? Хорошо.', 'ru', ['Привет.', 'Как дела?', 'Хорошо.']],
    ['Hindi danda', 'नमस्ते। आप कैसे हैं?', 'hi', ['नमस्ते।', 'आप कैसे हैं?']],
    ['Arabic', 'مرحبا. كيف حالك؟', 'ar', ['مرحبا.', 'كيف حالك؟']],
    [
      'paragraphs without final punctuation',
      'Title\n\nFirst line\r\nSecond line',
      'en',
      ['Title', 'First line', 'Second line'],
    ],
    ['collapsed whitespace', '  Hello \t  there.   ', 'en', ['Hello there.']],
    ['language tags with region', 'Dr. Who. Yes.', 'en-US', ['Dr. Who.', 'Yes.']],
    ['an unknown language falls back', 'Hello. World.', 'not a language!', ['Hello.', 'World.']],
    ['stray punctuation joins a neighbour', '— Hello. ) Bye. …', 'en', ['— Hello.', ') Bye. …']],
    ['symbols are speakable', '$100 + 5%.', 'en', ['$100 + 5%.']],
  ])('%s', (_name, text, language, expected) => {
    expect(splitSentences(text, { language })).toEqual(expected);
  });

  it('returns nothing for empty or unspeakable text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('   \n ')).toEqual([]);
    expect(splitSentences('... !? —')).toEqual([]);
  });

  it('replaces control characters', () => {
    expect(splitSentences('Hello\u0000 world\u0007.')).toEqual(['Hello world.']);
  });

  describe('long sentences', () => {
    it('cuts at clause punctuation first', () => {
      const clause = 'this clause has exactly some words in it';
      const text = `${Array.from({ length: 20 }, () => clause).join(', ')}.`;
      const parts = splitSentences(text, { maxLength: 100 });
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(100);
      }
      expect(parts.slice(0, -1).every((part) => part.endsWith(','))).toBe(true);
      expect(parts.join(' ')).toBe(text);
    });

    it('cuts at whitespace when there is no clause punctuation', () => {
      const text = `${'word '.repeat(100).trim()}.`;
      const parts = splitSentences(text, { maxLength: 64 });
      expect(parts.every((part) => part.length <= 64)).toBe(true);
      expect(parts.every((part) => !part.startsWith(' ') && !part.includes('wo rd'))).toBe(true);
      expect(parts.join(' ')).toBe(text);
    });

    it('does not cut inside a number with a thousands separator', () => {
      const text = `${'a'.repeat(40)} ${'b'.repeat(40)} 1,000,000 ${'c'.repeat(40)}`;
      for (const part of splitSentences(text, { maxLength: 60 })) {
        expect(part).not.toMatch(/^\d{3}/);
      }
    });

    it('cuts CJK at ideographic commas', () => {
      const text = `${'我们今天去公园玩，'.repeat(30)}好。`;
      const parts = splitSentences(text, { language: 'zh', maxLength: 50 });
      expect(parts.every((part) => part.length <= 50)).toBe(true);
      expect(parts[0].endsWith('，')).toBe(true);
      expect(parts.join('')).toBe(text);
    });

    it('hard-cuts text without any break at grapheme boundaries', () => {
      const text = '👩‍👩‍👧'.repeat(40);
      const parts = splitSentences(text, { maxLength: 20 });
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(20);
        expect(
          [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(part)].every(
            (g) => g.segment === '👩‍👩‍👧',
          ),
        ).toBe(true);
      }
    });

    it('keeps sentences under the default bound intact', () => {
      const text = `${'x'.repeat(DEFAULT_MAX_SENTENCE_LENGTH - 1)}.`;
      expect(splitSentences(text)).toEqual([text]);
    });

    it('rejects a useless maxLength', () => {
      expect(() => splitSentences('Hi.', { maxLength: 2 })).toThrow(RangeError);
    });
  });
});

describe('isSpeakable', () => {
  it.each([
    ['a', true],
    ['7', true],
    ['€', true],
    ['字', true],
    ['...', false],
    [' — ', false],
  ])('%p → %p', (text, expected) => {
    expect(isSpeakable(text)).toBe(expected);
  });
});
