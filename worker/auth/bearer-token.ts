import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `Authorization: Bearer <token>` headers against the configured token in constant time: both sides are
 * hashed to equal-length digests first, so neither the token's content nor its length leaks through timing.
 */
export class BearerTokenVerifier {
  private readonly expected: Buffer | undefined;

  constructor(token: string | undefined) {
    this.expected = token ? digest(token) : undefined;
  }

  /** False when no token is configured (the worker is open). */
  get enabled(): boolean {
    return this.expected !== undefined;
  }

  /** True when authentication is disabled or the header carries the token. */
  verify(authorization: string | string[] | undefined): boolean {
    if (!this.expected) {
      return true;
    }
    if (typeof authorization !== 'string') {
      return false;
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) {
      return false;
    }
    return timingSafeEqual(digest(match[1]), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
