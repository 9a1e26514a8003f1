import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { TestAccount, call, signUp } from '../support/accounts';
import { Stack, startStack, waitFor } from '../support/processes';

interface ServerView {
  id: string;
  name: string;
  url: string;
  status: string;
  device: string;
  isLocal: boolean;
  hasAuthToken: boolean;
  authToken?: unknown;
}

/** Runs one statement on the service's real SQLite file (used only to plant an already-expired token). */
function runSql(file: string, sql: string, params: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new Database(file);
    db.run(sql, params, (error) => {
      db.close();
      if (error) {
        reject(error);
      } else {
        resolve();
      }
    });
  });
}

describe('fleet, registration tokens, API keys and who may do what', () => {
  let stack: Stack;
  let admin: TestAccount;
  let user: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    stack = await startStack();
    admin = await signUp(stack.api.url, 'admin');
    user = await signUp(stack.api.url, 'user');
    other = await signUp(stack.api.url, 'other');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(stack.api.url, method, path, options);

  it('makes the first account the admin and no other', () => {
    expect([admin.role, user.role, other.role]).toEqual(['admin', 'user', 'user']);
  });

  describe('permissions matrix', () => {
    const ANON = 'anonymous';
    const USER = 'user';
    const ADMIN = 'admin';
    const cases: [string, string, Record<string, number>, unknown?][] = [
      ['GET', '/api/health', { [ANON]: 200, [USER]: 200, [ADMIN]: 200 }],
      ['GET', '/api/version', { [ANON]: 200, [USER]: 200, [ADMIN]: 200 }],
      ['GET', '/api/models/catalog', { [ANON]: 401, [USER]: 200, [ADMIN]: 200 }],
      ['GET', '/api/models/installed', { [ANON]: 401, [USER]: 200, [ADMIN]: 200 }],
      ['POST', '/api/models/no-such-model/pull', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }, {}],
      ['POST', '/api/models/espeak-ng/pull', { [ANON]: 401, [USER]: 403, [ADMIN]: 409 }, {}],
      ['DELETE', '/api/models/no-such-model', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }],
      ['DELETE', '/api/models/espeak-ng', { [ANON]: 401, [USER]: 403, [ADMIN]: 409 }],
      ['GET', '/api/jobs', { [ANON]: 401, [USER]: 403, [ADMIN]: 200 }],
      ['GET', '/api/jobs/nope', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }],
      ['DELETE', '/api/jobs/nope', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }],
      ['GET', '/api/inference-servers', { [ANON]: 401, [USER]: 403, [ADMIN]: 200 }],
      ['POST', '/api/inference-servers/registration-tokens', { [ANON]: 401, [USER]: 403, [ADMIN]: 201 }],
      ['PATCH', '/api/inference-servers/nope', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }, { priority: 1 }],
      ['DELETE', '/api/inference-servers/nope', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }],
      ['POST', '/api/inference-servers/nope/check', { [ANON]: 401, [USER]: 403, [ADMIN]: 404 }],
      ['GET', '/api/keys', { [ANON]: 401, [USER]: 200, [ADMIN]: 200 }],
      ['DELETE', '/api/keys/nope', { [ANON]: 401, [USER]: 404, [ADMIN]: 404 }],
    ];
    it.each(
      cases.flatMap(([method, path, expected, body]) =>
        Object.entries(expected).map(([who, status]) => [method, path, who, status, body] as const),
      ),
    )('%s %s as %s → %i', async (method, path, who, status, body) => {
      const account = who === ADMIN ? admin : who === USER ? user : null;
      const response = await api(method, path, { account, body });
      expect(response.status).toBe(status);
      if (status >= 400) {
        expect(response.body).toMatchObject({
          status,
          message: expect.any(String),
          data: expect.any(Object),
        });
      }
    });
  });

  it('lists the embedded engine as installed on the Local worker', async () => {
    await waitFor(
      async () =>
        ((await api('GET', '/api/health')).body as { fleet: { online: number } }).fleet.online === 1 ||
        undefined,
    );
    const installed = (await api('GET', '/api/models/installed', { account: user })).body as {
      id: string;
      workers: { serverName: string }[];
    }[];
    const espeak = installed.find((model) => model.id === 'espeak-ng');
    expect(espeak?.workers.map((worker) => worker.serverName)).toEqual(['Local']);
  });

  describe('API keys', () => {
    it('authenticate like the user, are listed without their secret, and stop working when revoked', async () => {
      const created = await api('POST', '/api/keys', { account: user, body: { name: 'script' } });
      expect(created.status).toBe(201);
      const { key, id, prefix } = created.body as { key: string; id: string; prefix: string };
      expect(key).toMatch(/^chorus_/);
      expect(key.startsWith(prefix)).toBe(true);

      const withKey = await api('GET', '/api/models/catalog', { authorization: `Bearer ${key}` });
      expect(withKey.status).toBe(200);
      const listed = await api('GET', '/api/keys', { account: user });
      expect(JSON.stringify(listed.body)).not.toContain(key);
      expect(JSON.stringify(listed.body)).not.toMatch(/hash/i);
      expect(
        (listed.body as { id: string; lastUsed: string }[]).find((entry) => entry.id === id)?.lastUsed,
      ).not.toBe('');

      // Keys are private: another user neither sees nor revokes them, and a key cannot mint keys.
      expect(((await api('GET', '/api/keys', { account: other })).body as unknown[]).length).toBe(0);
      expect((await api('DELETE', `/api/keys/${id}`, { account: other })).status).toBe(404);
      expect(
        (await api('POST', '/api/keys', { authorization: `Bearer ${key}`, body: { name: 'x' } })).status,
      ).toBe(403);

      expect((await api('DELETE', `/api/keys/${id}`, { account: user })).status).toBe(204);
      expect((await api('GET', '/api/models/catalog', { authorization: `Bearer ${key}` })).status).toBe(401);
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'ok', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'ok', expiresInDays: 'soon' }, 'expiresInDays'],
      [{ name: 'ok', admin: true }, 'admin'],
    ])('rejects %j naming %s', async (body, field) => {
      const response = await api('POST', '/api/keys', { account: user, body });
      expect(response.status).toBe(400);
      expect((response.body as { data: Record<string, unknown> }).data[field]).toBeDefined();
    });
  });

  describe('registration', () => {
    async function newToken(): Promise<string> {
      const response = await api('POST', '/api/inference-servers/registration-tokens', { account: admin });
      expect(response.status).toBe(201);
      const { token, expiresAt } = response.body as { token: string; expiresAt: string };
      const lifetime = Date.parse(expiresAt) - Date.now();
      expect(lifetime).toBeGreaterThan(59 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(60 * 60_000);
      return token;
    }

    it('refuses a missing, wrong or expired registration token with 401', async () => {
      const body = { name: 'x', url: 'http://127.0.0.1:9', authToken: null };
      expect((await api('POST', '/api/inference-servers/register', { body })).status).toBe(401);
      expect(
        (
          await api('POST', '/api/inference-servers/register', {
            body,
            authorization: 'Bearer chorusreg_nope',
          })
        ).status,
      ).toBe(401);
      // A user's login token is not a registration token.
      expect((await api('POST', '/api/inference-servers/register', { body, account: admin })).status).toBe(
        401,
      );

      const expired = `chorusreg_${randomBytes(32).toString('base64url')}`;
      await runSql(
        join(stack.dataDir, 'pb_data', 'data.db'),
        'INSERT INTO registration_tokens (id, token_hash, created_by, expires, created) VALUES (?, ?, ?, ?, ?)',
        [
          'expiredtoken001',
          createHash('sha256').update(expired).digest('hex'),
          admin.id,
          '2020-01-01 00:00:00.000Z',
          '2020-01-01 00:00:00.000Z',
        ],
      );
      const response = await api('POST', '/api/inference-servers/register', {
        body,
        authorization: `Bearer ${expired}`,
      });
      expect(response.status).toBe(401);
      expect((response.body as { message: string }).message).toMatch(/expired/);
    });

    it.each([
      ['http://169.254.169.254/latest', 'url'],
      ['http://[fe80::1]:8000', 'url'],
      ['ftp://worker:8000', 'url'],
      ['http://user:pw@worker:8000', 'url'],
    ])('refuses the worker URL %s', async (url, field) => {
      const token = await newToken();
      const response = await api('POST', '/api/inference-servers/register', {
        body: { name: 'bad', url, authToken: null },
        authorization: `Bearer ${token}`,
      });
      expect(response.status).toBe(400);
      expect((response.body as { data: Record<string, unknown> }).data[field]).toBeDefined();
    });

    it('upserts by URL: repeated and concurrent registrations never duplicate, and the token stays hidden', async () => {
      const token = await newToken();
      const register = (name: string) =>
        api('POST', '/api/inference-servers/register', {
          body: { name, url: 'http://127.0.0.1:9/', authToken: 'worker-secret-token' },
          authorization: `Bearer ${token}`,
        });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(`dup-${i}`)));
      expect(results.map((result) => result.status)).toEqual(Array(6).fill(200));
      expect(results.filter((result) => (result.body as { created: boolean }).created)).toHaveLength(1);
      await register('dup-final');
      const servers = (await api('GET', '/api/inference-servers', { account: admin })).body as ServerView[];
      const matching = servers.filter((server) => server.url === 'http://127.0.0.1:9');
      expect(matching).toHaveLength(1);
      expect(matching[0]).toMatchObject({ name: 'dup-final', hasAuthToken: true, status: 'offline' });
      expect(JSON.stringify(servers)).not.toContain('worker-secret-token');
      // Admins can rename, disable and remove it; the Local server cannot be removed.
      expect(
        (
          await api('PATCH', `/api/inference-servers/${matching[0].id}`, {
            account: admin,
            body: { enabled: false },
          })
        ).body,
      ).toMatchObject({ enabled: false });
      expect(
        (await api('DELETE', `/api/inference-servers/${matching[0].id}`, { account: admin })).status,
      ).toBe(204);
      const local = servers.find((server) => server.isLocal)!;
      expect((await api('DELETE', `/api/inference-servers/${local.id}`, { account: admin })).status).toBe(
        400,
      );
    });
  });
});
