import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CatalogEntry, GenerateRequest, PresetVoice } from '../../worker/contract/worker-api';
import { SAMPLE_RATE_HEADER } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { FleetService, WorkerLease } from '../fleet/fleet.service';
import { WorkerCallError, WorkerClient } from '../fleet/worker-client';
import { CatalogService } from '../models/catalog.service';
import { GenerateSpeechDto } from './dto/generate-speech.dto';

/** Audio on its way from a worker to the client. `body` yields chunks as the worker sends them. */
export interface GeneratedAudio {
  contentType: 'audio/wav' | 'audio/pcm';
  sampleRate?: number;
  contentLength?: number;
  workerName: string;
  body: AsyncIterable<Uint8Array>;
}

/** How many workers one request may try: the first choice plus one retry (failure before the first byte). */
const MAX_ATTEMPTS = 2;

@Injectable()
export class GenerationsService {
  private readonly logger = new Logger(GenerationsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: CatalogService,
    private readonly fleet: FleetService,
    private readonly client: WorkerClient,
  ) {}

  /** Validates and resolves the request into a worker request (voice, language, model path). */
  resolve(dto: GenerateSpeechDto): { entry: CatalogEntry; request: GenerateRequest } {
    const entry = this.catalog.find(dto.model);
    if (!entry) {
      throw ApiError.field('model', 'validation_unknown_model', `Unknown model "${dto.model}".`);
    }
    if (!entry.types.includes('preset') && !entry.types.includes('cloning')) {
      throw ApiError.field(
        'model',
        'validation_not_a_speech_model',
        `Model "${entry.id}" does not synthesise speech.`,
      );
    }
    const max = this.config.generation.maxInputLength;
    if ([...dto.input].length > max) {
      throw ApiError.field('input', 'validation_max_length', `Must be at most ${max} characters.`);
    }
    if (dto.input.trim() === '') {
      throw ApiError.field('input', 'validation_required', 'Must contain some text to speak.');
    }
    const language = dto.language?.toLowerCase();
    if (language && !supportsLanguage(entry, language)) {
      throw ApiError.field(
        'language',
        'validation_unsupported_language',
        `Model "${entry.id}" does not support language "${language}" (supported: ${entry.languages.join(', ')}).`,
      );
    }
    const voice = this.resolvePresetVoice(entry, dto.voice, language);
    return {
      entry,
      request: {
        backend: entry.backend,
        text: dto.input,
        voice_path: voice ? voicePath(entry, voice) : null,
        speed: dto.speed ?? 1,
        language: language ?? voice?.language ?? null,
        reference_audio: null,
        reference_text: null,
        model_path: entry.embedded ? null : `${entry.backend}/${entry.variant}`,
      },
    };
  }

  /**
   * Forwards a generation to the best worker. A worker that fails before sending its first audio byte is reported
   * and the request is retried once on the next candidate; after the first byte the stream belongs to the client.
   */
  async generate(dto: GenerateSpeechDto, clientSignal: AbortSignal): Promise<GeneratedAudio> {
    const { entry, request } = this.resolve(dto);
    const stream = dto.stream === true;
    const candidates = this.fleet.candidates(request.model_path ?? undefined);
    if (candidates.length === 0) {
      throw ApiError.unavailable('No inference worker is online. Check the Administration page.');
    }
    let lastError: WorkerCallError | undefined;
    for (const server of candidates.slice(0, MAX_ATTEMPTS)) {
      const lease = this.fleet.lease(server);
      const signal = AbortSignal.any([clientSignal, AbortSignal.timeout(this.config.generation.timeoutMs)]);
      try {
        const response = await this.client.generate(lease.target, request, stream, signal);
        const first = await readFirstChunk(response);
        return {
          contentType: stream ? 'audio/pcm' : 'audio/wav',
          sampleRate: Number(response.headers.get(SAMPLE_RATE_HEADER)) || undefined,
          contentLength: stream ? undefined : Number(response.headers.get('content-length')) || undefined,
          workerName: server.name,
          body: relay(first, lease, this.logger, entry.id),
        };
      } catch (error) {
        lease.release();
        if (clientSignal.aborted) {
          throw ApiError.badRequest('The client closed the request.');
        }
        const callError =
          error instanceof WorkerCallError
            ? error
            : new WorkerCallError(`worker ${server.url}: ${String(error)}`, 0);
        if (callError.status >= 400 && callError.status < 500) {
          // The worker judged the request itself: another worker would say the same.
          throw ApiError.badRequest(callError.workerMessage ?? 'The inference worker rejected the request.');
        }
        this.logger.warn(`generation on "${server.name}" failed before the first byte: ${callError.message}`);
        if (callError.status === 0) {
          this.fleet.reportFailure(server, callError.message);
        }
        lastError = callError;
      }
    }
    throw ApiError.badGateway(
      lastError?.status === 503
        ? (lastError.workerMessage ?? 'The inference workers are busy; try again shortly.')
        : 'The inference worker failed to generate audio. Try again, or check the worker logs.',
    );
  }

  private resolvePresetVoice(
    entry: CatalogEntry,
    voiceId: string | undefined,
    language?: string,
  ): PresetVoice | undefined {
    const voices = entry.presetVoices ?? [];
    if (voiceId) {
      const voice = voices.find((candidate) => candidate.id === voiceId);
      if (!voice) {
        throw ApiError.field(
          'voice',
          'validation_unknown_voice',
          `Voice "${voiceId}" is not a voice of model "${entry.id}".`,
        );
      }
      return voice;
    }
    if (!language) {
      return voices[0];
    }
    const base = language.split('-')[0];
    // An embedded multilingual engine picks its own voice for a language without a listed preset.
    return (
      voices.find((voice) => voice.id === language) ??
      voices.find((voice) => voice.language === base) ??
      (entry.embedded ? undefined : voices[0])
    );
  }
}

function supportsLanguage(entry: CatalogEntry, language: string): boolean {
  return entry.languages.includes('*') || entry.languages.includes(language.split('-')[0]);
}

/** Embedded engines take a voice name; file-based engines a path relative to the models directory. */
function voicePath(entry: CatalogEntry, voice: PresetVoice): string {
  return entry.embedded ? voice.id : `${entry.backend}/${entry.variant}/${voice.id}`;
}

interface FirstChunk {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  chunk?: Uint8Array;
}

async function readFirstChunk(response: Response): Promise<FirstChunk> {
  if (!response.body) {
    throw new WorkerCallError('worker answered without a body', 0);
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    const result = await reader.read();
    if (result.done) {
      throw new WorkerCallError('worker answered with an empty body', 502);
    }
    return { reader, chunk: result.value };
  } catch (error) {
    reader.releaseLock();
    throw error instanceof WorkerCallError
      ? error
      : new WorkerCallError(`worker stream failed: ${String(error)}`, 502);
  }
}

async function* relay(
  first: FirstChunk,
  lease: WorkerLease,
  logger: Logger,
  model: string,
): AsyncGenerator<Uint8Array> {
  const { reader } = first;
  let completed = false;
  try {
    if (first.chunk) {
      yield first.chunk;
    }
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        completed = true;
        return;
      }
      yield value;
    }
  } catch (error) {
    logger.error(`generation of ${model} on "${lease.server.name}" failed mid-stream: ${String(error)}`);
    throw error;
  } finally {
    if (!completed) {
      await reader.cancel().catch(() => undefined);
    }
    lease.release();
  }
}
