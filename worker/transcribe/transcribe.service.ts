import { Inject, Injectable, Logger } from '@nestjs/common';

import { AudioDecodeError } from '../audio/decode-errors';
import type { DecodedUpload } from '../audio/decode-pipeline';
import { AudioDecodePool } from '../audio/decode-pool';
import type { TtsBackend } from '../backends/backend.interface';
import { BackendRegistry } from '../backends/backend-registry.service';
import { ApiError } from '../common/api-error';
import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import type { TranscribeResult } from '../contract/worker-api';
import { QueueFullError } from '../runtime/keyed-queue';
import { ModelRuntime } from '../runtime/model-runtime.service';
import type { TranscribeRequestDto } from './dto/transcribe-request.dto';

/** The uploaded audio as multer hands it over (memory storage). */
export interface AudioUpload {
  buffer: Buffer;
  size: number;
  originalname?: string;
}

/** Seconds a client is told to wait when the decode queue is full (as for model queues). */
const RETRY_AFTER_SECONDS = 2;

function transcribes(backend: TtsBackend): boolean {
  return backend.capabilities.transcription && typeof backend.transcribe === 'function';
}

/**
 * `POST /transcribe`: picks the recogniser, decodes the upload to 16 kHz mono in a worker thread, then runs the
 * recogniser through the model runtime (lazy load, per-model queue, LRU) like generation does.
 */
@Injectable()
export class TranscribeService {
  private readonly logger = new Logger(TranscribeService.name);

  constructor(
    private readonly registry: BackendRegistry,
    private readonly runtime: ModelRuntime,
    private readonly decoder: AudioDecodePool,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  async transcribe(
    upload: AudioUpload | undefined,
    request: TranscribeRequestDto,
    signal: AbortSignal,
  ): Promise<TranscribeResult> {
    if (!upload) {
      throw ApiError.invalidField(
        'file',
        'validation_required',
        'Send the audio as multipart/form-data in the field "file" (or "audio").',
      );
    }
    const { backend, modelPath } = await this.chooseBackend(request);
    const language = request.language || null;

    const started = performance.now();
    const audio = await this.decode(upload.buffer, signal);
    const decodedMs = performance.now() - started;

    const lease = await this.runtime.acquire(backend, modelPath, signal);
    let result;
    try {
      result = await backend.transcribe!(
        {
          modelPath,
          audio: { sampleRate: audio.sampleRate, channels: 1, samples: audio.samples },
          language,
        },
        signal,
      );
    } finally {
      lease.release();
    }
    const elapsedMs = performance.now() - started;
    this.logger.log(
      {
        backend: backend.name,
        modelPath,
        format: audio.format,
        uploadBytes: upload.size,
        audioSeconds: round(audio.durationSeconds),
        decodeMs: Math.round(decodedMs),
        elapsedMs: Math.round(elapsedMs),
        realTimeFactor: audio.durationSeconds > 0 ? round(elapsedMs / 1000 / audio.durationSeconds) : null,
        language: result.language,
        characters: result.text.length,
      },
      'Transcription finished',
    );
    return {
      text: result.text,
      language: result.language,
      duration: round(audio.durationSeconds),
      backend: backend.name,
      model_path: modelPath,
    };
  }

  /**
   * The requested backend, else the one `model_path` names, else a transcription model already loaded (most
   * recently used first), else the first installed embedded recogniser.
   */
  private async chooseBackend(
    request: TranscribeRequestDto,
  ): Promise<{ backend: TtsBackend; modelPath: string }> {
    let backend: TtsBackend | undefined;
    if (request.backend) {
      backend = this.registry.getForRequest(request.backend);
    } else if (request.model_path) {
      backend = this.registry.find(request.model_path.split('/')[0]);
      if (!backend) {
        throw ApiError.invalidField(
          'model_path',
          'unknown_backend',
          `No backend serves "${request.model_path}"; name the backend, e.g. whisper/base.`,
        );
      }
    }
    if (backend) {
      if (!transcribes(backend)) {
        throw ApiError.invalidField(
          'backend',
          'capability_not_supported',
          `Backend "${backend.name}" does not transcribe speech.`,
        );
      }
      await this.requireInstalled(backend);
      return { backend, modelPath: backend.resolveModelPath({ model_path: request.model_path }) };
    }

    const candidates = this.registry.list().filter(transcribes);
    const loaded = candidates
      .filter((candidate) => !candidate.embedded)
      .flatMap((candidate) =>
        this.runtime.loadedModels(candidate.name).map((model) => ({ candidate, model })),
      )
      .sort((a, b) => b.model.lastUsedAt.localeCompare(a.model.lastUsedAt))[0];
    if (loaded) {
      return { backend: loaded.candidate, modelPath: loaded.model.modelPath };
    }
    for (const candidate of candidates.filter((each) => each.embedded)) {
      if ((await candidate.dependencies()).installed) {
        return { backend: candidate, modelPath: candidate.resolveModelPath({}) };
      }
    }
    throw ApiError.invalidField(
      'backend',
      'no_transcription_backend',
      'No speech recogniser is ready on this worker: name a Whisper model in model_path (pull one first) or ' +
        'install PocketSphinx (system packages pocketsphinx and pocketsphinx-en-us).',
    );
  }

  private async requireInstalled(backend: TtsBackend): Promise<void> {
    const dependencies = await backend.dependencies();
    if (!dependencies.installed) {
      throw ApiError.invalidField(
        'backend',
        'backend_not_installed',
        `Backend "${backend.name}" is not installed on this worker${dependencies.detail ? `: ${dependencies.detail}` : ''}.`,
      );
    }
  }

  private async decode(bytes: Uint8Array, signal: AbortSignal): Promise<DecodedUpload> {
    try {
      return await this.decoder.decode(bytes, this.config.transcription.maxAudioSeconds, signal);
    } catch (error) {
      if (error instanceof AudioDecodeError) {
        throw ApiError.invalidField('file', error.code, error.message);
      }
      if (error instanceof QueueFullError) {
        throw ApiError.serviceUnavailable(
          `The worker is busy: ${error.limit} uploads already wait to be decoded. Try again shortly.`,
          RETRY_AFTER_SECONDS,
        );
      }
      throw error;
    }
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
