/**
 * Clause terminators of espeak-ng's text-to-phonemes conversion.
 *
 * espeak-ng converts text to phonemes one clause at a time and reports how each clause ended (period, comma,
 * question…). Piper keeps that punctuation in its phoneme sequence so prosody survives. The emscripten build of
 * espeak-ng only exposes the clause phonemes (`text_to_phonemes`, clauses joined by ` | `), not the terminators, so
 * this module recomputes them: it follows the rules espeak-ng's clause reader applies to decide where a clause ends
 * and with what type, over the same input. The caller checks that it found as many clauses as espeak did before
 * trusting the result.
 *
 * Pure code, no imports: it runs inside the espeak worker threads.
 */

/** Punctuation Piper keeps after a clause ('' when the clause ended otherwise: end of text, ellipsis, dash…). */
export type ClauseTerminator = '' | '.' | ',' | '?' | '!' | ':' | ';';

export interface ClauseEnd {
  terminator: ClauseTerminator;
  /** The clause ends a sentence (espeak's sentence-type terminators, including the end of the text). */
  endOfSentence: boolean;
}

/** A clause end with the part of the text the clause was read from. */
export interface ClauseSpan extends ClauseEnd {
  text: string;
}

export interface EspeakClause extends ClauseEnd {
  /** IPA phonemes of the clause, words separated by spaces, without the terminator. */
  phonemes: string;
}

// espeak-ng's clause type bits (readclause.h).
const INTONATION_COMMA = 0x1000;
const INTONATION_QUESTION = 0x2000;
const INTONATION_EXCLAMATION = 0x3000;
const INTONATION_NONE = 0x4000;
const OPTIONAL_SPACE_AFTER = 0x8000;
const TYPE_EOF = 0x10000;
const TYPE_CLAUSE = 0x40000;
const TYPE_SENTENCE = 0x80000;
const PUNCTUATION_IN_WORD = 0x100000;
const SPEAK_PUNCTUATION_NAME = 0x200000;

const CLAUSE_NONE = INTONATION_NONE;
const CLAUSE_PARAGRAPH = 70 | TYPE_SENTENCE;
const CLAUSE_EOF = 40 | TYPE_SENTENCE | TYPE_EOF;
const CLAUSE_PERIOD = 40 | TYPE_SENTENCE;
const CLAUSE_COMMA = 20 | INTONATION_COMMA | TYPE_CLAUSE;
const CLAUSE_QUESTION = 40 | INTONATION_QUESTION | TYPE_SENTENCE;
const CLAUSE_EXCLAMATION = 45 | INTONATION_EXCLAMATION | TYPE_SENTENCE;
const CLAUSE_COLON = 30 | TYPE_CLAUSE;
const CLAUSE_SEMICOLON = 30 | INTONATION_COMMA | TYPE_CLAUSE;

/** Bits of the terminator Piper compares (it masks off the higher flags). */
const PIPER_TERMINATOR_MASK = 0x000fffff;

/** Size of espeak's clause buffer in UTF-8 bytes (N_TR_SOURCE): a longer clause is cut without punctuation. */
const CLAUSE_BUFFER = 800;

// Punctuation properties espeak-ng adds to the Unicode data (ucd-tools data/espeak-ng/PropList.txt).
const FULL_STOP = 1;
const QUESTION_MARK = 2;
const EXCLAMATION_MARK = 4;
const COMMA = 8;
const COLON = 16;
const SEMI_COLON = 32;
const ELLIPSIS = 64;
const PARAGRAPH_SEPARATOR = 128;
const EXTENDED_DASH = 256;
const OPTIONAL_SPACE = 512;
const IN_WORD = 1024;
const INVERTED = 2048;

