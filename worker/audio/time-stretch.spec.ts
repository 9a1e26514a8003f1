import { timeStretch } from './time-stretch';

const RATE = 22050;

function sine(frequency: number, seconds: number): Int16Array {
  const out = new Int16Array(Math.round(RATE * seconds));
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.round(10000 * Math.sin((2 * Math.PI * frequency * i) / RATE));
  }
  return out;
}

/** Dominant frequency from the count of rising zero crossings in the middle of the signal. */
function frequencyOf(samples: Int16Array): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let crossings = 0;
  for (let i = from + 1; i < to; i++) {
    if (samples[i - 1] < 0 && samples[i] >= 0) {
      crossings++;
    }
  }
  return (crossings * RATE) / (to - from);
}

describe('timeStretch', () => {
  it.each([0.5, 0.75, 1.5, 2, 3])('changes the length by 1/%p and keeps the pitch', (tempo) => {
    const input = sine(220, 1);
    const output = timeStretch(input, RATE, tempo);
    expect(output.length).toBe(Math.round(input.length / tempo));
    expect(frequencyOf(output)).toBeGreaterThan(210);
    expect(frequencyOf(output)).toBeLessThan(230);
  });

  it('returns a copy at tempo 1', () => {
    const input = sine(100, 0.1);
    const output = timeStretch(input, RATE, 1);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
  });

  it('handles empty and very short inputs', () => {
    expect(timeStretch(new Int16Array(0), RATE, 2).length).toBe(0);
    expect(timeStretch(new Int16Array([100, 200, 300, 400]), RATE, 2).length).toBe(2);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects tempo %p', (tempo) => {
    expect(() => timeStretch(new Int16Array(10), RATE, tempo)).toThrow(RangeError);
  });

  it('is fast enough to run per sentence', () => {
    const input = sine(150, 10);
    const started = performance.now();
    timeStretch(input, RATE, 1.6);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
