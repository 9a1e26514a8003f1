import { createHmac } from 'node:crypto';
import { decodeJwtUnverified, signJwt, verifyJwt } from './jwt';

describe('HS256 JWT', () => {
  const now = 1_700_000_000;
  const claims = {
    id: 'abc123def456ghi',
    type: 'auth',
    collectionId: '_pb_users_auth_',
    refreshable: true,
    exp: now + 60,
  };

  it('signs a standard HS256 token that verifies with the same key only', () => {
    const token = signJwt(claims, 'key-1');
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual(claims);
    // Interoperable: the signature is the plain HMAC-SHA256 of "header.payload".
    expect(signature).toBe(createHmac('sha256', 'key-1').update(`${header}.${payload}`).digest('base64url'));
    expect(verifyJwt(token, 'key-1', now)).toEqual(claims);
    expect(verifyJwt(token, 'key-2', now)).toBeNull();
  });

  it('rejects expired tokens and tokens without exp', () => {
    expect(verifyJwt(signJwt(claims, 'k'), 'k', now + 61)).toBeNull();
    expect(verifyJwt(signJwt({ id: 'x' }, 'k'), 'k', now)).toBeNull();
  });

  it('rejects tampered payloads, other algorithms and garbage', () => {
    const token = signJwt(claims, 'k');
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, id: 'someone-else' })).toString('base64url');
    expect(verifyJwt(`${header}.${forged}.${signature}`, 'k', now)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyJwt(`${none}.${token.split('.')[1]}.`, 'k', now)).toBeNull();
    for (const garbage of ['', 'a.b', 'a.b.c', '...', `${header}.!!!.${signature}`, `${token}.extra`]) {
      expect(verifyJwt(garbage, 'k', now)).toBeNull();
    }
    expect(verifyJwt(`${token.slice(0, -2)}AA`, 'k', now)).toBeNull();
  });

  it('decodes claims without verifying (to find whose key to verify with)', () => {
    expect(decodeJwtUnverified(signJwt(claims, 'whatever'))).toEqual(claims);
    expect(decodeJwtUnverified('not a token')).toBeNull();
  });
});
