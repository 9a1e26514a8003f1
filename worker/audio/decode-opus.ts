import { AudioDecodeError } from './decode-errors';

/** The Opus identification header (RFC 7845 §5.1), as found in Ogg and in Matroska's CodecPrivate. */
export interface OpusHead {
  channels: number;
  /** Samples at 48 kHz to drop from the start of the decoded stream (encoder delay). */
  preSkip: number;
  /** Sample rate of the original input (informational only: Opus always codes at 48 kHz). */
  inputSampleRate: number;
  /** Gain to apply to the output, in dB. */
  outputGainDb: number;
  mappingFamily: number;
  streamCount: number;
  coupledStreamCount: number;
  channelMapping: number[];
}

/** @throws AudioDecodeError `invalid_audio` when the bytes are not a valid OpusHead. */
export function parseOpusHead(bytes: Uint8Array): OpusHead {
  if (bytes.byteLength < 19 || String.fromCharCode(...bytes.subarray(0, 8)) !== 'OpusHead') {
    throw AudioDecodeError.invalid('The Opus stream has no valid identification header.');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[8];
  if (version >> 4 !== 0) {
    throw AudioDecodeError.unsupported(`Opus header version ${version} is not supported.`);
  }
  const channels = bytes[9];
  if (channels < 1) {
    throw AudioDecodeError.invalid('The Opus header declares no channels.');
  }
  const head: OpusHead = {
    channels,
    preSkip: view.getUint16(10, true),
    inputSampleRate: view.getUint32(12, true),
    outputGainDb: view.getInt16(16, true) / 256,
    mappingFamily: bytes[18],
    streamCount: 1,
    coupledStreamCount: channels - 1,
    channelMapping: channels === 1 ? [0] : [0, 1],
  };
  if (head.mappingFamily === 0) {
    if (channels > 2) {
      throw AudioDecodeError.invalid(
        'An Opus stream with channel mapping family 0 has at most two channels.',
      );
    }
    return head;
  }
  if (bytes.byteLength < 21 + channels) {
    throw AudioDecodeError.invalid('The Opus header is truncated (channel mapping table).');
  }
  head.streamCount = bytes[19];
  head.coupledStreamCount = bytes[20];
  head.channelMapping = [...bytes.subarray(21, 21 + channels)];
  if (head.streamCount < 1 || head.coupledStreamCount > head.streamCount) {
    throw AudioDecodeError.invalid('The Opus channel mapping is invalid.');
  }
  return head;
}

/** Rates libopus decodes to natively (it resamples internally, band-limited). */
export const OPUS_DECODE_RATES = [8000, 12000, 16000, 24000, 48000] as const;
export type OpusDecodeRate = (typeof OPUS_DECODE_RATES)[number];

/** What `opus-decoder`'s OpusDecoder needs for one stream. */
export interface OpusDecoderOptions {
  sampleRate: OpusDecodeRate;
  channels: number;
  streamCount: number;
  coupledStreamCount: number;
  channelMappingTable: number[];
  /** Samples to drop from the start, *at `sampleRate`* (opus-decoder skips this many output samples). */
  preSkip: number;
}

export function opusDecoderOptions(head: OpusHead, sampleRate: OpusDecodeRate): OpusDecoderOptions {
  return {
    sampleRate,
    channels: head.channels,
    streamCount: head.streamCount,
    coupledStreamCount: head.coupledStreamCount,
    channelMappingTable: head.channelMapping,
    // The header counts pre-skip at 48 kHz; opus-decoder skips that many samples of its own output rate.
    preSkip: Math.round((head.preSkip * sampleRate) / 48_000),
  };
}

/**
 * Duration of one Opus packet in samples at 48 kHz, from its TOC byte and frame count (RFC 6716 §3.1);
 * 0 for an empty or malformed packet.
 */
export function opusPacketSamples48k(packet: Uint8Array): number {
  if (packet.byteLength === 0) {
    return 0;
  }
  const toc = packet[0];
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) {
    frameSamples = [480, 960, 1920, 2880][config & 3]; // SILK: 10, 20, 40, 60 ms
  } else if (config < 16) {
    frameSamples = [480, 960][config & 1]; // hybrid: 10, 20 ms
  } else {
    frameSamples = [120, 240, 480, 960][config & 3]; // CELT: 2.5, 5, 10, 20 ms
  }
  const code = toc & 3;
  let frames: number;
  if (code === 0) {
    frames = 1;
  } else if (code === 1 || code === 2) {
    frames = 2;
  } else {
    if (packet.byteLength < 2) {
      return 0;
    }
    frames = packet[1] & 0x3f;
  }
  return frames * frameSamples;
}
