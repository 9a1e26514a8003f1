import { WorkerUrlError, assertWorkerUrlAllowed, normaliseWorkerUrl } from './worker-url';

describe('worker URLs', () => {
  it.each([
    ['http://Worker.LAN:8000/', 'http://worker.lan:8000'],
    ['https://gpu.example.com/inference//', 'https://gpu.example.com/inference'],
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000'],
  ])('normalises %s', (raw, expected) => {
    expect(normaliseWorkerUrl(raw)).toBe(expected);
  });

  it.each([
    'ftp://x',
    'not a url',
    'http://user:pw@host',
    'http://host/?a=1',
    'file:///etc/passwd',
    'javascript:alert(1)',
  ])('refuses %s', (raw) => {
    expect(() => normaliseWorkerUrl(raw)).toThrow(WorkerUrlError);
  });

  it.each([
    'http://169.254.169.254',
    'http://169.254.10.1:8000',
    'http://[fe80::1]:8000',
    'http://[::ffff:169.254.169.254]',
    'http://100.100.100.200',
    'http://[fd00:ec2::254]',
    'http://metadata.google.internal',
    'http://0.0.0.0:8000',
  ])('refuses the link-local or metadata address %s', async (raw) => {
    await expect(assertWorkerUrlAllowed(normaliseWorkerUrl(raw))).rejects.toThrow(WorkerUrlError);
  });

  it.each([
    'http://127.0.0.1:8000',
    'http://10.0.0.5:8000',
    'http://192.168.1.20',
    'http://[::1]:8000',
    'http://localhost:8000',
  ])('allows %s', async (raw) => {
    await expect(assertWorkerUrlAllowed(normaliseWorkerUrl(raw))).resolves.toBeUndefined();
  });
});
