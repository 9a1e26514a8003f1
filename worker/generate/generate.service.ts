import { Inject, Injectable, Logger } from '@nestjs/common';

import { BackendRegistry } from '../backends/backend-registry.service';
import { ApiError } from '../common/api-error';
import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import { ModelRuntime } from '../runtime/model-runtime.service';
import { splitSentences } from '../text/sentences';
import type { GenerateRequestDto } from './dto/generate-request.dto';

/** A synthesis that has its model slot and has passed every check; audio is produced as `chunks` is read. */
export interface OpenSynthesis {
  readonly sampleRate: number;
  readonly chunks: AsyncIterable<Int16Array>;
  /** Frees the model slot; idempotent. Call it when done, whether or not `chunks` was read to the end. */
  close(): void;
}

export interface CompleteAudio {
  sampleRate: number;
  chunks: Int16Array[];
}

@Injectable()
export class GenerateService {
  private readonly logger = new Logger(GenerateService.name);

  constructor(
    private readonly registry: BackendRegistry,
    private readonly runtime: ModelRuntime,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  /**
   * Validates the request against the backend, waits for a slot of its model (loading it if needed) and starts
   * the synthesis. Every client error surfaces here, before any audio exists.
   */
  async open(request: GenerateRequestDto, signal: AbortSignal): Promise<OpenSynthesis> {
    const maxLength = this.config.inference.maxTextLength;
    if (request.text.length > maxLength) {
      throw ApiError.invalidField(
        'text',
        'validation_length_out_of_range',
        `text must be at most ${maxLength} characters long (got ${request.text.length})`,
      );
    }
    const backend = this.registry.getForRequest(request.backend);
    if (!backend.capabilities.preset && !backend.capabilities.cloning) {
      throw ApiError.invalidField(
        'backend',
        'capability_not_supported',
        `Backend "${backend.name}" does not synthesise speech.`,
      );
    }
    const language = request.language || null;
    const sentences = splitSentences(request.text, { language });
    if (sentences.length === 0) {
      throw ApiError.invalidField('text', 'nothing_to_speak', 'text contains nothing that can be spoken');
    }
    const modelPath = backend.resolveModelPath(request);

    const lease = await this.runtime.acquire(backend, modelPath, signal);
    let stream;
    try {
      stream = await backend.synthesize(
        {
          modelPath,
          sentences,
          voice: request.voice_path || null,
          language,
          speed: request.speed ?? 1,
          referenceAudio: request.reference_audio ?? [],
          referenceText: request.reference_text ?? [],
        },
        signal,
      );
    } catch (error) {
      lease.release();
      throw error;
    }

    const logger = this.logger;
    const { sampleRate } = stream;
    const source = stream.chunks;
    const started = performance.now();
    async function* measured(): AsyncGenerator<Int16Array> {
      let samples = 0;
      let firstChunkMs: number | undefined;
      let completed = false;
      try {
        for await (const chunk of source) {
          firstChunkMs ??= Math.round(performance.now() - started);
          samples += chunk.length;
          yield chunk;
        }
        completed = true;
      } finally {
        lease.release();
        const elapsedMs = performance.now() - started;
        const audioSeconds = samples / sampleRate;
        logger.log(
          {
            backend: backend.name,
            modelPath,
            sentences: sentences.length,
            characters: request.text.length,
            audioSeconds: Math.round(audioSeconds * 1000) / 1000,
            firstChunkMs,
            elapsedMs: Math.round(elapsedMs),
            realTimeFactor:
              audioSeconds > 0 ? Math.round((elapsedMs / 1000 / audioSeconds) * 1000) / 1000 : null,
            completed,
          },
          completed ? 'Synthesis finished' : 'Synthesis stopped early',
        );
      }
    }

    return { sampleRate, chunks: measured(), close: () => lease.release() };
  }

  /**
   * The whole request's audio, as the per-sentence chunks (written out as one WAV without concatenating them:
   * copying minutes of audio in one go would stall the event loop).
   */
  async generateAll(request: GenerateRequestDto, signal: AbortSignal): Promise<CompleteAudio> {
    const synthesis = await this.open(request, signal);
    try {
      const chunks: Int16Array[] = [];
      for await (const chunk of synthesis.chunks) {
        chunks.push(chunk);
      }
      return { sampleRate: synthesis.sampleRate, chunks };
    } finally {
      synthesis.close();
    }
  }
}
