/**
 * Messages between the espeak thread pool (main thread) and its engine threads (`espeak.thread.ts`).
 * Types only: the thread entry must not pull Nest or anything heavy into the thread.
 */

/** `workerData` of an engine thread. */
export interface EspeakThreadData {
  /** file: URL of `@echogarden/espeak-ng-emscripten/espeak-ng.js` (ESM, loaded with a real dynamic import). */
  packageUrl: string;
  /**
   * One Int32 slot: the id of the task to abort. The engine polls it from inside espeak's synthesis callback,
   * so an abort takes effect within milliseconds even in the middle of a long sentence.
   */
  abort: SharedArrayBuffer;
}

/** One voice as espeak lists it (`espeak_ListVoices`). */
export interface EspeakVoiceEntry {
  /** Display name, e.g. `English (America)`. */
  name: string;
  /** Path below espeak-ng-data/lang, e.g. `gmw/en-US`; accepted by `set_voice`. */
  identifier: string;
  /** Language codes the voice speaks; a lower priority number is a better match. */
  languages: { priority: number; name: string }[];
}

export interface EspeakSynthesisTask {
  /** espeak voice spec: an identifier, optionally with `+variant`. */
  voice: string;
  /** Words per minute, 80–450 (espeak's own range). */
  rate: number;
  /** Further tempo factor applied after synthesis where `rate` alone cannot reach the requested speed. */
  tempo: number;
  text: string;
}

/** Text to phonemes (used by engines that phonemize with espeak, e.g. Piper); see `espeak-phonemizer.ts`. */
export interface EspeakPhonemizeTask {
  /** espeak voice name or identifier, e.g. `en-us`. */
  voice: string;
  text: string;
}

/**
 * The glue's text-to-phonemes output for a text, in IPA and in espeak's ASCII phoneme names: clauses joined by
 * ` | `, phonemes separated by `_`, words by spaces.
 */
export interface EspeakRawPhonemes {
  ipa: string;
  ascii: string;
}

export type ToEspeakThread =
  | { type: 'synthesize'; id: number; task: EspeakSynthesisTask }
  | { type: 'phonemize'; id: number; task: EspeakPhonemizeTask };

export type FromEspeakThread =
  | {
      type: 'ready';
      sampleRate: number;
      voices: EspeakVoiceEntry[];
      /** Voice variants (files of espeak-ng-data/voices/!v), usable as `<voice>+<variant>`. */
      variants: string[];
      /** Size of the engine's WebAssembly memory. */
      heapBytes: number;
    }
  | { type: 'init-error'; message: string }
  | { type: 'audio'; id: number; pcm: Int16Array; heapBytes: number }
  | { type: 'phonemes'; id: number; phonemes: EspeakRawPhonemes; heapBytes: number }
  | { type: 'aborted'; id: number }
  | { type: 'error'; id: number; message: string };

/** Espeak's own rate limits, in words per minute. */
export const ESPEAK_MIN_RATE = 80;
export const ESPEAK_MAX_RATE = 450;
export const ESPEAK_DEFAULT_RATE = 175;
