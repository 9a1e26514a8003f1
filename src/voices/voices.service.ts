import { readFile } from 'node:fs/promises';
import { Injectable, Logger } from '@nestjs/common';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import { isRecordId, newRecordId, recordDate } from '../common/records/record-id';
import type { UploadedFileData } from '../common/uploads/multipart-upload.interceptor';
import { CatalogService } from '../models/catalog.service';
import { CollectionRegistry } from '../records/collections/collection-registry';
import { storedFileName } from '../records/files/file-names';
import { FileStorage } from '../records/files/file-storage';
import { detectMime } from '../records/files/mime';
import { RecordEvents } from '../records/realtime/record-events';
import { AddVoiceSampleDto, CreateVoiceDto, ListVoicesQueryDto, UpdateVoiceDto } from './dto/voice-input.dto';
import {
  VoiceDto,
  VoiceFileCollections,
  VoiceListDto,
  VoiceSampleDto,
  toVoiceDto,
  toVoiceSampleDto,
} from './dto/voice.dto';
import { NormalisedSample, SampleAudioError } from './sample-audio';
import { SampleDecoder } from './sample-decoder';
import { VoiceSampleEntity } from './voice-sample.entity';
import { VoiceEntity } from './voice.entity';
import { AVATAR_MIME_TYPES } from './voices.collection';
import { canClone, checkReferenceLength, checkVoiceSpec } from './voice-rules';
import { VoicesRepository } from './voices.repository';

const DEFAULT_PER_PAGE = 20;
/** Most samples per voice: the worker accepts at most 16 references per request. */
export const MAX_SAMPLES_PER_VOICE = 16;

/** A voice ready to speak with: the voice, its model, and (cloning) its samples' WAV bytes and transcripts. */
export interface UsableVoice {
  voice: VoiceEntity;
  entry: CatalogEntry;
  references: { wav: Buffer; transcript: string }[];
}

/**
 * Voices and their samples: ownership (own voices writable, public ones readable by every user), catalog checks,
 * sample audio checks, files in the records layer's storage, realtime events after each commit.
 */
