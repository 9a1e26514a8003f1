import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { OpusDecoderOptions } from './decode-opus';
import { opusPacketSamples48k } from './decode-opus';
import {
  decodeUpload,
  type Codecs,
  type DecodedBlock,
  type OpusPacketDecoder,
  type StreamDecoder,
} from './decode-pipeline';
import { encodeWav } from './wav';

const TESTDATA = join(__dirname, 'testdata');

/** MPEG-1 layer III frame header (128 kbps, 44.1 kHz, stereo) + body: enough for the format sniffer. */
const MP3 = Buffer.concat(
  Array.from({ length: 20 }, () => Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x04]), Buffer.alloc(413)])),
);

function block(channels: Float32Array[], sampleRate: number, errors = 0): DecodedBlock {
  return {
    channelData: channels,
    samplesDecoded: channels[0]?.length ?? 0,
    sampleRate,
    errors: Array.from({ length: errors }, () => ({ message: 'corrupt frame' })),
  };
}

/** Codecs whose stream decoders turn every input chunk into `samplesPerChunk` of a 440 Hz stereo tone. */
function fakeCodecs(options: { samplesPerChunk?: number; rate?: number; errors?: number } = {}) {
  const log = { decodeCalls: 0, freed: 0, opus: [] as OpusDecoderOptions[], opusFrames: 0 };
  const rate = options.rate ?? 44100;
  let phase = 0;
  const stream = (): StreamDecoder => ({
    decode: () => {
      log.decodeCalls++;
      const count = options.samplesPerChunk ?? 4410;
      const left = new Float32Array(count);
      for (let i = 0; i < count; i++, phase++) {
        left[i] = 0.5 * Math.sin((2 * Math.PI * 440 * phase) / rate);
      }
      return block(count === 0 ? [] : [left, left.slice()], rate, options.errors ?? 0);
    },
    flush: () => Promise.resolve(block([], rate)),
    free: () => void log.freed++,
  });
  const codecs: Codecs = {
    mp3: () => Promise.resolve(stream()),
    flac: () => Promise.resolve(stream()),
    vorbis: () => Promise.resolve(stream()),
    opus: (decoderOptions) => {
      log.opus.push(decoderOptions);
      const decoder: OpusPacketDecoder = {
        decodeFrame: (packet) => {
          log.opusFrames++;
          // Like opus-decoder: the packet's duration at the output rate, pre-skip removed from the first ones.
          const samples = (opusPacketSamples48k(packet) * decoderOptions.sampleRate) / 48000;
          const channels = Array.from({ length: decoderOptions.channels }, () =>
            new Float32Array(samples).fill(0.25),
          );
          return block(channels, decoderOptions.sampleRate);
        },
        free: () => void log.freed++,
      };
      return Promise.resolve(decoder);
    },
  };
  return { codecs, log };
}

describe('decodeUpload', () => {
  it('decodes WAV without any codec: averaged to mono, resampled to 16 kHz', async () => {
    const stereo = new Int16Array(44100 * 2);
    for (let i = 0; i < 44100; i++) {
      stereo[i * 2] = 16384;
      stereo[i * 2 + 1] = 0;
    }
    const { codecs } = fakeCodecs();
    const result = await decodeUpload(encodeWav(stereo, 44100, 2), codecs, { maxDurationSeconds: 60 });
    expect(result).toMatchObject({
      format: 'wav',
      sampleRate: 16000,
      sourceSampleRate: 44100,
      sourceChannels: 2,
      durationSeconds: 1,
    });
    expect(result.samples.length).toBe(16000);
    expect(result.samples[8000]).toBeCloseTo(0.25, 3);
  });

  it('feeds a stream decoder in chunks, resamples its blocks and frees it', async () => {
    const { codecs, log } = fakeCodecs();
    const result = await decodeUpload(MP3, codecs, { maxDurationSeconds: 60, chunkBytes: 1000 });
    expect(log.decodeCalls).toBe(Math.ceil(MP3.length / 1000));
    expect(log.freed).toBe(1);
    expect(result).toMatchObject({ format: 'mp3', sourceSampleRate: 44100, sourceChannels: 2 });
    expect(result.samples.length).toBe(Math.ceil((log.decodeCalls * 4410 * 16000) / 44100));
  });

  it('stops decoding as soon as the audio passes the duration limit', async () => {
    const { codecs, log } = fakeCodecs({ samplesPerChunk: 44100 }); // one second per chunk
    await expect(decodeUpload(MP3, codecs, { maxDurationSeconds: 3, chunkBytes: 100 })).rejects.toMatchObject(
      {
        code: 'audio_too_long',
        message: 'The audio is longer than the 3 s limit.',
      },
    );
    expect(log.decodeCalls).toBeLessThanOrEqual(5);
    expect(log.freed).toBe(1);
  });

  it('refuses a file the decoder finds nothing in, saying whether frames were corrupt', async () => {
    await expect(
      decodeUpload(MP3, fakeCodecs({ samplesPerChunk: 0 }).codecs, { maxDurationSeconds: 60 }),
    ).rejects.toMatchObject({
      code: 'invalid_audio',
      message: 'The MP3 file contains no audio.',
    });
    await expect(
      decodeUpload(MP3, fakeCodecs({ samplesPerChunk: 0, errors: 2 }).codecs, {
        maxDurationSeconds: 60,
        chunkBytes: 10_000,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_audio',
      message: expect.stringMatching(/could not be decoded \(2 corrupt frames\)/),
    });
  });

  it('decodes Ogg Opus at 16 kHz, pre-skip converted, trimmed to the last granule position', async () => {
    const { codecs, log } = fakeCodecs();
    const result = await decodeUpload(readFileSync(join(TESTDATA, 'goforward.opus')), codecs, {
      maxDurationSeconds: 60,
    });
    expect(log.opus).toEqual([
      {
        sampleRate: 16000,
        channels: 1,
        streamCount: 1,
        coupledStreamCount: 0,
        channelMappingTable: [0],
        preSkip: 104,
      },
    ]);
    expect(log.opusFrames).toBe(140);
    // 140 packets × 320 samples, cut to (granule 134052 - pre-skip 312) / 3.
    expect(result).toMatchObject({ format: 'ogg-opus', sourceSampleRate: 16000, sourceChannels: 1 });
    expect(result.samples.length).toBe(44_580);
  });

  it('decodes the links of a chained Ogg Opus file one after the other', async () => {
    const link = readFileSync(join(TESTDATA, 'goforward.opus'));
    const second = Buffer.from(link);
    for (let offset = second.indexOf('OggS'); offset >= 0; offset = second.indexOf('OggS', offset + 4)) {
      second.writeUInt32LE(0x12345678, offset + 14); // a new serial number for the second link
    }
    const { codecs, log } = fakeCodecs();
    const result = await decodeUpload(Buffer.concat([link, second]), codecs, { maxDurationSeconds: 60 });
    expect(log.opus).toHaveLength(2);
    expect(result.samples.length).toBe(2 * 44_580);
  });

  it('decodes the Opus track of a WebM file', async () => {
    const { codecs, log } = fakeCodecs();
    const result = await decodeUpload(readFileSync(join(TESTDATA, 'goforward-chrome.webm')), codecs, {
      maxDurationSeconds: 60,
    });
    expect(log.opus[0]).toMatchObject({ sampleRate: 16000, channels: 2 });
    expect(result).toMatchObject({ format: 'webm', sourceChannels: 2 });
    expect(result.durationSeconds).toBeCloseTo(3.6, 1);
    expect(result.samples[100]).toBeCloseTo(0.25, 6);
  });
});
