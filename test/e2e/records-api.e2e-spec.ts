import { rmSync } from 'node:fs';
import { ServiceProcess, runSuperuserCli, startApi, tempDir } from '../support/processes';

const PASSWORD = 'a long enough password';

interface ErrorBody {
  status: number;
  message: string;
  data: Record<string, { code: string; message: string }>;
}

type Actor = 'guest' | 'user' | 'other' | 'admin' | 'superuser';

/** One API scenario (PocketBase's tests/api.go style): request, who asks, what must and must not come back. */
interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `:user`, `:other`, `:admin` are replaced by those accounts' ids. */
  path: string;
  as: Actor;
  body?: unknown;
  /** A raw body with its content type (multipart, broken JSON...). */
  raw?: () => { body: RequestInit['body']; type?: string };
  status: number;
  /** `data.<field>.code` of the error. */
  field?: [string, string];
  message?: string | RegExp;
  contains?: string[];
  notContains?: string[];
}

describe('records API: every status code, table-driven', () => {
  let api: ServiceProcess;
  let dataDir: string;
  const ids: Record<string, string> = {};
  const tokens: Record<Actor, string> = { guest: '', user: '', other: '', admin: '', superuser: '' };

  async function call(
    method: string,
    path: string,
    as: Actor,
    body?: unknown,
    raw?: Scenario['raw'],
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (tokens[as]) {
      headers.Authorization = tokens[as];
    }
    let payload: RequestInit['body'];
    if (raw) {
      const made = raw();
      payload = made.body;
      if (made.type) {
        headers['content-type'] = made.type;
      }
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const resolved = path.replace(/:(user|other|admin)\b/g, (_match, name: string) => ids[name]);
    return fetch(`${api.url}${resolved}`, { method, headers, body: payload });
  }

  async function signUp(email: string): Promise<string> {
    const response = await call('POST', '/api/collections/users/records', 'guest', {
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { id: string }).id;
  }

  async function signIn(collection: string, email: string): Promise<string> {
    const response = await call('POST', `/api/collections/${collection}/auth-with-password`, 'guest', {
      identity: email,
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }

  beforeAll(async () => {
    dataDir = tempDir('records-api');
    api = await startApi(dataDir);
    ids.admin = await signUp('admin@example.com');
    ids.user = await signUp('user@example.com');
    ids.other = await signUp('other@example.com');
    const cli = runSuperuserCli(dataDir, ['upsert', 'root@example.com', PASSWORD]);
    expect(cli.status).toBe(0);
    tokens.admin = await signIn('users', 'admin@example.com');
    tokens.user = `Bearer ${await signIn('users', 'user@example.com')}`;
    tokens.other = await signIn('users', 'other@example.com');
    tokens.superuser = await signIn('_superusers', 'root@example.com');
  });

  afterAll(async () => {
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newUser = (email: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    ...extra,
  });

  const scenarios: Scenario[] = [
    // 200 / 204
    {
      name: 'own record',
      method: 'GET',
      path: '/api/collections/users/records/:user',
      as: 'user',
      status: 200,
      contains: ['"user@example.com"'],
      notContains: ['password', 'tokenKey'],
    },
    {
      name: 'list by collection id',
      method: 'GET',
      path: '/api/collections/_pb_users_auth_/records',
      as: 'admin',
      status: 200,
      contains: ['"totalItems":3'],
      notContains: ['tokenKey', 'scrypt'],
    },
    {
      name: 'superuser sees all users',
      method: 'GET',
      path: '/api/collections/users/records?perPage=2',
      as: 'superuser',
      status: 200,
      contains: ['"perPage":2', '"totalItems":3', '"totalPages":2'],
    },
    {
      name: 'superusers list for a superuser',
      method: 'GET',
      path: '/api/collections/_superusers/records',
      as: 'superuser',
      status: 200,
      contains: ['root@example.com'],
      notContains: ['password', 'tokenKey'],
    },
    {
      name: 'workers for an admin, token hidden',
      method: 'GET',
      path: '/api/collections/inference_servers/records',
      as: 'admin',
      status: 200,
      contains: ['"Local"'],
      notContains: ['authToken'],
    },
    {
      name: 'auth methods',
      method: 'GET',
      path: '/api/collections/users/auth-methods?fields=password',
      as: 'guest',
      status: 200,
      contains: ['"identityFields":["email"]'],
      notContains: ['oauth2'],
    },
    {
      name: 'collections for a superuser',
      method: 'GET',
      path: '/api/collections',
      as: 'superuser',
      status: 200,
      contains: ['"recordCount"', '"inference_servers"'],
    },
    {
      name: 'one collection by name',
      method: 'GET',
      path: '/api/collections/users',
      as: 'superuser',
      status: 200,
      contains: ['"manageRule"', '"avatar"'],
    },
    {
      name: 'file token',
      method: 'POST',
      path: '/api/files/token',
      as: 'user',
      status: 200,
      contains: ['"token"'],
    },
    {
      name: 'create with a custom id',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: newUser('custom@example.com', { id: 'abcdefghij12345' }),
      status: 200,
      contains: ['"abcdefghij12345"'],
    },
    {
      name: 'delete own account',
      method: 'DELETE',
      path: '/api/collections/users/records/abcdefghij12345',
      as: 'superuser',
      status: 204,
    },
    {
      name: 'multipart create with @jsonPayload',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      raw: () => {
        const form = new FormData();
        form.append('@jsonPayload', JSON.stringify(newUser('multi@example.com', { name: 'From JSON' })));
        return { body: form };
      },
      status: 200,
      contains: ['"From JSON"', '"role":"user"'],
    },
    // 400
    {
      name: 'missing e-mail',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: { password: PASSWORD, passwordConfirm: PASSWORD },
      status: 400,
      field: ['email', 'validation_required'],
      message: 'Failed to create record.',
    },
    {
      name: 'malformed e-mail',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: newUser('not-an-email'),
      status: 400,
      field: ['email', 'validation_is_email'],
    },
    {
      name: 'duplicate e-mail (any case)',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: newUser('USER@example.com'),
      status: 400,
      field: ['email', 'validation_not_unique'],
    },
    {
      name: 'short password',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: { email: 'short@example.com', password: 'short', passwordConfirm: 'short' },
      status: 400,
      field: ['password', 'validation_min_text_constraint'],
    },
    {
      name: 'password confirmation mismatch',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: { email: 'x@example.com', password: PASSWORD, passwordConfirm: 'different!' },
      status: 400,
      field: ['passwordConfirm', 'validation_values_mismatch'],
    },
    {
      name: 'sign up as admin',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      body: newUser('sneaky@example.com', { role: 'admin' }),
      status: 400,
      field: ['role', 'validation_manage_only'],
    },
    {
      name: 'invalid select value',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'admin',
      body: { role: 'owner' },
      status: 400,
      field: ['role', 'validation_invalid_value'],
    },
    {
      name: 'promote oneself',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'user',
      body: { role: 'admin' },
      status: 400,
      field: ['role', 'validation_manage_only'],
    },
    {
      name: 'verify oneself',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'user',
      body: { verified: true },
      status: 400,
      field: ['verified', 'validation_manage_only'],
    },
    {
      name: 'password change without the old one',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'user',
      body: { password: 'another password', passwordConfirm: 'another password' },
      status: 400,
      field: ['oldPassword', 'validation_invalid_old_password'],
    },
    {
      name: 'malformed filter',
      method: 'GET',
      path: `/api/collections/users/records?filter=${encodeURIComponent('name = ')}`,
      as: 'admin',
      status: 400,
      message: /position/,
      notContains: ['SELECT', 'SQLITE'],
    },
    {
      name: 'hidden field in a filter',
      method: 'GET',
      path: `/api/collections/users/records?filter=${encodeURIComponent('password != ""')}`,
      as: 'admin',
      status: 400,
    },
    {
      name: 'malformed sort',
      method: 'GET',
      path: '/api/collections/users/records?sort=-',
      as: 'admin',
      status: 400,
      field: ['sort', 'validation_invalid_sort'],
    },
    {
      name: 'malformed JSON body',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      raw: () => ({ body: '{"email": ', type: 'application/json' }),
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'malformed @jsonPayload',
      method: 'POST',
      path: '/api/collections/users/records',
      as: 'guest',
      raw: () => {
        const form = new FormData();
        form.append('@jsonPayload', '{nope');
        return { body: form };
      },
      status: 400,
      field: ['@jsonPayload', 'validation_invalid_json'],
    },
    {
      name: 'sign-in without a password',
      method: 'POST',
      path: '/api/collections/users/auth-with-password',
      as: 'guest',
      body: { identity: 'user@example.com' },
      status: 400,
      field: ['password', 'validation_required'],
    },
    {
      name: 'sign-in with a wrong password',
      method: 'POST',
      path: '/api/collections/users/auth-with-password',
      as: 'guest',
      body: { identity: 'other@example.com', password: 'wrong password' },
      status: 400,
      message: 'Failed to authenticate.',
    },
    {
      name: 'wrong mime type for an avatar',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'user',
      raw: () => {
        const form = new FormData();
        form.append('avatar', new File(['%PDF-1.4 not an image'], 'doc.png'));
        return { body: form };
      },
      status: 400,
      field: ['avatar', 'validation_invalid_mime_type'],
    },
    {
      name: 'realtime subscription without a client id',
      method: 'POST',
      path: '/api/realtime',
      as: 'guest',
      body: { subscriptions: [] },
      status: 400,
      field: ['clientId', 'validation_required'],
    },
    // 401
    {
      name: 'refresh without a token',
      method: 'POST',
      path: '/api/collections/users/auth-refresh',
      as: 'guest',
      status: 401,
    },
    { name: 'file token without auth', method: 'POST', path: '/api/files/token', as: 'guest', status: 401 },
    { name: 'collections without auth', method: 'GET', path: '/api/collections', as: 'guest', status: 401 },
    // 403
    {
      name: 'superusers list for an admin user',
      method: 'GET',
      path: '/api/collections/_superusers/records',
      as: 'admin',
      status: 403,
      message: 'Only superusers can perform this action.',
    },
    {
      name: 'create a superuser as a user',
      method: 'POST',
      path: '/api/collections/_superusers/records',
      as: 'user',
      body: newUser('evil@example.com'),
      status: 403,
    },
    { name: 'collections for a user', method: 'GET', path: '/api/collections', as: 'admin', status: 403 },
    {
      name: 'refresh a user token on _superusers',
      method: 'POST',
      path: '/api/collections/_superusers/auth-refresh',
      as: 'user',
      status: 403,
    },
    // 404
    {
      name: 'unknown collection',
      method: 'GET',
      path: '/api/collections/nope/records',
      as: 'superuser',
      status: 404,
      message: 'Missing collection context.',
    },
    {
      name: 'unknown record',
      method: 'GET',
      path: '/api/collections/users/records/aaaaaaaaaaaaaaa',
      as: 'superuser',
      status: 404,
    },
    {
      name: "another user's record",
      method: 'GET',
      path: '/api/collections/users/records/:other',
      as: 'user',
      status: 404,
    },
    {
      name: "update another user's record",
      method: 'PATCH',
      path: '/api/collections/users/records/:other',
      as: 'user',
      body: { name: 'x' },
      status: 404,
    },
    {
      name: "delete another user's record",
      method: 'DELETE',
      path: '/api/collections/users/records/:other',
      as: 'user',
      status: 404,
    },
    {
      name: 'a record as a guest',
      method: 'GET',
      path: '/api/collections/users/records/:user',
      as: 'guest',
      status: 404,
    },
    {
      name: 'a missing file',
      method: 'GET',
      path: '/api/files/users/:user/nothing_here.png',
      as: 'guest',
      status: 404,
    },
    {
      name: 'a file of an unknown collection',
      method: 'GET',
      path: '/api/files/nope/:user/x.png',
      as: 'guest',
      status: 404,
    },
    {
      name: 'auth methods of a base collection',
      method: 'GET',
      path: '/api/collections/inference_servers/auth-methods',
      as: 'guest',
      status: 404,
    },
    {
      name: 'realtime subscription for an unknown client',
      method: 'POST',
      path: '/api/realtime',
      as: 'guest',
      body: { clientId: 'nope', subscriptions: ['users/*'] },
      status: 404,
      message: 'Missing or invalid client id.',
    },
    // 413
    {
      name: 'a file over every limit',
      method: 'PATCH',
      path: '/api/collections/users/records/:user',
      as: 'user',
      raw: () => {
        const form = new FormData();
        form.append('avatar', new File([Buffer.alloc(6 * 1024 * 1024, 1)], 'huge.png'));
        return { body: form };
      },
      status: 413,
    },
  ];

  it.each(scenarios)('$method $path as $as: $name → $status', async (scenario) => {
    const response = await call(scenario.method, scenario.path, scenario.as, scenario.body, scenario.raw);
    const text = await response.text();
    expect({ status: response.status, text }).toEqual({
      status: scenario.status,
      text: expect.any(String) as string,
    });
    if (scenario.status >= 400) {
      const error = JSON.parse(text) as ErrorBody;
      expect(error).toEqual({
        status: scenario.status,
        message: expect.any(String) as string,
        data: expect.any(Object) as object,
      });
      if (scenario.field) {
        expect(error.data[scenario.field[0]]?.code).toBe(scenario.field[1]);
      }
      if (scenario.message) {
        expect(error.message).toMatch(scenario.message);
      }
    }
    for (const part of scenario.contains ?? []) {
      expect(text).toContain(part);
    }
    for (const part of scenario.notContains ?? []) {
      expect(text).not.toContain(part);
    }
  });

  it('answers 429 once one IP fails too often for one identity, and only for that identity', async () => {
    const attempt = (identity: string): Promise<Response> =>
      call('POST', '/api/collections/_superusers/auth-with-password', 'guest', {
        identity,
        password: 'wrong password',
      });
    for (let i = 0; i < 5; i++) {
      expect((await attempt('root@example.com')).status).toBe(400);
    }
    const blocked = await attempt('root@example.com');
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as ErrorBody).status).toBe(429);
    expect((await attempt('someone-else@example.com')).status).toBe(400);
  });
});

describe('records API: concurrency and limits on fresh services', () => {
  it('two or more concurrent first sign-ups yield exactly one admin', async () => {
    const dataDir = tempDir('records-first');
    const api = await startApi(dataDir);
    try {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fetch(`${api.url}/api/collections/users/records`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              email: `racer${i}@example.com`,
              password: PASSWORD,
              passwordConfirm: PASSWORD,
            }),
          }),
        ),
      );
      const records = (await Promise.all(responses.map((response) => response.json()))) as { role: string }[];
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
      expect(records.filter((record) => record.role === 'admin')).toHaveLength(1);
      expect(records.filter((record) => record.role === 'user')).toHaveLength(7);
    } finally {
      await api.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('opens realtime with PB_CONNECT and closes a client that stays idle', async () => {
    const dataDir = tempDir('records-idle');
    const api = await startApi(dataDir, { REALTIME_IDLE_TIMEOUT_MS: '300' });
    try {
      const response = await fetch(`${api.url}/api/realtime`, { headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      // Reading to the end only finishes because the server closes the idle stream.
      const text = await response.text();
      const frame = text.split('\n\n').find((part) => part.includes('PB_CONNECT'))!;
      const fields = Object.fromEntries(
        frame
          .split('\n')
          .filter((line) => line.includes(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      );
      expect(fields.event).toBe('PB_CONNECT');
      expect(fields.id).toMatch(/^[A-Za-z0-9]{40}$/);
      expect(JSON.parse(fields.data)).toEqual({ clientId: fields.id });
    } finally {
      await api.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
