import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { SAMPLE_RATE_HEADER } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { FleetService, WorkerLease } from '../fleet/fleet.service';
import { WorkerCallError, WorkerClient } from '../fleet/worker-client';
import { CatalogService } from '../models/catalog.service';
import { VoicesService } from '../voices/voices.service';
import { findPresetVoice, isSpeechModel, supportsLanguage } from '../voices/voice-rules';
import { GenerateSpeechDto } from './dto/generate-speech.dto';
import type { GenerationDraft } from './history.service';
import { ResolvedRequest, VoiceChoice, buildWorkerRequest, defaultPresetVoice } from './voice-resolution';

/** Audio on its way from a worker to the client. `body` yields chunks as the worker sends them. */
export interface GeneratedAudio {
  contentType: 'audio/wav' | 'audio/pcm';
  sampleRate?: number;
  contentLength?: number;
  workerName: string;
  body: AsyncIterable<Uint8Array>;
  /** What the history entry will say, once the audio is complete. */
  draft: GenerationDraft;
  /** `performance.now()` when the request was received (for the entry's timings). */
  startedAt: number;
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
    private readonly voices: VoicesService,
  ) {}

  /**
   * Validates the request and resolves it into a worker request. `voice` is a preset voice id of the model, or
   * the id of a Chorus voice `user` may use (own or public) that speaks with this model.
   */
  async resolve(dto: GenerateSpeechDto, user: string): Promise<{ entry: CatalogEntry } & ResolvedRequest> {
    const entry = this.catalog.find(dto.model);
    if (!entry) {
      throw ApiError.field('model', 'validation_unknown_model', `Unknown model "${dto.model}".`);
    }
    if (!isSpeechModel(entry)) {
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
    const choice = await this.chooseVoice(entry, dto.voice, language, user);
    return { entry, ...buildWorkerRequest(entry, { input: dto.input, speed: dto.speed, language }, choice) };
  }

  /**
   * Forwards a generation to the best worker. A worker that fails before sending its first audio byte is reported
   * and the request is retried once on the next candidate; after the first byte the stream belongs to the client.
   */
  async generate(dto: GenerateSpeechDto, user: string, clientSignal: AbortSignal): Promise<GeneratedAudio> {
    const startedAt = performance.now();
    const resolved = await this.resolve(dto, user);
    const { entry, request } = resolved;
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
        const sampleRate = Number(response.headers.get(SAMPLE_RATE_HEADER)) || undefined;
        return {
          contentType: stream ? 'audio/pcm' : 'audio/wav',
          sampleRate,
          contentLength: stream ? undefined : Number(response.headers.get('content-length')) || undefined,
          workerName: server.name,
          body: relay(first, lease, clientSignal, this.logger, entry.id),
          startedAt,
          draft: {
            user,
            text: dto.input,
            model: entry.id,
            voice: resolved.voiceId,
            voiceName: resolved.voiceName,
            presetVoice: resolved.presetVoice,
            language: resolved.language,
            speed: request.speed ?? 1,
            server: server.id,
            serverName: server.name,
            streamed: stream,
            firstByteMs: performance.now() - startedAt,
            sampleRate,
          },
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

  private async chooseVoice(
    entry: CatalogEntry,
    voiceId: string | undefined,
    language: string | undefined,
    user: string,
  ): Promise<VoiceChoice> {
    if (!voiceId) {
      return { kind: 'preset', preset: defaultPresetVoice(entry, language) };
    }
    const preset = findPresetVoice(entry, voiceId);
    if (preset) {
      return { kind: 'preset', preset };
    }
    const usable = await this.voices.findUsable(user, voiceId);
    if (!usable) {
      throw ApiError.field(
        'voice',
        'validation_unknown_voice',
        `Voice "${voiceId}" is neither a voice of yours (or a public one) nor a preset voice of model "${entry.id}".`,
      );
    }
    return { kind: 'voice', usable };
  }
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
  clientSignal: AbortSignal,
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
    if (!clientSignal.aborted) {
      logger.error(`generation of ${model} on "${lease.server.name}" failed mid-stream: ${String(error)}`);
    }
    throw error;
  } finally {
    if (!completed) {
      await reader.cancel().catch(() => undefined);
    }
    lease.release();
  }
}
