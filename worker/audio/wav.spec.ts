import {
  decodeWav,
  encodeWav,
  MAX_WAV_DATA_BYTES,
  parseWav,
  WAV_HEADER_BYTES,
  wavHeader,
  WavFormatError,
} from './wav';

describe('wavHeader', () => {
  it('writes a canonical 44-byte PCM s16le mono header', () => {
    const header = wavHeader(1000, { sampleRate: 22050 });
    expect(header.length).toBe(WAV_HEADER_BYTES);
    expect(header.toString('ascii', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(4)).toBe(1036);
    expect(header.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(header.readUInt32LE(16)).toBe(16);
    expect(header.readUInt16LE(20)).toBe(1);
    expect(header.readUInt16LE(22)).toBe(1);
    expect(header.readUInt32LE(24)).toBe(22050);
    expect(header.readUInt32LE(28)).toBe(44100);
    expect(header.readUInt16LE(32)).toBe(2);
    expect(header.readUInt16LE(34)).toBe(16);
    expect(header.toString('ascii', 36, 40)).toBe('data');
    expect(header.readUInt32LE(40)).toBe(1000);
  });

  it('handles empty, odd and maximal sizes', () => {
    expect(wavHeader(0, { sampleRate: 8000 }).readUInt32LE(4)).toBe(36);
    expect(wavHeader(3, { sampleRate: 8000, bitsPerSample: 8 }).readUInt32LE(4)).toBe(40); // pad byte
    const max = wavHeader(MAX_WAV_DATA_BYTES - 1, { sampleRate: 8000 });
    expect(max.readUInt32LE(40)).toBe(MAX_WAV_DATA_BYTES - 1);
    expect(max.readUInt32LE(4)).toBe(0xffffffff - 1);
  });

  it.each([
    [-1, 22050],
    [1.5, 22050],
    [MAX_WAV_DATA_BYTES + 1, 22050],
    [10, 0],
  ])('rejects data size %p at %p Hz', (bytes, rate) => {
    expect(() => wavHeader(bytes, { sampleRate: rate })).toThrow(RangeError);
  });
});

describe('encodeWav / parseWav / decodeWav', () => {
  it('round-trips samples', () => {
    const samples = new Int16Array([0, 1000, -1000, 32767, -32768]);
    const wav = encodeWav([samples.subarray(0, 2), samples.subarray(2)], 16000);
    expect(wav.length).toBe(44 + 10);
    const info = parseWav(wav);
    expect(info).toMatchObject({
      audioFormat: 1,
      sampleRate: 16000,
      channels: 1,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 10,
      frames: 5,
      truncated: false,
    });
    expect(info.durationSeconds).toBeCloseTo(5 / 16000);
    const decoded = decodeWav(wav);
    expect(Array.from(decoded.samples).map((s) => Math.round(s * 32768))).toEqual(Array.from(samples));
  });

  it('walks extra chunks and resolves WAVE_FORMAT_EXTENSIBLE', () => {
    const fmt = Buffer.alloc(40);
    fmt.writeUInt16LE(0xfffe, 0);
    fmt.writeUInt16LE(2, 2); // stereo
    fmt.writeUInt32LE(48000, 4);
    fmt.writeUInt32LE(48000 * 8, 8);
    fmt.writeUInt16LE(8, 12);
    fmt.writeUInt16LE(32, 14);
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(3, 24); // KSDATAFORMAT_SUBTYPE_IEEE_FLOAT
    const data = Buffer.alloc(16);
    data.writeFloatLE(0.5, 0);
    data.writeFloatLE(-0.25, 4);
    const chunk = (id: string, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.write(id, 0, 'ascii');
      head.writeUInt32LE(body.length, 4);
      return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
    };
    const body = Buffer.concat([chunk('fmt ', fmt), chunk('LIST', Buffer.from('odd')), chunk('data', data)]);
    const riff = Buffer.alloc(12);
    riff.write('RIFF', 0, 'ascii');
    riff.writeUInt32LE(4 + body.length, 4);
    riff.write('WAVE', 8, 'ascii');
    const file = Buffer.concat([riff, body]);

    const info = parseWav(file);
    expect(info).toMatchObject({
      audioFormat: 3,
      channels: 2,
      sampleRate: 48000,
      bitsPerSample: 32,
      frames: 2,
    });
    const decoded = decodeWav(file);
    expect(decoded.samples[0]).toBeCloseTo(0.5);
    expect(decoded.samples[1]).toBeCloseTo(-0.25);
  });

  it('reads 8- and 24-bit PCM', () => {
    const eight = Buffer.concat([
      wavHeader(2, { sampleRate: 8000, bitsPerSample: 8 }),
      Buffer.from([128, 0]),
      Buffer.alloc(1),
    ]);
    expect(Array.from(decodeWav(eight).samples)).toEqual([0, -1]);
    const twentyFour = Buffer.concat([
      wavHeader(3, { sampleRate: 8000, bitsPerSample: 24 }),
      Buffer.from([0, 0, 0xc0]),
    ]);
    expect(decodeWav(twentyFour).samples[0]).toBeCloseTo(-0.5);
  });

  it('accepts streamed files whose data size is unknown and flags truncated ones', () => {
    const wav = encodeWav(new Int16Array([1, 2, 3]), 22050);
    const streamed = Buffer.from(wav);
    streamed.writeUInt32LE(0xffffffff, 40);
    expect(parseWav(streamed)).toMatchObject({ frames: 3, truncated: false });
    const truncated = wav.subarray(0, wav.length - 2);
    expect(parseWav(truncated)).toMatchObject({ frames: 2, truncated: true, declaredDataBytes: 6 });
  });

  it.each([
    ['empty', Buffer.alloc(0), 'not a RIFF/WAVE file'],
    ['not RIFF', Buffer.from('RIFX0000WAVEfmt '), 'not a RIFF/WAVE file'],
    ['no chunks', Buffer.from('RIFF\x04\x00\x00\x00WAVE', 'latin1'), 'no fmt chunk'],
  ])('rejects %s', (_name, bytes, message) => {
    expect(() => parseWav(bytes)).toThrow(new WavFormatError(message));
  });

  it('rejects unsupported encodings', () => {
    const header = wavHeader(2, { sampleRate: 8000 });
    header.writeUInt16LE(2, 20); // ADPCM
    expect(() => parseWav(Buffer.concat([header, Buffer.alloc(2)]))).toThrow(/unsupported WAV encoding 2/);
  });
});
