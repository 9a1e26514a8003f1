import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, UseGuards } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventSource } from 'eventsource';
import PocketBase from 'pocketbase/cjs';
import sharp from 'sharp';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { HttpExceptionFilter } from '../common/errors/http-exception.filter';
import { createValidationPipe } from '../common/errors/validation';
import { ConfigModule } from '../config/config.module';
import { AppConfig, loadConfig } from '../config/configuration';
import { dataSourceOptions } from '../database/data-source-options';
import { ENTITIES } from '../database/entities';
import type { AuthContext } from './auth/auth-context';
import { AdminGuard, AuthGuard, CurrentAuth, SuperuserGuard } from './auth/auth.guards';
import { AuthService } from './auth/auth.service';
import { COLLECTIONS } from './collections';
import { COLLECTION_DEFINITIONS } from './collections/collection-registry';
import type { CollectionDefinition } from './collections/collection.types';
import { RecordEvents } from './realtime/record-events';
import { loadRecordsConfig } from './records.config';
import { RecordsModule } from './records.module';

(globalThis as unknown as { EventSource: typeof EventSource }).EventSource = EventSource;

// Fixture collections with every kind of relation, as a domain feature would register them.

@Entity('fixture_projects')
class ProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 }) id!: string;
  @Column({ type: 'varchar', default: '' }) title!: string;
  @Column({ type: 'varchar', default: '' }) owner!: string;
  @Column({ type: 'text', default: '[]' }) members!: string;
  @Column({ type: 'text', default: '[]' }) tags!: string;
  @Column({ type: 'real', default: 0 }) budget!: number;
  @Column({ type: 'text', default: '[]' }) docs!: string;
  @Column({ type: 'varchar', default: '' }) secret!: string;
  @Column({ type: 'varchar' }) created!: string;
  @Column({ type: 'varchar' }) updated!: string;
}

@Entity('fixture_tasks')
class TaskEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 }) id!: string;
  @Column({ type: 'varchar', default: '' }) title!: string;
  @Column({ type: 'varchar', default: '' }) project!: string;
  @Column({ type: 'varchar', default: '' }) assignee!: string;
  @Column({ type: 'varchar' }) created!: string;
  @Column({ type: 'varchar' }) updated!: string;
}

const OWNER_OR_MEMBER = 'owner = @request.auth.id || members ?= @request.auth.id';
const OWNER = '@request.auth.id != "" && owner = @request.auth.id';
const PROJECTS: CollectionDefinition = {
  name: 'projects',
  type: 'base',
  entity: ProjectEntity,
  fields: [
    { name: 'title', type: 'text', required: true },
    { name: 'owner', type: 'relation', required: true, relation: { collection: 'users' } },
    { name: 'members', type: 'relation', multiple: true, relation: { collection: 'users' } },
    { name: 'tags', type: 'select', multiple: true, values: ['a', 'b', 'c'] },
    { name: 'budget', type: 'number' },
    { name: 'docs', type: 'file', multiple: true, maxSelect: 5, file: { maxSize: 1024 * 1024 } },
    { name: 'secret', type: 'file', file: { maxSize: 1024 * 1024, protected: true, thumbs: ['20x20'] } },
  ],
  rules: { list: OWNER_OR_MEMBER, view: OWNER_OR_MEMBER, create: OWNER, update: OWNER, delete: OWNER },
};
const PROJECT_OWNER = '@request.auth.id != "" && project.owner = @request.auth.id';
const TASKS: CollectionDefinition = {
  name: 'tasks',
  type: 'base',
  entity: TaskEntity,
  fields: [
    { name: 'title', type: 'text', required: true },
    {
      name: 'project',
      type: 'relation',
      required: true,
      relation: { collection: 'projects', cascadeDelete: true },
    },
    { name: 'assignee', type: 'relation', required: true, relation: { collection: 'users' } },
  ],
  rules: {
    list: `${PROJECT_OWNER} || assignee = @request.auth.id`,
    view: `${PROJECT_OWNER} || assignee = @request.auth.id`,
    create: PROJECT_OWNER,
    update: PROJECT_OWNER,
    delete: PROJECT_OWNER,
  },
};

/** Another feature using the exported auth API. */
@Controller('probe')
class ProbeController {
  @Get('me')
  @UseGuards(AuthGuard)
  me(@CurrentAuth() auth: AuthContext): AuthContext {
    return auth;
  }

  @Get('admin')
  @UseGuards(AdminGuard)
  admin(): { ok: true } {
    return { ok: true };
  }

  @Get('superuser')
  @UseGuards(SuperuserGuard)
  superuser(): { ok: true } {
    return { ok: true };
  }
}

