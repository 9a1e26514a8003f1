import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { newRecordId, recordDate } from '../common/records/record-id';
import type { AuthContext } from '../records/auth/auth-context';
import { tokenFromHeader } from '../records/auth/auth.service';
import { RecordEvents } from '../records/realtime/record-events';
import {
  InferenceServerDto,
  RegisterWorkerDto,
  RegisteredWorkerDto,
  RegistrationTokenDto,
  UpdateInferenceServerDto,
  toInferenceServerDto,
} from './dto/inference-server.dto';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';
import { WorkerUrlError, assertWorkerUrlAllowed, normaliseWorkerUrl } from './worker-url';

/** SPEC §8: a registration token lives one hour. */
export const REGISTRATION_TOKEN_TTL_MS = 60 * 60 * 1000;
const TOKEN_PREFIX = 'chorusreg_';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Registration tokens, self-registration of workers (upsert by URL) and the admin's fleet operations. */
@Injectable()
export class RegistrationService {
  private readonly logger = new Logger(RegistrationService.name);

  constructor(
    private readonly repository: FleetRepository,
    private readonly fleet: FleetService,
    private readonly events: RecordEvents,
  ) {}

  async list(): Promise<InferenceServerDto[]> {
    return (await this.repository.list()).map(toInferenceServerDto);
  }

  async createToken(admin: AuthContext): Promise<RegistrationTokenDto> {
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    const expires = new Date(now.getTime() + REGISTRATION_TOKEN_TTL_MS);
    await this.repository.deleteExpiredRegistrationTokens(recordDate(now));
    await this.repository.insertRegistrationToken({
      id: newRecordId(),
      tokenHash: hashToken(token),
      createdBy: admin.record.id,
      expires: recordDate(expires),
      lastUsed: '',
      created: recordDate(now),
    });
    return { token, expiresAt: expires.toISOString() };
  }

  /** The worker's call: a valid, unexpired registration token, then an upsert keyed by the normalised URL. */
  async register(authorization: string | undefined, dto: RegisterWorkerDto): Promise<RegisteredWorkerDto> {
    const token = tokenFromHeader(authorization);
    const stored = token.startsWith(TOKEN_PREFIX)
      ? await this.repository.findRegistrationToken(hashToken(token))
      : null;
    if (!stored || stored.expires <= recordDate()) {
      throw new ApiError(
        401,
        'The registration token is missing, wrong or expired. Create a new one in Administration.',
      );
    }
    let url: string;
    try {
      url = normaliseWorkerUrl(dto.url);
      await assertWorkerUrlAllowed(url);
    } catch (error) {
      if (error instanceof WorkerUrlError) {
        throw ApiError.field('url', 'validation_invalid_url', `The worker URL ${error.message}.`);
      }
      throw error;
    }
    await this.repository.touchRegistrationToken(stored.id);
    const { server, created } = await this.repository.upsertByUrl({
      name: dto.name.trim(),
      url,
      authToken: dto.authToken ?? '',
    });
    this.logger.log(`worker "${server.name}" (${server.url}) ${created ? 'registered' : 're-registered'}`);
    await this.events.publish('inference_servers', created ? 'create' : 'update', server);
    // Probe it now so the Administration page shows its status and device without waiting for the next round.
    await this.fleet.checkAll();
    const probed = (await this.repository.findById(server.id)) ?? server;
    return { server: toInferenceServerDto(probed), created };
  }

  async update(id: string, dto: UpdateInferenceServerDto): Promise<InferenceServerDto> {
    await this.require(id);
    await this.repository.update(id, dto);
    const server = await this.require(id);
    await this.events.publish('inference_servers', 'update', server);
    await this.fleet.checkAll();
    return toInferenceServerDto((await this.repository.findById(id)) ?? server);
  }

  async remove(id: string): Promise<void> {
    const server = await this.require(id);
    if (server.isLocal) {
      throw ApiError.badRequest(
        'The Local server is seeded from INFERENCE_URL at every start; disable it instead.',
      );
    }
    await this.repository.delete(id);
    await this.events.publish('inference_servers', 'delete', server);
    await this.fleet.checkAll();
  }

  async check(id: string): Promise<InferenceServerDto> {
    await this.require(id);
    await this.fleet.checkAll();
    return toInferenceServerDto(await this.require(id));
  }

  private async require(id: string) {
    const server = await this.repository.findById(id);
    if (!server) {
      throw ApiError.notFound('Inference server not found.');
    }
    return server;
  }
}
