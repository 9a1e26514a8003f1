import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

/** The only place that touches the api_keys table. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  insert(key: ApiKeyEntity): Promise<unknown> {
    return this.keys.insert(key);
  }

  listForUser(user: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { user }, order: { created: 'DESC' } });
  }

  countForUser(user: string): Promise<number> {
    return this.keys.count({ where: { user } });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash });
  }

  async deleteForUser(id: string, user: string): Promise<boolean> {
    const result = await this.keys.delete({ id, user });
    return (result.affected ?? 0) > 0;
  }

  async touch(id: string, lastUsed: string): Promise<void> {
    await this.keys.update({ id }, { lastUsed });
  }
}
