import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, In, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { GenerationEntity } from '../generations/generation.entity';
import { VoiceSampleEntity } from './voice-sample.entity';
import { VoiceEntity } from './voice.entity';
import type { VoiceScope } from './dto/voice-input.dto';

export interface VoiceListQuery {
  /** The user asking: their own voices and public ones are visible. */
  viewer: string;
  scope: VoiceScope;
  search?: string;
  language?: string;
  model?: string;
  page: number;
  perPage: number;
}

/** What deleting a voice removed or changed, for files and realtime events. */
export interface DeletedVoice {
  samples: VoiceSampleEntity[];
  /** Generations made with the voice: their `voice` is now '' (the history keeps them, with the voice name). */
  unlinked: GenerationEntity[];
}

/** The only place that touches the voices and voice_samples tables. */
@Injectable()
export class VoicesRepository {
  private readonly voices: Repository<VoiceEntity>;
  private readonly samples: Repository<VoiceSampleEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.voices = dataSource.getRepository(VoiceEntity);
    this.samples = dataSource.getRepository(VoiceSampleEntity);
  }

  findById(id: string): Promise<VoiceEntity | null> {
    return this.voices.findOneBy({ id });
  }

  /** A voice `viewer` may read: their own, or a public one. */
  findVisible(id: string, viewer: string): Promise<VoiceEntity | null> {
    return this.voices
      .createQueryBuilder('voice')
      .where('voice.id = :id', { id })
      .andWhere(
        new Brackets((qb) => qb.where('voice.user = :viewer', { viewer }).orWhere('voice.public = 1')),
      )
      .getOne();
  }

  async list(query: VoiceListQuery): Promise<[VoiceEntity[], number]> {
    const qb = this.voices.createQueryBuilder('voice');
    this.applyFilters(qb, query);
    return qb
      .orderBy('voice.created', 'DESC')
      .addOrderBy('voice.id', 'DESC')
      .skip((query.page - 1) * query.perPage)
      .take(query.perPage)
      .getManyAndCount();
  }

  private applyFilters(qb: SelectQueryBuilder<VoiceEntity>, query: VoiceListQuery): void {
    switch (query.scope) {
      case 'mine':
        qb.where('voice.user = :viewer', { viewer: query.viewer });
        break;
      case 'public':
        qb.where('voice.public = 1');
        break;
      case 'all':
        qb.where(
          new Brackets((inner) =>
            inner.where('voice.user = :viewer', { viewer: query.viewer }).orWhere('voice.public = 1'),
          ),
        );
        break;
    }
    if (query.model) {
      qb.andWhere('voice.model = :model', { model: query.model });
    }
    if (query.language) {
      const language = query.language.toLowerCase();
      // A base code ("en") also matches regional tags ("en-gb"); a regional tag matches itself.
      qb.andWhere(
        new Brackets((inner) =>
          inner
            .where('lower(voice.language) = :language', { language })
            .orWhere("lower(voice.language) LIKE :prefix ESCAPE '\\'", {
              prefix: `${escapeLike(language)}-%`,
            }),
        ),
      );
    }
    const search = query.search?.trim();
    if (search) {
      const pattern = `%${escapeLike(search)}%`;
      qb.andWhere(
        new Brackets((inner) =>
          inner
            .where("voice.name LIKE :pattern ESCAPE '\\'", { pattern })
            .orWhere("voice.description LIKE :pattern ESCAPE '\\'", { pattern })
            .orWhere("voice.tags LIKE :pattern ESCAPE '\\'", { pattern }),
        ),
      );
    }
  }

  samplesOf(voiceIds: readonly string[]): Promise<VoiceSampleEntity[]> {
    if (voiceIds.length === 0) {
      return Promise.resolve([]);
    }
    return this.samples.find({
      where: { voice: In([...voiceIds]) },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  findSample(voiceId: string, sampleId: string): Promise<VoiceSampleEntity | null> {
    return this.samples.findOneBy({ id: sampleId, voice: voiceId });
  }

  async totalSampleSeconds(voiceId: string): Promise<number> {
    const row = await this.samples
      .createQueryBuilder('sample')
      .select('COALESCE(SUM(sample.duration), 0)', 'total')
      .where('sample.voice = :voiceId', { voiceId })
      .getRawOne<{ total: number }>();
    return Number(row?.total ?? 0);
  }

  async insert(voice: VoiceEntity): Promise<void> {
    // The JSON columns' object types are more than TypeORM's deep-partial type admits; the transformer stores them.
    await this.voices.insert(voice as QueryDeepPartialEntity<VoiceEntity>);
  }

  async update(voice: VoiceEntity): Promise<void> {
    const { id, ...changes } = voice;
    await this.voices.update({ id }, changes as QueryDeepPartialEntity<VoiceEntity>);
  }

  async insertSample(sample: VoiceSampleEntity): Promise<void> {
    await this.samples.insert(sample);
  }

  /** Deletes a sample; false when it was already gone. */
  async deleteSample(sampleId: string): Promise<boolean> {
    const result = await this.samples.delete({ id: sampleId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Deletes a voice and its samples, and unlinks generations made with it, in one transaction. Returns undefined
   * when the voice was already gone.
   */
  deleteVoice(voiceId: string, updated: string): Promise<DeletedVoice | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const samples = await manager.findBy(VoiceSampleEntity, { voice: voiceId });
      const unlinked = await manager.findBy(GenerationEntity, { voice: voiceId });
      await manager.delete(VoiceSampleEntity, { voice: voiceId });
      if (unlinked.length > 0) {
        await manager.update(GenerationEntity, { voice: voiceId }, { voice: '', updated });
      }
      const result = await manager.delete(VoiceEntity, { id: voiceId });
      if ((result.affected ?? 0) === 0) {
        return undefined;
      }
      return { samples, unlinked: unlinked.map((generation) => ({ ...generation, voice: '', updated })) };
    });
  }
}

/** Escapes LIKE wildcards (with `\` as the escape character). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
