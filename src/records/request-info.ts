import type { Request } from 'express';
import type { AuthContext } from './auth/auth-context';
import type { RequestInfo } from './rules';

/** What the rules of this request can read (`@request.auth`, `.query`, `.headers`, `.method`). */
export function requestInfo(request: Request, auth: AuthContext | null, context = 'default'): RequestInfo {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // The Authorization header is for authentication only, never something rules read back.
    if (name !== 'authorization' && name !== 'cookie') {
      headers[name] = value;
    }
  }
  return { auth, query: request.query, headers, method: request.method, context };
}
