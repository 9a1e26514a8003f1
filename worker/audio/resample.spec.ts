import { downmix, downmixInterleaved, resample, Resampler } from './resample';

function sine(frequency: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) {
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate);
  }
  return out;
}

/** Amplitude of the `frequency` component over the middle 60 % (edges carry the filter's start-up). */
function amplitudeAt(samples: Float32Array, frequency: number, rate: number): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let re = 0;
  let im = 0;
  for (let i = from; i < to; i++) {
    re += samples[i] * Math.cos((2 * Math.PI * frequency * i) / rate);
    im += samples[i] * Math.sin((2 * Math.PI * frequency * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

function rms(samples: Float32Array): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let sum = 0;
  for (let i = from; i < to; i++) {
    sum += samples[i] * samples[i];
  }
  return Math.sqrt(sum / (to - from));
}

/** Frequency from the zero crossings (rising) of the middle part. */
function zeroCrossingFrequency(samples: Float32Array, rate: number): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = from + 1; i < to; i++) {
    if (samples[i - 1] < 0 && samples[i] >= 0) {
      const crossing = i - 1 + samples[i - 1] / (samples[i - 1] - samples[i]);
      if (first < 0) {
        first = crossing;
      } else {
        count++;
      }
      last = crossing;
    }
  }
  return (count * rate) / (last - first);
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('Resampler', () => {
  it.each([
    [44100, 16000],
    [48000, 16000],
    [22050, 16000],
    [8000, 16000],
    [96000, 16000],
    [11025, 16000],
    [44056, 16000], // an odd rate: coefficients from the interpolated table
  ])('keeps a 1 kHz tone at 1 kHz and full level from %i Hz to %i Hz', (from, to) => {
    const output = resample(sine(1000, from, 1), from, to);
    expect(output.length).toBe(to); // one second in, one second out
    expect(zeroCrossingFrequency(output, to)).toBeCloseTo(1000, 0);
    expect(amplitudeAt(output, 1000, to)).toBeCloseTo(0.5, 3);
  });

  it('keeps the passband flat up to 5.5 kHz when going to 16 kHz', () => {
    for (const frequency of [100, 2000, 4000, 5500]) {
      const output = resample(sine(frequency, 44100, 1), 44100, 16000);
      expect(Math.abs(db(amplitudeAt(output, frequency, 16000) / 0.5))).toBeLessThan(0.1);
    }
  });

  it.each([8500, 9000, 12000, 15000, 20000])(
    'removes a %i Hz tone (above the 8 kHz output Nyquist) instead of aliasing it',
    (frequency) => {
      const output = resample(sine(frequency, 44100, 1), 44100, 16000);
      expect(db(rms(output) / (0.5 / Math.SQRT2))).toBeLessThan(-70);
    },
  );

  it('removes tones above the output Nyquist from 48 kHz too, where the alias would land at 7.8 kHz', () => {
    const output = resample(sine(8200, 48000, 1), 48000, 16000);
    expect(db(rms(output) / (0.5 / Math.SQRT2))).toBeLessThan(-70);
  });

  it('gives the same output in blocks as in one go', () => {
    const input = sine(440, 44100, 0.7);
    const whole = resample(input, 44100, 16000);
    const streamed = new Resampler(44100, 16000);
    const chunks: Float32Array[] = [];
    let offset = 0;
    let size = 1;
    while (offset < input.length) {
      chunks.push(streamed.process(input.subarray(offset, offset + size)));
      offset += size;
      size = (size * 7) % 5000 || 3;
    }
    chunks.push(streamed.flush());
    const joined = new Float32Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let position = 0;
    for (const chunk of chunks) {
      joined.set(chunk, position);
      position += chunk.length;
    }
    expect(joined.length).toBe(whole.length);
    expect(joined).toEqual(whole);
  });

  it('keeps the signal in time: an impulse comes out where it went in', () => {
    const input = new Float32Array(44100);
    input[22050] = 1; // at 0.5 s
    const output = resample(input, 44100, 16000);
    let peak = 0;
    for (let i = 1; i < output.length; i++) {
      if (Math.abs(output[i]) > Math.abs(output[peak])) {
        peak = i;
      }
    }
    expect(Math.abs(peak - 8000)).toBeLessThanOrEqual(1);
  });

  it('copies when the rates are equal and refuses bad rates', () => {
    const input = sine(100, 16000, 0.1);
    const output = resample(input, 16000, 16000);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
    expect(() => new Resampler(0, 16000)).toThrow(RangeError);
    expect(() => new Resampler(44100.5, 16000)).toThrow(RangeError);
  });

  it('refuses input after flush', () => {
    const resampler = new Resampler(32000, 16000);
    resampler.flush();
    expect(resampler.flush().length).toBe(0);
    expect(() => resampler.process(new Float32Array(10))).toThrow(/flushed/);
  });
});

describe('downmix', () => {
  it('averages planar channels', () => {
    expect(downmix([Float32Array.of(1, 0.5), Float32Array.of(0, -0.5)])).toEqual(Float32Array.of(0.5, 0));
    expect(downmix([Float32Array.of(1, 2, 3)], 2)).toEqual(Float32Array.of(1, 2));
  });

  it('averages interleaved frames', () => {
    expect(downmixInterleaved(Float32Array.of(1, 0, 0.5, 0.5, -1, 1), 2)).toEqual(
      Float32Array.of(0.5, 0.5, 0),
    );
    const mono = Float32Array.of(1, 2);
    expect(downmixInterleaved(mono, 1)).toBe(mono);
  });
});
