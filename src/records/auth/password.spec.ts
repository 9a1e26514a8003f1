import { hashPassword, newTokenKey, verifyPassword } from './password';

// Cheaper parameters than production (2^15) keep the unit tier fast; the format and checks are the same.
const FAST = { log2N: 10, r: 8, p: 1 };

describe('password hashing (scrypt)', () => {
  it('stores a salted, self-describing scrypt hash that verifies only the right password', async () => {
    const hash = await hashPassword('correct horse', FAST);
    expect(hash).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct hors', hash)).resolves.toBe(false);
    await expect(verifyPassword('', hash)).resolves.toBe(false);
  });

  it('uses a fresh salt each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same', FAST), hashPassword('same', FAST)]);
    expect(a).not.toBe(b);
  });

  it('uses N = 2^15 by default', async () => {
    expect((await hashPassword('x')).split('$').slice(0, 4)).toEqual(['scrypt', '15', '8', '1']);
  });

  it('treats unicode forms alike (NFC)', async () => {
    const hash = await hashPassword('caf\u00e9', FAST);
    await expect(verifyPassword('cafe\u0301', hash)).resolves.toBe(true);
  });

  it('refuses malformed or out-of-range hashes instead of throwing', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$10$8$1$c2FsdA==',
      'bcrypt$10$8$1$a$b',
      'scrypt$30$8$1$c2FsdA==$aGFzaA==',
      'scrypt$x$8$1$a$b',
    ]) {
      await expect(verifyPassword('anything', stored)).resolves.toBe(false);
    }
  });

  it('makes distinct random token keys', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newTokenKey()));
    expect(keys.size).toBe(100);
    expect([...keys][0]).toMatch(/^[A-Za-z0-9_-]{48}$/);
  });
});
