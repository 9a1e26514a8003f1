import type {
  BackendCapabilities,
  BackendDependencyState,
  BackendVoice,
  GenerateRequest,
  TranscribeResponse,
} from '../contract/worker-api';
import type { DecodedAudio } from '../audio/wav';

/** Injection token of every registered backend (`TtsBackend[]`); see `backend-providers.ts`. */
export const TTS_BACKENDS = Symbol('TTS_BACKENDS');

/** What a backend is asked to speak, already validated and segmented. */
export interface SynthesisRequest {
  /** Model key from {@link TtsBackend.resolveModelPath}; loaded by the runtime before `synthesize` is called. */
  modelPath: string;
  /** The text split into sentences (worker/text), to be spoken in this order. Never empty. */
  sentences: readonly string[];
  /** `voice_path` of the request: a preset file relative to the models directory, or an engine voice name. */
  voice: string | null;
  language: string | null;
  /** 1 = normal; validated to lie within 0.25–4. */
  speed: number;
  /** Cloning references: base64 WAV and transcript, one per sample (empty when not cloning). */
  referenceAudio: readonly string[];
  referenceText: readonly string[];
}

/** Audio of one request, produced lazily: nothing is synthesised beyond what the consumer has pulled (plus a bounded read-ahead). */
export interface SynthesisStream {
  /** Rate of every chunk, in Hz. */
  readonly sampleRate: number;
  /**
   * Mono int16 PCM, one chunk per sentence (a backend may split further, never merge across sentences so the
   * first audio leaves early). Ends early, releasing the engine, when the consumer stops iterating or the
   * request's signal aborts.
   */
  readonly chunks: AsyncIterable<Int16Array>;
}

export interface TranscriptionRequest {
  modelPath: string;
  audio: DecodedAudio;
  language: string | null;
}

/**
 * One inference engine. Adding an engine = one folder under `worker/backends/<name>/` implementing this, listed
 * in `backend-providers.ts`. The runtime (`worker/runtime/`) owns when models load and unload, how many requests
 * run at once and the LRU; a backend only does the engine-specific steps.
 */
export interface TtsBackend {
  /** Stable identifier used in requests and catalog entries (`backend` field), e.g. `espeak`. */
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly capabilities: Readonly<BackendCapabilities>;
  /** Embedded engines ship inside the worker: no model files, never evicted by the LRU. */
  readonly embedded: boolean;
  /** Requests one loaded model serves at once; further requests wait in the model's bounded queue. */
  readonly concurrencyPerModel: number;

  /** Whether the backend's extra packages are installed (always true for embedded engines). */
  dependencies(): Promise<BackendDependencyState>;

  /**
   * The model a request needs: a folder `<backend>/<variant>` relative to the models directory, or the
   * backend's own name for embedded engines. Throws an `ApiError` (400) for a missing or unusable model_path.
   */
  resolveModelPath(request: Pick<GenerateRequest, 'model_path'>): string;

  /** Loads a model into memory. Called once per model at a time by the runtime. */
  load(modelPath: string): Promise<void>;

  /** Frees a model. Idempotent; never called while the runtime has requests in flight on it. */
  unload(modelPath: string): Promise<void>;

  /** Resident memory attributed to a loaded model, in bytes (an estimate; 0 when unknown or not loaded). */
  memoryBytes(modelPath: string): number;

  /**
   * Prepares a synthesis and returns its stream. Problems with the request itself (unknown voice, unsupported
   * language) must be thrown here, as `ApiError`s, before any audio is produced, so they reach the client as
   * proper 4xx responses rather than a cut stream.
   */
  synthesize(request: SynthesisRequest, signal: AbortSignal): Promise<SynthesisStream>;

  /** Speech recognition, for backends whose capabilities include `transcription`. */
  transcribe?(request: TranscriptionRequest, signal: AbortSignal): Promise<TranscribeResponse>;

  /** Built-in voices of the engine (engines with named voices, e.g. espeak). */
  listVoices?(): Promise<BackendVoice[]>;

  /**
   * npm packages the backend needs beyond the worker image (name → version or other npm spec). The first pull
   * of one of its models installs them into `PACKAGES_DIR/<name>` (`worker/packages/`), where the backend
   * loads them with `PackagesService.require/import`.
   */
  readonly packages?: Readonly<Record<string, string>>;
}
