import { AudioDecodeError } from './decode-errors';
import { parseWav, sampleReader, WavFormatError, type WavInfo } from './wav';

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
