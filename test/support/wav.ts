/** Minimal RIFF/WAVE reader for assertions: format fields and the PCM data, validated against the header. */
export interface WavInfo {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  durationSeconds: number;
  samples: Int16Array;
}

export function parseWav(buffer: Buffer): WavInfo {
  if (
    buffer.length < 44 ||
    buffer.toString('ascii', 0, 4) !== 'RIFF' ||
    buffer.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new Error('not a RIFF/WAVE file');
  }
  if (buffer.readUInt32LE(4) !== buffer.length - 8) {
    throw new Error(`RIFF size ${buffer.readUInt32LE(4)} does not match file size ${buffer.length}`);
  }
  let offset = 12;
  let format: Omit<WavInfo, 'dataBytes' | 'durationSeconds' | 'samples'> | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        audioFormat: buffer.readUInt16LE(body),
        channels: buffer.readUInt16LE(body + 2),
        sampleRate: buffer.readUInt32LE(body + 4),
        bitsPerSample: buffer.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) {
        throw new Error('data chunk before fmt chunk');
      }
      if (body + size > buffer.length) {
        throw new Error('data chunk runs past the end of the file');
      }
      const bytesPerFrame = (format.bitsPerSample / 8) * format.channels;
      const pcm = buffer.subarray(body, body + size);
      const samples = new Int16Array(
        pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length - (pcm.length % 2)),
      );
      return {
        ...format,
        dataBytes: size,
        durationSeconds: size / bytesPerFrame / format.sampleRate,
        samples,
      };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** Root-mean-square level of 16-bit samples, 0..1. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) {
    return 0;
  }
  let sum = 0;
  for (const sample of samples) {
    sum += (sample / 32768) ** 2;
  }
  return Math.sqrt(sum / samples.length);
}
