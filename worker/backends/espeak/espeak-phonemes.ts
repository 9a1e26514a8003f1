/**
 * Reading the text-to-phonemes output of the emscripten espeak-ng build.
 *
 * Its `text_to_phonemes(text, ipa)` glue returns every clause of the text joined by ` | `, phonemes separated by
 * `_` and words by spaces. Two things differ from what Piper's espeak-ng gives for the same text:
 *
 * - the separators, which are simply removed (Piper asks for none);
 * - the linking `j` espeak inserts between an i-vowel and a following vowel ("the end" → `ðɪʲ ˈɛnd`). Piper's
 *   espeak-ng data names that phoneme `ʲ` in IPA; the data of this build gives it no IPA name, so it comes out
 *   empty. The same text converted to espeak's ASCII phoneme names still shows it (`;`), so both conversions are
 *   aligned phoneme by phoneme and each empty IPA phoneme that is a `;` in ASCII becomes `ʲ` again.
 *
 * Pure code, no imports: it runs inside the espeak worker threads.
 */

/** Separator the glue puts between clauses. */
export const CLAUSE_SEPARATOR = ' | ';
const PHONEME_SEPARATOR = '_';
/** IPA of espeak's linking/palatalisation phoneme `;`. */
const LINKING_IPA = 'ʲ';

type AsciiKind = 'pause' | 'link' | 'switch' | 'phoneme';

/** espeak's pause phonemes (`_`, `_:`, `_!`…), the only ASCII names that start with the separator character. */
const PAUSE = /^_(?:;_|::|:|!|\||X1)?/;
const SWITCH = /^\([^)]*\)/;
const PHONEME = /^[^_]+/;

/** Splits one word of ASCII phoneme names (separated by `_`) into phonemes. */
export function tokenizeAsciiWord(word: string): { name: string; kind: AsciiKind }[] {
  const tokens: { name: string; kind: AsciiKind }[] = [];
  let rest = word;
  while (rest.length > 0) {
    if (tokens.length > 0 && rest.startsWith(PHONEME_SEPARATOR)) {
      rest = rest.slice(1); // the separator before every phoneme but a word's first
      if (rest.length === 0) {
        tokens.push({ name: '', kind: 'phoneme' }); // a nameless phoneme at the end of the word
        break;
      }
    }
    const pause = PAUSE.exec(rest);
    const match = pause ?? SWITCH.exec(rest) ?? PHONEME.exec(rest);
    const name = match ? match[0] : rest;
    const kind: AsciiKind = pause
      ? 'pause'
      : name.startsWith('(')
        ? 'switch'
        : name === ';'
          ? 'link'
          : 'phoneme';
    tokens.push({ name, kind });
    rest = rest.slice(Math.max(1, name.length));
  }
  return tokens;
}

const SKIP = 1e6;

/**
 * Aligns one word's IPA pieces (split at the separators) with its ASCII phonemes and returns the IPA word with
 * the linking phonemes restored, or null when no plausible alignment exists.
 *
 * IPA pieces and ASCII phonemes mostly pair one to one. The exceptions the alignment allows: phonemes without an
 * IPA name (pauses; some others) leave an empty piece; pauses before a word's first phoneme share one piece;
 * phonemes whose IPA name starts with a modifier letter (`ʲ`, `ʰ`) are written without a separator, so they join
 * the previous piece.
 */
function alignWord(ipaWord: string, asciiWord: string): string | null {
  const pieces = ipaWord.split(PHONEME_SEPARATOR);
  const phonemes = tokenizeAsciiWord(asciiWord);
  const n = phonemes.length;
  const m = pieces.length;
  // cost[i][j]: cheapest alignment of the first i ASCII phonemes with the first j pieces.
  const cost: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(SKIP));
  const step: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  cost[0][0] = 0;
  const relax = (i: number, j: number, value: number, move: number) => {
    if (value < cost[i][j]) {
      cost[i][j] = value;
      step[i][j] = move;
    }
  };
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const base = cost[i][j];
      if (base >= SKIP) {
        continue;
      }
      const phoneme = phonemes[i];
      const piece = pieces[j];
      if (i < n && j < m) {
        // 1: one phoneme ↔ one piece
        let pair: number;
        if (phoneme.kind === 'switch') {
          pair = piece === phoneme.name ? 0 : SKIP;
        } else if (piece === '') {
          pair = phoneme.kind === 'phoneme' ? 1 : 0; // pauses and links have no IPA name here
        } else {
          pair = phoneme.kind === 'phoneme' ? 0 : SKIP;
        }
        relax(i + 1, j + 1, base + pair, 1);
      }
      if (i < n) {
        // 2: a phoneme without a piece of its own: joined to the previous piece, or a pause before a word
        let alone: number;
        if (phoneme.kind === 'pause') {
          alone = 0.5;
        } else if (phoneme.kind === 'link') {
          alone = j > 0 && pieces[j - 1].endsWith(LINKING_IPA) ? 0 : 2;
        } else {
          alone = 3;
        }
        relax(i + 1, j, base + alone, 2);
      }
      if (j < m && piece === '') {
        relax(i, j + 1, base + 1, 3); // 3: an empty piece with no phoneme
      }
    }
  }
  if (cost[n][m] >= SKIP) {
    return null;
  }
  const output: string[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const move = step[i][j];
    if (move === 1) {
      output.push(pieces[j - 1] === '' && phonemes[i - 1].kind === 'link' ? LINKING_IPA : pieces[j - 1]);
      i--;
      j--;
    } else if (move === 2) {
      i--;
    } else {
      output.push(pieces[j - 1]);
      j--;
    }
  }
  return output.reverse().join('');
}

/**
 * One clause's IPA phonemes as Piper's espeak-ng writes them, from the glue's IPA and ASCII conversions of the
 * same clause.
 */
export function clausePhonemes(ipaClause: string, asciiClause: string | undefined): string {
  const ipaWords = ipaClause.split(' ');
  const asciiWords = asciiClause?.split(' ');
  return ipaWords
    .map((word, index) => {
      const aligned =
        asciiWords && asciiWords.length === ipaWords.length ? alignWord(word, asciiWords[index]) : null;
      return aligned ?? word.split(PHONEME_SEPARATOR).join('');
    })
    .join(' ');
}

/** Splits the glue's output for a whole text into clauses' IPA phonemes (see {@link clausePhonemes}). */
export function splitClausePhonemes(ipa: string, ascii: string): string[] {
  const ipaClauses = ipa.split(CLAUSE_SEPARATOR);
  const asciiClauses = ascii.split(CLAUSE_SEPARATOR);
  const aligned = asciiClauses.length === ipaClauses.length;
  return ipaClauses.map((clause, index) => clausePhonemes(clause, aligned ? asciiClauses[index] : undefined));
}
