import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newRecordId, recordDate } from '../common/records/record-id';
import { InferenceServerEntity } from './inference-server.entity';
import { RegistrationTokenEntity } from './registration-token.entity';

export type HealthUpdate = Pick<
  InferenceServerEntity,
  'status' | 'device' | 'version' | 'lastCheck' | 'lastError'
>;

/** The only place that touches the inference_servers and registration_tokens tables. */
@Injectable()
export class FleetRepository {
  constructor(
    @InjectRepository(InferenceServerEntity) private readonly servers: Repository<InferenceServerEntity>,
    @InjectRepository(RegistrationTokenEntity) private readonly tokens: Repository<RegistrationTokenEntity>,
  ) {}

  findById(id: string): Promise<InferenceServerEntity | null> {
    return this.servers.findOneBy({ id });
  }

  /**
   * Inserts a worker or updates the one with the same URL, in one statement (INSERT … ON CONFLICT(url) DO
   * UPDATE), so concurrent or repeated registrations never create duplicates. Re-registering re-enables it.
   */
  async upsertByUrl(values: {
    name: string;
    url: string;
    authToken: string;
  }): Promise<{ server: InferenceServerEntity; created: boolean }> {
    const now = recordDate();
    const id = newRecordId();
    await this.servers
      .createQueryBuilder()
      .insert()
      .into(InferenceServerEntity)
      .values({
        id,
        name: values.name,
        url: values.url,
        authToken: values.authToken,
        created: now,
        updated: now,
      })
      .orUpdate(['name', 'auth_token', 'enabled', 'updated'], ['url'])
      .execute();
    const server = await this.servers.findOneByOrFail({ url: values.url });
    return { server, created: server.id === id };
  }

  async update(
    id: string,
    changes: Partial<Pick<InferenceServerEntity, 'name' | 'enabled' | 'priority' | 'authToken'>>,
  ): Promise<void> {
    await this.servers.update({ id }, { ...changes, updated: recordDate() });
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.servers.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async insertRegistrationToken(token: RegistrationTokenEntity): Promise<void> {
    await this.tokens.insert(token);
  }

  findRegistrationToken(tokenHash: string): Promise<RegistrationTokenEntity | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  async touchRegistrationToken(id: string): Promise<void> {
    await this.tokens.update({ id }, { lastUsed: recordDate() });
  }

  /** Expired tokens are useless; keep the table small. */
  async deleteExpiredRegistrationTokens(now: string): Promise<void> {
    await this.tokens.createQueryBuilder().delete().where('expires < :now', { now }).execute();
  }

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
