import { espeakRate } from './espeak.backend';

describe('espeakRate', () => {
  it.each([
    [1, 175, 1],
    [2, 350, 1],
    [0.5, 88, 87.5 / 88],
    [0.25, 80, 43.75 / 80], // espeak stops at 80 wpm: the rest is a time stretch
    [4, 450, 700 / 450], // and at 450 wpm
  ])('speed %p → %p wpm, tempo %p', (speed, rate, tempo) => {
    const result = espeakRate(speed);
    expect(result.rate).toBe(rate);
    expect(result.tempo).toBeCloseTo(tempo, 6);
  });
});
