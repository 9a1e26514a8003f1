/**
 * Entry of one espeak engine thread. Runs the emscripten build of espeak-ng off the main event loop.
 *
 * Loaded as a plain `.js` file (compiled beside this source) by `EspeakThreadPool`; it imports only the
 * time-stretch helper and types, so it starts in milliseconds and never loads Nest.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { concatInt16 } from '../../audio/pcm';
import { timeStretch } from '../../audio/time-stretch';
import type {
  EspeakSynthesisTask,
  EspeakThreadData,
  EspeakVoiceEntry,
  FromEspeakThread,
  ToEspeakThread,
} from './espeak-protocol';

/** The part of the emscripten module this thread uses. */
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakEngine;
  HEAP8: Int8Array;
  FS: { readdir(path: string): string[] };
}

interface EspeakEngine {
  readonly samplerate: number;
  rate: number;
  set_voice(name: string): number;
  list_voices(): EspeakVoiceEntry[];
  synthesize(text: string, callback: (samples: Int16Array | undefined, events: unknown[]) => boolean): void;
}

const VARIANTS_DIR = '/usr/share/espeak-ng-data/voices/!v';

/**
 * Spoken once before the thread reports ready: WebAssembly code starts in the baseline tier and is optimised
 * once hot, so without this the first few requests each thread serves take several times longer.
 */
const WARM_UP_TEXT =
  'Warming up the engine: one sentence with words, numbers like 42 and 3.14, and punctuation! ' +
  'The quick brown fox jumps over the lazy dog.';

const port = parentPort;
if (!port) {
  throw new Error('espeak.thread must run in a worker thread');
}

function post(message: FromEspeakThread, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

async function main(): Promise<void> {
  const { packageUrl, abort } = workerData as EspeakThreadData;
  const abortSlot = new Int32Array(abort);

  let module: EspeakModule;
  let engine: EspeakEngine;
  let voices: EspeakVoiceEntry[];
  let variants: string[];
  try {
    const imported = (await import(packageUrl)) as { default: (options?: object) => Promise<EspeakModule> };
    module = await imported.default({ print: () => undefined, printErr: () => undefined });
    engine = new module.eSpeakNGWorker();
    voices = engine.list_voices();
    try {
      variants = module.FS.readdir(VARIANTS_DIR).filter((name) => name !== '.' && name !== '..');
    } catch {
      variants = [];
    }
    engine.synthesize(WARM_UP_TEXT, () => false);
  } catch (error) {
    post({ type: 'init-error', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  post({
    type: 'ready',
    sampleRate: engine.samplerate,
    voices,
    variants,
    heapBytes: module.HEAP8.buffer.byteLength,
  });

  let currentVoice: string | undefined;
  let currentRate: number | undefined;

  const synthesize = (id: number, task: EspeakSynthesisTask): void => {
    if (Atomics.load(abortSlot, 0) === id) {
      post({ type: 'aborted', id });
      return;
    }
    if (task.voice !== currentVoice) {
      const status = engine.set_voice(task.voice);
      if (status !== 0) {
        currentVoice = undefined;
        post({
          type: 'error',
          id,
          message: `espeak could not select voice "${task.voice}" (status ${status})`,
        });
        return;
      }
      currentVoice = task.voice;
      currentRate = undefined; // a voice change may reset the rate: set it again
    }
    if (task.rate !== currentRate) {
      engine.rate = task.rate;
      currentRate = task.rate;
    }

    const chunks: Int16Array[] = [];
    let aborted = false;
    engine.synthesize(task.text, (samples) => {
      if (Atomics.load(abortSlot, 0) === id) {
        aborted = true;
        return true; // non-zero stops espeak
      }
      if (samples && samples.length > 0) {
        chunks.push(samples);
      }
      return false;
    });
    if (aborted) {
      post({ type: 'aborted', id });
      return;
    }
    let pcm = concatInt16(chunks);
    if (Math.abs(task.tempo - 1) >= 1e-3) {
      pcm = timeStretch(pcm, engine.samplerate, task.tempo);
    }
    post({ type: 'audio', id, pcm, heapBytes: module.HEAP8.buffer.byteLength }, [pcm.buffer as ArrayBuffer]);
  };

  port!.on('message', (message: ToEspeakThread) => {
    if (message.type !== 'synthesize') {
      return;
    }
    try {
      synthesize(message.id, message.task);
    } catch (error) {
      currentVoice = undefined;
      currentRate = undefined;
      post({
        type: 'error',
        id: message.id,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
}

void main();
