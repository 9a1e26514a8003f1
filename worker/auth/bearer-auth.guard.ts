import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';

import { ApiError } from '../common/api-error';
import { BearerTokenVerifier } from './bearer-token';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: with INFERENCE_AUTH_TOKEN set, every route but the `@Public()` ones needs the bearer token. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly verifier: BearerTokenVerifier,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.verifier.enabled) {
      return true;
    }
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) {
      return true;
    }
    const request = context.switchToHttp().getRequest<Request>();
    if (!this.verifier.verify(request.headers.authorization)) {
      throw ApiError.unauthorized();
    }
    return true;
  }
}
