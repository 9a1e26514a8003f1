/**
 * Piper's phoneme sequences and phoneme ids (the model's `input`), built the way Piper's own runtime builds them.
 */
import type { EspeakClause } from '../espeak/espeak-clauses';
import { BOS, EOS, PAD } from './piper-config';

/** espeak marks words of another language with `(en)`…`(fr)`; Piper drops those flags. */
const LANGUAGE_SWITCH = /\([^)]+\)/g;

/** Terminators after which Piper keeps a space: the clause ends, the sentence goes on. */
const CLAUSE_PUNCTUATION = new Set([',', ':', ';']);

/**
 * Phonemes of each sentence, from espeak's clauses: each clause's phonemes with its punctuation re-attached
 * (plus a space after `,` `:` `;`), decomposed (NFD) and split into code points, so accents are phonemes of their
 * own; a new sentence starts after each sentence-ending clause. Empty sentences are dropped.
 */
export function phonemeSentences(
  clauses: readonly EspeakClause[],
  vowelClusters: readonly (readonly string[])[] = [],
): string[][] {
  const sentences: string[][] = [];
  let current: string[] = [];
  const finish = () => {
    const merged = mergeVowelClusters(current, vowelClusters);
    if (merged.length > 0) {
      sentences.push(merged);
    }
    current = [];
  };
  for (const clause of clauses) {
    let text = clause.phonemes.replace(LANGUAGE_SWITCH, '') + clause.terminator;
    if (CLAUSE_PUNCTUATION.has(clause.terminator)) {
      text += ' ';
    }
    current.push(...Array.from(text.normalize('NFD')));
    if (clause.endOfSentence) {
      finish();
    }
  }
  finish();
  return sentences;
}

/** Phonemes of plain text for voices of phoneme type `text`: the code points of the decomposed text. */
export function textPhonemes(text: string): string[] {
  return Array.from(text.normalize('NFD'));
}

/** Replaces each run of phonemes listed in `clusters` by one phoneme (the longest match wins). */
export function mergeVowelClusters(phonemes: string[], clusters: readonly (readonly string[])[]): string[] {
  if (clusters.length === 0) {
    return phonemes;
  }
  const known = new Set(clusters.map((cluster) => cluster.join('\u0000')));
  const longest = Math.max(...clusters.map((cluster) => cluster.length));
  const merged: string[] = [];
  let index = 0;
  while (index < phonemes.length) {
    let match = 0;
    for (let length = Math.min(longest, phonemes.length - index); length > 1; length--) {
      if (known.has(phonemes.slice(index, index + length).join('\u0000'))) {
        match = length;
        break;
      }
    }
    if (match > 0) {
      merged.push(phonemes.slice(index, index + match).join(''));
      index += match;
    } else {
      merged.push(phonemes[index]);
      index++;
    }
  }
  return merged;
}

export interface PhonemeIds {
  /** `^` `_`, then each phoneme's ids followed by `_`, then `$`. */
  ids: number[];
  /** Phonemes absent from the map (skipped, as Piper does). */
  missing: string[];
}

/** Maps one sentence's phonemes to the model's input ids. */
export function phonemeIds(
  phonemes: readonly string[],
  idMap: ReadonlyMap<string, readonly number[]>,
): PhonemeIds {
  const pad = idMap.get(PAD) ?? [];
  const ids: number[] = [...(idMap.get(BOS) ?? []), ...pad];
  const missing: string[] = [];
  for (const phoneme of phonemes) {
    const mapped = idMap.get(phoneme);
    if (!mapped) {
      missing.push(phoneme);
      continue;
    }
    ids.push(...mapped, ...pad);
  }
  ids.push(...(idMap.get(EOS) ?? []));
  return { ids, missing };
}
