/**
 * Tempo change without pitch change (WSOLA: waveform-similarity overlap-add).
 *
 * Engines whose own rate control has a narrower range than the API's `speed` (espeak stops at 80–450 words per
 * minute) use it for the remainder. Pure and synchronous: call it off the main event loop (engine threads do).
 */

/** Analysis frame length: 30 ms holds two or more pitch periods of any voice. */
const FRAME_SECONDS = 0.03;
/** How far a frame may move from its ideal position to line up with the previous one. */
const SEEK_SECONDS = 0.008;
/** Correlate every n-th sample while seeking: the same alignment at a fraction of the cost. */
const SEEK_STRIDE = 2;

/**
 * Returns `input` played `tempo` times as fast (tempo 2 → half as long) at the same pitch.
 * A tempo within 0.1% of 1 returns a copy.
 */
export function timeStretch(input: Int16Array, sampleRate: number, tempo: number): Int16Array {
  if (!Number.isFinite(tempo) || tempo <= 0) {
    throw new RangeError(`tempo must be a positive number (got ${tempo})`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`sample rate must be a positive integer (got ${sampleRate})`);
  }
  const outputLength = Math.round(input.length / tempo);
  const frame = Math.max(16, 2 * Math.round((sampleRate * FRAME_SECONDS) / 2));
  if (Math.abs(tempo - 1) < 1e-3 || input.length < frame) {
    return Math.abs(tempo - 1) < 1e-3 ? input.slice() : resampleLength(input, outputLength);
  }

  const hop = frame / 2; // synthesis hop: 50% overlap of periodic Hann windows sums to one
  const seek = Math.max(1, Math.round(sampleRate * SEEK_SECONDS));
  const overlap = hop;
  const window = new Float32Array(frame);
  for (let i = 0; i < frame; i++) {
    window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / frame);
  }

  const at = (i: number) => (i >= 0 && i < input.length ? input[i] : 0);
  const out = new Float32Array(outputLength + frame);
  const weight = new Float32Array(outputLength + frame);
  let previous = 0;

  for (let outPos = 0; outPos < outputLength; outPos += hop) {
    let position = 0;
    if (outPos > 0) {
      const natural = previous + hop; // where the previous frame's waveform continues
      const ideal = Math.round(outPos * tempo);
      position = bestAlignment(input, natural, ideal, seek, overlap);
    }
    for (let i = 0; i < frame; i++) {
      out[outPos + i] += window[i] * at(position + i);
      weight[outPos + i] += window[i];
    }
    previous = position;
  }

  const result = new Int16Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const w = weight[i];
    const value = w > 1e-3 ? out[i] / w : 0;
    result[i] = value > 32767 ? 32767 : value < -32768 ? -32768 : Math.round(value);
  }
  return result;
}

/** Start in [ideal - seek, ideal + seek] whose first `overlap` samples best match those at `natural`. */
function bestAlignment(
  input: Int16Array,
  natural: number,
  ideal: number,
  seek: number,
  overlap: number,
): number {
  const from = Math.max(0, ideal - seek);
  const to = Math.min(input.length - 1, ideal + seek);
  if (from >= to) {
    return Math.max(0, Math.min(ideal, input.length - 1));
  }
  let best = ideal;
  let bestScore = -Infinity;
  for (let candidate = from; candidate <= to; candidate++) {
    let dot = 0;
    let energy = 1e-9;
    for (let i = 0; i < overlap; i += SEEK_STRIDE) {
      const reference = natural + i < input.length ? input[natural + i] : 0;
      const value = candidate + i < input.length ? input[candidate + i] : 0;
      dot += reference * value;
      energy += value * value;
    }
    const score = dot / Math.sqrt(energy);
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

/** Linear-interpolation length change, for inputs too short to hold one frame. */
function resampleLength(input: Int16Array, length: number): Int16Array {
  const out = new Int16Array(length);
  if (input.length === 0) {
    return out;
  }
  const step = length > 1 ? (input.length - 1) / (length - 1) : 0;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const i1 = Math.min(i0 + 1, input.length - 1);
    out[i] = Math.round(input[i0] + (input[i1] - input[i0]) * (x - i0));
  }
  return out;
}
