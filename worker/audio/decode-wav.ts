import { AudioDecodeError } from './decode-errors';
import { parseWav, WavFormatError, type WavInfo } from './wav';

/**
 * Reads a WAV upload: PCM 8/16/24/32-bit, IEEE float 32/64-bit, any channel count and rate,
 * WAVE_FORMAT_EXTENSIBLE (header parsing is `parseWav`'s).
 *
 * @throws AudioDecodeError `unsupported_audio` for other encodings (µ-law, ADPCM...), `invalid_audio` for a
 *   malformed file.
 */
export function readWavInfo(bytes: Uint8Array): WavInfo {
  let info: WavInfo;
  try {
    info = parseWav(bytes);
  } catch (error) {
    if (error instanceof WavFormatError) {
      const message = `The WAV file cannot be read: ${error.message}.`;
      throw /unsupported/.test(error.message)
        ? AudioDecodeError.unsupported(message)
        : AudioDecodeError.invalid(message);
    }
    throw error;
  }
  if (info.frames === 0) {
    throw AudioDecodeError.invalid('The WAV file contains no audio samples.');
  }
  return info;
}

/** The WAV's samples as mono floats (channels averaged), `blockFrames` frames at a time. */
export function* wavMonoBlocks(
  bytes: Uint8Array,
  info: WavInfo,
  blockFrames = 65_536,
): Generator<Float32Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
  const bytesPerSample = info.bitsPerSample / 8;
  const channels = info.channels;
  const read = sampleReader(info.audioFormat, info.bitsPerSample, view);
  const scale = 1 / channels;
  for (let frame = 0; frame < info.frames; frame += blockFrames) {
    const count = Math.min(blockFrames, info.frames - frame);
    const out = new Float32Array(count);
    let offset = frame * info.blockAlign;
    for (let i = 0; i < count; i++) {
      let sum = 0;
      for (let c = 0; c < channels; c++) {
        sum += read(offset);
        offset += bytesPerSample;
      }
      out[i] = channels === 1 ? sum : sum * scale;
    }
    yield out;
  }
}

const FORMAT_IEEE_FLOAT = 3;

function sampleReader(audioFormat: number, bits: number, view: DataView): (offset: number) => number {
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