/** [first, last, property] ranges; a code point may appear in several (its properties are OR-ed). */
const PROPERTY_RANGES: readonly (readonly [number, number, number])[] = [
  ...[
    0x2e, 0x589, 0x6d4, 0x701, 0x704, 0x964, 0xdf4, 0xf0d, 0x1362, 0x166e, 0x1803, 0x1809, 0x2cf9, 0x2cfe,
    0x2e33, 0x2e3c, 0x3002, 0xa4ff, 0xa60e, 0xa6f3, 0xfe12, 0xfe52, 0xff0e, 0xff61, 0x16af5, 0x1bc9f, 0x1da88,
    0x1f100, 0xe002e,
  ].map((c) => [c, c, FULL_STOP] as const),
  [0x2488, 0x249b, FULL_STOP],
  ...[
    0x3f, 0xbf, 0x37e, 0x55e, 0x61f, 0x709, 0x1367, 0x1945, 0xa60f, 0xa6f7, 0xfe16, 0xfe56, 0xff1f, 0x11143,
    0x1e95f, 0xe003f,
  ].map((c) => [c, c, QUESTION_MARK] as const),
  [0x2047, 0x2049, QUESTION_MARK],
  [0x2753, 0x2754, QUESTION_MARK],
  [0x2cfa, 0x2cfb, QUESTION_MARK],
  ...[0x21, 0xa1, 0x703, 0x7f9, 0x1944, 0x203c, 0x2755, 0x2757, 0xfe15, 0xfe57, 0xff01, 0x1e95e, 0xe0021].map(
    (c) => [c, c, EXCLAMATION_MARK] as const,
  ),
  [0x55b, 0x55c, EXCLAMATION_MARK],
  [0x2048, 0x2049, EXCLAMATION_MARK],
  [0x2762, 0x2763, EXCLAMATION_MARK],
  ...[
    0x2c, 0x55d, 0x60c, 0x702, 0x7f8, 0xf14, 0x1363, 0x1802, 0x1808, 0x2e32, 0x2e34, 0x2e41, 0x3001, 0xa4fe,
    0xa60d, 0xa6f5, 0xff0c, 0xff64, 0x1144d, 0x1da87, 0xe002c,
  ].map((c) => [c, c, COMMA] as const),
  [0xfe10, 0xfe11, COMMA],
  [0xfe50, 0xfe51, COMMA],
  [0x1f101, 0x1f10a, COMMA],
  ...[0x3a, 0x1804, 0x2982, 0xa6f4, 0xfe13, 0xfe55, 0xff1a, 0x1da8a, 0xe003a].map(
    (c) => [c, c, COLON] as const,
  ),
  [0x706, 0x707, COLON],
  [0x1365, 0x1366, COLON],
  [0x12471, 0x12472, COLON],
  ...[
    0x3b, 0x387, 0x61b, 0x708, 0x1364, 0x204f, 0x2e35, 0xa6f6, 0xfe14, 0xfe54, 0xff1b, 0x1da89, 0xe003b,
  ].map((c) => [c, c, SEMI_COLON] as const),
  ...[0xeaf, 0x1801, 0x2026, 0xfe19].map((c) => [c, c, ELLIPSIS] as const),
  [0x22ee, 0x22f1, ELLIPSIS],
  ...[0x700, 0x965, 0xf0e, 0x10fb, 0x1368, 0x2029].map((c) => [c, c, PARAGRAPH_SEPARATOR] as const),
  [0x2013, 0x2014, EXTENDED_DASH],
  [0x2e3a, 0x2e3b, EXTENDED_DASH],
  [0xfe31, 0xfe32, EXTENDED_DASH],
  ...[0xa1, 0xbf, 0x589, 0x964, 0xdf4, 0xf0d, 0xff01, 0xff0c, 0xff0e, 0xff1f].map(
    (c) => [c, c, OPTIONAL_SPACE] as const,
  ),
  [0x3001, 0x3002, OPTIONAL_SPACE],
  [0xff1a, 0xff1b, OPTIONAL_SPACE],
  [0x55b, 0x55c, IN_WORD],
  [0x55e, 0x55e, IN_WORD],
  [0xa1, 0xa1, INVERTED],
  [0xbf, 0xbf, INVERTED],
];

const PROPERTIES = new Map<number, number>();
for (const [first, last, property] of PROPERTY_RANGES) {
  for (let c = first; c <= last; c++) {
    PROPERTIES.set(c, (PROPERTIES.get(c) ?? 0) | property);
  }
}

