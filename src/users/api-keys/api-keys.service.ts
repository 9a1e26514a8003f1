import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { newRecordId, recordDate } from '../../common/records/record-id';
import type { AuthContext } from '../../records/auth/auth-context';
import { AuthService } from '../../records/auth/auth.service';
import { CollectionRegistry } from '../../records/collections/collection-registry';
import { decodeRow } from '../../records/record-codec';
import { RecordsRepository } from '../../records/records.repository';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto, toApiKeyDto } from './dto/api-key.dto';

/** Every key starts with this, so an authenticator recognises its own tokens and secret scanners can too. */
export const API_KEY_PREFIX = 'chorus_';
const MAX_KEYS_PER_USER = 50;
/** `lastUsed` is written at most this often per key, so authenticated traffic does not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Users' API keys: created and revoked by their owner, accepted as `Authorization: Bearer <key>`. */
@Injectable()
export class ApiKeysService implements OnModuleInit {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly auth: AuthService,
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
  ) {}

  onModuleInit(): void {
    this.auth.registerAuthenticator({ name: 'apiKey', authenticate: (token) => this.authenticate(token) });
  }

  async create(owner: AuthContext, dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    this.assertUser(owner);
    if ((await this.keys.countForUser(owner.record.id)) >= MAX_KEYS_PER_USER) {
      throw ApiError.badRequest(
        `An account can hold at most ${MAX_KEYS_PER_USER} API keys; revoke unused ones first.`,
      );
    }
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    const entity: ApiKeyEntity = {
      id: newRecordId(),
      user: owner.record.id,
      name: dto.name.trim(),
      prefix: key.slice(0, API_KEY_PREFIX.length + 5),
      keyHash: hashApiKey(key),
      lastUsed: '',
      expires: dto.expiresInDays ? recordDate(new Date(now.getTime() + dto.expiresInDays * 86_400_000)) : '',
      created: recordDate(now),
      updated: recordDate(now),
    };
    await this.keys.insert(entity);
    return { ...toApiKeyDto(entity), key };
  }

  async list(owner: AuthContext): Promise<ApiKeyDto[]> {
    this.assertUser(owner);
    return (await this.keys.listForUser(owner.record.id)).map(toApiKeyDto);
  }

  async revoke(owner: AuthContext, id: string): Promise<void> {
    this.assertUser(owner);
    // Someone else's key answers exactly like a missing one.
    if (!(await this.keys.deleteForUser(id, owner.record.id))) {
      throw ApiError.notFound('API key not found.');
    }
  }

  /** The user behind an API key, or null (not a key, unknown, expired, or its user is gone). */
  async authenticate(token: string): Promise<AuthContext | null> {
    if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) {
      return null;
    }
    const hash = hashApiKey(token);
    const entity = await this.keys.findByHash(hash);
    if (!entity || !timingSafeEqual(Buffer.from(entity.keyHash), Buffer.from(hash))) {
      return null;
    }
    const now = new Date();
    if (entity.expires && entity.expires <= recordDate(now)) {
      return null;
    }
    const users = this.registry.getAuth('users');
    const row = await this.records.findById(users, entity.user);
    if (!row) {
      return null;
    }
    if (
      !entity.lastUsed ||
      now.getTime() - Date.parse(entity.lastUsed.replace(' ', 'T')) > TOUCH_INTERVAL_MS
    ) {
      await this.keys.touch(entity.id, recordDate(now));
    }
    return this.auth.contextFor(users, decodeRow(users, row), 'apiKey');
  }

  private assertUser(owner: AuthContext): void {
    if (owner.collection !== 'users') {
      throw new ApiError(403, 'API keys belong to user accounts; superusers cannot hold them.');
    }
    if (owner.method === 'apiKey') {
      // A leaked key must not be able to mint or list further keys.
      throw new ApiError(403, 'API keys cannot manage API keys: sign in with your password.');
    }
  }
}
