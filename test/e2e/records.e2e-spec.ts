import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import PocketBase from 'pocketbase/cjs';
import sharp from 'sharp';
import { ServiceProcess, runSuperuserCli, startApi, tempDir, waitFor } from '../support/processes';

// The SDK's realtime client needs an EventSource; Node has none.
(globalThis as unknown as { EventSource: typeof EventSource }).EventSource = EventSource;

const PASSWORD = 'correct horse battery';

interface UserRecord {
  id: string;
  collectionId: string;
  collectionName: string;
  email?: string;
  name: string;
  role: string;
  avatar: string;
  created: string;
  updated: string;
  [key: string]: unknown;
}

interface SdkError {
  status: number;
  response: { status?: number; message?: string; data?: Record<string, { code: string; message: string }> };
}

/** The SDK's rejection (a ClientResponseError) for `promise`, failing the test when it resolves. */
async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    return error as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

function tokenClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

async function png(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

describe('records layer: the official pocketbase SDK against the running main service', () => {
  let api: ServiceProcess;
  let dataDir: string;
  let url: string;
  /** A fresh SDK client (auto-cancellation off: tests run calls side by side). */
  const client = (): PocketBase => {
    const pb = new PocketBase(url);
    pb.autoCancellation(false);
    return pb;
  };
  const clients: PocketBase[] = [];
  const tracked = (): PocketBase => {
    const pb = client();
    clients.push(pb);
    return pb;
  };

  let admin: PocketBase;
  let alice: PocketBase;
  let bob: PocketBase;
  let superuser: PocketBase;
  let adminRecord: UserRecord;
  let aliceRecord: UserRecord;
  let bobRecord: UserRecord;

  beforeAll(async () => {
    dataDir = tempDir('records');
    api = await startApi(dataDir);
    url = api.url;
  });

  afterAll(async () => {
    for (const pb of clients) {
      pb.realtime.unsubscribe().catch(() => undefined);
    }
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function signUp(email: string, name: string): Promise<UserRecord> {
    return client()
      .collection('users')
      .create<UserRecord>({ email, password: PASSWORD, passwordConfirm: PASSWORD, name });
  }

  async function signIn(email: string): Promise<PocketBase> {
    const pb = tracked();
    await pb.collection('users').authWithPassword(email, PASSWORD);
    return pb;
  }

  it('signs up: the first account ever becomes admin, the next ones are users', async () => {
    const first = await signUp('Admin@Example.com', 'Ada Admin');
    const second = await signUp('alice@example.com', 'Alice');
    const third = await signUp('bob@example.com', 'Bob');
    expect(first).toMatchObject({ collectionName: 'users', role: 'admin', name: 'Ada Admin' });
    expect(second.role).toBe('user');
    expect(third.role).toBe('user');
    for (const record of [first, second, third]) {
      expect(record.id).toMatch(/^[a-z0-9]{15}$/);
      expect(record.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
      // The e-mail is private (emailVisibility off) and secrets never leave the server.
      expect(record).not.toHaveProperty('email');
      expect(record).not.toHaveProperty('password');
      expect(record).not.toHaveProperty('tokenKey');
    }
    admin = await signIn('admin@example.com');
    alice = await signIn('alice@example.com');
    bob = await signIn('bob@example.com');
    adminRecord = admin.authStore.record as unknown as UserRecord;
    aliceRecord = alice.authStore.record as unknown as UserRecord;
    bobRecord = bob.authStore.record as unknown as UserRecord;
    expect(adminRecord).toMatchObject({ id: first.id, email: 'admin@example.com', role: 'admin' });
    expect(aliceRecord).toMatchObject({ id: second.id, email: 'alice@example.com', role: 'user' });
  });

  it('authWithPassword gives a HS256 token with the PocketBase claims; authRefresh renews it', async () => {
    const pb = client();
    const auth = await pb.collection('users').authWithPassword('ALICE@example.com', PASSWORD);
    expect(pb.authStore.isValid).toBe(true);
    expect(JSON.parse(Buffer.from(auth.token.split('.')[0], 'base64url').toString('utf8'))).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    const claims = tokenClaims(auth.token);
    expect(claims).toMatchObject({
      id: aliceRecord.id,
      type: 'auth',
      collectionId: aliceRecord.collectionId,
      refreshable: true,
    });
    expect(claims.exp).toEqual(expect.any(Number));
    expect(auth.record).not.toHaveProperty('password');

    const refreshed = await pb.collection('users').authRefresh();
    expect(refreshed.record.id).toBe(aliceRecord.id);
    expect(tokenClaims(refreshed.token)).toMatchObject({ id: aliceRecord.id, type: 'auth' });
    expect(pb.authStore.token).toBe(refreshed.token);
    // The header works with or without "Bearer ".
    for (const header of [refreshed.token, `Bearer ${refreshed.token}`]) {
      const response = await fetch(`${url}/api/collections/users/auth-refresh`, {
        method: 'POST',
        headers: { Authorization: header },
      });
      expect(response.status).toBe(200);
    }
  });

  it('answers an unknown account and a wrong password alike, then throttles repeated failures', async () => {
    const unknown = await sdkError(
      client().collection('users').authWithPassword('nobody@example.com', PASSWORD),
    );
    const wrong = await sdkError(
      client().collection('users').authWithPassword('bob@example.com', 'not the password'),
    );
    expect(unknown.status).toBe(400);
    expect(wrong.status).toBe(400);
    expect(unknown.response).toEqual(wrong.response);
    expect(wrong.response.message).toBe('Failed to authenticate.');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push(
        (await sdkError(client().collection('users').authWithPassword('target@example.com', 'guess'))).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
  });

  it('a superuser made with the CLI (a real process) signs in and sees every collection with counts', async () => {
    const cli = runSuperuserCli(dataDir, ['upsert', 'root@example.com', PASSWORD]);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('root@example.com');
    expect(cli.stdout + cli.stderr).not.toContain(PASSWORD);

    superuser = tracked();
    const auth = await superuser.collection('_superusers').authWithPassword('root@example.com', PASSWORD);
    expect(superuser.authStore.isSuperuser).toBe(true);
    expect(auth.record).toMatchObject({ collectionName: '_superusers', email: 'root@example.com' });

    const collections = await superuser.collections.getFullList();
    const byName = new Map(
      collections.map((collection) => [collection.name, collection as unknown as Record<string, unknown>]),
    );
    expect([...byName.keys()].sort()).toEqual([
      '_superusers',
      'generations',
      'inference_servers',
      'users',
      'voice_samples',
      'voices',
    ]);
    expect(byName.get('users')).toMatchObject({ type: 'auth', recordCount: 3 });
    expect(byName.get('inference_servers')).toMatchObject({ type: 'base', recordCount: 1 });
    const userFields = (byName.get('users')!.fields as { name: string; hidden: boolean }[]).map(
      (field) => field.name,
    );
    expect(userFields).toEqual(
      expect.arrayContaining(['id', 'email', 'name', 'avatar', 'role', 'created', 'updated']),
    );

    // Resetting the password with the CLI signs the old sessions out (new token key).
    const reset = runSuperuserCli(dataDir, ['upsert', 'root@example.com', `${PASSWORD}!`]);
    expect(reset.status).toBe(0);
    expect((await sdkError(superuser.collection('_superusers').authRefresh())).status).toBe(401);
    await superuser.collection('_superusers').authWithPassword('root@example.com', `${PASSWORD}!`);
    expect(superuser.authStore.isSuperuser).toBe(true);
  });

  it('lists with filter, sort, pagination and skipTotal; getFullList and getFirstListItem', async () => {
    for (const name of ['Carol', 'Dave', 'Erin']) {
      await signUp(`${name.toLowerCase()}@example.com`, name);
    }
    const users = admin.collection('users');
    const page = await users.getList<UserRecord>(1, 2, { filter: 'role = "user"', sort: '-name' });
    expect(page).toMatchObject({ page: 1, perPage: 2, totalItems: 5, totalPages: 3 });
    expect(page.items.map((item) => item.name)).toEqual(['Erin', 'Dave']);
    const second = await users.getList<UserRecord>(2, 2, { filter: 'role = "user"', sort: '-name' });
    expect(second.items.map((item) => item.name)).toEqual(['Carol', 'Bob']);

    const skipped = await users.getList(1, 2, { skipTotal: true });
    expect(skipped).toMatchObject({ totalItems: -1, totalPages: -1 });
    const clamped = await users.getList(1, 5000);
    expect(clamped.perPage).toBe(1000);

    const all = await users.getFullList<UserRecord>({ sort: 'name', batch: 2 });
    expect(all.map((item) => item.name)).toEqual(['Ada Admin', 'Alice', 'Bob', 'Carol', 'Dave', 'Erin']);

    const dave = await users.getFirstListItem<UserRecord>(
      admin.filter('email = {:email}', { email: 'dave@example.com' }),
    );
    expect(dave.name).toBe('Dave');
    expect((await sdkError(users.getFirstListItem('name = "nobody"'))).status).toBe(404);

    const picked = await users.getOne<Record<string, unknown>>(dave.id, { fields: 'id,name' });
    expect(picked).toEqual({ id: dave.id, name: 'Dave' });

    const bad = await sdkError(users.getList(1, 10, { filter: 'name ~~ "x"' }));
    expect(bad.status).toBe(400);
    expect(bad.response.message).toMatch(/position/);
  });

  it('expands relations: an unknown or relation-less path is ignored, records still come back', async () => {
    // No registered collection has a relation field yet (voices, generations... will); expand paths that
    // resolve to nothing must leave the records untouched, as PocketBase does. Relation, dotted and
    // back-relation expansion are exercised through the SDK in records-expand.medium-spec.ts.
    const list = await admin
      .collection('users')
      .getList<UserRecord>(1, 10, { expand: 'role,users_via_nothing,x.y' });
    expect(list.items.length).toBe(6);
    expect(list.items.every((item) => item.expand === undefined)).toBe(true);
  });

  it('enforces rules: a user cannot read or change another user; null rules are for superusers', async () => {
    const mine = await bob.collection('users').getFullList<UserRecord>();
    expect(mine.map((item) => item.id)).toEqual([bobRecord.id]);
    expect((await sdkError(bob.collection('users').getOne(aliceRecord.id))).status).toBe(404);
    expect((await sdkError(bob.collection('users').update(aliceRecord.id, { name: 'Hacked' }))).status).toBe(
      404,
    );
    expect((await sdkError(bob.collection('users').delete(aliceRecord.id))).status).toBe(404);
    expect((await alice.collection('users').getOne<UserRecord>(aliceRecord.id)).name).toBe('Alice');

    const guest = client();
    expect((await guest.collection('users').getList()).totalItems).toBe(0);
    expect((await sdkError(guest.collection('users').getOne(aliceRecord.id))).status).toBe(404);

    const forbidden = await sdkError(bob.collection('_superusers').getList());
    expect(forbidden.status).toBe(403);
    expect(forbidden.response.message).toBe('Only superusers can perform this action.');

    // inference_servers: admins only (list filters silently for others); the worker token never shows.
    expect((await bob.collection('inference_servers').getList()).totalItems).toBe(0);
    const servers = await admin.collection('inference_servers').getFullList();
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: 'Local', isLocal: true });
    expect(servers[0]).not.toHaveProperty('authToken');

    // Roles: a user cannot promote themself; an admin can.
    const promote = await sdkError(bob.collection('users').update(bobRecord.id, { role: 'admin' }));
    expect(promote.status).toBe(400);
    expect(promote.response.data?.role?.code).toBe('validation_manage_only');
    const erin = await admin.collection('users').getFirstListItem<UserRecord>('name = "Erin"');
    expect((await admin.collection('users').update<UserRecord>(erin.id, { role: 'admin' })).role).toBe(
      'admin',
    );
    expect((await superuser.collection('users').update<UserRecord>(erin.id, { role: 'user' })).role).toBe(
      'user',
    );
    // Admins see e-mails (manage rule); superusers see everything but secrets.
    expect((await admin.collection('users').getOne<UserRecord>(erin.id)).email).toBe('erin@example.com');
  });

  it('uploads a file on create, serves it byte for byte and as a thumb, replaces and deletes files on disk', async () => {
    const original = await png(300, 200, '#3366cc');
    const created = await client()
      .collection('users')
      .create<UserRecord>({
        email: 'frank@example.com',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        name: 'Frank',
        emailVisibility: true,
        avatar: new File([original], 'My Avatar.PNG', { type: 'image/png' }),
      });
    expect(created.avatar).toMatch(/^my_avatar_[a-z0-9]{10}\.png$/);
    expect(created.email).toBe('frank@example.com');
    const frank = await signIn('frank@example.com');
    const stored = join(dataDir, 'pb_data', 'storage', created.collectionId, created.id, created.avatar);
    expect(existsSync(stored)).toBe(true);

    const download = await fetch(frank.files.getURL(created, created.avatar, { download: true }));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await download.arrayBuffer()).equals(original)).toBe(true);

    const thumb = await fetch(frank.files.getURL(created, created.avatar, { thumb: '100x100' }));
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
    const wide = await fetch(frank.files.getURL(created, created.avatar, { thumb: '64x64' }));
    expect((await sharp(Buffer.from(await wide.arrayBuffer())).metadata()).width).toBe(64);

    const replacement = await png(50, 50, '#cc3333');
    const updated = await frank.collection('users').update<UserRecord>(created.id, {
      avatar: new File([replacement], 'second.png', { type: 'image/png' }),
    });
    expect(updated.avatar).not.toBe(created.avatar);
    expect(existsSync(stored)).toBe(false);
    const served = await fetch(frank.files.getURL(updated, updated.avatar));
    expect(Buffer.from(await served.arrayBuffer()).equals(replacement)).toBe(true);
    expect((await fetch(frank.files.getURL(created, created.avatar))).status).toBe(404);

    const notAnImage = await sdkError(
      frank
        .collection('users')
        .update(created.id, { avatar: new File(['plain text'], 'note.png', { type: 'image/png' }) }),
    );
    expect(notAnImage.status).toBe(400);
    expect(notAnImage.response.data?.avatar?.code).toBe('validation_invalid_mime_type');

    await frank.collection('users').delete(created.id);
    expect(existsSync(join(dataDir, 'pb_data', 'storage', created.collectionId, created.id))).toBe(false);
    expect(frank.authStore.isValid).toBe(false);
  });

  it('realtime: "*" and single-record subscriptions get create/update/delete, only where rules allow', async () => {
    const adminAll: { action: string; record: UserRecord }[] = [];
    const adminOne: { action: string; record: UserRecord }[] = [];
    const bobAll: { action: string; record: UserRecord }[] = [];
    await admin.collection('users').subscribe<UserRecord>('*', (event) => adminAll.push(event));
    await bob.collection('users').subscribe<UserRecord>('*', (event) => bobAll.push(event));

    const grace = await signUp('grace@example.com', 'Grace');
    await admin.collection('users').subscribe<UserRecord>(grace.id, (event) => adminOne.push(event));
    const gracePb = await signIn('grace@example.com');
    await gracePb.collection('users').update(grace.id, { name: 'Grace Hopper' });
    await gracePb.collection('users').delete(grace.id);
    // Bob's own change comes after Grace's in the one ordered event queue: once it arrives, anything of
    // Grace's that Bob could have been sent has been.
    await bob.collection('users').update(bobRecord.id, { name: 'Bobby' });

    await waitFor(
      () => Promise.resolve(bobAll.length >= 1 && adminAll.length >= 4 ? true : undefined),
      15_000,
      'events',
    );
    expect(adminAll.map((event) => [event.action, event.record.id])).toEqual([
      ['create', grace.id],
      ['update', grace.id],
      ['delete', grace.id],
      ['update', bobRecord.id],
    ]);
    expect(adminAll[1].record.name).toBe('Grace Hopper');
    expect(adminAll[0].record).toMatchObject({ collectionName: 'users', email: 'grace@example.com' });
    expect(adminAll[0].record).not.toHaveProperty('password');
    expect(adminOne.map((event) => event.action)).toEqual(['update', 'delete']);
    expect(bobAll.map((event) => [event.action, event.record.id, event.record.name])).toEqual([
      ['update', bobRecord.id, 'Bobby'],
    ]);

    // Subscription options (filter, fields) apply per subscriber.
    const filtered: Record<string, unknown>[] = [];
    await admin.collection('users').subscribe('*', (event) => filtered.push(event.record), {
      filter: 'name = "Carol Two"',
      fields: 'id,name',
    });
    const carol = await admin.collection('users').getFirstListItem<UserRecord>('name = "Carol"');
    await admin.collection('users').update(carol.id, { name: 'Carol Two' });
    await admin.collection('users').update(carol.id, { name: 'Carol' });
    await waitFor(() => Promise.resolve(adminAll.length >= 6 ? true : undefined), 15_000, 'carol events');
    expect(filtered).toEqual([{ id: carol.id, name: 'Carol Two' }]);
    await admin.realtime.unsubscribe();
    await bob.realtime.unsubscribe();
  });

  it('revokes every token of an account when its password changes', async () => {
    const carol = await signIn('carol@example.com');
    const oldToken = carol.authStore.token;
    const missingOld = await sdkError(
      carol.collection('users').update(carol.authStore.record!.id, {
        password: 'a new password',
        passwordConfirm: 'a new password',
      }),
    );
    expect(missingOld.status).toBe(400);
    expect(missingOld.response.data?.oldPassword?.code).toBe('validation_invalid_old_password');
    await carol.collection('users').update(carol.authStore.record!.id, {
      oldPassword: PASSWORD,
      password: 'a new password',
      passwordConfirm: 'a new password',
    });
    const stale = await fetch(`${url}/api/collections/users/auth-refresh`, {
      method: 'POST',
      headers: { Authorization: oldToken },
    });
    expect(stale.status).toBe(401);
    await client().collection('users').authWithPassword('carol@example.com', 'a new password');
  });

  it('keeps uploads inside the storage folder whatever the name', async () => {
    const created = await admin.collection('users').update<UserRecord>(adminRecord.id, {
      avatar: new File([await png(10, 10, '#00ff00')], '../../../etc/passwd.png', { type: 'image/png' }),
    });
    expect(created.avatar).toMatch(/^passwd_[a-z0-9]{10}\.png$/);
    const dir = join(dataDir, 'pb_data', 'storage', created.collectionId, created.id);
    expect(readdirSync(dir)).toEqual([created.avatar]);
    for (const path of ['..%2F..%2Fdata.db', '..%2f..%2f..%2fpb_data%2fdata.db', 'data.db']) {
      const response = await fetch(`${url}/api/files/users/${created.id}/${path}`);
      expect(response.status).toBe(404);
    }
  });
});
