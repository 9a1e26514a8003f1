/**
 * PCM helpers. The worker's canonical audio is mono signed 16-bit little-endian ("s16le") at the engine's rate.
 */

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Float samples in [-1, 1] to int16; out-of-range values are clipped, NaN becomes silence. */
export function floatToInt16(samples: ArrayLike<number>): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    if (!(s === s)) {
      continue; // NaN
    }
    const clipped = s > 1 ? 1 : s < -1 ? -1 : s;
    // Asymmetric scaling maps -1 to -32768 and 1 to 32767, so full scale round-trips on both sides.
    out[i] = Math.round(clipped < 0 ? clipped * 0x8000 : clipped * 0x7fff);
  }
  return out;
}

/** Int16 samples to floats in [-1, 1]. */
export function int16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    out[i] = s < 0 ? s / 0x8000 : s / 0x7fff;
  }
  return out;
}

/** Joins chunks into one array (a copy, even for a single chunk). */
export function concatInt16(chunks: readonly Int16Array[]): Int16Array {
  let length = 0;
  for (const chunk of chunks) {
    length += chunk.length;
  }
  const out = new Int16Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The samples as s16le bytes; shares memory with `samples` on little-endian hosts. */
export function int16ToBuffer(samples: Int16Array): Buffer {
  if (IS_LITTLE_ENDIAN) {
    return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  }
  const out = Buffer.allocUnsafe(samples.byteLength);
  for (let i = 0; i < samples.length; i++) {
    out.writeInt16LE(samples[i], i * 2);
  }
  return out;
}

/** s16le bytes to samples (always a copy, so the result is aligned and owns its memory). A trailing odd byte is dropped. */
export function bufferToInt16(bytes: Uint8Array): Int16Array {
  const length = bytes.byteLength >> 1;
  const out = new Int16Array(length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, length * 2);
  for (let i = 0; i < length; i++) {
    out[i] = view.getInt16(i * 2, true);
  }
  return out;
}

/** `durationSeconds` of digital silence. */
export function silence(durationSeconds: number, sampleRate: number): Int16Array {
  return new Int16Array(Math.max(0, Math.round(durationSeconds * sampleRate)));
}

export function durationOf(sampleCount: number, sampleRate: number): number {
  return sampleRate > 0 ? sampleCount / sampleRate : 0;
}

/** Root-mean-square level in [0, 1]; 0 for an empty array. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) {
    return 0;
  }
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    sum += samples[i] * samples[i];
  }
  return Math.sqrt(sum / samples.length) / 0x8000;
}
