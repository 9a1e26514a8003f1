import { detectMime, mimeAllowed } from './mime';

describe('content sniffing', () => {
  it.each([
    [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'image/png', 'png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg', 'jpg'],
    [Buffer.from('GIF89a...'), 'image/gif', 'gif'],
    [Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]), 'image/webp', 'webp'],
    [Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]), 'audio/wav', 'wav'],
    [Buffer.from('fLaC\0\0'), 'audio/flac', 'flac'],
    [Buffer.from('ID3\u0004'), 'audio/mpeg', 'mp3'],
    [Buffer.from('%PDF-1.7'), 'application/pdf', 'pdf'],
    [Buffer.from('hello, world\n'), 'text/plain', 'txt'],
    [Buffer.from([0, 1, 2, 3, 0xfe]), 'application/octet-stream', ''],
  ])('%#: detects %s', (bytes, mime, extension) => {
    expect(detectMime(bytes)).toEqual({ mime, extension });
  });

  it('matches allowed lists with wildcards', () => {
    expect(mimeAllowed('image/png', ['image/*'])).toBe(true);
    expect(mimeAllowed('image/png', ['audio/wav', 'image/png'])).toBe(true);
    expect(mimeAllowed('text/plain', ['image/*'])).toBe(false);
    expect(mimeAllowed('text/plain', [])).toBe(true);
    expect(mimeAllowed('text/plain', undefined)).toBe(true);
  });
});
