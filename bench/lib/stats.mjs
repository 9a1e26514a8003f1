// Small statistics and formatting helpers of the bench.

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN when empty. */
export function percentile(values, p) {
  if (values.length === 0) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (values) => percentile(values, 50);

export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

/** Word-level edit distance (substitutions + deletions + insertions) of `hypothesis` against `reference`. */
export function wordErrors(reference, hypothesis) {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, index) => index);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = previous[j - 1] + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[j] + 1, current[j - 1] + 1));
    }
    previous = current;
  }
  return previous[hypothesis.length];
}

/**
 * Compares two 16-bit PCM signals sample by sample over their common length: the largest absolute difference
 * (in 16-bit steps) and the signal-to-noise ratio of `ours` against `reference` in dB (Infinity when identical).
 */
export function compareSignals(reference, ours) {
  const length = Math.min(reference.length, ours.length);
  let maxAbs = 0;
  let signal = 0;
  let noise = 0;
  let identical = 0;
  for (let i = 0; i < length; i++) {
    const difference = ours[i] - reference[i];
    maxAbs = Math.max(maxAbs, Math.abs(difference));
    signal += reference[i] * reference[i];
    noise += difference * difference;
    if (difference === 0) {
      identical++;
    }
  }
  return {
    referenceSamples: reference.length,
    ourSamples: ours.length,
    comparedSamples: length,
    maxAbsDifference: maxAbs,
    identicalShare: length > 0 ? identical / length : 0,
    snrDb: noise === 0 ? Infinity : 10 * Math.log10(signal / noise),
  };
}

/** Rounds for display and JSON; keeps NaN/Infinity readable. */
export function round(value, digits = 3) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return value;
  }
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function fmt(value, digits = 3) {
  if (value === null || value === undefined) {
    return '—';
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) {
      return '—';
    }
    if (!Number.isFinite(value)) {
      return value > 0 ? '∞' : '-∞';
    }
    return value.toFixed(digits);
  }
  return String(value);
}

export const ms = (seconds) => (Number.isFinite(seconds) ? `${(seconds * 1000).toFixed(1)} ms` : '—');
/** A difference in milliseconds with its sign. */
export const signedMs = (seconds) =>
  Number.isFinite(seconds) ? `${seconds < 0 ? '−' : '+'}${Math.abs(seconds * 1000).toFixed(1)} ms` : '—';
export const pct = (share) => (Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : '—');
export const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');

/** Cells right-aligned in tables: a number, optionally with a unit or in brackets after it. */
const NUMERIC = /^[-+−]?[\d.,]+(\s?(s|ms|MiB|dB|%|×))?(\s\(.*\))?$|^[∞—]/;

/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell ?? '—')));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => [...(row[column] ?? '')].length)));
  const line = (row) =>
    row
      .map((cell, column) => {
        const pad = widths[column] - [...cell].length;
        return NUMERIC.test(cell) && column > 0 ? ' '.repeat(pad) + cell : cell + ' '.repeat(pad);
      })
      .join('  ')
      .trimEnd();
  return [
    line(cells[0]),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}
