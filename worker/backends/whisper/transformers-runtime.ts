import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The part of transformers.js (`@huggingface/transformers` v4) the Whisper backend uses, typed structurally so
 * tests can hand in a synthetic module: the real weights cannot be downloaded in the test environment.
 */
export interface TransformersModule {
  env: TransformersEnv;
  pipeline(
    task: 'automatic-speech-recognition',
    model: string,
    options: PipelineOptions,
  ): Promise<AsrPipeline>;
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;
}

export interface TransformersEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  cacheDir: string | null;
  useFSCache: boolean;
  useBrowserCache: boolean;
  remoteHost: string;
  remotePathTemplate: string;
}

export type WhisperDevice = 'cpu' | 'cuda';

/** ONNX variants transformers.js knows, by the suffix of the file name (`encoder_model_quantized.onnx` = q8). */
export type OnnxDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'q4f16' | 'bnb4';

export interface PipelineOptions {
  device: WhisperDevice;
  dtype: Record<string, OnnxDtype>;
  local_files_only: true;
}

export interface AsrOptions {
  language?: string;
  task?: 'transcribe';
  chunk_length_s: number;
  stride_length_s: number;
  return_timestamps: false;
}

/** The callable ASR pipeline, with the pieces language detection needs. */
export interface AsrPipeline {
  (audio: Float32Array, options: AsrOptions): Promise<{ text: string } | { text: string }[]>;
  processor(audio: Float32Array): Promise<{ input_features: unknown }>;
  model: WhisperModel;
  dispose(): Promise<void>;
}

export interface WhisperModel {
  (inputs: { input_features: unknown; decoder_input_ids: unknown }): Promise<{ logits: LogitsTensor }>;
  generation_config?: WhisperGenerationConfig | null;
}

export interface LogitsTensor {
  data: ArrayLike<number>;
  dims: readonly number[];
}

/** From a Whisper repository's `generation_config.json`. */
export interface WhisperGenerationConfig {
  is_multilingual?: boolean;
  /** `<|en|>` → token id. */
  lang_to_id?: Record<string, number>;
  decoder_start_token_id?: number;
}

/**
 * transformers.js, loaded on first use (it brings onnxruntime-node's native library): `require` resolves its
 * CommonJS build, which works in the compiled worker and under Jest alike.
 */
export function loadTransformers(): Promise<TransformersModule> {
  const load = createRequire(__filename);
  return Promise.resolve(load('@huggingface/transformers') as TransformersModule);
}

/** Whether transformers.js can be found (it is a dependency of the worker itself). */
export function transformersInstalled(): boolean {
  try {
    createRequire(__filename).resolve('@huggingface/transformers');
    return true;
  } catch {
    return false;
  }
}

export interface TransformersEnvSettings {
  /** The models directory: model ids such as `whisper/base` are folders below it. */
  modelsPath: string;
  /** Hub endpoint (HF_ENDPOINT), only for completeness: remote loading is off. */
  hubEndpoint: string;
}

/**
 * Points transformers.js at the model store and nowhere else: models come only from the models directory
 * (installed by `/models/pull`), never from the hub at run time; its cache, if it ever writes one, lives in a
 * hidden folder of the models directory (store-owned names start with a dot), never inside node_modules.
 */
export function configureTransformersEnv(env: TransformersEnv, settings: TransformersEnvSettings): void {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = withSlash(settings.modelsPath);
  env.cacheDir = withSlash(join(settings.modelsPath, '.cache', 'transformers'));
  env.useFSCache = true;
  env.useBrowserCache = false;
  env.remoteHost = withSlash(settings.hubEndpoint);
  env.remotePathTemplate = '{model}/resolve/{revision}/';
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

const DTYPE_SUFFIXES: Readonly<Record<string, OnnxDtype>> = {
  '': 'fp32',
  _fp16: 'fp16',
  _quantized: 'q8',
  _int8: 'int8',
  _uint8: 'uint8',
  _q4: 'q4',
  _q4f16: 'q4f16',
  _bnb4: 'bnb4',
};

/**
 * Preference when a model folder holds several variants of a component: full precision first (the small
 * Whisper models lose noticeably to quantisation), then 8-bit, then 4-bit; fp16 is slow on CPU, so it comes
 * early only on CUDA.
 */
const DTYPE_PREFERENCE: Readonly<Record<WhisperDevice, readonly OnnxDtype[]>> = {
  cpu: ['fp32', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'fp16', 'q4f16'],
  cuda: ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4f16', 'q4', 'bnb4'],
};

/** The ONNX components of a Whisper export transformers.js loads. */
export const WHISPER_COMPONENTS = ['encoder_model', 'decoder_model_merged'] as const;

/**
 * The dtype to load for each component, from the `.onnx` files present (names of `onnx/`), or the missing
 * components.
 */
export function chooseDtypes(
  onnxFiles: readonly string[],
  device: WhisperDevice,
): { dtype: Record<string, OnnxDtype>; files: string[] } | { missing: string[] } {
  const dtype: Record<string, OnnxDtype> = {};
  const files: string[] = [];
  const missing: string[] = [];
  for (const component of WHISPER_COMPONENTS) {
    const available = new Map<OnnxDtype, string>();
    for (const file of onnxFiles) {
      const match = new RegExp(`^${component}(_[a-z0-9]+)?\\.onnx$`).exec(file);
      const kind = match ? DTYPE_SUFFIXES[match[1] ?? ''] : undefined;
      if (kind) {
        available.set(kind, file);
      }
    }
    const chosen = DTYPE_PREFERENCE[device].find((kind) => available.has(kind));
    if (!chosen) {
      missing.push(`onnx/${component}*.onnx`);
      continue;
    }
    dtype[component] = chosen;
    files.push(available.get(chosen)!);
  }
  return missing.length > 0 ? { missing } : { dtype, files };
}

/** Whisper's language token (`<|de|>`) → code (`de`). */
export function languageOfToken(token: string): string | undefined {
  return /^<\|([a-z]{2,3})\|>$/.exec(token)?.[1];
}

/**
 * Spoken language of the audio, Whisper's way: one decoder step after `<|startoftranscript|>` on the first 30
 * seconds, and the most likely language token. Undefined for English-only models.
 */
export async function detectLanguage(
  pipe: AsrPipeline,
  Tensor: TransformersModule['Tensor'],
  audio: Float32Array,
  sampleRate: number,
): Promise<string | undefined> {
  const config = pipe.model.generation_config;
  const languages = config?.lang_to_id;
  if (!config?.is_multilingual || !languages || config.decoder_start_token_id === undefined) {
    return undefined;
  }
  const { input_features } = await pipe.processor(audio.subarray(0, 30 * sampleRate));
  const start = new Tensor('int64', BigInt64Array.from([BigInt(config.decoder_start_token_id)]), [1, 1]);
  const { logits } = await pipe.model({ input_features, decoder_input_ids: start });
  const vocabulary = logits.dims[logits.dims.length - 1];
  const offset = logits.data.length - vocabulary; // the last position's scores
  let best: { code: string; score: number } | undefined;
  for (const [token, id] of Object.entries(languages)) {
    const code = languageOfToken(token);
    const score = logits.data[offset + id];
    if (code && score !== undefined && (!best || score > best.score)) {
      best = { code, score };
    }
  }
  return best?.code;
}
