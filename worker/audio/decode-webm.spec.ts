import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AudioDecodeError } from './decode-errors';
import { opusPacketSamples48k } from './decode-opus';
import { MATROSKA_IDS as ID, readId, readMatroska, readSize } from './decode-webm';

const TESTDATA = join(__dirname, 'testdata');

/** EBML writing for the tests: IDs as written in the specification, sizes as minimal VINTs. */
function id(value: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) {
    bytes.unshift(v % 256);
  }
  return Buffer.from(bytes);
}

function vint(value: number): Buffer {
  for (let length = 1; length <= 8; length++) {
    if (value < 2 ** (7 * length) - 1) {
      const bytes = Buffer.alloc(length);
      let v = value;
      for (let i = length - 1; i >= 0; i--) {
        bytes[i] = v % 256;
        v = Math.floor(v / 256);
      }
      bytes[0] |= 0x80 >> (length - 1);
      return bytes;
    }
  }
  throw new RangeError('too large');
}

const UNKNOWN = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

function el(elementId: number, ...children: (Buffer | string | number)[]): Buffer {
  const body = Buffer.concat(
    children.map((child) =>
      Buffer.isBuffer(child) ? child : typeof child === 'string' ? Buffer.from(child) : uint(child),
    ),
  );
  return Buffer.concat([id(elementId), vint(body.length), body]);
}

function unknownSize(elementId: number, ...children: Buffer[]): Buffer {
  return Buffer.concat([id(elementId), UNKNOWN, ...children]);
}

function uint(value: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0 || bytes.length === 0; v = Math.floor(v / 256)) {
    bytes.unshift(v % 256);
  }
  return Buffer.from(bytes);
}

function float(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes;
}

/** (Simple)Block body: track, relative timecode, flags, then the (laced) frames. */
function block(track: number, time: number, flags: number, ...payload: Buffer[]): Buffer {
  const header = Buffer.alloc(3);
  header.writeInt16BE(time, 0);
  header[2] = flags;
  return Buffer.concat([vint(track), header, ...payload]);
}

const opusHead = Buffer.concat([
  Buffer.from('OpusHead'),
  Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]),
]);

function header(docType = 'webm'): Buffer {
  return el(ID.EBML, el(0x4286, 1), el(ID.DOC_TYPE, docType));
}

function tracks(...entries: Buffer[]): Buffer {
  return el(ID.TRACKS, ...entries);
}

function audioTrack(number: number, codec = 'A_OPUS'): Buffer {
  return el(
    ID.TRACK_ENTRY,
    el(ID.TRACK_NUMBER, number),
    el(ID.TRACK_TYPE, 2),
    el(ID.CODEC_ID, codec),
    el(ID.CODEC_PRIVATE, opusHead),
    el(ID.CODEC_DELAY, 6_500_000),
    el(ID.AUDIO, el(ID.SAMPLING_FREQUENCY, float(48000)), el(ID.CHANNELS, 1)),
  );
}

