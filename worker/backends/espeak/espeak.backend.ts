import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

import { ApiError } from '../../common/api-error';
import type { BackendDependencyState, BackendVoice } from '../../contract/worker-api';
import { mapWithReadAhead } from '../../runtime/read-ahead';
import type { SynthesisRequest, SynthesisStream, TtsBackend } from '../backend.interface';
import {
  ESPEAK_DEFAULT_RATE,
  ESPEAK_MAX_RATE,
  ESPEAK_MIN_RATE,
  type EspeakSynthesisTask,
} from './espeak-protocol';
import { EspeakStoppedError, EspeakThreadPool } from './espeak-thread-pool';
import { DEFAULT_ESPEAK_VOICE, EspeakVoiceIndex } from './espeak-voices';

export const ESPEAK_OPTIONS = Symbol('ESPEAK_OPTIONS');

export interface EspeakBackendOptions {
  /** Engine threads (see {@link defaultEspeakOptions} for the choice). */
  threads: number;
  /** Compiled thread entry. */
  threadEntry: string;
  /** file: URL of the espeak-ng emscripten module. */
  packageUrl: string;
}

/**
 * Two threads, or one on a single-core machine. espeak synthesises several hundred times faster than real time
 * on one core, so one thread already serves dozens of real-time streams; the second keeps audio flowing while the
 * first is busy with a long sentence and uses a second core under load. More threads would only add memory
 * (about 40 MB each: the WebAssembly heap plus the 24 MB voice data every thread loads).
 */
export function defaultEspeakOptions(): EspeakBackendOptions {
  return {
    threads: Math.min(2, availableParallelism()),
    threadEntry: join(__dirname, 'espeak.thread.js'),
    packageUrl: pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href,
  };
}

/** The speed of a request as espeak's rate (words per minute) and the tempo change espeak cannot do itself. */
export function espeakRate(speed: number): { rate: number; tempo: number } {
  const target = ESPEAK_DEFAULT_RATE * speed;
  const rate = Math.min(ESPEAK_MAX_RATE, Math.max(ESPEAK_MIN_RATE, Math.round(target)));
  return { rate, tempo: target / rate };
}

/** Sentences synthesised ahead of the one being sent: the engine works while the network writes. */
const READ_AHEAD = 1;

/**
 * eSpeak NG, embedded: 100+ languages with no download, formant synthesis (intelligible, robotic). It is the
 * worker's always-available engine: a fresh install can speak before any model is pulled.
 *
 * The engine runs in worker threads ({@link EspeakThreadPool}) so the event loop — and `/health` — never wait
 * on synthesis.
 */
@Injectable()
export class EspeakBackend implements TtsBackend, OnModuleDestroy {
  readonly name = 'espeak';
  readonly displayName = 'eSpeak NG';
  readonly description =
    'Formant speech synthesizer embedded in the worker: over 100 languages, no download, instant on CPU.';
  readonly capabilities = { preset: true, cloning: false, transcription: false, streaming: true } as const;
  readonly embedded = true;
  /** Requests sharing the engine at once; their sentences interleave in the thread pool's queue. */
  readonly concurrencyPerModel = 8;

  private readonly logger = new Logger(EspeakBackend.name);
  private engine?: { pool: EspeakThreadPool; voices: EspeakVoiceIndex; sampleRate: number };
  private dataBytes?: number;

  constructor(@Inject(ESPEAK_OPTIONS) private readonly options: EspeakBackendOptions) {}

  dependencies(): Promise<BackendDependencyState> {
    return Promise.resolve({ installed: true, packages: [] });
  }

  /** espeak has one built-in "model": the engine itself. */
  resolveModelPath(): string {
    return this.name;
  }

  async load(): Promise<void> {
    if (this.engine) {
      return;
    }
    const pool = new EspeakThreadPool({
      size: this.options.threads,
      entry: this.options.threadEntry,
      packageUrl: this.options.packageUrl,
      log: {
        warn: (message, context) => this.logger.warn(context ?? {}, message),
        error: (message, context) => this.logger.error(context ?? {}, message),
      },
    });
    const info = await pool.start();
    this.engine = {
      pool,
      voices: new EspeakVoiceIndex(info.voices, info.variants),
      sampleRate: info.sampleRate,
    };
  }

  async unload(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    await engine?.pool.stop();
  }

  memoryBytes(): number {
    if (!this.engine) {
      return 0;
    }
    const { threads } = this.engine.pool.stats();
    return this.engine.pool.heapBytes + threads * this.voiceDataBytes();
  }

  synthesize(request: SynthesisRequest, signal: AbortSignal): Promise<SynthesisStream> {
    // Everything below is synchronous; the executor turns a thrown ApiError (unknown voice) into a rejection.
    return new Promise((resolve) => resolve(this.prepare(request, signal)));
  }

  private prepare(request: SynthesisRequest, signal: AbortSignal): SynthesisStream {
    const engine = this.requireEngine();
    const voice = this.resolveVoice(engine.voices, request);
    const { rate, tempo } = espeakRate(request.speed);
    const pool = engine.pool;
    const chunks = mapWithReadAhead(
      request.sentences,
      READ_AHEAD,
      (text, taskSignal) =>
        pool
          .run({ voice, rate, tempo, text } satisfies EspeakSynthesisTask, taskSignal)
          .catch((error: unknown) => {
            throw error instanceof EspeakStoppedError
              ? ApiError.serviceUnavailable('The worker is shutting down; retry on another worker.', 2)
              : error;
          }),
      signal,
    );
    return { sampleRate: engine.sampleRate, chunks };
  }

  listVoices(): Promise<BackendVoice[]> {
    return Promise.resolve(this.requireEngine().voices.list());
  }

  async onModuleDestroy(): Promise<void> {
    await this.unload();
  }

  private resolveVoice(voices: EspeakVoiceIndex, request: SynthesisRequest): string {
    if (request.voice) {
      const voice = voices.resolveVoice(request.voice);
      if (!voice) {
        throw ApiError.invalidField(
          'voice_path',
          'unknown_voice',
          `espeak has no voice "${request.voice}". Use a voice or language name such as en-us, de or fr ` +
            '(optionally with a variant, e.g. en-us+f3); GET /backends/espeak/voices lists them.',
        );
      }
      return voice;
    }
    if (request.language) {
      const voice = voices.resolveLanguage(request.language);
      if (!voice) {
        throw ApiError.invalidField(
          'language',
          'unsupported_language',
          `espeak does not speak "${request.language}"; GET /backends/espeak/voices lists its languages.`,
        );
      }
      return voice;
    }
    return voices.resolveVoice(DEFAULT_ESPEAK_VOICE) ?? DEFAULT_ESPEAK_VOICE;
  }

  private requireEngine(): NonNullable<EspeakBackend['engine']> {
    if (!this.engine) {
      // The runtime loads a model before using it; reaching this is a bug, not a client error.
      throw new Error('the espeak engine is not loaded');
    }
    return this.engine;
  }

  private voiceDataBytes(): number {
    if (this.dataBytes === undefined) {
      try {
        this.dataBytes = statSync(
          join(dirname(fileURLToPath(this.options.packageUrl)), 'espeak-ng.data'),
        ).size;
      } catch {
        this.dataBytes = 0;
      }
    }
    return this.dataBytes;
  }
}
