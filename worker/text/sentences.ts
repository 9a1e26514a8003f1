/**
 * Sentence segmentation shared by every engine.
 *
 * Unicode sentence boundaries (UAX #29 through `Intl.Segmenter`) handle decimals ("3.14"), CJK full stops and
 * quotes, but V8's ICU applies no abbreviation suppressions, so "Dr. Smith" would split after "Dr.". A merge pass
 * repairs that; merging two real sentences costs nothing audible, splitting one in the middle inserts a pause,
 * so the pass errs on the side of merging. Sentences longer than `maxLength` are then cut at clause punctuation,
 * else at whitespace, else at a grapheme boundary, so one chunk never grows without bound (first-audio latency
 * and model context both depend on it).
 */

export const DEFAULT_MAX_SENTENCE_LENGTH = 400;

/** Below this fraction of `maxLength` a cut would leave a uselessly short chunk: look for a later one. */
const MIN_CUT_FRACTION = 0.3;

export interface SentenceOptions {
  /** BCP 47 / ISO 639-1 language of the text; selects abbreviation rules. Default `en`. */
  language?: string | null;
  /** Longest chunk returned, in UTF-16 code units. Default {@link DEFAULT_MAX_SENTENCE_LENGTH}. */
  maxLength?: number;
}

/** Abbreviations that are (almost) never the end of a sentence, whatever follows: titles, "e.g."… */
const NON_FINAL_ABBREVIATIONS = new Set(
  [
    // English
    'Mr Mrs Ms Mx Dr Prof Sr Jr St Mt Ft Gen Col Capt Lt Sgt Cpl Rev Hon Gov Sen Rep Pres Supt',
    'vs approx ca cf e.g i.e viz Messrs Mme Mlle',
    // German
    'Hr Fr Frl Dipl Ing bzw z.B d.h u.a o.ä vgl evtl ggf sog inkl zzgl Str geb',
    // French, Spanish, Italian, Portuguese, Dutch
    'M MM Pr Ste p.ex Sra Srta Dra Ud Uds Vd Vds p.ej Sig Sig.ra Dott Avv Sto dhr mevr bijv o.a Exmo Exma',
  ]
    .join(' ')
    .toLowerCase()
    .split(' '),
);

/** Abbreviations that precede a number: "No. 5", "pp. 10", "Fig. 3", "Art. 12". */
const NUMBER_ABBREVIATIONS = new Set('no nos nr p pp vol fig art abs ch sec s bd nº'.split(' '));

/** Languages writing ordinal numbers with a trailing dot ("am 3. Mai"). */
const ORDINAL_DOT_LANGUAGES = new Set('de da nb nn no fi et cs sk sl hr sr bs hu lv is fo tr pl'.split(' '));

const SPEAKABLE = /[\p{L}\p{N}\p{S}]/u;
const CLAUSE_BREAK = /[,;:\u2013\u2014\u2026\u3001\uff0c\uff1b\uff1a\u060c\u061b)\]}»”’"]/u;
const segmenterCache = new Map<string, { sentence: Intl.Segmenter; grapheme: Intl.Segmenter }>();

/** True when the text holds something an engine can pronounce (a letter, digit or symbol). */
export function isSpeakable(text: string): boolean {
  return SPEAKABLE.test(text);
}

/**
 * Splits text into speakable sentences, each trimmed, at most `maxLength` long, with internal whitespace
 * collapsed. Returns an empty array when nothing in the text can be spoken.
 */
export function splitSentences(text: string, options: SentenceOptions = {}): string[] {
  const maxLength = options.maxLength ?? DEFAULT_MAX_SENTENCE_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < 8) {
    throw new RangeError('maxLength must be an integer of at least 8');
  }
  const language = primaryLanguage(options.language);
  const segmenters = segmentersFor(language);
  const normalized = text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    // Control characters (but tab and newline) confuse engines and say nothing.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');

  const merged: string[] = [];
  let pendingPrefix = '';
  let spaceBefore = false;
  for (const { segment } of segmenters.sentence.segment(normalized)) {
    const sentence = collapseWhitespace(segment);
    const joiner = spaceBefore || /^\s/u.test(segment) ? ' ' : '';
    spaceBefore = /\s$/u.test(segment);
    if (!sentence) {
      continue;
    }
    if (!isSpeakable(sentence)) {
      // Stray punctuation ("…", "—", ")") belongs to the sentence before it, or the one after at the start.
      if (merged.length > 0) {
        merged[merged.length - 1] += joiner + sentence;
      } else {
        pendingPrefix += sentence;
      }
      continue;
    }
    const withPrefix = pendingPrefix ? `${pendingPrefix} ${sentence}` : sentence;
    pendingPrefix = '';
    const previous = merged[merged.length - 1];
    if (previous !== undefined && continuesSentence(previous, withPrefix, language)) {
      merged[merged.length - 1] = `${previous} ${withPrefix}`;
    } else {
      merged.push(withPrefix);
    }
  }

  return merged.flatMap((sentence) => splitLong(sentence, maxLength, segmenters.grapheme));
}

