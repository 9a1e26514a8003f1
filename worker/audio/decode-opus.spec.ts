import { AudioDecodeError } from './decode-errors';
import { opusDecoderOptions, opusPacketSamples48k, parseOpusHead } from './decode-opus';

function head(channels: number, family = 0, mapping: number[] = []): Buffer {
  const bytes = Buffer.alloc(19 + (family === 0 ? 0 : 2 + channels));
  bytes.write('OpusHead', 0, 'ascii');
  bytes[8] = 1;
  bytes[9] = channels;
  bytes.writeUInt16LE(312, 10);
  bytes.writeUInt32LE(44100, 12);
  bytes.writeInt16LE(-256 * 3, 16); // -3 dB
  bytes[18] = family;
  if (family !== 0) {
    bytes[19] = 4; // streams
    bytes[20] = 2; // coupled
    mapping.forEach((value, i) => (bytes[21 + i] = value));
  }
  return bytes;
}

describe('Opus headers and packets', () => {
  it('parses a mono/stereo header (mapping family 0)', () => {
    expect(parseOpusHead(head(2))).toEqual({
      channels: 2,
      preSkip: 312,
      inputSampleRate: 44100,
      outputGainDb: -3,
      mappingFamily: 0,
      streamCount: 1,
      coupledStreamCount: 1,
      channelMapping: [0, 1],
    });
  });

  it('parses a surround header (mapping family 1)', () => {
    expect(parseOpusHead(head(6, 1, [0, 4, 1, 2, 3, 5]))).toMatchObject({
      channels: 6,
      streamCount: 4,
      coupledStreamCount: 2,
      channelMapping: [0, 4, 1, 2, 3, 5],
    });
  });

  it.each<[string, Buffer]>([
    ['not a header', Buffer.from('OpusTags and more bytes here')],
    ['no channels', head(0)],
    ['three channels in family 0', head(3)],
    ['a cut mapping table', head(6, 1, [0, 1, 2, 3, 4, 5]).subarray(0, 23)],
  ])('refuses %s', (_name, bytes) => {
    expect(() => parseOpusHead(bytes)).toThrow(AudioDecodeError);
  });

  it('gives opus-decoder the pre-skip in samples of its output rate', () => {
    expect(opusDecoderOptions(parseOpusHead(head(1)), 16000)).toEqual({
      sampleRate: 16000,
      channels: 1,
      streamCount: 1,
      coupledStreamCount: 0,
      channelMappingTable: [0],
      preSkip: 104,
    });
    expect(opusDecoderOptions(parseOpusHead(head(1)), 48000).preSkip).toBe(312);
  });

  it('reads packet durations from the TOC byte', () => {
    expect(opusPacketSamples48k(Buffer.from([(1 << 3) | 0]))).toBe(960); // SILK 20 ms, one frame
    expect(opusPacketSamples48k(Buffer.from([(3 << 3) | 1]))).toBe(2 * 2880); // SILK 60 ms, two frames
    expect(opusPacketSamples48k(Buffer.from([(13 << 3) | 2]))).toBe(2 * 960); // hybrid 20 ms, two frames
    expect(opusPacketSamples48k(Buffer.from([(31 << 3) | 3, 5]))).toBe(5 * 960); // CELT 20 ms, five frames
    expect(opusPacketSamples48k(Buffer.from([(16 << 3) | 0]))).toBe(120); // CELT 2.5 ms
    expect(opusPacketSamples48k(Buffer.alloc(0))).toBe(0);
  });
});
