import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

import { downmixInterleaved, resample } from '../../audio/resample';
import { ApiError } from '../../common/api-error';
import type { BackendDependencyState, GenerateRequest, TranscribeResponse } from '../../contract/worker-api';
import { parseModelPath } from '../../models/model-paths';
import type { SynthesisStream, TranscriptionRequest, TtsBackend } from '../backend.interface';
import {
  chooseDtypes,
  configureTransformersEnv,
  detectLanguage,
  type AsrOptions,
  type AsrPipeline,
  type TransformersModule,
  type WhisperDevice,
} from './transformers-runtime';

export const WHISPER_OPTIONS = Symbol('WHISPER_OPTIONS');

export interface WhisperOptions {
  /** The models directory (`INFERENCE_MODELS_PATH`). */
  modelsPath: string;
  /** `HF_ENDPOINT`, configured into transformers.js for completeness (remote loading is off). */
  hubEndpoint: string;
  /** The effective inference device, asked at each load. */
  device: () => WhisperDevice;
  /** transformers.js, or a stand-in with the same shape (tests). */
  loadTransformers: () => Promise<TransformersModule>;
  /** Whether transformers.js is present (for `/backends`). */
  transformersInstalled: () => boolean;
}

/** Rate of Whisper's feature extractor. */
const SAMPLE_RATE = 16_000;
/** Whisper's window: long audio is cut into 30-second chunks (with 5 s overlap stitched by transformers.js). */
const CHUNK_SECONDS = 30;
const STRIDE_SECONDS = 5;

interface LoadedWhisper {
  pipe: AsrPipeline;
  Tensor: TransformersModule['Tensor'];
  multilingual: boolean;
  /** `de` → true for every language token of the model. */
  languages: ReadonlySet<string>;
  bytes: number;
}

/**
 * OpenAI Whisper through transformers.js (ONNX Runtime): `model_path` `whisper/<variant>` is a folder of the
 * models directory holding a Hugging Face export such as `onnx-community/whisper-base` (config.json, tokenizer
 * files, preprocessor_config.json, generation_config.json, onnx/encoder_model*.onnx,
 * onnx/decoder_model_merged*.onnx). Runs on CUDA when the worker's effective device is CUDA, else on CPU.
 *
 * The spoken language is detected (multilingual models) from the first 30 seconds unless the request names it,
 * and returned; audio longer than 30 seconds is transcribed in overlapping 30-second chunks.
 */
@Injectable()
export class WhisperBackend implements TtsBackend, OnModuleDestroy {
  readonly name = 'whisper';
  readonly displayName = 'Whisper';
  readonly description =
    'OpenAI Whisper speech recognition (ONNX, transformers.js): 99 languages with language detection, CPU or CUDA.';
  readonly capabilities = { preset: false, cloning: false, transcription: true, streaming: false } as const;
  readonly embedded = false;
  /** One transcription per model at a time: ONNX Runtime already spreads one run over the cores. */
  readonly concurrencyPerModel = 1;

  private readonly logger = new Logger(WhisperBackend.name);
  private readonly models = new Map<string, LoadedWhisper>();
  private transformers?: Promise<TransformersModule>;

  constructor(@Inject(WHISPER_OPTIONS) private readonly options: WhisperOptions) {}

  dependencies(): Promise<BackendDependencyState> {
    return Promise.resolve(
      this.options.transformersInstalled()
        ? { installed: true, packages: [], detail: '@huggingface/transformers ships with the worker' }
        : { installed: false, packages: [], detail: '@huggingface/transformers is missing from the worker' },
    );
  }

  resolveModelPath(request: Pick<GenerateRequest, 'model_path'>): string {
    const value = request.model_path;
    if (!value) {
      throw ApiError.invalidField(
        'model_path',
        'validation_required',
        'model_path is required for whisper: an installed model folder such as whisper/base.',
      );
    }
    const ref = parseModelPath(value);
    if (!ref || ref.backend !== this.name) {
      throw ApiError.invalidField(
        'model_path',
        'validation_match_invalid',
        `model_path must be whisper/<variant> (got "${value}").`,
      );
    }
    if (!existsSync(join(this.options.modelsPath, value, 'config.json'))) {
      throw ApiError.invalidField(
        'model_path',
        'model_not_installed',
        `The model ${value} is not installed on this worker; pull it first.`,
      );
    }
    return value;
  }

