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
  EspeakPhonemizeTask,
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
  HEAPU8: Uint8Array;
  FS: { readdir(path: string): string[]; unlink(path: string): void };
  _free(pointer: number): void;
}

interface EspeakEngine {
  readonly samplerate: number;
  rate: number;
  set_voice(name: string): number;
  list_voices(): EspeakVoiceEntry[];
  synthesize(text: string, callback: (samples: Int16Array | undefined, events: unknown[]) => boolean): void;
  /** All clauses' phonemes, joined by ` | ` (a C string the caller frees); IPA or espeak's ASCII names. */
  text_to_phonemes(text: string, ipa: number): { ptr: number };
  /** Synthesis with flags 0 into a phoneme trace file (used to reset espeak's text options). */
  synth_ipa_(text: string, traceFile: string): number;
}

const VARIANTS_DIR = '/usr/share/espeak-ng-data/voices/!v';
/** Scratch file of the reset below, in the engine's in-memory file system. */
const RESET_TRACE_FILE = '/tmp/chorus-reset-trace';

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

  /** Selects a voice; false (having reported the error) when espeak does not know it. */
  const selectVoice = (id: number, voice: string): boolean => {
    if (voice !== currentVoice) {
      const status = engine.set_voice(voice);
      if (status !== 0) {
        currentVoice = undefined;
        post({ type: 'error', id, message: `espeak could not select voice "${voice}" (status ${status})` });
        return false;
      }
      currentVoice = voice;
      currentRate = undefined; // a voice change may reset the rate: set it again
    }
    return true;
  };

  const synthesize = (id: number, task: EspeakSynthesisTask): void => {
    if (Atomics.load(abortSlot, 0) === id) {
      post({ type: 'aborted', id });
      return;
    }
    if (!selectVoice(id, task.voice)) {
      return;
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

  const decoder = new TextDecoder();
  const textToPhonemes = (text: string, ipa: boolean): string => {
    const { ptr } = engine.text_to_phonemes(text, ipa ? 1 : 0);
    try {
      const heap = module.HEAPU8;
      const end = heap.indexOf(0, ptr);
      return decoder.decode(heap.subarray(ptr, end < 0 ? ptr : end));
    } finally {
      module._free(ptr); // the glue allocates the result and leaves it to the caller
    }
  };

  const phonemize = (id: number, task: EspeakPhonemizeTask): void => {
    if (Atomics.load(abortSlot, 0) === id) {
      post({ type: 'aborted', id });
      return;
    }
    if (!selectVoice(id, task.voice)) {
      return;
    }
    // espeak keeps the text options of the last synthesis (the glue's synthesize turns on SSML and [[phoneme]]
    // input, so "<b>" or "[[" would be read as markup) and one pushed-back character of the last conversion.
    // A synthesis with no flags resets both, so every text is converted from the same state, as Piper's is.
    engine.synth_ipa_(' ', RESET_TRACE_FILE);
    try {
      module.FS.unlink(RESET_TRACE_FILE);
    } catch {
      // not created: nothing to remove
    }
    const phonemes = { ipa: textToPhonemes(task.text, true), ascii: textToPhonemes(task.text, false) };
    post({ type: 'phonemes', id, phonemes, heapBytes: module.HEAP8.buffer.byteLength });
  };

  port!.on('message', (message: ToEspeakThread) => {
    try {
      if (message.type === 'synthesize') {
        synthesize(message.id, message.task);
      } else if (message.type === 'phonemize') {
        phonemize(message.id, message.task);
      }
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
