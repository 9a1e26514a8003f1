/**
 * Reading what `pocketsphinx_continuous -infile` prints: with `-logfn /dev/null` its standard output holds one
 * hypothesis line per utterance (the recogniser splits the audio at silences), nothing else.
 */
export function parsePocketsphinxOutput(stdout: string): string {
  return stdout
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !/^(INFO|WARN|ERROR|FATAL)/.test(line))
    .map((line) => line.replace(/\s*\(\S+\s+-?\d+\)\s*$/, '')) // "text (utterance-id score)" in batch-style output
    .map((line) =>
      line
        .replace(/<\/?s>|<sil>|\[NOISE\]|\+\+[A-Z]+\+\+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line.length > 0)
    .join(' ');
}

/** Files of an en-us model folder as Debian's `pocketsphinx-en-us` installs them. */
export const POCKETSPHINX_MODEL_FILES = {
  /** Acoustic model folder (`-hmm`). */
  hmm: 'en-us',
  /** Language model (`-lm`). */
  lm: 'en-us.lm.bin',
  /** Pronunciation dictionary (`-dict`). */
  dict: 'cmudict-en-us.dict',
} as const;
