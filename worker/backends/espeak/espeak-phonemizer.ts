import { espeakLanguage, readClauses, type EspeakClause } from './espeak-clauses';
import { splitClausePhonemes } from './espeak-phonemes';
import type { EspeakRawPhonemes } from './espeak-protocol';
import type { EspeakThreadPool } from './espeak-thread-pool';

/** What the phonemizer needs of the thread pool. */
export type PhonemizePool = Pick<EspeakThreadPool, 'phonemize'>;

export interface PhonemizeResult {
  clauses: EspeakClause[];
  /**
   * False when espeak split the text into a different number of clauses than the terminator reading found, so
   * each clause the reading found was converted on its own instead (close to, but not always exactly, what
   * Piper's espeak-ng gives). Never seen on ordinary text; reported so callers can log it.
   */
  exact: boolean;
}

/**
 * Text to phonemes with espeak-ng, clause by clause with each clause's terminating punctuation, as Piper's own
 * espeak-ng bridge gives them (`espeak_TextToPhonemesWithTerminator` in IPA mode).
 *
 * The conversion runs in the espeak threads (see {@link EspeakThreadPool.phonemize}); the clause terminators,
 * which the emscripten build does not report, come from `espeak-clauses.ts`, and the IPA clean-up from
 * `espeak-phonemes.ts`. Both are a few microseconds of string work on the calling thread.
 */
export class EspeakPhonemizer {
  constructor(private readonly pool: PhonemizePool) {}

  async phonemize(voice: string, text: string, signal?: AbortSignal): Promise<PhonemizeResult> {
    const spans = readClauses(text, espeakLanguage(voice));
    const raw = await this.pool.phonemize({ voice, text }, signal);
    const phonemes = splitClausePhonemes(raw.ipa, raw.ascii);
    if (phonemes.length === spans.length) {
      return {
        clauses: spans.map((span, index) => ({
          phonemes: phonemes[index],
          terminator: span.terminator,
          endOfSentence: span.endOfSentence,
        })),
        exact: true,
      };
    }
    // Convert each clause the reading found separately, so every clause keeps the terminator found for it.
    const clauses: EspeakClause[] = [];
    for (const span of spans) {
      const part: EspeakRawPhonemes = await this.pool.phonemize({ voice, text: span.text }, signal);
      const words = splitClausePhonemes(part.ipa, part.ascii).filter((clause) => clause !== '');
      clauses.push({
        phonemes: words.join(' '),
        terminator: span.terminator,
        endOfSentence: span.endOfSentence,
      });
    }
    return { clauses, exact: false };
  }
}
