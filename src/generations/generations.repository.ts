import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, Repository } from 'typeorm';
import { GenerationEntity } from './generation.entity';

export interface GenerationListQuery {
  user: string;
  /** A Chorus voice id or a preset voice id. */
  voice?: string;
  model?: string;
  /** A base code ("en") also matches regional tags ("en-gb"). */
  language?: string;
  /** Record dates (`2006-01-02 15:04:05.000Z`): created >= from, created < toExclusive. */
  from?: string;
  toExclusive?: string;
  page: number;
  perPage: number;
}

/** The only place that touches the generations table. */
@Injectable()
export class GenerationsRepository {
  private readonly generations: Repository<GenerationEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.generations = dataSource.getRepository(GenerationEntity);
  }

  /** A page of a user's generations, newest first, and the total matching. */
  list(query: GenerationListQuery): Promise<[GenerationEntity[], number]> {
    const qb = this.generations
      .createQueryBuilder('generation')
      .where('generation.user = :user', { user: query.user });
    if (query.voice) {
      qb.andWhere(
        new Brackets((inner) =>
          inner
            .where('generation.voice = :voice', { voice: query.voice })
            .orWhere('generation.presetVoice = :voice', { voice: query.voice }),
        ),
      );
    }
    if (query.model) {
      qb.andWhere('generation.model = :model', { model: query.model });
    }
    if (query.language) {
      const language = query.language.toLowerCase();
      qb.andWhere(
        new Brackets((inner) =>
          inner
            .where('lower(generation.language) = :language', { language })
            .orWhere("lower(generation.language) LIKE :prefix ESCAPE '\\'", {
              prefix: `${language.replace(/[\\%_]/g, (char) => `\\${char}`)}-%`,
            }),
        ),
      );
    }
    if (query.from) {
      qb.andWhere('generation.created >= :from', { from: query.from });
    }
    if (query.toExclusive) {
      qb.andWhere('generation.created < :to', { to: query.toExclusive });
    }
    return qb
      .orderBy('generation.created', 'DESC')
      .addOrderBy('generation.id', 'DESC')
      .skip((query.page - 1) * query.perPage)
      .take(query.perPage)
      .getManyAndCount();
  }

  findOwned(id: string, user: string): Promise<GenerationEntity | null> {
    return this.generations.findOneBy({ id, user });
  }

  async insert(generation: GenerationEntity): Promise<void> {
    await this.generations.insert(generation);
  }

  /** Deletes a generation; false when it was already gone. */
  async delete(id: string): Promise<boolean> {
    const result = await this.generations.delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
