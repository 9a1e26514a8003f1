/**
 * Band-limited sample-rate conversion: a Kaiser-windowed sinc low-pass evaluated at each output instant
 * (polyphase). Downsampling filters at the *output* Nyquist frequency first, so nothing above it folds back
 * into the band (no aliasing); upsampling filters at the input Nyquist frequency (no imaging).
 *
 * Works on a stream: feed any number of blocks with {@link Resampler.process} and finish with
 * {@link Resampler.flush}; the result is the same as converting the whole signal at once.
 */

export interface ResamplerOptions {
  /**
   * Zero crossings of the sinc on each side of the centre. More = steeper transition band (and more work per
   * output sample). 16 gives a passband flat to ~73 % of the output Nyquist frequency.
   */
  zeroCrossings?: number;
  /** Stopband attenuation of the Kaiser window in dB (default 80). */
  attenuationDb?: number;
}

const DEFAULT_ZERO_CROSSINGS = 16;
const DEFAULT_ATTENUATION_DB = 80;
/** Largest exact polyphase bank (phases × taps); beyond it coefficients are interpolated from a fine table. */
const MAX_BANK_SIZE = 1 << 21;
/** Resolution of the interpolated table, in points per input sample. */
const TABLE_RESOLUTION = 512;

export class Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** Output samples per input sample, reduced: `outputRate/inputRate = up/down`. */
  private readonly up: number;
  private readonly down: number;
  /** Taps per output sample. */
  private readonly taps: number;
  /** Input samples before the current position a filter reaches back to (taps/2 - 1). */
  private readonly left: number;
  private readonly bank?: Float32Array;
  private readonly table?: Float32Array;
  private readonly scratch: Float32Array;
  private readonly filter: (x: number) => number;

  /** Input history: `buffer[0]` is the input sample with absolute index `bufferStart` (negative = zero pad). */
  private buffer: Float32Array;
  private bufferLength = 0;
  private bufferStart: number;
  /** Input samples received so far. */
  private received = 0;
  /** Output samples produced so far. */
  private produced = 0;
  private flushed = false;

  constructor(inputRate: number, outputRate: number, options: ResamplerOptions = {}) {
    if (!Number.isInteger(inputRate) || inputRate <= 0 || !Number.isInteger(outputRate) || outputRate <= 0) {
      throw new RangeError('sample rates must be positive integers');
    }
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    const divisor = gcd(inputRate, outputRate);
    this.up = outputRate / divisor;
    this.down = inputRate / divisor;

    const zeroCrossings = options.zeroCrossings ?? DEFAULT_ZERO_CROSSINGS;
    const attenuation = options.attenuationDb ?? DEFAULT_ATTENUATION_DB;
    const beta = kaiserBeta(attenuation);
    // Cutoff as a fraction of the *input* rate. The transition band of a Kaiser filter with N taps is about
    // (A - 7.95) / (14.36 N) wide (Kaiser's estimate) and N = zeroCrossings / cutoff here, so the band is
    // proportional to the cutoff; the cutoff is placed so the stopband starts right at the lower Nyquist.
    const ratio = Math.min(1, outputRate / inputRate);
    const rolloff = 1 / (1 + (attenuation - 7.95) / (28.72 * zeroCrossings));
    const cutoff = 0.5 * ratio * rolloff;
    const halfWidth = zeroCrossings / (2 * cutoff); // input samples from the centre to the window's edge
    this.left = Math.ceil(halfWidth) - 1;
    this.taps = 2 * Math.ceil(halfWidth);
    const i0Beta = besselI0(beta);
    this.filter = (x: number) => {
      const ax = Math.abs(x);
      if (ax >= halfWidth) {
        return 0;
      }
      const r = ax / halfWidth;
      const window = besselI0(beta * Math.sqrt(1 - r * r)) / i0Beta;
      const arg = 2 * cutoff * x;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      return 2 * cutoff * sinc * window;
    };

    if (this.up * this.taps <= MAX_BANK_SIZE) {
      this.bank = new Float32Array(this.up * this.taps);
      for (let phase = 0; phase < this.up; phase++) {
        this.fillRow(phase / this.up, this.bank.subarray(phase * this.taps, (phase + 1) * this.taps));
      }
    } else {
      const points = Math.ceil(halfWidth * TABLE_RESOLUTION) + 2;
      this.table = new Float32Array(points);
      for (let i = 0; i < points; i++) {
        this.table[i] = this.filter(i / TABLE_RESOLUTION);
      }
    }
    this.scratch = new Float32Array(this.taps);
    this.bufferStart = -this.left;
    this.buffer = new Float32Array(Math.max(4096, this.taps * 4));
    this.bufferLength = this.left; // zeros before the first sample
  }

  /** Output samples for `input` (those whose filter window is complete; the rest come with later calls or flush). */
  process(input: Float32Array): Float32Array {
    if (this.flushed) {
      throw new Error('the resampler was already flushed');
    }
    this.append(input);
    this.received += input.length;
    return this.drain(false);
  }

  /** The remaining output: the signal is taken to be zero after the last input sample. */
  flush(): Float32Array {
    if (this.flushed) {
      return new Float32Array(0);
    }
    this.flushed = true;
    this.append(new Float32Array(this.taps));
    return this.drain(true);
  }

  /** Total output length for `inputLength` input samples. */
  outputLength(inputLength: number): number {
    return Math.ceil((inputLength * this.up) / this.down);
  }

  private drain(final: boolean): Float32Array {
    const end = this.bufferStart + this.bufferLength; // absolute index one past the last buffered sample
    // Output n needs input up to floor(n·down/up) - left + taps - 1 < end.
    const ready = Math.ceil(((end + this.left - this.taps + 1) * this.up) / this.down);
    const limit = final ? Math.min(ready, this.outputLength(this.received)) : ready;
    const result = new Float32Array(Math.max(0, limit - this.produced));
    const buffer = this.buffer;
    const taps = this.taps;
    for (let count = 0; count < result.length; count++) {
      const position = this.produced * this.down; // in units of 1/up input samples
      const index = Math.floor(position / this.up);
      const row = this.row(position - index * this.up);
      const offset = index - this.left - this.bufferStart;
      let sum = 0;
      for (let k = 0; k < taps; k++) {
        sum += row[k] * buffer[offset + k];
      }
      result[count] = sum;
      this.produced++;
    }
    this.discardConsumed();
    return result;
  }

  private row(phase: number): Float32Array {
    if (this.bank) {
      return this.bank.subarray(phase * this.taps, (phase + 1) * this.taps);
    }
    this.fillRow(phase / this.up, this.scratch);
    return this.scratch;
  }

  /** Coefficients for an output instant `fraction` (0 ≤ fraction < 1) past input sample `left`, normalised to unity DC gain. */
  private fillRow(fraction: number, row: Float32Array): void {
    let sum = 0;
    for (let k = 0; k < this.taps; k++) {
      const x = fraction + this.left - k; // distance from the tap's sample to the output instant
      const value = this.table ? this.lookup(x) : this.filter(x);
      row[k] = value;
      sum += value;
    }
    if (sum !== 0) {
      for (let k = 0; k < this.taps; k++) {
        row[k] /= sum;
      }
    }
  }

  private lookup(x: number): number {
    const table = this.table!;
    const position = Math.abs(x) * TABLE_RESOLUTION;
    const i = Math.floor(position);
    if (i + 1 >= table.length) {
      return 0;
    }
    const t = position - i;
    return table[i] + (table[i + 1] - table[i]) * t;
  }

  private append(input: Float32Array): void {
    const needed = this.bufferLength + input.length;
    if (needed > this.buffer.length) {
      const grown = new Float32Array(Math.max(needed, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.bufferLength));
      this.buffer = grown;
    }
    this.buffer.set(input, this.bufferLength);
    this.bufferLength += input.length;
  }

  /** Drops input no future output sample needs. */
  private discardConsumed(): void {
    const nextIndex = Math.floor((this.produced * this.down) / this.up);
    const keepFrom = nextIndex - this.left;
    const drop = keepFrom - this.bufferStart;
    if (drop <= 0) {
      return;
    }
    const count = Math.min(drop, this.bufferLength);
    this.buffer.copyWithin(0, count, this.bufferLength);
    this.bufferLength -= count;
    this.bufferStart += count;
  }
}

