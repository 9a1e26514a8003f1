import { createHmac, timingSafeEqual } from 'node:crypto';

/** HS256 JSON Web Tokens (the only algorithm accepted; `alg` in the header is checked, never trusted). */

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export type JwtClaims = Record<string, unknown> & { exp?: number };

function sign(data: string, key: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

export function signJwt(claims: JwtClaims, key: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const data = `${HEADER}.${payload}`;
  return `${data}.${sign(data, key).toString('base64url')}`;
}

/** The claims of a token without checking its signature (to find whose key verifies it), or null. */
export function decodeJwtUnverified(token: string): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) {
    return null;
  }
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') {
      return null;
    }
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as JwtClaims)
      : null;
  } catch {
    return null;
  }
}

/** The claims when the signature matches `key` (constant-time) and the token has not expired; null otherwise. */
export function verifyJwt(token: string, key: string, nowSeconds = Date.now() / 1000): JwtClaims | null {
  const claims = decodeJwtUnverified(token);
  if (!claims) {
    return null;
  }
  const [header, payload, signature] = token.split('.');
  const expected = sign(`${header}.${payload}`, key);
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return null;
  }
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) {
    return null;
  }
  return claims;
}
