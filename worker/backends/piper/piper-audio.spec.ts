import { toPiperPcm } from './piper-audio';

describe('toPiperPcm', () => {
  it('scales the loudest sample to full scale and truncates like numpy', () => {
    expect(Array.from(toPiperPcm(Float32Array.from([0.25, -0.5, 0.1, 0])))).toEqual([16383, -32767, 6553, 0]);
  });

  it('keeps silence silent', () => {
    expect(Array.from(toPiperPcm(Float32Array.from([1e-9, -1e-9])))).toEqual([0, 0]);
    expect(toPiperPcm(new Float32Array(0))).toHaveLength(0);
  });
});
