import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newRecordId, recordDate } from '../common/records/record-id';
import { InferenceServerEntity } from './inference-server.entity';

export type HealthUpdate = Pick<
  InferenceServerEntity,
  'status' | 'device' | 'version' | 'lastCheck' | 'lastError'
>;

/** The only place that touches the inference_servers table. */
@Injectable()
export class FleetRepository {
  constructor(
    @InjectRepository(InferenceServerEntity) private readonly servers: Repository<InferenceServerEntity>,
  ) {}

  list(): Promise<InferenceServerEntity[]> {
    return this.servers.find({ order: { priority: 'DESC', created: 'ASC' } });
  }

  findByUrl(url: string): Promise<InferenceServerEntity | null> {
    return this.servers.findOneBy({ url });
  }

  /**
   * Seeds the Local entry once (INSERT OR IGNORE on the unique url, so concurrent or repeated starts never
   * duplicate it). The token from the environment, when given, replaces the stored one at every start.
   */
  async seedLocal(url: string, authToken: string): Promise<void> {
    const now = recordDate();
    await this.servers
      .createQueryBuilder()
      .insert()
      .into(InferenceServerEntity)
      .values({ id: newRecordId(), name: 'Local', url, authToken, isLocal: true, created: now, updated: now })
      .orIgnore()
      .execute();
    if (authToken) {
      await this.servers.update({ url, isLocal: true }, { authToken });
    }
  }

  async updateHealth(id: string, update: HealthUpdate): Promise<void> {
    await this.servers.update({ id }, { ...update, updated: recordDate() });
  }
}