/** espeak's clause type of a character; only exact property combinations count. */
const CLAUSE_TYPES = new Map<number, number>([
  [FULL_STOP, CLAUSE_PERIOD],
  [FULL_STOP | OPTIONAL_SPACE, CLAUSE_PERIOD | OPTIONAL_SPACE_AFTER],
  [QUESTION_MARK, CLAUSE_QUESTION],
  [QUESTION_MARK | OPTIONAL_SPACE, CLAUSE_QUESTION | OPTIONAL_SPACE_AFTER],
  [QUESTION_MARK | IN_WORD, CLAUSE_QUESTION | PUNCTUATION_IN_WORD],
  [EXCLAMATION_MARK, CLAUSE_EXCLAMATION],
  [EXCLAMATION_MARK | OPTIONAL_SPACE, CLAUSE_EXCLAMATION | OPTIONAL_SPACE_AFTER],
  [EXCLAMATION_MARK | IN_WORD, CLAUSE_EXCLAMATION | PUNCTUATION_IN_WORD],
  [COMMA, CLAUSE_COMMA],
  [COMMA | OPTIONAL_SPACE, CLAUSE_COMMA | OPTIONAL_SPACE_AFTER],
  [COLON, CLAUSE_COLON],
  [COLON | OPTIONAL_SPACE, CLAUSE_COLON | OPTIONAL_SPACE_AFTER],
  [SEMI_COLON, CLAUSE_SEMICOLON],
  [EXTENDED_DASH, CLAUSE_SEMICOLON],
  [SEMI_COLON | OPTIONAL_SPACE, CLAUSE_SEMICOLON | OPTIONAL_SPACE_AFTER],
  [QUESTION_MARK | OPTIONAL_SPACE | INVERTED, CLAUSE_SEMICOLON | OPTIONAL_SPACE_AFTER],
  [EXCLAMATION_MARK | OPTIONAL_SPACE | INVERTED, CLAUSE_SEMICOLON | OPTIONAL_SPACE_AFTER],
  [ELLIPSIS, CLAUSE_SEMICOLON | SPEAK_PUNCTUATION_NAME | OPTIONAL_SPACE_AFTER],
  [PARAGRAPH_SEPARATOR, CLAUSE_PARAGRAPH],
]);

function clauseType(c: number): number {
  const properties = PROPERTIES.get(c);
  return properties === undefined ? CLAUSE_NONE : (CLAUSE_TYPES.get(properties) ?? CLAUSE_NONE);
}

/** Languages whose numbers take an ordinal dot ("3. Mai"), so a dot after a digit may not end the clause. */
const ORDINAL_DOT_LANGUAGES = new Set([
  'da',
  'de',
  'fi',
  'fo',
  'hu',
  'kl',
  'lt',
  'ltg',
  'nl',
  'nb',
  'sl',
  'smj',
]);

/** Characters espeak skips entirely (soft hyphen, zero-width non-joiner). */
const IGNORED = new Set([0xad, 0x200c]);

/** The C library's wide-character space test (the emscripten build uses musl's table). */
const SPACES = new Set([
  0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x85, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x205f, 0x3000,
]);
const BRACKETS = new Set([
  0x28, 0x29, 0x5b, 0x5d, 0x7b, 0x7d, 0x3c, 0x3e, 0x22, 0x27, 0x60, 0xab, 0xbb, 0x300a, 0x300b,
]);

const isSpace = (c: number) => SPACES.has(c);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLower = (c: number) => c > 0 && /\p{Ll}/u.test(String.fromCodePoint(c));
const isAlnum = (c: number) => c > 0 && /[\p{Alphabetic}\p{Nd}]/u.test(String.fromCodePoint(c));
const isBracket = (c: number) => (c >= 0x2014 && c <= 0x201f) || BRACKETS.has(c);
const isRomanUpper = (c: number) => c === 0x49 || c === 0x56 || c === 0x58 || c === 0x4c; // I V X L
/** espeak's IsAlpha: letters plus combining marks of several scripts (approximated by the Unicode property). */
const isAlphaLike = (c: number) => c > 0 && /[\p{Alphabetic}\p{M}]/u.test(String.fromCodePoint(c));
const utf8Length = (c: number) => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);

