/** Accounts for e2e tests, created through the real records API of a running main service. */
export interface TestAccount {
  id: string;
  email: string;
  password: string;
  token: string;
  role: string;
  /** `Authorization` header value. */
  authorization: string;
}

let counter = 0;

/** Signs up a user (POST /api/collections/users/records) and signs in; the first account of a service is admin. */
export async function signUp(apiUrl: string, name = 'user'): Promise<TestAccount> {
  counter += 1;
  const email = `${name}-${process.pid}-${counter}@example.com`;
  const password = `pw-${name}-${counter}-long-enough`;
  const created = await fetch(`${apiUrl}/api/collections/users/records`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, passwordConfirm: password, name }),
  });
  if (created.status !== 200) {
    throw new Error(`sign-up failed: ${created.status} ${await created.text()}`);
  }
  const signedIn = await fetch(`${apiUrl}/api/collections/users/auth-with-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identity: email, password }),
  });
  if (signedIn.status !== 200) {
    throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  }
  const body = (await signedIn.json()) as { token: string; record: { id: string; role: string } };
  return {
    id: body.record.id,
    email,
    password,
    token: body.token,
    role: body.record.role,
    authorization: `Bearer ${body.token}`,
  };
}

/** JSON request helper: returns status and parsed body (or text when not JSON). */
export async function call(
  apiUrl: string,
  method: string,
  path: string,
  options: { account?: TestAccount | null; authorization?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = {};
  const authorization = options.authorization ?? options.account?.authorization;
  if (authorization) {
    headers.authorization = authorization;
  }
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers };
}