describe('readMatroska', () => {
  it('reads EBML IDs and sizes, including the reserved unknown size', () => {
    expect(readId(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), 0)).toEqual({ value: ID.EBML, length: 4 });
    expect(readId(Buffer.from([0x00]), 0)).toBeUndefined();
    expect(readSize(Buffer.from([0x81]), 0)).toEqual({ value: 1, length: 1 });
    expect(readSize(Buffer.from([0x40, 0x02]), 0)).toEqual({ value: 2, length: 2 });
    expect(readSize(Buffer.from([0xff]), 0)).toEqual({ value: undefined, length: 1 });
    expect(readSize(UNKNOWN, 0)).toEqual({ value: undefined, length: 8 });
  });

  it('reads tracks and SimpleBlocks of a live file (Segment and Clusters of unknown size), skipping other elements', () => {
    const file = Buffer.concat([
      header(),
      unknownSize(
        ID.SEGMENT,
        el(0x114d9b74, Buffer.alloc(20)), // SeekHead: skipped
        el(ID.INFO, el(ID.TIMECODE_SCALE, 1_000_000), el(0x4d80, 'test')),
        tracks(
          el(ID.TRACK_ENTRY, el(ID.TRACK_NUMBER, 1), el(ID.TRACK_TYPE, 1), el(ID.CODEC_ID, 'V_VP8')),
          audioTrack(2),
        ),
        unknownSize(
          ID.CLUSTER,
          el(ID.TIMECODE, 0),
          el(ID.SIMPLE_BLOCK, block(2, 0, 0x80, Buffer.from('frame0'))),
          el(0xec, Buffer.alloc(3)),
          el(ID.SIMPLE_BLOCK, block(1, 0, 0x80, Buffer.from('video'))),
        ),
        unknownSize(
          ID.CLUSTER,
          el(ID.TIMECODE, 1000),
          el(ID.SIMPLE_BLOCK, block(2, 20, 0x80, Buffer.from('frame1'))),
        ),
        el(0x1c53bb6b, Buffer.alloc(10)), // Cues: skipped
      ),
    ]);
    const result = readMatroska(file);
    expect(result.docType).toBe('webm');
    expect(result.truncated).toBe(false);
    expect(result.tracks).toEqual([
      { number: 1, type: 1, codecId: 'V_VP8', codecDelayNs: 0 },
      {
        number: 2,
        type: 2,
        codecId: 'A_OPUS',
        codecPrivate: opusHead,
        codecDelayNs: 6_500_000,
        sampleRate: 48000,
        channels: 1,
      },
    ]);
    expect(
      result.frames.map((frame) => [frame.track, frame.timeNs, Buffer.from(frame.data).toString()]),
    ).toEqual([
      [2, 0, 'frame0'],
      [1, 0, 'video'],
      [2, 1_020_000_000, 'frame1'],
    ]);
  });

  it('splits Xiph, EBML and fixed lacing, and reads BlockGroups with DiscardPadding', () => {
    const a = Buffer.alloc(300, 1);
    const b = Buffer.alloc(10, 2);
    const c = Buffer.alloc(5, 3);
    const xiph = block(1, 0, 0x80 | 0x02, Buffer.from([2, 255, 45, 10]), a, b, c);
    const fixed = block(1, 0, 0x80 | 0x04, Buffer.from([2]), b, b, b);
    const file = Buffer.concat([
      header('matroska'),
      el(
        ID.SEGMENT,
        tracks(audioTrack(1)),
        el(
          ID.CLUSTER,
          el(ID.TIMECODE, 0),
          el(ID.SIMPLE_BLOCK, xiph),
          el(ID.SIMPLE_BLOCK, fixed),
          el(
            ID.BLOCK_GROUP,
            el(ID.BLOCK, block(1, 40, 0, Buffer.from('last'))),
            el(ID.DISCARD_PADDING, 2_500_000),
          ),
        ),
      ),
    ]);
    const result = readMatroska(file);
    expect(result.docType).toBe('matroska');
    expect(result.frames.map((frame) => frame.data.length)).toEqual([300, 10, 5, 10, 10, 10, 4]);
    expect(result.frames.at(-1)).toMatchObject({ timeNs: 40_000_000, discardPaddingNs: 2_500_000 });
    // EBML lacing: 300, then 10 = 300 + (raw - bias) with a 2-byte signed VINT (bias 8191).
    const delta = 10 - 300 + 8191;
    const ebmlLaced = block(
      1,
      0,
      0x80 | 0x06,
      Buffer.from([2]),
      vint(300),
      Buffer.from([0x40 | (delta >> 8), delta & 0xff]),
      a,
      b,
      c,
    );
    const laced = readMatroska(
      Buffer.concat([
        header(),
        el(ID.SEGMENT, tracks(audioTrack(1)), el(ID.CLUSTER, el(ID.SIMPLE_BLOCK, ebmlLaced))),
      ]),
    );
    expect(laced.frames.map((frame) => frame.data.length)).toEqual([300, 10, 5]);
  });

  it('keeps the frames before a cut and marks the file truncated', () => {
    const file = Buffer.concat([
      header(),
      unknownSize(
        ID.SEGMENT,
        tracks(audioTrack(1)),
        unknownSize(
          ID.CLUSTER,
          el(ID.SIMPLE_BLOCK, block(1, 0, 0x80, Buffer.from('whole'))),
          el(ID.SIMPLE_BLOCK, block(1, 20, 0x80, Buffer.alloc(100))),
        ),
      ),
    ]);
    const result = readMatroska(file.subarray(0, file.length - 50));
    expect(result.truncated).toBe(true);
    expect(result.frames).toHaveLength(1);
  });

  it.each<[string, Buffer]>([
    ['data that is not EBML', Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x81, 0x00])],
    [
      'a file cut before any audio',
      Buffer.concat([header(), el(ID.SEGMENT, tracks(audioTrack(1)))]).subarray(0, 40),
    ],
    [
      'a leaf element of unknown size',
      Buffer.concat([header(), unknownSize(ID.SEGMENT, unknownSize(ID.CODEC_ID))]),
    ],
    [
      'a lace running past its block',
      Buffer.concat([
        header(),
        el(
          ID.SEGMENT,
          el(ID.CLUSTER, el(ID.SIMPLE_BLOCK, block(1, 0, 0x82, Buffer.from([1, 200]), Buffer.alloc(10)))),
        ),
      ]),
    ],
  ])('refuses %s', (_name, bytes) => {
    expect(() => readMatroska(bytes)).toThrow(AudioDecodeError);
  });

  it('demuxes a real Chrome MediaRecorder recording (testdata/goforward-chrome.webm)', () => {
    const result = readMatroska(readFileSync(join(TESTDATA, 'goforward-chrome.webm')));
    expect(result.docType).toBe('webm');
    expect(result.tracks).toHaveLength(1);
    expect(result.tracks[0]).toMatchObject({ codecId: 'A_OPUS', type: 2, channels: 2, sampleRate: 48000 });
    expect(Buffer.from(result.tracks[0].codecPrivate!.subarray(0, 8)).toString()).toBe('OpusHead');
    const samples = result.frames.reduce((sum, frame) => sum + opusPacketSamples48k(frame.data), 0);
    expect(samples / 48000).toBeCloseTo(3.6, 1);
    const times = result.frames.map((frame) => frame.timeNs);
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('demuxes an ffmpeg live-muxed stereo file (testdata/goforward.webm)', () => {
    const result = readMatroska(readFileSync(join(TESTDATA, 'goforward.webm')));
    expect(result.tracks[0]).toMatchObject({ codecId: 'A_OPUS', channels: 2 });
    const samples = result.frames.reduce((sum, frame) => sum + opusPacketSamples48k(frame.data), 0);
    expect(samples / 48000).toBeGreaterThan(2.78);
  });
});