/** Whether the segmenter's break between `previous` and `next` is a false one. */
function continuesSentence(previous: string, next: string, language: string): boolean {
  const match = /(?:^|[\s(["'«„“])([\p{L}][\p{L}.]*)\.$/u.exec(previous);
  if (match) {
    const word = match[1];
    const lower = word.toLowerCase();
    if (NON_FINAL_ABBREVIATIONS.has(lower)) {
      return true;
    }
    if (NUMBER_ABBREVIATIONS.has(lower) && /^\p{N}/u.test(next)) {
      return true;
    }
    // An initial ("J. R. R. Tolkien") or a dotted acronym ("U.S. Army").
    if (/^\p{Lu}$/u.test(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word)) {
      return /^\p{Lu}/u.test(next) || /^\p{N}/u.test(next);
    }
  }
  if (
    ORDINAL_DOT_LANGUAGES.has(language) &&
    /(?:^|\s)\p{N}{1,3}\.$/u.test(previous) &&
    /^\p{L}/u.test(next)
  ) {
    return true;
  }
  // A sentence never starts in lower case (where the script has case): the break was not real.
  return /^\p{Ll}/u.test(next) && /[.]$/.test(previous);
}

function splitLong(sentence: string, maxLength: number, graphemes: Intl.Segmenter): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > maxLength) {
    const cut = findCut(rest, maxLength, graphemes);
    const head = rest.slice(0, cut).trim();
    if (head) {
      parts.push(head);
    }
    rest = rest.slice(cut).trimStart();
  }
  if (rest) {
    parts.push(rest);
  }
  return parts;
}

/** Index at which to cut `text` (longer than `maxLength`) so the head is at most `maxLength` long. */
function findCut(text: string, maxLength: number, graphemes: Intl.Segmenter): number {
  const minimum = Math.floor(maxLength * MIN_CUT_FRACTION);
  let clauseCut = -1;
  let spaceCut = -1;
  for (let i = maxLength; i > minimum; i--) {
    const char = text[i - 1];
    if (clauseCut < 0 && CLAUSE_BREAK.test(char) && !/\p{N}/u.test(text[i] ?? '')) {
      clauseCut = i;
      break; // the latest clause break wins outright
    }
    if (spaceCut < 0 && /\s/.test(text[i] ?? '')) {
      spaceCut = i;
    }
  }
  if (clauseCut > 0) {
    return clauseCut;
  }
  if (spaceCut > 0) {
    return spaceCut;
  }
  // No break at all (CJK without punctuation, a very long token): the last grapheme boundary that fits.
  let cut = 0;
  for (const { index } of graphemes.segment(text.slice(0, maxLength + 1))) {
    if (index > maxLength) {
      break;
    }
    cut = index;
  }
  return cut > 0 ? cut : maxLength;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** `en-US`, `EN_us` → `en`; anything unusable → `en`. */
function primaryLanguage(language: string | null | undefined): string {
  const primary = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(primary) ? primary : 'en';
}

function segmentersFor(language: string) {
  let cached = segmenterCache.get(language);
  if (!cached) {
    let locale = language;
    try {
      Intl.getCanonicalLocales(locale);
    } catch {
      locale = 'en';
    }
    cached = {
      sentence: new Intl.Segmenter(locale, { granularity: 'sentence' }),
      grapheme: new Intl.Segmenter(locale, { granularity: 'grapheme' }),
    };
    segmenterCache.set(language, cached);
  }
  return cached;
}
