import { int16ToBuffer } from './pcm';

/** Size of the canonical RIFF/WAVE header written by {@link wavHeader}. */
export const WAV_HEADER_BYTES = 44;

/** Largest data chunk a RIFF file can describe (the RIFF size field is 32-bit and counts 36 header bytes). */
export const MAX_WAV_DATA_BYTES = 0xffffffff - 36;

const FORMAT_PCM = 1;
const FORMAT_IEEE_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

export interface PcmFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

export class WavFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavFormatError';
  }
}

/**
 * The 44-byte header of a PCM WAV whose data chunk holds `dataBytes` bytes.
 * Sizes are checked so the header is correct for any length a RIFF file can hold.
 */
export function wavHeader(
  dataBytes: number,
  { sampleRate, channels = 1, bitsPerSample = 16 }: Partial<PcmFormat> & { sampleRate: number },
): Buffer {
  if (!Number.isInteger(dataBytes) || dataBytes < 0 || dataBytes > MAX_WAV_DATA_BYTES) {
    throw new RangeError(`WAV data size must be an integer between 0 and ${MAX_WAV_DATA_BYTES} bytes`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate <= 0 || sampleRate > 0xffffffff) {
    throw new RangeError('WAV sample rate must be a positive integer');
  }
  if (!Number.isInteger(channels) || channels < 1 || channels > 0xffff) {
    throw new RangeError('WAV channel count must be between 1 and 65535');
  }
  if (![8, 16, 24, 32].includes(bitsPerSample)) {
    throw new RangeError('WAV bits per sample must be 8, 16, 24 or 32');
  }
  const blockAlign = channels * (bitsPerSample / 8);
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  // RIFF size = everything after this field; an odd data chunk is followed by one pad byte.
  header.writeUInt32LE(36 + dataBytes + (dataBytes % 2), 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(FORMAT_PCM, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** A complete 16-bit PCM WAV file of `samples` (interleaved when `channels` > 1). */
export function encodeWav(
  samples: Int16Array | readonly Int16Array[],
  sampleRate: number,
  channels = 1,
): Buffer {
  // ArrayBuffer.isView rather than instanceof: arrays posted from worker threads may come from another realm.
  const chunks: readonly Int16Array[] = ArrayBuffer.isView(samples) ? [samples] : samples;
  const dataBytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  if ((dataBytes / 2) % channels !== 0) {
    throw new RangeError('sample count must be a multiple of the channel count');
  }
  const header = wavHeader(dataBytes, { sampleRate, channels, bitsPerSample: 16 });
  const out = Buffer.allocUnsafe(header.length + dataBytes);
  header.copy(out, 0);
  let offset = header.length;
  for (const chunk of chunks) {
    offset += int16ToBuffer(chunk).copy(out, offset);
  }
  return out;
}

export interface WavInfo extends PcmFormat {
  /** 1 = integer PCM, 3 = IEEE float (WAVE_FORMAT_EXTENSIBLE is resolved to its sub-format). */
  audioFormat: number;
  blockAlign: number;
  byteRate: number;
  /** Offset of the first sample byte. */
  dataOffset: number;
  /** Bytes of sample data actually present. */
  dataBytes: number;
  /** Size the data chunk header declares (0 or 0xFFFFFFFF for some streamed files). */
  declaredDataBytes: number;
  /** True when fewer bytes are present than declared. */
  truncated: boolean;
  /** Samples per channel. */
  frames: number;
  durationSeconds: number;
}

/**
 * Parses a RIFF/WAVE header, walking its chunks (so `LIST`, `fact`... chunks and extensible formats are fine).
 *
 * @throws WavFormatError when the bytes are not a WAV of a supported PCM or float format.
 */
export function parseWav(bytes: Uint8Array): WavInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (bytes.byteLength < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') {
    throw new WavFormatError('not a RIFF/WAVE file');
  }

  let format:
    | Omit<
        WavInfo,
        'dataOffset' | 'dataBytes' | 'declaredDataBytes' | 'truncated' | 'frames' | 'durationSeconds'
      >
    | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.byteLength) {
    const id = ascii(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) {
        throw new WavFormatError('fmt chunk is too short');
      }
      let audioFormat = view.getUint16(body, true);
      if (audioFormat === FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 26 > bytes.byteLength) {
          throw new WavFormatError('extensible fmt chunk is too short');
        }
        audioFormat = view.getUint16(body + 24, true); // first two bytes of the sub-format GUID
      }
      format = {
        audioFormat,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        byteRate: view.getUint32(body + 8, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      validateFormat(format);
    } else if (id === 'data') {
      if (!format) {
        throw new WavFormatError('data chunk comes before the fmt chunk');
      }
      const available = bytes.byteLength - body;
      const streamed = size === 0 || size === 0xffffffff;
      const dataBytes = streamed ? available : Math.min(size, available);
      const usable = dataBytes - (dataBytes % format.blockAlign);
      const frames = usable / format.blockAlign;
      return {
        ...format,
        dataOffset: body,
        dataBytes: usable,
        declaredDataBytes: size,
        truncated: !streamed && size > available,
        frames,
        durationSeconds: frames / format.sampleRate,
      };
    }
    offset = body + size + (size % 2);
  }
  throw new WavFormatError(format ? 'no data chunk' : 'no fmt chunk');
}

function validateFormat(format: {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}): void {
  const { audioFormat, channels, sampleRate, bitsPerSample, blockAlign } = format;
  if (audioFormat !== FORMAT_PCM && audioFormat !== FORMAT_IEEE_FLOAT) {
    throw new WavFormatError(`unsupported WAV encoding ${audioFormat} (only PCM and IEEE float)`);
  }
  const supportedBits = audioFormat === FORMAT_PCM ? [8, 16, 24, 32] : [32, 64];
  if (!supportedBits.includes(bitsPerSample)) {
    throw new WavFormatError(`unsupported bit depth ${bitsPerSample}`);
  }
  if (channels < 1 || sampleRate < 1) {
    throw new WavFormatError('WAV declares no channels or no sample rate');
  }
  if (blockAlign !== channels * (bitsPerSample / 8)) {
    throw new WavFormatError('WAV block alignment does not match its channels and bit depth');
  }
}

export interface DecodedAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved samples in [-1, 1]. */
  samples: Float32Array;
}

/** Decodes any PCM (8/16/24/32-bit) or float (32/64-bit) WAV to interleaved floats. */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  const info = parseWav(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
  const bytesPerSample = info.bitsPerSample / 8;
  const count = info.dataBytes / bytesPerSample;
  const samples = new Float32Array(count);
  const read = sampleReader(info.audioFormat, info.bitsPerSample, view);
  for (let i = 0; i < count; i++) {
    samples[i] = read(i * bytesPerSample);
  }
  return { sampleRate: info.sampleRate, channels: info.channels, samples };
}

/** Reads one little-endian sample (PCM 8/16/24/32-bit or IEEE float 32/64) as a float in -1..1. */
export function sampleReader(audioFormat: number, bits: number, view: DataView): (offset: number) => number {
  if (audioFormat === FORMAT_IEEE_FLOAT) {
    return bits === 32 ? (o) => view.getFloat32(o, true) : (o) => view.getFloat64(o, true);
  }
  switch (bits) {
    case 8:
      return (o) => (view.getUint8(o) - 128) / 128;
    case 16:
      return (o) => view.getInt16(o, true) / 0x8000;
    case 24:
      return (o) => (view.getUint8(o) | (view.getUint8(o + 1) << 8) | (view.getInt8(o + 2) << 16)) / 0x800000;
    default:
      return (o) => view.getInt32(o, true) / 0x80000000;
  }
}
