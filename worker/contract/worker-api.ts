/**
 * The contract between the main service and inference workers.
 *
 * This file is the single definition of the worker API's request, response and event shapes. The worker
 * implements it (its DTOs `implements` these interfaces) and the main service's worker client is typed by it.
 * Keep it free of framework imports so both apps (and tests) can import it cheaply.
 */

/** Version of the worker HTTP API; bumped on any incompatible change. */
export const WORKER_API_VERSION = '1';

/** Header carrying the sample rate of a raw PCM stream (`audio/pcm`, s16le, mono). */
export const SAMPLE_RATE_HEADER = 'X-Sample-Rate';

export type InferenceDevice = 'cpu' | 'cuda';

export type ModelType = 'preset' | 'cloning' | 'design' | 'transcription' | 'api';

/** One file of a catalog entry. `repo`/`revision` override the entry's repository for files hosted elsewhere. */
export interface CatalogFile {
  /** Path of the file inside its repository, e.g. `en/en_US/joe/medium/en_US-joe-medium.onnx`. */
  path: string;
  /** Repository holding the file when it is not the entry's own `repo`. */
  repo?: string;
  /** Git revision to download (default `main`). */
  revision?: string;
  /** Size in bytes, when known. */
  size?: number;
  /** Lower-case hex sha256 of the file, when known (otherwise the hub's ETag is used). */
  sha256?: string;
  /** Name of the file inside the installed variant folder (default: the basename of `path`). */
  target?: string;
}

/** A built-in voice of a preset model. */
export interface PresetVoice {
  id: string;
  name: string;
  language: string;
  gender?: 'female' | 'male' | 'neutral';
  /** Speaker id for multi-speaker models. */
  speakerId?: number;
}

/** One installable model (SPEC §2). */
export interface CatalogEntry {
  id: string;
  name: string;
  description: string;
  backend: string;
  backendDisplayName: string;
  backendDescription: string;
  /** Installed variant folder name: the model lives in `<models_dir>/<backend>/<variant>/`. */
  variant: string;
  /** Hosting repository (`owner/name`), or null for embedded engines that need no download. */
  repo: string | null;
  revision?: string;
  files: CatalogFile[];
  /** Total size in bytes of all files. */
  size: number;
  types: ModelType[];
  presetVoices?: PresetVoice[];
  /** Longest total reference audio, in seconds, accepted for cloning. */
  maxReferenceDuration?: number;
  supportsInstruct?: boolean;
  supportsEffects?: boolean;
  gated?: boolean;
  license: string;
  commercial?: boolean;
  hardware: 'cpu' | 'gpu';
  minVram?: number;
  /** ISO 639-1 codes, or `["*"]` for 100+ languages. */
  languages: string[];
  recommended?: boolean;
  legacy?: boolean;
  /** Family shown on the Models page (variants of one family are grouped). */
  family?: string;
  /** True for engines embedded in the worker: always installed, nothing to download. */
  embedded?: boolean;
}

/** Body of `POST /generate` and `POST /generate/stream`. Paths are relative to the models directory. */
export interface GenerateRequest {
  backend: string;
  text: string;
  /** Preset voice: a file path relative to the models directory, or an engine voice name for embedded engines. */
  voice_path?: string | null;
  /** 1.0 = normal; each engine maps it to its own rate control. */
  speed?: number;
  /** ISO 639-1 (or engine-specific) language code. */
  language?: string | null;
  /** Cloning reference audio, base64-encoded WAV, one item per sample. */
  reference_audio?: string[] | null;
  /** Transcripts of the reference audio, one per sample. */
  reference_text?: string[] | null;
  /** Model folder `<backend>/<variant>` relative to the models directory. */
  model_path?: string | null;
}

export type RegistrationStatus = 'disabled' | 'pending' | 'registered' | 'failed';

export interface RegistrationState {
  status: RegistrationStatus;
  attempts: number;
  serviceUrl?: string;
  publicUrl?: string;
  error?: string;
  at?: string;
}

