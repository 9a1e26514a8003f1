import { Injectable, Logger } from '@nestjs/common';
import { WavFormatError, parseWav, wavHeader } from '../../worker/audio/wav';
import { ApiError } from '../common/errors/api-error';
import { isRecordId, newRecordId, recordDate } from '../common/records/record-id';
import { CollectionRegistry } from '../records/collections/collection-registry';
import { storedFileName } from '../records/files/file-names';
import { FileStorage } from '../records/files/file-storage';
import { RecordEvents } from '../records/realtime/record-events';
import {
  DEFAULT_HISTORY_PER_PAGE,
  GenerationDto,
  GenerationListDto,
  ListGenerationsQueryDto,
  toGenerationDto,
} from './dto/generation.dto';
import { GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';

/** What a generation will record once its audio is complete (everything but the audio and its timing). */
export type GenerationDraft = Pick<
  GenerationEntity,
  | 'user'
  | 'text'
  | 'model'
  | 'voice'
  | 'voiceName'
  | 'presetVoice'
  | 'language'
  | 'speed'
  | 'server'
  | 'serverName'
  | 'streamed'
  | 'firstByteMs'
> & {
  /** Sample rate announced by the worker (needed to wrap streamed PCM in a WAV). */
  sampleRate?: number;
};

/** A history entry written to disk and database but not announced yet. */
export interface CommittedGeneration {
  readonly entity: GenerationEntity;
  /** Announces the entry on realtime (the client got all the audio). */
  publish(): Promise<void>;
  /** Removes the entry and its file again (the client did not get all the audio). */
  discard(): Promise<void>;
}

/** The audio file of a history entry, for download. */
export interface GenerationAudioFile {
  path: string;
  downloadName: string;
}

/** Generation history: recording finished generations, and the owner's list/view/download/delete. */
@Injectable()
export class HistoryService {
  private readonly logger = new Logger(HistoryService.name);

  constructor(
    private readonly repository: GenerationsRepository,
    private readonly storage: FileStorage,
    private readonly registry: CollectionRegistry,
    private readonly events: RecordEvents,
  ) {}

  private get collectionId(): string {
    return this.registry.get('generations').id;
  }

  /**
   * Writes the WAV file, then the row, of a generation whose audio has fully arrived: `chunks` are the bytes as
   * they were relayed (a WAV, or raw s16le mono PCM when streamed). Returns undefined (and logs why) when the
   * audio cannot be read back, so a recording problem never costs the client its audio.
   */
  async commit(
    draft: GenerationDraft,
    chunks: readonly Uint8Array[],
    totalMs: number,
  ): Promise<CommittedGeneration | undefined> {
    const audio = this.toWav(draft, Buffer.concat(chunks));
    if (!audio) {
      return undefined;
    }
    const now = recordDate();
    const entity: GenerationEntity = {
      id: newRecordId(),
      user: draft.user,
      text: draft.text,
      model: draft.model,
      voice: draft.voice,
      voiceName: draft.voiceName,
      presetVoice: draft.presetVoice,
      language: draft.language,
      speed: draft.speed,
      duration: audio.duration,
      sampleRate: audio.sampleRate,
      audio: storedFileName('speech.wav'),
      server: draft.server,
      serverName: draft.serverName,
      streamed: draft.streamed,
      firstByteMs: Math.round(draft.firstByteMs),
      totalMs: Math.round(totalMs),
      created: now,
      updated: now,
    };
    const collectionId = this.collectionId;
    await this.storage.save(collectionId, entity.id, entity.audio, audio.wav);
    try {
      await this.repository.insert(entity);
    } catch (error) {
      await this.removeFolder(entity.id);
      throw error;
    }
    return {
      entity,
      publish: () => this.events.publish('generations', 'create', entity),
      discard: async () => {
        await this.repository.delete(entity.id);
        await this.removeFolder(entity.id);
      },
    };
  }

  async list(user: string, query: ListGenerationsQueryDto): Promise<GenerationListDto> {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? DEFAULT_HISTORY_PER_PAGE;
    const from = query.from ? recordDate(parseDate(query.from, 'from')) : undefined;
    const toExclusive = query.to ? endOf(query.to) : undefined;
    if (from && toExclusive && from >= toExclusive) {
      throw ApiError.field('to', 'validation_invalid_range', '"to" must not be before "from".');
    }
    const [items, totalItems] = await this.repository.list({
      user,
      voice: query.voice,
      model: query.model,
      language: query.language,
      from,
      toExclusive,
      page,
      perPage,
    });
    return {
      page,
      perPage,
      totalItems,
      totalPages: Math.ceil(totalItems / perPage),
      items: items.map(toGenerationDto),
    };
  }

  async get(user: string, id: string): Promise<GenerationDto> {
    return toGenerationDto(await this.owned(user, id));
  }

  async audioFile(user: string, id: string): Promise<GenerationAudioFile> {
    const generation = await this.owned(user, id);
    const path = this.storage.filePath(this.collectionId, generation.id, generation.audio);
    if (!path || !(await this.storage.exists(path))) {
      throw ApiError.notFound();
    }
    return { path, downloadName: `chorus-${generation.model}-${generation.id}.wav` };
  }

  async delete(user: string, id: string): Promise<void> {
    const generation = await this.owned(user, id);
    if (!(await this.repository.delete(generation.id))) {
      throw ApiError.notFound();
    }
    await this.removeFolder(generation.id);
    await this.events.publish('generations', 'delete', generation);
  }

  private async owned(user: string, id: string): Promise<GenerationEntity> {
    const generation = isRecordId(id) ? await this.repository.findOwned(id, user) : null;
    if (!generation) {
      throw ApiError.notFound();
    }
    return generation;
  }

  private toWav(
    draft: GenerationDraft,
    bytes: Buffer,
  ): { wav: Buffer; duration: number; sampleRate: number } | undefined {
    if (draft.streamed) {
      const sampleRate = draft.sampleRate;
      if (!sampleRate) {
        this.logger.warn(`not recording a ${draft.model} stream: the worker sent no sample rate`);
        return undefined;
      }
      const pcm = bytes.subarray(0, bytes.length - (bytes.length % 2));
      return {
        wav: Buffer.concat([wavHeader(pcm.length, { sampleRate }), pcm]),
        duration: pcm.length / 2 / sampleRate,
        sampleRate,
      };
    }
    try {
      const info = parseWav(bytes);
      return { wav: bytes, duration: info.durationSeconds, sampleRate: info.sampleRate };
    } catch (error) {
      if (error instanceof WavFormatError) {
        this.logger.warn(
          `not recording a ${draft.model} generation: the worker's WAV is unreadable (${error.message})`,
        );
        return undefined;
      }
      throw error;
    }
  }

  private async removeFolder(id: string): Promise<void> {
    await this.storage.removeRecord(this.collectionId, id).catch((error: unknown) => {
      this.logger.warn(`could not remove the files of generation ${id}: ${String(error)}`);
    });
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(text: string, field: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) {
    throw ApiError.field(field, 'validation_invalid_date', `"${text}" is not a valid date.`);
  }
  return date;
}

/** The exclusive upper bound for `to`: the next day for a date alone, else just after the instant. */
function endOf(text: string): string {
  const date = parseDate(text, 'to');
  if (DATE_ONLY.test(text)) {
    date.setUTCDate(date.getUTCDate() + 1);
  } else {
    date.setUTCMilliseconds(date.getUTCMilliseconds() + 1);
  }
  return recordDate(date);
}