/** Converts a whole mono signal at once. */
export function resample(
  samples: Float32Array,
  inputRate: number,
  outputRate: number,
  options?: ResamplerOptions,
): Float32Array {
  if (inputRate === outputRate) {
    return samples.slice();
  }
  const resampler = new Resampler(inputRate, outputRate, options);
  const head = resampler.process(samples);
  const tail = resampler.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** The mean of the channels (planar input, one array per channel, all the same length). */
export function downmix(channels: readonly Float32Array[], length = channels[0]?.length ?? 0): Float32Array {
  if (channels.length === 1) {
    return channels[0].length === length ? channels[0] : channels[0].subarray(0, length);
  }
  const out = new Float32Array(length);
  if (channels.length === 0) {
    return out;
  }
  for (const channel of channels) {
    for (let i = 0; i < length; i++) {
      out[i] += channel[i];
    }
  }
  const scale = 1 / channels.length;
  for (let i = 0; i < length; i++) {
    out[i] *= scale;
  }
  return out;
}

/** The mean of the channels of interleaved samples. */
export function downmixInterleaved(samples: Float32Array, channels: number): Float32Array {
  if (channels === 1) {
    return samples;
  }
  const frames = Math.floor(samples.length / channels);
  const out = new Float32Array(frames);
  const scale = 1 / channels;
  for (let frame = 0, i = 0; frame < frames; frame++) {
    let sum = 0;
    for (let c = 0; c < channels; c++, i++) {
      sum += samples[i];
    }
    out[frame] = sum * scale;
  }
  return out;
}

function gcd(a: number, b: number): number {
  while (b !== 0) {
    [a, b] = [b, a % b];
  }
  return a;
}

/** Kaiser's empirical β for a stopband attenuation in dB. */
function kaiserBeta(attenuationDb: number): number {
  if (attenuationDb > 50) {
    return 0.1102 * (attenuationDb - 8.7);
  }
  if (attenuationDb >= 21) {
    return 0.5842 * (attenuationDb - 21) ** 0.4 + 0.07886 * (attenuationDb - 21);
  }
  return 0;
}

/** Zeroth-order modified Bessel function of the first kind (power series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const half = x / 2;
  for (let k = 1; k < 64; k++) {
    term *= (half / k) * (half / k);
    sum += term;
    if (term < sum * 1e-12) {
      break;
    }
  }
  return sum;
}
