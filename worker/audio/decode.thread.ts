/**
 * Entry of a decode thread: turns one upload into 16 kHz mono off the main event loop, then ends.
 *
 * Loaded as a plain `.js` file (compiled beside this source) by `AudioDecodePool`. The decoders are ESM-only
 * npm packages (WebAssembly builds of mpg123, libFLAC, libvorbis, libopus); they are imported with a real
 * dynamic `import()` only when an upload needs them, so a WAV upload never loads any.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { AudioDecodeError } from './decode-errors';
import type { OpusDecoderOptions } from './decode-opus';
import { decodeUpload, type Codecs, type OpusPacketDecoder, type StreamDecoder } from './decode-pipeline';
import type { DecodeThreadData, FromDecodeThread } from './decode-protocol';

interface Ready {
  ready: Promise<void>;
}

const port = parentPort;
if (!port) {
  throw new Error('decode.thread must run in a worker thread');
}

function codecs(urls: DecodeThreadData['packages']): Codecs {
  const load = async <T extends Ready>(url: string, name: string, options?: object): Promise<T> => {
    const module = (await import(url)) as Record<string, new (options?: object) => T>;
    const decoder = new module[name](options);
    await decoder.ready;
    return decoder;
  };
  return {
    mp3: () => load<StreamDecoder & Ready>(urls.mp3, 'MPEGDecoder'),
    flac: () => load<StreamDecoder & Ready>(urls.flac, 'FLACDecoder'),
    vorbis: () => load<StreamDecoder & Ready>(urls.vorbis, 'OggVorbisDecoder'),
    opus: (options: OpusDecoderOptions) => load<OpusPacketDecoder & Ready>(urls.opus, 'OpusDecoder', options),
  };
}

async function main(): Promise<void> {
  const { packages, bytes, maxDurationSeconds } = workerData as DecodeThreadData;
  let message: FromDecodeThread;
  try {
    const result = await decodeUpload(bytes, codecs(packages), { maxDurationSeconds });
    message = { type: 'decoded', result };
    port!.postMessage(message, [result.samples.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    message =
      error instanceof AudioDecodeError
        ? { type: 'failed', code: error.code, message: error.message }
        : {
            type: 'failed',
            code: 'internal',
            message: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
  }
  port!.postMessage(message);
}

void main();