interface Project {
  id: string;
  collectionId: string;
  title: string;
  owner: string;
  members: string[];
  tags: string[];
  budget: number;
  docs: string[];
  secret: string;
  expand?: Record<string, unknown>;
}

const PASSWORD = 'a long enough password';

describe('records layer through the pocketbase SDK: relations, expand, files, events (in-process app, real SQLite)', () => {
  let dir: string;
  let config: AppConfig;
  let app: NestExpressApplication;
  let url: string;
  let owner: PocketBase;
  let member: PocketBase;
  let outsider: PocketBase;
  const ids: Record<string, string> = {};

  const sdk = (): PocketBase => {
    const pb = new PocketBase(url);
    pb.autoCancellation(false);
    return pb;
  };

  async function account(email: string): Promise<PocketBase> {
    await sdk()
      .collection('users')
      .create({ email, password: PASSWORD, passwordConfirm: PASSWORD, name: email.split('@')[0] });
    const pb = sdk();
    await pb.collection('users').authWithPassword(email, PASSWORD);
    ids[email.split('@')[0]] = pb.authStore.record!.id;
    return pb;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-records-sdk-'));
    config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }, process.cwd());
    mkdirSync(config.pbDataDir, { recursive: true });
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(config.databaseFile),
          entities: [...ENTITIES, ProjectEntity, TaskEntity],
          logging: false,
          retryAttempts: 0,
        }),
        RecordsModule.forRoot(loadRecordsConfig({})),
      ],
      controllers: [ProbeController],
    })
      .overrideProvider(COLLECTION_DEFINITIONS)
      .useValue([...COLLECTIONS, PROJECTS, TASKS])
      .compile();
    // Migrations make the app's tables; the fixture tables are created here, by hand, like a migration would.
    const dataSource = moduleRef.get(DataSource);
    await dataSource.query(
      `CREATE TABLE "fixture_projects" ("id" varchar(15) PRIMARY KEY NOT NULL, "title" varchar NOT NULL DEFAULT (''), ` +
        `"owner" varchar NOT NULL DEFAULT (''), "members" text NOT NULL DEFAULT ('[]'), "tags" text NOT NULL DEFAULT ('[]'), ` +
        `"budget" real NOT NULL DEFAULT (0), "docs" text NOT NULL DEFAULT ('[]'), "secret" varchar NOT NULL DEFAULT (''), ` +
        `"created" varchar NOT NULL, "updated" varchar NOT NULL)`,
    );
    await dataSource.query(
      `CREATE TABLE "fixture_tasks" ("id" varchar(15) PRIMARY KEY NOT NULL, "title" varchar NOT NULL DEFAULT (''), ` +
        `"project" varchar NOT NULL DEFAULT (''), "assignee" varchar NOT NULL DEFAULT (''), ` +
        `"created" varchar NOT NULL, "updated" varchar NOT NULL)`,
    );
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    app.setGlobalPrefix('api');
    app.useGlobalFilters(new HttpExceptionFilter());
    app.useGlobalPipes(createValidationPipe());
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
    owner = await account('owner@example.com');
    member = await account('member@example.com');
    outsider = await account('outsider@example.com');
  });

  afterAll(async () => {
    await Promise.all(
      [owner, member, outsider].map((pb) => pb?.realtime.unsubscribe().catch(() => undefined)),
    );
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let project: Project;

  it('creates a record with relations, multi-values and several files in one multipart request', async () => {
    project = await owner.collection('projects').create<Project>({
      title: 'Apollo',
      owner: ids.owner,
      members: [ids.member],
      tags: ['a', 'c'],
      budget: 10,
      docs: [new File(['first'], 'One.txt'), new File(['second'], 'two.txt')],
      secret: new File(
        [
          await sharp({ create: { width: 40, height: 40, channels: 3, background: '#123' } })
            .png()
            .toBuffer(),
        ],
        's.png',
      ),
    });
    expect(project).toMatchObject({
      title: 'Apollo',
      owner: ids.owner,
      members: [ids.member],
      tags: ['a', 'c'],
      budget: 10,
    });
    expect(project.docs).toEqual([
      expect.stringMatching(/^one_\w{10}\.txt$/),
      expect.stringMatching(/^two_\w{10}\.txt$/),
    ]);
    for (const title of ['Launch', 'Land']) {
      await owner.collection('tasks').create({ title, project: project.id, assignee: ids.member });
    }
  });

  it('refuses a create the create rule does not allow, and relations to missing records', async () => {
    const forged = await outsider
      .collection('projects')
      .create({ title: 'Forged', owner: ids.owner })
      .catch((error: { status: number; response: { message: string } }) => error);
    expect(forged).toMatchObject({ status: 400, response: { message: 'Failed to create record.' } });
    const dangling = await owner
      .collection('projects')
      .create({ title: 'Dangling', owner: ids.owner, members: ['aaaaaaaaaaaaaaa'] })
      .catch((error: { status: number; response: { data: Record<string, { code: string }> } }) => error);
    expect(dangling).toMatchObject({
      status: 400,
      response: { data: { members: { code: 'validation_missing_rel_records' } } },
    });
  });

  it('expands single and multiple relations through the related collection view rule', async () => {
    const mine = await owner.collection('projects').getOne<Project>(project.id, { expand: 'owner,members' });
    expect((mine.expand?.owner as { id: string }).id).toBe(ids.owner);
    expect((mine.expand?.members as { id: string }[]).map((user) => user.id)).toEqual([ids.member]);
    // A member may see the project, but the users view rule hides the owner's account from them.
    const theirs = await member
      .collection('projects')
      .getOne<Project>(project.id, { expand: 'owner,members' });
    expect(theirs.expand?.owner).toBeUndefined();
    expect((theirs.expand?.members as { id: string }[]).map((user) => user.id)).toEqual([ids.member]);
    expect((await outsider.collection('projects').getList()).totalItems).toBe(0);
  });

  it('expands dotted paths and back-relations, and filters and sorts through relations', async () => {
    const tasks = await owner
      .collection('tasks')
      .getFullList<{ title: string; expand: { project: Project & { expand: { owner: { id: string } } } } }>({
        expand: 'project.owner',
        filter: 'project.title = "Apollo"',
        sort: '-title',
      });
    expect(tasks.map((task) => task.title)).toEqual(['Launch', 'Land']);
    expect(tasks[0].expand.project.expand.owner.id).toBe(ids.owner);

    const withTasks = await owner
      .collection('projects')
      .getOne<Project>(project.id, { expand: 'tasks_via_project.assignee' });
    const via = withTasks.expand?.tasks_via_project as {
      title: string;
      expand: { assignee: { id: string } };
    }[];
    expect(via.map((task) => task.title).sort()).toEqual(['Land', 'Launch']);
    expect(via[0].expand.assignee.id).toBe(ids.member);

    const picked = await owner.collection('projects').getOne<Record<string, unknown>>(project.id, {
      expand: 'owner',
      fields: 'id,expand.owner.name',
    });
    expect(picked).toEqual({ id: project.id, expand: { owner: { name: 'owner' } } });
  });

  it('applies +/- modifiers to multi-values, numbers and files', async () => {
    const projects = owner.collection('projects');
    let updated = await projects.update<Project>(project.id, {
      'tags+': 'b',
      'budget+': 5,
      '+members': ids.outsider,
    });
    expect(updated).toMatchObject({ tags: ['a', 'c', 'b'], budget: 15, members: [ids.outsider, ids.member] });
    updated = await projects.update<Project>(project.id, {
      'tags-': ['a', 'c'],
      'budget-': 1,
      'members-': ids.outsider,
    });
    expect(updated).toMatchObject({ tags: ['b'], budget: 14, members: [ids.member] });

    const [first, second] = project.docs;
    const storage = (name: string): string =>
      join(config.pbDataDir, 'storage', project.collectionId, project.id, name);
    expect(existsSync(storage(first))).toBe(true);
    updated = await projects.update<Project>(project.id, {
      'docs-': first,
      'docs+': new File(['third'], 'three.txt'),
    });
    expect(updated.docs).toEqual([second, expect.stringMatching(/^three_\w{10}\.txt$/)]);
    expect(existsSync(storage(first))).toBe(false);
    const too = await projects
      .update(project.id, { 'docs+': Array.from({ length: 4 }, (_, i) => new File([`${i}`], `${i}.txt`)) })
      .catch((error: { status: number; response: { data: Record<string, { code: string }> } }) => error);
    expect(too).toMatchObject({
      status: 400,
      response: { data: { docs: { code: 'validation_too_many_values' } } },
    });
    project = updated;
  });

  it('serves protected files only with a file token of someone the view rule admits', async () => {
    const plain = await fetch(owner.files.getURL(project, project.secret));
    expect(plain.status).toBe(404);
    const ownerToken = await owner.files.getToken();
    const granted = await fetch(owner.files.getURL(project, project.secret, { token: ownerToken }));
    expect(granted.status).toBe(200);
    expect(granted.headers.get('cache-control')).toContain('no-store');
    const thumb = await fetch(
      owner.files.getURL(project, project.secret, { token: ownerToken, thumb: '20x20' }),
    );
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(20);
    const memberToken = await member.files.getToken();
    expect((await fetch(owner.files.getURL(project, project.secret, { token: memberToken }))).status).toBe(
      200,
    );
    const outsiderToken = await outsider.files.getToken();
    expect((await fetch(owner.files.getURL(project, project.secret, { token: outsiderToken }))).status).toBe(
      404,
    );
    // An auth token is not a file token.
    expect(
      (await fetch(owner.files.getURL(project, project.secret, { token: owner.authStore.token }))).status,
    ).toBe(404);
    // Public (unprotected) files need nothing.
    expect((await fetch(outsider.files.getURL(project, project.docs[0]))).status).toBe(200);
  });

  it('delivers events published by another module after its own commit, to those the rules admit', async () => {
    const ownerEvents: { action: string; record: Project }[] = [];
    const outsiderEvents: unknown[] = [];
    await owner.collection('projects').subscribe<Project>('*', (event) => ownerEvents.push(event));
    await outsider.collection('projects').subscribe('*', (event) => outsiderEvents.push(event));
    const events = app.get(RecordEvents);
    // As a domain module would after updating its own row (an entity-shaped object).
    await events.publish('projects', 'update', {
      ...project,
      title: 'Apollo 11',
      members: JSON.stringify([ids.member]),
    });
    await events.publish('projects', 'update', {
      ...project,
      id: 'zzzzzzzzzzzzzzz',
      owner: ids.outsider,
      members: [],
    });
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const poll = (): void => {
        if (ownerEvents.length >= 1 && outsiderEvents.length >= 1) {
          resolve();
        } else if (Date.now() > deadline) {
          reject(new Error('events did not arrive'));
        } else {
          setTimeout(poll, 50);
        }
      };
      poll();
    });
    expect(ownerEvents.map((event) => [event.action, event.record.title])).toEqual([['update', 'Apollo 11']]);
    expect(outsiderEvents).toEqual([
      { action: 'update', record: expect.objectContaining({ id: 'zzzzzzzzzzzzzzz' }) as unknown },
    ]);
  });

  it('refuses to delete a record that a required relation still needs; cascades where configured', async () => {
    const blocked = await member
      .collection('users')
      .delete(ids.member)
      .catch((error: { status: number; response: { message: string } }) => error);
    expect(blocked).toMatchObject({ status: 400 });
    expect((blocked as { response: { message: string } }).response.message).toMatch(
      /required relation reference/,
    );

    await owner.collection('projects').delete(project.id);
    expect((await owner.collection('tasks').getList()).totalItems).toBe(0);
    expect(existsSync(join(config.pbDataDir, 'storage', project.collectionId, project.id))).toBe(false);
    // Nothing refers to the member any more.
    await member.collection('users').delete(ids.member);
  });

  it('exports the auth API: authenticate(), guards, @CurrentAuth() and pluggable authenticators', async () => {
    const auth = app.get(AuthService);
    const context = await auth.authenticate(`Bearer ${owner.authStore.token}`);
    expect(context).toMatchObject({
      collection: 'users',
      isSuperuser: false,
      isAdmin: true,
      method: 'token',
    });
    expect(context?.record).toMatchObject({ id: ids.owner, email: 'owner@example.com' });
    expect(context?.record).not.toHaveProperty('tokenKey');
    expect(await auth.authenticate(owner.authStore.token)).toMatchObject({ record: { id: ids.owner } });
    expect(await auth.authenticate('Bearer nonsense')).toBeNull();
    expect(await auth.authenticate(undefined)).toBeNull();

    const get = (path: string, token?: string): Promise<Response> =>
      fetch(`${url}/api/probe/${path}`, { headers: token ? { Authorization: token } : {} });
    expect((await get('me')).status).toBe(401);
    expect(await (await get('me', outsider.authStore.token)).json()).toMatchObject({
      record: { id: ids.outsider },
      isAdmin: false,
    });
    expect((await get('admin', outsider.authStore.token)).status).toBe(403);
    expect((await get('admin', owner.authStore.token)).status).toBe(200);
    expect((await get('superuser', owner.authStore.token)).status).toBe(403);

    auth.registerAuthenticator({
      name: 'apiKey',
      authenticate: (token) =>
        Promise.resolve(token === 'ck_test_key' ? { ...context!, method: 'apiKey', isAdmin: false } : null),
    });
    expect(await (await get('me', 'Bearer ck_test_key')).json()).toMatchObject({
      method: 'apiKey',
      record: { id: ids.owner },
    });
    expect((await get('admin', 'ck_test_key')).status).toBe(403);
    expect((await get('me', 'ck_wrong')).status).toBe(401);
  });
});
