import { readdirSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

import { ApiError } from '../../common/api-error';
import { WORKER_CONFIG } from '../../config/config.module';
import type { WorkerConfig } from '../../config/worker-config';
import type { BackendDependencyState } from '../../contract/worker-api';
import { parseModelPath } from '../../models/model-paths';
import { DeviceService } from '../../runtime/device.service';
import { mapWithReadAhead } from '../../runtime/read-ahead';
import type { SynthesisRequest, SynthesisStream, TtsBackend } from '../backend.interface';
import { defaultEspeakOptions } from '../espeak/espeak.backend';
import { EspeakPhonemizer } from '../espeak/espeak-phonemizer';
import { EspeakStoppedError, EspeakThreadPool } from '../espeak/espeak-thread-pool';
import { parsePiperConfig, type PiperVoiceConfig } from './piper-config';
import { PiperModelThread, PiperStoppedError } from './piper-model-thread';
import { phonemeIds, phonemeSentences, textPhonemes } from './piper-phonemes';
import type { PiperProvider } from './piper-protocol';
import { checkLanguage, resolveSpeaker } from './piper-voice-select';

export const PIPER_OPTIONS = Symbol('PIPER_OPTIONS');

export interface PiperBackendOptions {
  /** ONNX Runtime threads per model (intra-op parallelism of one inference). */
  intraOpNumThreads: number;
  /** Compiled model thread entry (`piper.thread.js`). */
  threadEntry: string;
  /** Entry of `onnxruntime-node`, resolved here and loaded by the model threads. */
  ortPath: string;
  /** The espeak engine thread used for phonemes (shared by every loaded Piper voice). */
  phonemizer: { threadEntry: string; packageUrl: string };
  /** Longest a model may take to load. */
  loadTimeoutMs: number;
}

/**
 * Up to four ONNX Runtime threads per model: Piper's VITS decoder scales well to about four cores and hardly
 * beyond, and a worker usually has a second model or request to run on the rest.
 */
export function defaultPiperOptions(): PiperBackendOptions {
  const espeak = defaultEspeakOptions();
  return {
    intraOpNumThreads: Math.max(1, Math.min(4, availableParallelism())),
    threadEntry: join(__dirname, 'piper.thread.js'),
    ortPath: require.resolve('onnxruntime-node'),
    phonemizer: { threadEntry: espeak.threadEntry, packageUrl: espeak.packageUrl },
    loadTimeoutMs: 120_000,
  };
}

const MODEL_SUFFIX = '.onnx';
const CONFIG_SUFFIX = '.onnx.json';

/** Sentences phonemized and synthesised ahead of the one being sent. */
const READ_AHEAD = 1;

/** Short text phonemized at load: checks the espeak voice exists and warms the phonemizer up. */
const PHONEMIZER_WARM_UP = 'Hello, world. 42!';

/**
 * ONNX Runtime's resident memory for a loaded Piper voice, relative to the `.onnx` file: weights plus the
 * arena that sentence-sized inputs grow (measured at about 1.7× after loading and 3.8× after a few sentences
 * for `en_US-joe-medium`).
 */
const MEMORY_PER_MODEL_BYTE = 3;

interface VoiceFiles {
  dir: string;
  model: string;
  config: string;
}

interface LoadedVoice {
  config: PiperVoiceConfig;
  thread: PiperModelThread;
  modelBytes: number;
  provider: PiperProvider;
}

/**
 * Piper: fast, natural neural voices (VITS exported to ONNX) from `rhasspy/piper-voices`, run with
 * onnxruntime-node.
 *
 * Per sentence of the request: espeak-ng phonemes (in an espeak engine thread, with clause punctuation kept, as
 * Piper does), ids from the voice's `phoneme_id_map`, one inference in the model's own thread (ONNX Runtime
 * blocks the thread it runs on), 16-bit PCM normalised per sentence like Piper's output.
 *
 * Voices: `voice_path` selects a speaker of a multi-speaker voice, by `speaker_id_map` name or number, bare or as
 * `piper/<variant>/<speaker>`; single-speaker voices have one speaker and ignore it. A `language` other than the
 * voice's is refused (400), since a Piper voice speaks exactly one language.
 */
@Injectable()
export class PiperBackend implements TtsBackend, OnModuleDestroy {
  readonly name = 'piper';
  readonly displayName = 'Piper';
  readonly description =
    'Fast neural text-to-speech (VITS voices from rhasspy/piper-voices) running on ONNX Runtime; real time on a CPU.';
  readonly capabilities = { preset: true, cloning: false, transcription: false, streaming: true } as const;
  readonly embedded = false;
  /**
   * Two requests per voice: their sentences interleave in the model thread's queue, so a second listener hears
   * its first sentence after one sentence of the first request rather than after all of it. Inference itself
   * runs one at a time per model (a run already uses the model's ONNX Runtime threads); more requests at once
   * would only lengthen every stream, so they wait in the runtime's queue.
   */
  readonly concurrencyPerModel = 2;

  private readonly logger = new Logger(PiperBackend.name);
  private readonly voices = new Map<string, LoadedVoice>();
  private phonemizer?: { pool: EspeakThreadPool; phonemizer: EspeakPhonemizer; starting: Promise<void> };
  private readonly modelsRoot: string;
  /** Loads in progress: the shared phonemizer must not stop under them. */
  private loading = 0;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerConfig,
    private readonly device: DeviceService,
    @Inject(PIPER_OPTIONS) private readonly options: PiperBackendOptions,
  ) {
    this.modelsRoot = config.inference.modelsPath;
  }

  dependencies(): Promise<BackendDependencyState> {
    // onnxruntime-node ships with the worker; the espeak phonemizer is embedded.
    return Promise.resolve({ installed: true, packages: [] });
  }

  resolveModelPath(request: { model_path?: string | null }): string {
    const modelPath = request.model_path?.trim();
    if (!modelPath) {
      throw ApiError.invalidField(
        'model_path',
        'validation_required',
        'Piper needs model_path: the installed voice folder, e.g. piper/en_US-joe-medium.',
      );
    }
    const ref = parseModelPath(modelPath);
    if (!ref || ref.backend !== this.name) {
      throw ApiError.invalidField(
        'model_path',
        'validation_match_invalid',
        `"${modelPath}" is not a Piper model path; expected piper/<variant>, e.g. piper/en_US-joe-medium.`,
      );
    }
    if (!this.voiceFiles(modelPath)) {
      throw ApiError.notFound(`The Piper voice ${modelPath} is not installed on this worker; pull it first.`);
    }
    return modelPath;
  }

  async load(modelPath: string): Promise<void> {
    if (this.voices.has(modelPath)) {
      return;
    }
    this.loading++;
    try {
      await this.loadVoice(modelPath);
    } finally {
      this.loading--;
      if (!this.voices.has(modelPath)) {
        await this.stopPhonemizerIfIdle(); // the load failed: do not keep the phonemizer for nothing
      }
    }
  }

  private async loadVoice(modelPath: string): Promise<void> {
    const files = this.voiceFiles(modelPath);
    if (!files) {
      throw new Error(`the Piper voice ${modelPath} is not installed (no .onnx and .onnx.json)`);
    }
    let config: PiperVoiceConfig;
    try {
      config = parsePiperConfig(JSON.parse(await readFile(files.config, 'utf8')));
    } catch (error) {
      throw new Error(`${modelPath}: ${error instanceof Error ? error.message : String(error)}`);
    }

    if (config.phonemeType === 'espeak') {
      const phonemizer = await this.startPhonemizer();
      try {
        await phonemizer.phonemize(config.espeakVoice, PHONEMIZER_WARM_UP);
      } catch (error) {
        throw new Error(
          `${modelPath}: espeak-ng cannot phonemize for voice "${config.espeakVoice}": ${String(error)}`,
        );
      }
    }

    const wantCuda = this.device.state().effective === 'cuda';
    const warmUp = phonemeIds([], config.phonemeIdMap).ids;
    let thread: PiperModelThread;
    try {
      thread = await PiperModelThread.start(
        this.options.threadEntry,
        {
          ortPath: this.options.ortPath,
          modelFile: files.model,
          providers: wantCuda ? ['cuda', 'cpu'] : ['cpu'],
          intraOpNumThreads: this.options.intraOpNumThreads,
          warmUpIds: warmUp,
          warmUpSpeakerId: config.numSpeakers > 1 ? config.defaultSpeakerId : null,
        },
        this.options.loadTimeoutMs,
      );
    } catch (error) {
      throw error instanceof Error ? new Error(`${modelPath}: ${error.message}`) : error;
    }
    if (wantCuda && thread.info.cudaError) {
      this.logger.warn(
        { modelPath, reason: thread.info.cudaError },
        'ONNX Runtime could not use CUDA; the Piper voice runs on CPU',
      );
      this.device.fallBackToCpu(`ONNX Runtime's CUDA provider failed (${thread.info.cudaError})`);
    }
    this.voices.set(modelPath, {
      config,
      thread,
      modelBytes: statSync(files.model).size,
      provider: thread.info.provider,
    });
    this.logger.log(
      {
        modelPath,
        provider: thread.info.provider,
        sampleRate: config.sampleRate,
        speakers: config.numSpeakers,
        loadMs: Math.round(thread.info.loadMs),
      },
      'Piper voice loaded',
    );
  }

  async unload(modelPath: string): Promise<void> {
    const voice = this.voices.get(modelPath);
    if (!voice) {
      return;
    }
    this.voices.delete(modelPath);
    await voice.thread.stop();
    await this.stopPhonemizerIfIdle();
  }

  memoryBytes(modelPath: string): number {
    const voice = this.voices.get(modelPath);
    if (!voice) {
      return 0;
    }
    // The phonemizer thread is shared: each loaded voice carries an equal part of it.
    const phonemizerBytes = this.phonemizer ? this.phonemizer.pool.heapBytes + this.espeakDataBytes() : 0;
    return voice.modelBytes * MEMORY_PER_MODEL_BYTE + Math.round(phonemizerBytes / this.voices.size);
  }

  synthesize(request: SynthesisRequest, signal: AbortSignal): Promise<SynthesisStream> {
    // Everything below is synchronous; the executor turns a thrown ApiError into a rejection.
    return new Promise((resolve) => resolve(this.prepare(request, signal)));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.voices.keys()].map((modelPath) => this.unload(modelPath)));
    await this.phonemizer?.pool.stop();
    this.phonemizer = undefined;
  }

  /** Loaded voice's config (tests and diagnostics). */
  voiceConfig(modelPath: string): PiperVoiceConfig | undefined {
    return this.voices.get(modelPath)?.config;
  }

  /** Input ids of each sentence Piper would synthesise for `text` with a loaded voice (parity checks). */
  async inputIds(modelPath: string, text: string, signal?: AbortSignal): Promise<number[][]> {
    const voice = this.requireVoice(modelPath);
    return (await this.sentencePhonemes(voice.config, text, signal)).map(
      (phonemes) => phonemeIds(phonemes, voice.config.phonemeIdMap).ids,
    );
  }

  private prepare(request: SynthesisRequest, signal: AbortSignal): SynthesisStream {
    const voice = this.requireVoice(request.modelPath);
    const { config, thread } = voice;
    checkLanguage(config, request.modelPath, request.language);
    const speakerId = resolveSpeaker(config, request.modelPath, request.voice);
    const scales: [number, number, number] = [
      config.noiseScale,
      config.lengthScale / request.speed,
      config.noiseW,
    ];
    const chunks = mapWithReadAhead(
      request.sentences,
      READ_AHEAD,
      async (text, taskSignal) => {
        try {
          const sentences = (await this.sentencePhonemes(config, text, taskSignal)).map((phonemes) => {
            const { ids, missing } = phonemeIds(phonemes, config.phonemeIdMap);
            if (missing.length > 0) {
              this.logger.debug({ modelPath: request.modelPath, missing }, 'Phonemes missing from the voice');
            }
            return ids;
          });
          if (sentences.length === 0) {
            return new Int16Array(0);
          }
          return await thread.synthesize({ sentences, scales, speakerId }, taskSignal);
        } catch (error) {
          throw error instanceof PiperStoppedError || error instanceof EspeakStoppedError
            ? ApiError.serviceUnavailable('The voice was unloaded or the worker is shutting down; retry.', 2)
            : error;
        }
      },
      signal,
    );
    return { sampleRate: config.sampleRate, chunks };
  }

  private async sentencePhonemes(
    config: PiperVoiceConfig,
    text: string,
    signal?: AbortSignal,
  ): Promise<string[][]> {
    if (config.phonemeType === 'text') {
      const phonemes = textPhonemes(text);
      return phonemes.length > 0 ? [phonemes] : [];
    }
    const phonemizer = this.phonemizer;
    if (!phonemizer) {
      throw new EspeakStoppedError();
    }
    const result = await phonemizer.phonemizer.phonemize(config.espeakVoice, text, signal);
    if (!result.exact) {
      this.logger.debug({ text }, 'espeak clause boundaries differed from the terminator reading');
    }
    return phonemeSentences(result.clauses, config.vowelClusters);
  }

  /** The voice's files when `modelPath`'s folder (inside the models directory) holds a model and its config. */
  private voiceFiles(modelPath: string): VoiceFiles | undefined {
    let dir: string;
    let entries: string[];
    try {
      const root = realpathSync(this.modelsRoot);
      dir = realpathSync(join(this.modelsRoot, modelPath));
      if (!dir.startsWith(`${root}/`)) {
        return undefined; // a symlink out of the models directory
      }
      entries = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile());
    } catch {
      return undefined;
    }
    const models = entries.filter((name) => name.endsWith(MODEL_SUFFIX));
    const configs = entries.filter((name) => name.endsWith(CONFIG_SUFFIX));
    if (models.length === 0 || configs.length === 0) {
      return undefined;
    }
    // The config that belongs to the model (`x.onnx` + `x.onnx.json`), else the only one of each.
    const paired = models.find((model) => configs.includes(`${model}.json`));
    const model = paired ?? (models.length === 1 ? models[0] : undefined);
    const config = paired ? `${paired}.json` : configs.length === 1 ? configs[0] : undefined;
    if (!model || !config) {
      return undefined;
    }
    return { dir, model: join(dir, model), config: join(dir, config) };
  }

  private requireVoice(modelPath: string): LoadedVoice {
    const voice = this.voices.get(modelPath);
    if (!voice) {
      // The runtime loads a model before using it; reaching this is a bug, not a client error.
      throw new Error(`the Piper voice ${modelPath} is not loaded`);
    }
    return voice;
  }

  private async startPhonemizer(): Promise<EspeakPhonemizer> {
    if (!this.phonemizer) {
      const pool = new EspeakThreadPool({
        size: 1,
        entry: this.options.phonemizer.threadEntry,
        packageUrl: this.options.phonemizer.packageUrl,
        log: {
          warn: (message, context) => this.logger.warn(context ?? {}, message),
          error: (message, context) => this.logger.error(context ?? {}, message),
        },
      });
      const starting = pool.start().then(() => undefined);
      this.phonemizer = { pool, phonemizer: new EspeakPhonemizer(pool), starting };
      starting.catch(() => {
        if (this.phonemizer?.pool === pool) {
          this.phonemizer = undefined;
        }
      });
    }
    await this.phonemizer.starting;
    return this.phonemizer.phonemizer;
  }

  private async stopPhonemizerIfIdle(): Promise<void> {
    const phonemizer = this.phonemizer;
    if (
      !phonemizer ||
      this.loading > 0 ||
      [...this.voices.values()].some((voice) => voice.config.phonemeType === 'espeak')
    ) {
      return;
    }
    this.phonemizer = undefined;
    await phonemizer.pool.stop();
  }

  private espeakDataBytes(): number {
    try {
      return statSync(join(dirname(fileURLToPath(this.options.phonemizer.packageUrl)), 'espeak-ng.data'))
        .size;
    } catch {
      return 0;
    }
  }
}
