import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options';
import { FleetRepository } from './fleet.repository';
import { InferenceServerEntity } from './inference-server.entity';
import { RegistrationTokenEntity } from './registration-token.entity';

describe('FleetRepository (real SQLite file)', () => {
  let dir: string;
  let dataSource: DataSource;
  let repository: FleetRepository;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-fleet-'));
    dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'data.db')),
      logging: false,
    }).initialize();
    repository = new FleetRepository(
      dataSource.getRepository(InferenceServerEntity),
      dataSource.getRepository(RegistrationTokenEntity),
    );
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the Local server once, even when seeding runs concurrently and repeatedly', async () => {
    await Promise.all(Array.from({ length: 10 }, () => repository.seedLocal('http://localhost:8000', '')));
    await repository.seedLocal('http://localhost:8000', '');
    const servers = await repository.list();
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      name: 'Local',
      url: 'http://localhost:8000',
      isLocal: true,
      status: 'unknown',
    });
    expect(servers[0].id).toMatch(/^[a-z0-9]{15}$/);
    expect(servers[0].created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps the Local token in step with the environment', async () => {
    await repository.seedLocal('http://localhost:8000', '');
    await repository.seedLocal('http://localhost:8000', 'secret-1');
    expect((await repository.findByUrl('http://localhost:8000'))?.authToken).toBe('secret-1');
    expect(await repository.list()).toHaveLength(1);
  });

  it('upserts workers by URL without duplicates, even concurrently', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        repository.upsertByUrl({ name: `gpu-${i}`, url: 'http://gpu:8000', authToken: `t${i}` }),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const servers = await repository.list();
    expect(servers).toHaveLength(1);
    expect(new Set(results.map((result) => result.server.id)).size).toBe(1);
    const again = await repository.upsertByUrl({ name: 'renamed', url: 'http://gpu:8000', authToken: 'new' });
    expect(again.created).toBe(false);
    expect(again.server).toMatchObject({ name: 'renamed', authToken: 'new', enabled: true });
  });

  it('stores health probe results', async () => {
    await repository.seedLocal('http://localhost:8000', '');
    const [server] = await repository.list();
    await repository.updateHealth(server.id, {
      status: 'online',
      device: 'cpu',
      version: '0.1.0',
      lastCheck: '2026-01-01 00:00:00.000Z',
      lastError: '',
    });
    expect(await repository.findByUrl('http://localhost:8000')).toMatchObject({
      status: 'online',
      device: 'cpu',
    });
  });
});
