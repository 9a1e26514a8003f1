import type { PullEvent } from '../contract/worker-api';
import { formatSpeed, percent, PullEventThrottle, SpeedMeter } from './pull-progress';

const downloading = (progress: number): PullEvent => ({ status: 'downloading', progress, speed: '' });

describe('formatSpeed', () => {
  it.each([
    [0, '0 B/s'],
    [-5, '0 B/s'],
    [Number.NaN, '0 B/s'],
    [512, '512 B/s'],
    [12_345, '12.3 kB/s'],
    [12_300_000, '12.3 MB/s'],
    [2_500_000_000, '2.5 GB/s'],
  ])('%p → %p', (rate, text) => {
    expect(formatSpeed(rate)).toBe(text);
  });
});

describe('percent', () => {
  it('is an integer below 100 until the pull is complete', () => {
    expect(percent(0, 100)).toBe(0);
    expect(percent(50, 200)).toBe(25);
    expect(percent(999, 1000)).toBe(99);
    expect(percent(1000, 1000)).toBe(99);
    expect(percent(5, undefined)).toBe(0);
    expect(percent(5, 0)).toBe(0);
  });
});

describe('SpeedMeter', () => {
  it('measures over its window', () => {
    const meter = new SpeedMeter(1000);
    expect(meter.rate()).toBe(0);
    meter.sample(0, 0);
    meter.sample(1_000_000, 500);
    expect(meter.rate()).toBe(2_000_000);
    meter.sample(1_500_000, 2_000);
    meter.sample(2_000_000, 3_000);
    expect(meter.rate()).toBe(500_000);
  });
});

describe('PullEventThrottle', () => {
  let now: number;
  let sent: PullEvent[];
  let throttle: PullEventThrottle;

  beforeEach(() => {
    jest.useFakeTimers();
    now = 0;
    sent = [];
    throttle = new PullEventThrottle(
      (event) => sent.push(event),
      100,
      () => now,
    );
  });

  afterEach(() => {
    throttle.dispose();
    jest.useRealTimers();
  });

  it('always sends the first event, status changes and the final event', () => {
    throttle.push({ status: 'installing', progress: 0, speed: '' });
    throttle.push(downloading(0));
    throttle.push({ status: 'complete', progress: 100, speed: '' });
    expect(sent.map((event) => event.status)).toEqual(['installing', 'downloading', 'complete']);
  });

  it('sends at most one event per percent', () => {
    throttle.push(downloading(1));
    now += 500;
    throttle.push(downloading(1));
    throttle.push(downloading(0));
    expect(sent).toHaveLength(1);
    throttle.push(downloading(2));
    expect(sent.map((event) => event.progress)).toEqual([1, 2]);
  });

  it('sends at most ten per second, and the last held back event when the interval ends', () => {
    throttle.push(downloading(1));
    for (let progress = 2; progress <= 9; progress++) {
      now += 10;
      throttle.push(downloading(progress));
    }
    expect(sent.map((event) => event.progress)).toEqual([1]);
    now = 100;
    jest.advanceTimersByTime(100);
    expect(sent.map((event) => event.progress)).toEqual([1, 9]);
    expect(throttle.lastSent?.progress).toBe(9);
  });

  it('drops a held back event when the final one comes first', () => {
    throttle.push(downloading(1));
    now += 10;
    throttle.push(downloading(50));
    throttle.push({ status: 'error', progress: 50, speed: '', message: 'cut' });
    jest.advanceTimersByTime(1000);
    expect(sent.map((event) => event.status)).toEqual(['downloading', 'error']);
  });
});