const SPACE = 0x20;
const DOT = 0x2e;
const ELLIPSIS_CHAR = 0x2026;
const NEWLINE = 0x0a;
const APOSTROPHE = 0x27;
const QUESTION_EXCLAMATION = CLAUSE_QUESTION | CLAUSE_EXCLAMATION;

/**
 * The character stream espeak's clause reader sees: the text's code points plus the terminating NUL (espeak's
 * decoder counts it), with espeak's one-character push-back.
 */
class ClauseReader {
  private readonly chars: number[];
  private position = 0;
  private ungot = 0;

  constructor(
    text: string,
    private readonly language: string,
  ) {
    this.chars = Array.from(text, (char) => char.codePointAt(0)!);
    this.chars.push(0);
  }

  /** Whether the decoder has consumed everything, NUL included (espeak then stops asking for clauses). */
  get exhausted(): boolean {
    return this.position >= this.chars.length;
  }

  /** Index of the next character the reader will see (a pushed-back one included). */
  get offset(): number {
    return this.position - (this.ungot !== 0 ? 1 : 0);
  }

  /** The text between two offsets, without the terminating NUL. */
  slice(start: number, end: number): string {
    return this.chars
      .slice(start, Math.min(end, this.chars.length - 1))
      .map((c) => String.fromCodePoint(c))
      .join('');
  }

  private eof(): boolean {
    return this.ungot === 0 && this.exhausted;
  }

  private getc(): number {
    if (this.ungot !== 0) {
      const c = this.ungot;
      this.ungot = 0;
      return c;
    }
    return this.exhausted ? 0 : this.chars[this.position++];
  }

  private ungetc(c: number): void {
    this.ungot = c;
  }

