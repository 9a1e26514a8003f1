import { DeviceService, nvidiaDriverPresent } from './device.service';

describe('DeviceService', () => {
  it('runs on the CPU when asked', () => {
    expect(new DeviceService('cpu', true).state()).toEqual({ requested: 'cpu', effective: 'cpu' });
  });

  it('runs on CUDA when asked and a driver is present', () => {
    expect(new DeviceService('cuda', true).state()).toEqual({ requested: 'cuda', effective: 'cuda' });
  });

  it('falls back to the CPU with a note when no driver is present', () => {
    const state = new DeviceService('cuda', false).state();
    expect(state).toMatchObject({ requested: 'cuda', effective: 'cpu' });
    expect(state.note).toMatch(/no NVIDIA driver/);
  });

  it('detects the driver from the files it exposes', () => {
    expect(nvidiaDriverPresent((path) => path === '/proc/driver/nvidia/version')).toBe(true);
    expect(nvidiaDriverPresent((path) => path === '/dev/nvidiactl')).toBe(true);
    expect(nvidiaDriverPresent(() => false)).toBe(false);
  });
});