  async load(modelPath: string): Promise<void> {
    if (this.models.has(modelPath)) {
      return;
    }
    const folder = join(this.options.modelsPath, modelPath);
    const device = this.options.device();
    const onnxFiles = await readdir(join(folder, 'onnx')).catch(() => [] as string[]);
    const choice = chooseDtypes(onnxFiles, device);
    if ('missing' in choice) {
      throw ApiError.invalidField(
        'model_path',
        'model_not_installed',
        `The model ${modelPath} is incomplete (no ${choice.missing.join(', ')}); pull it again.`,
      );
    }
    const transformers = await this.loadTransformers();
    const pipe = await transformers.pipeline('automatic-speech-recognition', modelPath, {
      device,
      dtype: choice.dtype,
      local_files_only: true,
    });
    const config = pipe.model.generation_config ?? {};
    const languages = new Set(
      Object.keys(config.lang_to_id ?? {})
        .map((token) => /^<\|([a-z]{2,3})\|>$/.exec(token)?.[1])
        .filter((code): code is string => code !== undefined),
    );
    let bytes = 0;
    for (const file of choice.files) {
      bytes += (await stat(join(folder, 'onnx', file)).catch(() => ({ size: 0 }))).size;
    }
    this.models.set(modelPath, {
      pipe,
      Tensor: transformers.Tensor,
      multilingual: config.is_multilingual === true && languages.size > 0,
      languages,
      bytes,
    });
    this.logger.log({ modelPath, device, dtype: choice.dtype, bytes }, `Whisper model ${modelPath} ready`);
  }

  async unload(modelPath: string): Promise<void> {
    const model = this.models.get(modelPath);
    this.models.delete(modelPath);
    await model?.pipe.dispose();
  }

  /** The ONNX weights' size: what ONNX Runtime keeps resident (activations come on top while running). */
  memoryBytes(modelPath: string): number {
    return this.models.get(modelPath)?.bytes ?? 0;
  }

  synthesize(): Promise<SynthesisStream> {
    return Promise.reject(
      ApiError.invalidField(
        'backend',
        'capability_not_supported',
        'whisper recognises speech; it does not speak.',
      ),
    );
  }

  async transcribe(request: TranscriptionRequest, signal: AbortSignal): Promise<TranscribeResponse> {
    const model = this.models.get(request.modelPath);
    if (!model) {
      throw new Error(`whisper model ${request.modelPath} is not loaded`);
    }
    const requested = this.requestedLanguage(model, request.language);
    const audio = toWhisperInput(request.audio);
    signal.throwIfAborted();
    const language = model.multilingual
      ? (requested ?? (await detectLanguage(model.pipe, model.Tensor, audio, SAMPLE_RATE)) ?? 'en')
      : 'en';
    signal.throwIfAborted();
    const options: AsrOptions = {
      chunk_length_s: CHUNK_SECONDS,
      stride_length_s: STRIDE_SECONDS,
      return_timestamps: false,
      ...(model.multilingual ? { language, task: 'transcribe' as const } : {}),
    };
    const output = await model.pipe(audio, options);
    const text = (Array.isArray(output) ? output.map((part) => part.text).join(' ') : output.text).trim();
    return { text, language };
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.models.keys()].map((modelPath) => this.unload(modelPath)));
  }

  /** The request's language as a Whisper code, or undefined to detect it. */
  private requestedLanguage(model: LoadedWhisper, language: string | null): string | undefined {
    if (!language) {
      return undefined;
    }
    const code = language.toLowerCase().split(/[-_]/)[0];
    if (!model.multilingual) {
      if (code !== 'en') {
        throw ApiError.invalidField(
          'language',
          'unsupported_language',
          `This Whisper model only recognises English; use a multilingual variant for "${language}".`,
        );
      }
      return 'en';
    }
    if (!model.languages.has(code)) {
      throw ApiError.invalidField(
        'language',
        'unsupported_language',
        `Whisper does not recognise "${language}".`,
      );
    }
    return code;
  }

  private loadTransformers(): Promise<TransformersModule> {
    this.transformers ??= this.options.loadTransformers().then((module) => {
      configureTransformersEnv(module.env, {
        modelsPath: this.options.modelsPath,
        hubEndpoint: this.options.hubEndpoint,
      });
      return module;
    });
    this.transformers.catch(() => (this.transformers = undefined));
    return this.transformers;
  }
}

/** 16 kHz mono floats (uploads are already decoded to that). */
function toWhisperInput(audio: TranscriptionRequest['audio']): Float32Array {
  const mono = downmixInterleaved(audio.samples, audio.channels);
  return audio.sampleRate === SAMPLE_RATE ? mono : resample(mono, audio.sampleRate, SAMPLE_RATE);
}
