import { Injectable, Logger } from '@nestjs/common';
import { AudioDecodeError } from '../../worker/audio/decode-errors';
import { sniffAudioFormat, type AudioFormat } from '../../worker/audio/decode-format';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import type { UploadedFileData } from '../common/uploads/multipart-upload.interceptor';
import { FleetService } from '../fleet/fleet.service';
import type { InferenceServerEntity } from '../fleet/inference-server.entity';
import { WorkerCallError, WorkerClient } from '../fleet/worker-client';
import { CatalogService, workerModelPath } from '../models/catalog.service';
import { ModelsService } from '../models/models.service';
import { TranscribeQueryDto, TranscriptionDto } from './dto/transcription.dto';

/** Longest time one transcription may take on a worker. */
const TRANSCRIBE_TIMEOUT_MS = 300_000;
/** Workers one request may try: the first choice plus one retry when a worker fails (not when it refuses). */
const MAX_ATTEMPTS = 2;

const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  'ogg-vorbis': 'audio/ogg',
  'ogg-opus': 'audio/ogg',
  webm: 'audio/webm',
};

/** A transcription model and a worker that has it. */
export interface TranscriptionRoute {
  entry: CatalogEntry;
  server: InferenceServerEntity;
}

/**
 * Speech recognition through the fleet: picks an installed transcription model on an online worker (or the ones
 * asked for) and forwards the upload to the worker's `POST /transcribe`.
 */
@Injectable()
export class TranscriptionService {
  private readonly logger = new Logger(TranscriptionService.name);

  constructor(
    private readonly catalog: CatalogService,
    private readonly models: ModelsService,
    private readonly fleet: FleetService,
    private readonly client: WorkerClient,
  ) {}

  async transcribe(file: UploadedFileData | undefined, query: TranscribeQueryDto): Promise<TranscriptionDto> {
    if (!file || file.size === 0) {
      throw ApiError.field('file', 'validation_required', 'Attach the recording as the "file" part.');
    }
    // The worker's own format sniffing: what it could never decode is refused before bothering it.
    let format: AudioFormat;
    try {
      format = sniffAudioFormat(file.buffer);
    } catch (error) {
      if (error instanceof AudioDecodeError) {
        throw ApiError.field('file', `validation_${error.code}`, error.message);
      }
      throw error;
    }
    const routes = await this.routes(query);
    let lastError: WorkerCallError | undefined;
    for (const { entry, server } of routes.slice(0, MAX_ATTEMPTS)) {
      const lease = this.fleet.lease(server);
      try {
        const result = await this.client.transcribe(
          lease.target,
          {
            bytes: file.buffer,
            fileName: file.originalname || 'audio',
            contentType: CONTENT_TYPES[format],
            backend: entry.backend,
            modelPath: workerModelPath(entry),
            language: query.language?.toLowerCase(),
          },
          AbortSignal.timeout(TRANSCRIBE_TIMEOUT_MS),
        );
        return {
          text: result.text,
          language: result.language,
          duration: result.duration ?? 0,
          model: entry.id,
          serverName: server.name,
        };
      } catch (error) {
        const callError = error instanceof WorkerCallError ? error : new WorkerCallError(String(error), 0);
        if (callError.status >= 400 && callError.status < 500) {
          // The worker judged the upload itself (e.g. audio it cannot decode): another would say the same.
          throw ApiError.field(
            'file',
            'validation_invalid_audio',
            callError.workerMessage ?? 'The inference worker could not transcribe this file.',
          );
        }
        this.logger.warn(`transcription on "${server.name}" failed: ${callError.message}`);
        if (callError.status === 0) {
          this.fleet.reportFailure(server, callError.message);
        }
        lastError = callError;
      } finally {
        lease.release();
      }
    }
    throw ApiError.badGateway(
      lastError?.status === 503
        ? (lastError.workerMessage ?? 'The inference workers are busy; try again shortly.')
        : 'The inference worker failed to transcribe the audio. Try again, or check the worker logs.',
    );
  }

  /** Installed (model, worker) pairs able to serve the request, best first; 400 for bad choices, 503 for none. */
  async routes(query: TranscribeQueryDto): Promise<TranscriptionRoute[]> {
    let entries = this.catalog.list().filter((entry) => entry.types.includes('transcription'));
    if (query.model) {
      const entry = this.catalog.find(query.model);
      if (!entry) {
        throw ApiError.field('model', 'validation_unknown_model', `Unknown model "${query.model}".`);
      }
      if (!entry.types.includes('transcription')) {
        throw ApiError.field(
          'model',
          'validation_not_a_transcription_model',
          `Model "${entry.id}" does not transcribe speech.`,
        );
      }
      entries = [entry];
    }
    if (query.server && !this.fleet.find(query.server)) {
      throw ApiError.field(
        'server',
        'validation_unknown_server',
        `Unknown inference server "${query.server}".`,
      );
    }
    const language = query.language?.toLowerCase().split('-')[0];
    const order = new Map(this.fleet.candidates().map((server, index) => [server.id, index]));
    const installed = await this.models.installed();
    const routes: TranscriptionRoute[] = [];
    for (const entry of rankTranscriptionModels(entries, language)) {
      const held = installed.find((model) => model.id === entry.id);
      const servers = (held?.workers ?? [])
        .map((worker) => this.fleet.find(worker.serverId))
        .filter((server): server is InferenceServerEntity => !!server && order.has(server.id))
        .filter((server) => !query.server || server.id === query.server)
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      routes.push(...servers.map((server) => ({ entry, server })));
    }
    if (routes.length === 0) {
      const where = query.server ? ` on inference server "${this.fleet.find(query.server)?.name}"` : '';
      throw ApiError.unavailable(
        query.model
          ? `Model "${query.model}" is not installed on an online worker${where}.`
          : `No online worker${where} has a transcription model installed. Install one on the Models page.`,
      );
    }
    return routes;
  }
}

/**
 * Transcription models best first: those speaking the language (when given), recommended ones, downloaded models
 * before embedded engines (an embedded recogniser is the fallback, not the best choice), then catalog order.
 */
export function rankTranscriptionModels(entries: readonly CatalogEntry[], language?: string): CatalogEntry[] {
  const speaks = (entry: CatalogEntry): number =>
    !language || entry.languages.includes('*') || entry.languages.includes(language) ? 0 : 1;
  return entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => speaks(entry) === 0)
    .sort(
      (a, b) =>
        Number(!a.entry.recommended) - Number(!b.entry.recommended) ||
        Number(!!a.entry.embedded) - Number(!!b.entry.embedded) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}
