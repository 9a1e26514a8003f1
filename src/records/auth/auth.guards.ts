import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error';
import type { AuthContext } from './auth-context';
import { AuthService } from './auth.service';

/** Where guards leave the resolved auth for @CurrentAuth(). */
const AUTH_KEY = 'chorusAuthContext';

type RequestWithContext = Request & { [AUTH_KEY]?: AuthContext | null };

async function load(service: AuthService, context: ExecutionContext): Promise<AuthContext | null> {
  const request = context.switchToHttp().getRequest<RequestWithContext>();
  const auth = await service.fromRequest(request);
  request[AUTH_KEY] = auth;
  return auth;
}

/** The caller's auth, or a 401 when the request carries no valid credentials. */
async function loadRequired(service: AuthService, context: ExecutionContext): Promise<AuthContext> {
  const auth = await load(service, context);
  if (!auth) {
    throw new ApiError(401, 'The request requires valid record authorization token.');
  }
  return auth;
}

const FORBIDDEN = 'The authorized record is not allowed to perform this action.';

/** Resolves the caller's auth (if any) for @CurrentAuth(); never rejects. */
@Injectable()
export class OptionalAuthGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await load(this.auth, context);
    return true;
  }
}

/** Requires a valid token of any auth collection (401 otherwise). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await loadRequired(this.auth, context);
    return true;
  }
}

/** Requires a superuser (401 without auth, 403 for anyone else). */
@Injectable()
export class SuperuserGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!(await loadRequired(this.auth, context)).isSuperuser) {
      throw new ApiError(403, FORBIDDEN);
    }
    return true;
  }
}

/** Requires an admin user or a superuser (401 without auth, 403 for anyone else). */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!(await loadRequired(this.auth, context)).isAdmin) {
      throw new ApiError(403, FORBIDDEN);
    }
    return true;
  }
}

/** The caller's AuthContext (or null), as resolved by one of the guards above on the same route. */
export const CurrentAuth = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthContext | null => {
    const request = context.switchToHttp().getRequest<RequestWithContext>();
    return request[AUTH_KEY] ?? null;
  },
);
