import { once } from 'node:events';

import type { Response } from 'express';

import { int16ToBuffer } from '../audio/pcm';
import { wavHeader } from '../audio/wav';
import { SAMPLE_RATE_HEADER } from '../contract/worker-api';
import type { CompleteAudio, OpenSynthesis } from './generate.service';

/**
 * Sends the audio as one WAV file with its Content-Length: the header, then each chunk's memory as it is
 * (no concatenated copy), respecting back-pressure.
 */
export async function sendWav(response: Response, audio: CompleteAudio, signal: AbortSignal): Promise<void> {
  const dataBytes = audio.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const header = wavHeader(dataBytes, { sampleRate: audio.sampleRate, channels: 1, bitsPerSample: 16 });
  response.status(200);
  response.setHeader('Content-Type', 'audio/wav');
  response.setHeader('Content-Length', String(header.length + dataBytes));
  response.setHeader('Cache-Control', 'no-store');
  response.write(header);
  for (const chunk of audio.chunks) {
    await write(response, chunk, signal);
  }
  response.end();
}

/**
 * Streams raw PCM (s16le mono) with chunked transfer: the status line and headers go out with the first
 * sentence's audio (so a failure before it is still a proper JSON error), then each sentence as it is ready,
 * respecting back-pressure. Stops synthesis when the client disconnects.
 *
 * @throws what the synthesis throws before the first chunk; later failures cut the stream (the error filter
 *   destroys the response).
 */
export async function streamPcm(
  response: Response,
  synthesis: OpenSynthesis,
  signal: AbortSignal,
): Promise<void> {
  const iterator = synthesis.chunks[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    response.status(200);
    response.setHeader('Content-Type', 'audio/pcm');
    response.setHeader(SAMPLE_RATE_HEADER, String(synthesis.sampleRate));
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Accel-Buffering', 'no'); // proxies must not hold chunks back
    response.flushHeaders();
    if (!first.done) {
      await write(response, first.value, signal);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        await write(response, next.value, signal);
      }
    }
    response.end();
  } finally {
    await iterator.return?.();
    synthesis.close();
  }
}

async function write(response: Response, chunk: Int16Array, signal: AbortSignal): Promise<void> {
  if (chunk.length === 0) {
    return;
  }
  if (!response.write(int16ToBuffer(chunk))) {
    await once(response, 'drain', { signal });
  }
}
