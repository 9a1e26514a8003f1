import { Body, Controller, HttpCode, Post, Req, Sse, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ApiError, FieldError } from '../../common/errors/api-error';
import type { AuthContext } from '../auth/auth-context';
import { CurrentAuth, OptionalAuthGuard } from '../auth/auth.guards';
import { AuthService } from '../auth/auth.service';
import { RealtimeBroker, SseMessage } from './realtime-broker';

/** PocketBase's realtime API: an SSE stream per client, and its subscriptions set with a POST. */
@ApiExcludeController()
@Controller('realtime')
export class RealtimeController {
  constructor(
    private readonly broker: RealtimeBroker,
    private readonly auth: AuthService,
  ) {}

  /** Opens the stream: `PB_CONNECT` with the client id first, then the events of its subscriptions. */
  @Sse()
  connectRealtime(@Req() request: Request): Observable<SseMessage> {
    return this.broker.connect(request.ip ?? '');
  }

  /**
   * Sets a client's subscriptions (`<collection>/*`, `<collection>/<id>`, each with optional `?options=`). The
   * auth of THIS request becomes the client's auth; a client that had one cannot switch to another.
   */
  @Post()
  @HttpCode(204)
  @UseGuards(OptionalAuthGuard)
  setSubscriptions(
    @Body() body: unknown,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): void {
    const { clientId, subscriptions } = readSubscribeForm(body);
    const client = this.broker.client(clientId);
    if (!client) {
      throw ApiError.notFound('Missing or invalid client id.');
    }
    if (client.ip && client.ip !== (request.ip ?? '')) {
      throw ApiError.badRequest('Invalid realtime client.');
    }
    if (
      client.auth &&
      (!auth || auth.collectionId !== client.auth.collectionId || auth.record.id !== client.auth.record.id)
    ) {
      throw new ApiError(403, "The current and the previous request authorization don't match.");
    }
    client.auth = auth;
    client.authTokenKey = auth ? this.auth.tokenKeyOf(auth) : '';
    this.broker.setSubscriptions(client, subscriptions);
  }
}

function readSubscribeForm(body: unknown): { clientId: string; subscriptions: string[] } {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const errors: Record<string, FieldError> = {};
  const clientId = source.clientId;
  if (typeof clientId !== 'string' || clientId === '') {
    errors.clientId = { code: 'validation_required', message: 'Cannot be blank.' };
  } else if (clientId.length > 255) {
    errors.clientId = {
      code: 'validation_length_out_of_range',
      message: 'The length must be between 1 and 255.',
    };
  }
  const raw = source.subscriptions ?? [];
  if (
    !Array.isArray(raw) ||
    raw.length > 1000 ||
    raw.some((item) => typeof item !== 'string' || item.length > 2500)
  ) {
    errors.subscriptions = {
      code: 'validation_invalid_value',
      message: 'Must be a list of at most 1000 topics of at most 2500 characters.',
    };
  }
  if (Object.keys(errors).length > 0) {
    throw ApiError.badRequest('Something went wrong while processing your request.', errors);
  }
  return { clientId: clientId as string, subscriptions: raw as string[] };
}