export interface LoadedModelInfo {
  backend: string;
  modelPath: string;
  /** Resident memory attributed to the model, in bytes (estimate). */
  memoryBytes: number;
  loadedAt: string;
  lastUsedAt: string;
  inFlight: number;
}

/** `GET /health`. */
export interface WorkerHealth {
  status: 'ok';
  device: InferenceDevice;
  requestedDevice: InferenceDevice;
  deviceNote?: string;
  loadedModels: LoadedModelInfo[];
  version: string;
  apiVersion: string;
  registration: RegistrationState;
}

export interface BackendCapabilities {
  preset: boolean;
  cloning: boolean;
  transcription: boolean;
  streaming: boolean;
}

/** Element of `GET /backends`. */
export interface BackendInfo {
  name: string;
  displayName: string;
  capabilities: BackendCapabilities;
  dependenciesInstalled: boolean;
  loadedModels: LoadedModelInfo[];
}

/** Body of `POST /models/pull`. */
export interface PullRequest {
  /** Hub base URL, e.g. `https://huggingface.co`. */
  url: string;
  /** `<backend>/<variant>`. */
  dest_path: string;
  manifest: CatalogEntry;
}

export type PullStatus = 'downloading' | 'installing' | 'complete' | 'error';

/** One SSE `data:` frame of a pull. */
export interface PullEvent {
  progress: number;
  status: PullStatus;
  speed: string;
  file?: string;
  downloaded?: number;
  total?: number;
  message?: string;
}

/** `POST /transcribe`. */
export interface TranscribeResponse {
  text: string;
  language: string;
}

/** Error body of the worker (same shape as the main service's). */
export interface WorkerError {
  status: number;
  message: string;
  data: Record<string, { code: string; message: string }>;
}

/* ---------------------------------------------------------------------------------------------------------
 * Additions by the worker (v1, backwards compatible).
 * ------------------------------------------------------------------------------------------------------- */

/** Header carrying the request id; the worker honours an incoming one and echoes it on every response. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Load state of one model key (`<backend>/<variant>`, or the backend name for embedded engines). */
export interface ModelQueueStats {
  modelPath: string;
  /** Requests being served right now. */
  active: number;
  /** Requests waiting for a slot. */
  waiting: number;
  /** Requests served at once by this model. */
  concurrency: number;
  /** Most requests allowed to wait; one more is answered 503. */
  limit: number;
}

/** Whether a backend's extra dependencies (npm packages installed into PACKAGES_DIR) are present. */
export interface BackendDependencyState {
  installed: boolean;
  /** Packages the backend needs beyond the worker itself (empty for embedded engines). */
  packages: string[];
  detail?: string;
}

/** `GET /backends/:name/status`. */
export interface BackendStatus extends BackendInfo {
  description: string;
  /** Embedded engines ship inside the worker: no download, never evicted by the LRU. */
  embedded: boolean;
  /** True when at least one model of the backend is loaded. */
  loaded: boolean;
  /** Sum of `loadedModels[].memoryBytes`. */
  memoryBytes: number;
  dependencies: BackendDependencyState;
  queues: ModelQueueStats[];
}

/** Element of `GET /backends/:name/voices` (engines with built-in voices, e.g. espeak). */
export interface BackendVoice extends PresetVoice {
  /** Other language codes the voice speaks. */
  languages?: string[];
}

/** Error codes the worker puts in `WorkerError.data[field].code` besides the generic `validation_*` ones. */
export type WorkerErrorCode =
  | 'unknown_backend'
  | 'unknown_voice'
  | 'unsupported_language'
  | 'nothing_to_speak'
  | 'capability_not_supported';

/* ---------------------------------------------------------------------------------------------------------
 * Model store and registration (worker/models, worker/registration), v1, backwards compatible.
 * ------------------------------------------------------------------------------------------------------- */

/** Name of the file the store writes last into an installed variant folder; its presence marks the install. */
export const MODEL_MANIFEST_FILE = 'manifest.json';

