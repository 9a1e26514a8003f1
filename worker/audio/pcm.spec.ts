import {
  bufferToInt16,
  concatInt16,
  durationOf,
  floatToInt16,
  int16ToBuffer,
  int16ToFloat,
  rms,
  silence,
} from './pcm';

describe('pcm', () => {
  it('converts floats to int16 with clipping, rounding and NaN as silence', () => {
    expect(Array.from(floatToInt16([0, 1, -1, 0.5, -0.5, 2, -2, Number.NaN]))).toEqual([
      0, 32767, -32768, 16384, -16384, 32767, -32768, 0,
    ]);
  });

  it('round-trips full scale through float', () => {
    const samples = new Int16Array([-32768, -1, 0, 1, 32767, 12345]);
    expect(Array.from(floatToInt16(int16ToFloat(samples)))).toEqual(Array.from(samples));
  });

  it('concatenates chunks into a fresh array', () => {
    const a = new Int16Array([1, 2]);
    const joined = concatInt16([a, new Int16Array(0), new Int16Array([3])]);
    expect(Array.from(joined)).toEqual([1, 2, 3]);
    joined[0] = 9;
    expect(a[0]).toBe(1);
    expect(concatInt16([]).length).toBe(0);
  });

  it('writes little-endian bytes and reads them back, also from unaligned memory', () => {
    const samples = new Int16Array([0x0102, -2]);
    const bytes = int16ToBuffer(samples);
    expect(Array.from(bytes)).toEqual([0x02, 0x01, 0xfe, 0xff]);
    const unaligned = Buffer.concat([Buffer.from([7]), bytes, Buffer.from([9])]).subarray(1);
    expect(Array.from(bufferToInt16(unaligned))).toEqual([0x0102, -2]);
  });

  it('measures silence, duration and level', () => {
    expect(silence(0.5, 22050).length).toBe(11025);
    expect(silence(-1, 22050).length).toBe(0);
    expect(durationOf(11025, 22050)).toBe(0.5);
    expect(durationOf(10, 0)).toBe(0);
    expect(rms(new Int16Array(0))).toBe(0);
    expect(rms(new Int16Array([16384, -16384]))).toBeCloseTo(0.5, 5);
  });
});
