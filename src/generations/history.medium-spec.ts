import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { encodeWav, parseWav } from '../../worker/audio/wav';
import { ApiError } from '../common/errors/api-error';
import { newRecordId } from '../common/records/record-id';
import type { AppConfig } from '../config/configuration';
import { dataSourceOptions } from '../database/data-source-options';
import { COLLECTIONS } from '../records/collections';
import { CollectionRegistry } from '../records/collections/collection-registry';
import { FileStorage } from '../records/files/file-storage';
import type { RecordEvents } from '../records/realtime/record-events';
import { GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { GenerationDraft, HistoryService } from './history.service';

const alice = 'alice0000000001';
const bob = 'bob000000000001';

function draft(overrides: Partial<GenerationDraft> = {}): GenerationDraft {
  return {
    user: alice,
    text: 'Hello.',
    model: 'espeak-ng',
    voice: '',
    voiceName: '',
    presetVoice: 'en-us',
    language: 'en',
    speed: 1,
    server: 'server000000001',
    serverName: 'Local',
    streamed: false,
    firstByteMs: 12.4,
    ...overrides,
  };
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).getStatus();
  }
  throw new Error('expected an ApiError');
}

describe('generation history (real SQLite file, real storage)', () => {
  let dir: string;
  let dataSource: DataSource;
  let repository: GenerationsRepository;
  let history: HistoryService;
  let collectionId: string;
  let published: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-history-'));
    dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'data.db')),
      logging: false,
    }).initialize();
    repository = new GenerationsRepository(dataSource);
    const registry = new CollectionRegistry(dataSource, COLLECTIONS);
    collectionId = registry.get('generations').id;
    published = [];
    const events = {
      publish: (collection: string, action: string, record: { id: string }) => {
        published.push(`${collection}/${action}/${record.id}`);
        return Promise.resolve();
      },
    } as unknown as RecordEvents;
    history = new HistoryService(
      repository,
      new FileStorage({ pbDataDir: dir } as AppConfig),
      registry,
      events,
    );
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const folder = (id: string) => join(dir, 'storage', collectionId, id);

  it('records a WAV as it came, with its duration, and announces it only on publish', async () => {
    const wav = encodeWav(new Int16Array(22_050 * 2), 22_050);
    const committed = await history.commit(draft(), [wav.subarray(0, 100), wav.subarray(100)], 250.6);
    expect(committed).toBeDefined();
    const entity = committed!.entity;
    expect(entity).toMatchObject({
      duration: 2,
      sampleRate: 22_050,
      firstByteMs: 12,
      totalMs: 251,
      streamed: false,
    });
    expect(readFileSync(join(folder(entity.id), entity.audio))).toEqual(wav);
    expect(published).toEqual([]);
    await committed!.publish();
    expect(published).toEqual([`generations/create/${entity.id}`]);
    expect(await history.get(alice, entity.id)).toMatchObject({
      id: entity.id,
      duration: 2,
      audioUrl: `/api/generations/${entity.id}/audio`,
    });
  });

  it('wraps streamed PCM in a WAV header', async () => {
    const pcm = Buffer.alloc(16_000 * 2 * 3); // 3 s of s16le mono at 16 kHz
    const committed = await history.commit(draft({ streamed: true, sampleRate: 16_000 }), [pcm], 10);
    const file = await history.audioFile(alice, committed!.entity.id);
    const info = parseWav(readFileSync(file.path));
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, durationSeconds: 3 });
    expect(committed!.entity.duration).toBe(3);
    expect(file.downloadName).toBe(`chorus-espeak-ng-${committed!.entity.id}.wav`);
  });

  it('records nothing for audio it cannot read back', async () => {
    expect(await history.commit(draft(), [Buffer.from('not a wav')], 1)).toBeUndefined();
    expect(await history.commit(draft({ streamed: true }), [Buffer.alloc(10)], 1)).toBeUndefined();
    expect((await history.list(alice, {})).totalItems).toBe(0);
  });

  it('discards an entry with its file', async () => {
    const committed = await history.commit(draft(), [encodeWav(new Int16Array(100), 8000)], 1);
    await committed!.discard();
    expect(existsSync(folder(committed!.entity.id))).toBe(false);
    expect(await statusOf(history.get(alice, committed!.entity.id))).toBe(404);
  });

  async function seed(overrides: Partial<GenerationEntity>): Promise<GenerationEntity> {
    const generation: GenerationEntity = {
      id: newRecordId(),
      ...draft(),
      duration: 1,
      sampleRate: 22_050,
      audio: '',
      totalMs: 1,
      firstByteMs: 1,
      created: '2026-01-01 00:00:00.000Z',
      updated: '2026-01-01 00:00:00.000Z',
      ...overrides,
    };
    await repository.insert(generation);
    return generation;
  }

  it('lists only the owner’s entries, newest first, with filters and pages', async () => {
    await seed({ text: 'one', created: '2026-01-01 10:00:00.000Z', voice: 'voice0000000001' });
    await seed({ text: 'two', created: '2026-01-02 10:00:00.000Z', language: 'de-ch', presetVoice: 'de' });
    await seed({
      text: 'three',
      created: '2026-01-03 10:00:00.000Z',
      model: 'piper-joe',
      presetVoice: 'joe',
    });
    await seed({ text: 'bobs', user: bob, created: '2026-01-04 10:00:00.000Z' });

    const texts = async (query: Parameters<HistoryService['list']>[1], user = alice) =>
      (await history.list(user, query)).items.map((item) => item.text);
    expect(await texts({})).toEqual(['three', 'two', 'one']);
    expect(await texts({}, bob)).toEqual(['bobs']);
    expect(await texts({ model: 'piper-joe' })).toEqual(['three']);
    expect(await texts({ voice: 'voice0000000001' })).toEqual(['one']);
    expect(await texts({ voice: 'de' })).toEqual(['two']);
    expect(await texts({ language: 'de' })).toEqual(['two']);
    expect(await texts({ from: '2026-01-02' })).toEqual(['three', 'two']);
    expect(await texts({ to: '2026-01-02' })).toEqual(['two', 'one']);
    expect(await texts({ from: '2026-01-02T00:00:00Z', to: '2026-01-02T10:00:00.000Z' })).toEqual(['two']);
    expect(await texts({ from: '2026-01-01T10:00:00.001+00:00', to: '2026-01-03T09:00:00Z' })).toEqual([
      'two',
    ]);
    expect(await statusOf(history.list(alice, { from: '2026-01-03', to: '2026-01-01' }))).toBe(400);

    const page = await history.list(alice, { perPage: 2, page: 2 });
    expect(page).toMatchObject({ page: 2, perPage: 2, totalItems: 3, totalPages: 2 });
    expect(page.items.map((item) => item.text)).toEqual(['one']);
    expect((await history.list(alice, {})).perPage).toBe(20);
  });

  it('deletes an own entry with its file; others’ ids are 404', async () => {
    const committed = await history.commit(draft(), [encodeWav(new Int16Array(100), 8000)], 1);
    const id = committed!.entity.id;
    expect(await statusOf(history.get(bob, id))).toBe(404);
    expect(await statusOf(history.audioFile(bob, id))).toBe(404);
    expect(await statusOf(history.delete(bob, id))).toBe(404);
    expect(existsSync(folder(id))).toBe(true);
    await history.delete(alice, id);
    expect(existsSync(folder(id))).toBe(false);
    expect(published).toEqual([`generations/delete/${id}`]);
    expect(await statusOf(history.delete(alice, id))).toBe(404);
    expect(await statusOf(history.get(alice, 'NOT AN ID'))).toBe(404);
  });
});
