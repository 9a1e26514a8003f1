import { AudioDecodeError } from './decode-errors';
import { readWavInfo, wavMonoBlocks } from './decode-wav';

/** A WAV with the given fmt chunk fields and raw sample bytes (optionally extensible, with extra chunks). */
function wav(options: {
  format: number;
  channels: number;
  rate: number;
  bits: number;
  data: Buffer;
  extensible?: boolean;
  before?: Buffer;
}): Buffer {
  const { format, channels, rate, bits, data } = options;
  const fmt = Buffer.alloc(options.extensible ? 40 : 16);
  fmt.writeUInt16LE(options.extensible ? 0xfffe : format, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 8);
  fmt.writeUInt16LE((channels * bits) / 8, 12);
  fmt.writeUInt16LE(bits, 14);
  if (options.extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt32LE(0, 20);
    fmt.writeUInt16LE(format, 24); // sub-format GUID starts with the format code
    Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 26);
  }
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE'),
    chunk('fmt ', fmt),
    options.before ?? Buffer.alloc(0),
    chunk('data', data),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

function mono(bytes: Buffer, blockFrames?: number): number[] {
  const info = readWavInfo(bytes);
  return [...wavMonoBlocks(bytes, info, blockFrames)].flatMap((block) => [...block]);
}

describe('WAV reading', () => {
  it('reads 8-bit unsigned PCM', () => {
    expect(
      mono(wav({ format: 1, channels: 1, rate: 8000, bits: 8, data: Buffer.from([128, 255, 0, 192]) })),
    ).toEqual([0, 127 / 128, -1, 0.5]);
  });

  it('reads 16-bit PCM and averages stereo', () => {
    const data = Buffer.alloc(8);
    data.writeInt16LE(16384, 0); // L  0.5
    data.writeInt16LE(-16384, 2); // R -0.5
    data.writeInt16LE(32767, 4);
    data.writeInt16LE(32767, 6);
    expect(mono(wav({ format: 1, channels: 2, rate: 44100, bits: 16, data }))).toEqual([0, 32767 / 32768]);
  });

  it('reads 24-bit PCM in WAVE_FORMAT_EXTENSIBLE', () => {
    const data = Buffer.from([0x00, 0x00, 0x40, 0x00, 0x00, 0xc0, 0xff, 0xff, 0xff]); // 0.5, -0.5, -1/2^23
    const bytes = wav({ format: 1, channels: 1, rate: 48000, bits: 24, data, extensible: true });
    expect(readWavInfo(bytes)).toMatchObject({ audioFormat: 1, bitsPerSample: 24, frames: 3 });
    expect(mono(bytes)).toEqual([0.5, -0.5, -1 / 0x800000]);
  });

  it('reads 32-bit PCM, 32- and 64-bit float, four channels', () => {
    const int32 = Buffer.alloc(8);
    int32.writeInt32LE(0x40000000, 0);
    int32.writeInt32LE(-0x80000000, 4);
    expect(mono(wav({ format: 1, channels: 1, rate: 16000, bits: 32, data: int32 }))).toEqual([0.5, -1]);
    const float32 = Buffer.alloc(16);
    [0.25, 0.75, -0.5, 1].forEach((value, i) => float32.writeFloatLE(value, i * 4));
    expect(mono(wav({ format: 3, channels: 4, rate: 16000, bits: 32, data: float32 }))).toEqual([0.375]);
    const float64 = Buffer.alloc(16);
    float64.writeDoubleLE(0.125, 0);
    float64.writeDoubleLE(-0.25, 8);
    expect(
      mono(wav({ format: 3, channels: 1, rate: 96000, bits: 64, data: float64, extensible: true })),
    ).toEqual([0.125, -0.25]);
  });

  it('skips other chunks and yields blocks of the requested size', () => {
    const data = Buffer.alloc(10 * 2);
    for (let i = 0; i < 10; i++) {
      data.writeInt16LE(i * 1000, i * 2);
    }
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')]);
    const bytes = wav({ format: 1, channels: 1, rate: 16000, bits: 16, data, before: list });
    const info = readWavInfo(bytes);
    const blocks = [...wavMonoBlocks(bytes, info, 4)];
    expect(blocks.map((block) => block.length)).toEqual([4, 4, 2]);
    expect(blocks[2][1]).toBeCloseTo(9000 / 32768, 6);
  });

  it.each<[string, () => Buffer, string, RegExp]>([
    [
      'µ-law',
      () => wav({ format: 7, channels: 1, rate: 8000, bits: 8, data: Buffer.alloc(4) }),
      'unsupported_audio',
      /encoding 7/,
    ],
    [
      'ADPCM',
      () => wav({ format: 2, channels: 1, rate: 8000, bits: 4, data: Buffer.alloc(4) }),
      'unsupported_audio',
      /encoding 2/,
    ],
    [
      '12-bit PCM',
      () => wav({ format: 1, channels: 1, rate: 8000, bits: 12, data: Buffer.alloc(4) }),
      'unsupported_audio',
      /bit depth 12/,
    ],
    [
      'no samples',
      () => wav({ format: 1, channels: 1, rate: 8000, bits: 16, data: Buffer.alloc(0) }),
      'invalid_audio',
      /no audio samples/,
    ],
    [
      'a missing data chunk',
      () => wav({ format: 1, channels: 1, rate: 8000, bits: 16, data: Buffer.alloc(4) }).subarray(0, 36),
      'invalid_audio',
      /no data chunk/,
    ],
  ])('refuses %s', (_name, bytes, code, message) => {
    let error: unknown;
    try {
      readWavInfo(bytes());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AudioDecodeError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });
});