/** One file of an installed model, as recorded in its `manifest.json`. */
export interface InstalledModelFile {
  /** Path inside the variant folder. */
  target: string;
  /** Path of the file in its repository. */
  path: string;
  repo: string;
  revision: string;
  size: number;
  /** Lower-case hex sha256 of the installed bytes. */
  sha256: string;
}

/** Content of `<models_dir>/<backend>/<variant>/manifest.json`. */
export interface InstalledModelManifest {
  formatVersion: 1;
  backend: string;
  variant: string;
  /** The catalog entry the model was pulled with, as it was sent. */
  entry: CatalogEntry;
  files: InstalledModelFile[];
  /** Sum of the file sizes, in bytes. */
  size: number;
  /** Hub base URL the files came from. */
  source: string;
  installedAt: string;
}

/** Element of `GET /models`. */
export interface InstalledModel {
  backend: string;
  variant: string;
  /** `<backend>/<variant>`: the `model_path` of generate requests. */
  path: string;
  /** Catalog id of the entry the model was pulled with. */
  id: string;
  name: string;
  size: number;
  installedAt: string;
  /** Whether the model is loaded in memory right now. */
  loaded: boolean;
}

/** `GET /models/:backend/:variant` (200 only when installed; 404 otherwise). */
export interface ModelInstallCheck extends InstalledModel {
  installed: true;
  files: InstalledModelFile[];
  /** True when the sha256 of every file was recomputed and matched (`?verify=true`). */
  verified: boolean;
}

/** `DELETE /models/:backend/:variant`. */
export interface DeleteModelResponse {
  backend: string;
  variant: string;
  path: string;
  /** Whether the model was loaded and had to be unloaded first. */
  unloaded: boolean;
}

/** Body of `POST /models/unload`. */
export interface UnloadModelRequest {
  backend: string;
  /** Model key: `<backend>/<variant>`, or the backend name for embedded engines. */
  model_path: string;
}

/** `POST /models/unload`: `scheduled` = requests are in flight, it unloads when the last one ends. */
export interface UnloadModelResponse {
  status: 'unloaded' | 'scheduled' | 'not_loaded';
}

/** Path of the main service's registration route, called by workers at start-up. */
export const REGISTER_WORKER_PATH = '/api/inference-servers/register';

/** Body of `POST {SERVICE_URL}/api/inference-servers/register` (bearer: the registration token). */
export interface RegisterWorkerRequest {
  name: string;
  /** Public URL of the worker. */
  url: string;
  /** INFERENCE_AUTH_TOKEN of the worker, or null for an open worker. */
  authToken: string | null;
}

/** Error codes of the model store in `WorkerError.data[field].code`. */
export type ModelStoreErrorCode =
  'dest_path_mismatch' | 'unsafe_path' | 'duplicate_target' | 'pull_conflict' | 'model_in_use';

/** Fields of `POST /transcribe` besides the audio (multipart/form-data field `file`, or `audio`). */
export interface TranscribeRequest {
  /**
   * Recogniser to use. Default: the backend of `model_path`; else a transcription model already loaded (Whisper);
   * else the first installed embedded recogniser (PocketSphinx).
   */
  backend?: string | null;
  /** Model folder `<backend>/<variant>` (Whisper), relative to the models directory. */
  model_path?: string | null;
  /** Spoken language (ISO 639-1 or BCP 47); omitted → detected (Whisper) or the engine's only one. */
  language?: string | null;
}

/** `POST /transcribe` as the worker answers it: the contract's `{text, language}` plus details. */
export interface TranscribeResult extends TranscribeResponse {
  /** Seconds of audio recognised. */
  duration: number;
  backend: string;
  /** Model key used: `<backend>/<variant>`, or the backend name for embedded engines. */
  model_path: string;
}

/** Error codes of `POST /transcribe` in `WorkerError.data[field].code` (field `file` for the audio). */
export type TranscribeErrorCode =
  | 'unsupported_audio'
  | 'invalid_audio'
  | 'audio_too_long'
  | 'file_too_large'
  | 'unexpected_file'
  | 'no_transcription_backend'
  | 'backend_not_installed'
  | 'model_not_installed';