  /** Reads one clause and returns espeak's terminator value for it. */
  readClause(): number {
    let c1 = SPACE;
    let cprev = SPACE;
    let cprev2 = SPACE;
    let anyAlnum = false;
    let stressedWord = false;
    let bytes = 0;
    let c2 = this.getc();

    while (!this.eof()) {
      cprev2 = cprev;
      cprev = c1;
      c1 = c2;
      c2 = this.getc();
      if (this.eof()) {
        c2 = SPACE;
      }
      if (IGNORED.has(c1)) {
        continue;
      }
      if (isAlnum(c1)) {
        anyAlnum = true;
      } else {
        if (stressedWord) {
          stressedWord = false;
          c1 = 0x530; // espeak's emphasis marker
          this.ungetc(c2);
          c2 = SPACE;
        }
        if (c1 === 0xf0b) {
          c1 = SPACE;
        }
      }

      if (c1 === NEWLINE) {
        let paragraph = 0;
        while (!this.eof() && isSpace(c2)) {
          if (c2 === NEWLINE) {
            paragraph++;
          }
          c2 = this.getc();
        }
        if (paragraph > 0) {
          this.ungetc(c2);
          return CLAUSE_PARAGRAPH - 30 + 30 * Math.min(paragraph, 3);
        }
      }

      let endsClause = false;
      if (c1 === DOT && c2 === DOT) {
        let next: number;
        while ((next = this.getc()) === DOT) {
          c1 = ELLIPSIS_CHAR;
          c2 = SPACE;
        }
        if (c1 === ELLIPSIS_CHAR) {
          c2 = next;
        } else {
          this.ungetc(next);
        }
      }

      const punctuation = clauseType(c1);
      if (punctuation !== CLAUSE_NONE) {
        if (punctuation & QUESTION_EXCLAMATION) {
          // "?!", "!!!", "?.": the first mark decides, the rest is swallowed.
          while (clauseType(c2) & QUESTION_EXCLAMATION) {
            c2 = this.getc();
          }
        }
        if (punctuation & PUNCTUATION_IN_WORD) {
          stressedWord = true; // Armenian marks inside a word
          continue;
        }
        if (
          isSpace(c2) ||
          punctuation & OPTIONAL_SPACE_AFTER ||
          isBracket(c2) ||
          c2 === 0x3f ||
          this.eof() ||
          c2 === 0x01
        ) {
          endsClause = true;
        }
      }

      if (endsClause) {
        let newlines = 0;
        let next = c2;
        if (isSpace(next)) {
          while (!this.eof() && isSpace(next)) {
            if (next === NEWLINE) {
              newlines++;
            }
            next = this.getc();
          }
        }
        if (newlines === 0) {
          if (c1 === 0x2c && cprev === DOT && this.language === 'hu' && isDigit(cprev2)) {
            if (isDigit(next) || isLower(next)) {
              endsClause = false; // Hungarian ordinal: "december 2., szerda"
            }
          }
          if (c1 === DOT) {
            if (
              ORDINAL_DOT_LANGUAGES.has(this.language) &&
              (isDigit(cprev) || (isRomanUpper(cprev) && (isRomanUpper(cprev2) || isSpace(cprev2))))
            ) {
              if (!isDigit(cprev) || isLower(next) || next === 0x2d) {
                endsClause = false; // an ordinal number, not the end of a sentence
              }
            } else if (next === APOSTROPHE) {
              const after = this.getc();
              if (after === 0x73) {
                endsClause = false; // "U.S.A.'s"
              }
              this.ungetc(after);
            }
            if (isLower(next)) {
              endsClause = false; // an abbreviation: the next word has no capital
            }
            if (!anyAlnum) {
              c1 = SPACE;
              endsClause = false;
            }
          } else if (!anyAlnum) {
            endsClause = false;
          }
        }
        if (endsClause) {
          this.ungetc(next);
          if (newlines > 1) {
            return punctuation === CLAUSE_QUESTION || punctuation === CLAUSE_EXCLAMATION
              ? punctuation + 35
              : CLAUSE_PARAGRAPH;
          }
          return punctuation;
        }
        if (!this.eof() && isSpace(c2)) {
          this.ungetc(next);
        }
      }

      bytes += utf8Length(c1);
      if ((bytes > CLAUSE_BUFFER - 75 && !isAlphaLike(c1) && !isDigit(c1)) || bytes >= CLAUSE_BUFFER - 4) {
        this.ungetc(c2); // clause too long: cut here, without punctuation
        return CLAUSE_NONE;
      }
    }
    return CLAUSE_EOF;
  }
}

/** The language code espeak's translator uses for a voice name such as `en-us`, `gmw/en-US` or `de+f3`. */
export function espeakLanguage(voice: string): string {
  const name = voice.split('+')[0].split('/').pop() ?? voice;
  return name.toLowerCase().split('-')[0];
}

/**
 * The clauses of `text` as espeak-ng's text-to-phonemes conversion reads them, in order: how each ends and the
 * text it covers (terminator and following spaces included).
 */
export function readClauses(text: string, language: string): ClauseSpan[] {
  const reader = new ClauseReader(text, language);
  const clauses: ClauseSpan[] = [];
  do {
    const start = reader.offset;
    const end = piperTerminator(reader.readClause());
    clauses.push({ ...end, text: reader.slice(start, reader.offset) });
  } while (!reader.exhausted);
  return clauses;
}

/** Piper's view of an espeak terminator: the punctuation it re-attaches and whether a sentence ends. */
export function piperTerminator(value: number): ClauseEnd {
  const type = value & PIPER_TERMINATOR_MASK;
  const terminator: ClauseTerminator =
    type === CLAUSE_PERIOD
      ? '.'
      : type === CLAUSE_QUESTION
        ? '?'
        : type === CLAUSE_EXCLAMATION
          ? '!'
          : type === CLAUSE_COMMA
            ? ','
            : type === CLAUSE_COLON
              ? ':'
              : type === CLAUSE_SEMICOLON
                ? ';'
                : '';
  return { terminator, endOfSentence: (type & TYPE_SENTENCE) === TYPE_SENTENCE };
}