@Injectable()
export class VoicesService {
  private readonly logger = new Logger(VoicesService.name);
  /** Per-voice queue of sample additions, so two uploads cannot both pass the reference length check. */
  private readonly sampleLocks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly repository: VoicesRepository,
    private readonly catalog: CatalogService,
    private readonly storage: FileStorage,
    private readonly registry: CollectionRegistry,
    private readonly events: RecordEvents,
    private readonly decoder: SampleDecoder,
  ) {}

  private get collections(): VoiceFileCollections {
    return {
      voices: this.registry.get('voices').id,
      samples: this.registry.get('voice_samples').id,
    };
  }

  async list(viewer: string, query: ListVoicesQueryDto): Promise<VoiceListDto> {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? DEFAULT_PER_PAGE;
    const [voices, totalItems] = await this.repository.list({
      viewer,
      scope: query.scope ?? 'all',
      search: query.search,
      language: query.language,
      model: query.model,
      page,
      perPage,
    });
    const samples = await this.repository.samplesOf(voices.map((voice) => voice.id));
    const collections = this.collections;
    return {
      page,
      perPage,
      totalItems,
      totalPages: Math.ceil(totalItems / perPage),
      items: voices.map((voice) =>
        toVoiceDto(
          voice,
          samples.filter((sample) => sample.voice === voice.id),
          viewer,
          collections,
        ),
      ),
    };
  }

  async get(viewer: string, id: string): Promise<VoiceDto> {
    return this.respond(await this.visible(viewer, id), viewer);
  }

  async create(owner: string, dto: CreateVoiceDto, avatar?: UploadedFileData): Promise<VoiceDto> {
    const spec = checkVoiceSpec(
      { model: dto.model, presetVoice: dto.presetVoice, language: dto.language },
      (id) => this.catalog.find(id),
    );
    const avatarBytes = avatar ? checkAvatar(avatar) : undefined;
    const now = recordDate();
    const voice: VoiceEntity = {
      id: newRecordId(),
      user: owner,
      name: dto.name,
      description: dto.description ?? '',
      language: spec.language,
      avatar: avatarBytes ? storedFileName(avatar!.originalname || 'avatar', avatarBytes.extension) : '',
      model: spec.entry.id,
      presetVoice: spec.presetVoice,
      options: dto.options ?? {},
      tags: dto.tags ?? [],
      public: dto.public ?? false,
      created: now,
      updated: now,
    };
    if (avatarBytes) {
      await this.storage.save(this.collections.voices, voice.id, voice.avatar, avatar!.buffer);
    }
    try {
      await this.repository.insert(voice);
    } catch (error) {
      await this.storage.removeRecord(this.collections.voices, voice.id).catch(() => undefined);
      throw error;
    }
    await this.events.publish('voices', 'create', voice);
    return this.respond(voice, owner);
  }

  async update(owner: string, id: string, dto: UpdateVoiceDto, avatar?: UploadedFileData): Promise<VoiceDto> {
    const existing = await this.owned(owner, id);
    const catalogChange =
      dto.model !== undefined || dto.presetVoice !== undefined || dto.language !== undefined;
    const next: VoiceEntity = { ...existing };
    if (catalogChange) {
      const model = dto.model ?? existing.model;
      const spec = checkVoiceSpec(
        {
          model,
          // A new model invalidates the old preset voice unless a new one is given.
          presetVoice:
            dto.presetVoice ?? (model === existing.model ? existing.presetVoice || undefined : undefined),
          language: dto.language ?? (dto.presetVoice === undefined ? existing.language : undefined),
        },
        (modelId) => this.catalog.find(modelId),
      );
      next.model = spec.entry.id;
      next.presetVoice = spec.presetVoice;
      next.language = spec.language;
      if (next.model !== existing.model) {
        const seconds = await this.repository.totalSampleSeconds(id);
        if (seconds > 0) {
          this.checkSamplesFit(spec.entry, seconds);
        }
      }
    }
    if (dto.name !== undefined) {
      next.name = dto.name;
    }
    if (dto.description !== undefined) {
      next.description = dto.description;
    }
    if (dto.options !== undefined) {
      next.options = dto.options;
    }
    if (dto.tags !== undefined) {
      next.tags = dto.tags;
    }
    if (dto.public !== undefined) {
      next.public = dto.public;
    }
    const avatarBytes = avatar ? checkAvatar(avatar) : undefined;
    if (avatarBytes) {
      next.avatar = storedFileName(avatar!.originalname || 'avatar', avatarBytes.extension);
      await this.storage.save(this.collections.voices, id, next.avatar, avatar!.buffer);
    } else if (dto.removeAvatar) {
      next.avatar = '';
    }
    next.updated = recordDate();
    try {
      await this.repository.update(next);
    } catch (error) {
      if (avatarBytes) {
        await this.storage.remove(this.collections.voices, id, next.avatar).catch(() => undefined);
      }
      throw error;
    }
    if (existing.avatar && existing.avatar !== next.avatar) {
      await this.removeFile(this.collections.voices, id, existing.avatar);
    }
    await this.events.publish('voices', 'update', next);
    return this.respond(next, owner);
  }

  async delete(owner: string, id: string): Promise<void> {
    const voice = await this.owned(owner, id);
    const deleted = await this.repository.deleteVoice(id, recordDate());
    if (!deleted) {
      throw ApiError.notFound();
    }
    const collections = this.collections;
    await Promise.all([
      this.removeFolder(collections.voices, id),
      ...deleted.samples.map((sample) => this.removeFolder(collections.samples, sample.id)),
    ]);
    for (const generation of deleted.unlinked) {
      await this.events.publish('generations', 'update', generation);
    }
    for (const sample of deleted.samples) {
      await this.events.publish('voice_samples', 'delete', sample);
    }
    await this.events.publish('voices', 'delete', voice);
  }

  async addSample(
    owner: string,
    voiceId: string,
    dto: AddVoiceSampleDto,
    file: UploadedFileData | undefined,
  ): Promise<VoiceSampleDto> {
    const voice = await this.owned(owner, voiceId);
    const entry = this.catalog.find(voice.model);
    if (!entry || !canClone(entry)) {
      throw ApiError.field(
        'audio',
        'validation_not_a_cloning_model',
        `Model "${voice.model}" does not clone voices, so its voices take no samples.`,
      );
    }
    if (!file || file.size === 0) {
      throw ApiError.field('audio', 'validation_required', 'Attach the recording as the "audio" file part.');
    }
    let normalised: NormalisedSample;
    try {
      normalised = await this.decoder.normalise(file.buffer, entry.maxReferenceDuration);
    } catch (error) {
      if (error instanceof SampleAudioError) {
        if (error.code === 'validation_audio_too_long') {
          throw ApiError.field(
            'audio',
            'validation_reference_too_long',
            `Model "${entry.id}" accepts at most ${entry.maxReferenceDuration} s of reference audio per voice; this recording alone is longer.`,
          );
        }
        throw ApiError.field('audio', error.code, error.message);
      }
      throw error;
    }
    return this.withSampleLock(voiceId, async () => {
      if ((await this.repository.samplesOf([voiceId])).length >= MAX_SAMPLES_PER_VOICE) {
        throw ApiError.field(
          'audio',
          'validation_too_many_samples',
          `A voice has at most ${MAX_SAMPLES_PER_VOICE} samples: delete one first.`,
        );
      }
      checkReferenceLength(
        entry,
        await this.repository.totalSampleSeconds(voiceId),
        normalised.durationSeconds,
      );
      const now = recordDate();
      const sample: VoiceSampleEntity = {
        id: newRecordId(),
        voice: voiceId,
        // Stored as WAV whatever was uploaded (the decoder re-encodes it).
        audio: storedFileName(`${(file.originalname || 'sample').replace(/\.[^./\\]*$/, '')}.wav`),
        transcript: dto.transcript ?? '',
        duration: normalised.durationSeconds,
        sampleRate: normalised.sampleRate,
        created: now,
        updated: now,
      };
      const collectionId = this.collections.samples;
      await this.storage.save(collectionId, sample.id, sample.audio, normalised.wav);
      try {
        await this.repository.insertSample(sample);
      } catch (error) {
        await this.storage.removeRecord(collectionId, sample.id).catch(() => undefined);
        throw error;
      }
      await this.events.publish('voice_samples', 'create', sample);
      return toVoiceSampleDto(sample, collectionId);
    });
  }

  async deleteSample(owner: string, voiceId: string, sampleId: string): Promise<void> {
    await this.owned(owner, voiceId);
    const sample = isRecordId(sampleId) ? await this.repository.findSample(voiceId, sampleId) : null;
    if (!sample || !(await this.repository.deleteSample(sample.id))) {
      throw ApiError.notFound();
    }
    await this.removeFolder(this.collections.samples, sample.id);
    await this.events.publish('voice_samples', 'delete', sample);
  }

  /**
   * The voice `viewer` may speak with (own or public) and what generation needs from it; undefined when there
   * is no such voice (or it is someone else's private one).
   */
  async findUsable(viewer: string, id: string): Promise<UsableVoice | undefined> {
    if (!isRecordId(id)) {
      return undefined;
    }
    const voice = await this.repository.findVisible(id, viewer);
    if (!voice) {
      return undefined;
    }
    const entry = this.catalog.find(voice.model);
    if (!entry) {
      throw ApiError.field(
        'voice',
        'validation_unknown_model',
        `Voice "${voice.name}" uses model "${voice.model}", which is no longer in the catalog.`,
      );
    }
    const references: UsableVoice['references'] = [];
    if (canClone(entry) && !voice.presetVoice) {
      const collectionId = this.collections.samples;
      for (const sample of await this.repository.samplesOf([voice.id])) {
        const path = this.storage.filePath(collectionId, sample.id, sample.audio);
        if (!path) {
          continue;
        }
        references.push({ wav: await readFile(path), transcript: sample.transcript });
      }
    }
    return { voice, entry, references };
  }

  private checkSamplesFit(entry: CatalogEntry, seconds: number): void {
    if (!canClone(entry)) {
      throw ApiError.field(
        'model',
        'validation_not_a_cloning_model',
        `Model "${entry.id}" does not clone voices; delete the voice's samples before switching to it.`,
      );
    }
    checkReferenceLength(entry, 0, seconds);
  }

  /** A voice `viewer` may read, or 404. */
  private async visible(viewer: string, id: string): Promise<VoiceEntity> {
    const voice = isRecordId(id) ? await this.repository.findVisible(id, viewer) : null;
    if (!voice) {
      throw ApiError.notFound();
    }
    return voice;
  }

  /** A voice `owner` may change: 404 when they cannot see it, 403 when it is someone else's public voice. */
  private async owned(owner: string, id: string): Promise<VoiceEntity> {
    const voice = await this.visible(owner, id);
    if (voice.user !== owner) {
      throw new ApiError(403, 'Only the owner of a voice can change it.');
    }
    return voice;
  }

  private async respond(voice: VoiceEntity, viewer: string): Promise<VoiceDto> {
    const samples = await this.repository.samplesOf([voice.id]);
    return toVoiceDto(voice, samples, viewer, this.collections);
  }

  private withSampleLock<T>(voiceId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.sampleLocks.get(voiceId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.sampleLocks.set(voiceId, settled);
    void settled.then(() => {
      if (this.sampleLocks.get(voiceId) === settled) {
        this.sampleLocks.delete(voiceId);
      }
    });
    return run;
  }

  private async removeFile(collectionId: string, recordId: string, name: string): Promise<void> {
    await this.storage.remove(collectionId, recordId, name).catch((error: unknown) => {
      this.logger.warn(`could not remove ${collectionId}/${recordId}/${name}: ${String(error)}`);
    });
  }

  private async removeFolder(collectionId: string, recordId: string): Promise<void> {
    await this.storage.removeRecord(collectionId, recordId).catch((error: unknown) => {
      this.logger.warn(`could not remove the files of ${collectionId}/${recordId}: ${String(error)}`);
    });
  }
}

/** The detected type of an avatar upload; 400 unless it is an image of an accepted type. */
function checkAvatar(file: UploadedFileData): { extension: string } {
  const detected = detectMime(file.buffer);
  if (!AVATAR_MIME_TYPES.includes(detected.mime)) {
    throw ApiError.field(
      'avatar',
      'validation_invalid_mime_type',
      `The avatar must be a PNG, JPEG, GIF or WebP image (got ${detected.mime}).`,
    );
  }
  return { extension: detected.extension };
}
