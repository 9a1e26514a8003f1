import { ApiError } from '../errors/api-error';
import type { AuthContext } from '../../records/auth/auth-context';

/**
 * The users record id that owns what the request creates or reads (voices, generations). Superusers are not
 * users: they manage records in the `/_/` dashboard, and get a 403 here.
 */
export function ownerId(auth: AuthContext | null): string {
  if (!auth) {
    throw new ApiError(401, 'The request requires valid record authorization token.');
  }
  if (auth.collection !== 'users') {
    throw new ApiError(403, 'This action needs a user account (superusers use the dashboard at /_/).');
  }
  return auth.record.id;
}
