import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { AudioDecodePool, decoderPackageUrls } from '../../worker/audio/decode-pool';
import { compileThreadEntry, type CompiledThread } from '../../worker/audio/decode-testing';
import { encodeWav, parseWav } from '../../worker/audio/wav';
import { ApiError } from '../common/errors/api-error';
import { newRecordId, recordDate } from '../common/records/record-id';
import type { UploadedFileData } from '../common/uploads/multipart-upload.interceptor';
import type { AppConfig } from '../config/configuration';
import { dataSourceOptions } from '../database/data-source-options';
import { GenerationEntity } from '../generations/generation.entity';
import type { CatalogService } from '../models/catalog.service';
import { COLLECTIONS } from '../records/collections';
import { CollectionRegistry } from '../records/collections/collection-registry';
import { FileStorage } from '../records/files/file-storage';
import type { RecordEvents } from '../records/realtime/record-events';
import { VoiceEntity } from './voice.entity';
import { VoicesRepository } from './voices.repository';
import { SampleDecoder } from './sample-decoder';
import { VoicesService } from './voices.service';
import { ESPEAK_ENTRY as ESPEAK } from '../models/testing/catalog-fixtures';

const CLONE: CatalogEntry = {
  ...ESPEAK,
  id: 'clone-tts',
  types: ['cloning'],
  presetVoices: undefined,
  languages: ['en'],
  maxReferenceDuration: 5,
};
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

function file(buffer: Buffer, originalname: string): UploadedFileData {
  return { buffer, size: buffer.length, originalname } as UploadedFileData;
}

function tone(seconds: number, sampleRate = 16_000): Buffer {
  const samples = new Int16Array(Math.round(seconds * sampleRate));
  samples.forEach((_, i) => (samples[i] = Math.round(Math.sin(i / 10) * 5000)));
  return encodeWav(samples, sampleRate);
}

async function apiError(
  promise: Promise<unknown>,
): Promise<{ status: number; field?: string; code?: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const body = (error as ApiError).getResponse() as {
      status: number;
      data: Record<string, { code: string }>;
    };
    const [field, detail] = Object.entries(body.data)[0] ?? [];
    return { status: body.status, field, code: detail?.code };
  }
  throw new Error('expected an ApiError');
}

const GOFORWARD_OPUS = join(__dirname, '..', '..', 'worker', 'audio', 'testdata', 'goforward.opus');

describe('voices: repository and service (real SQLite file, real storage, real decoders)', () => {
  let compiled: CompiledThread;
  let decoder: SampleDecoder;
  let dir: string;
  let dataSource: DataSource;
  let repository: VoicesRepository;
  let service: VoicesService;
  let storage: FileStorage;
  let registry: CollectionRegistry;
  let published: [string, string, Record<string, unknown>][];
  const alice = 'alice0000000001';
  const bob = 'bob000000000001';

  beforeAll(() => {
    compiled = compileThreadEntry('audio/decode.thread.ts');
    decoder = new SampleDecoder(
      new AudioDecodePool({
        entry: compiled.entry,
        packages: decoderPackageUrls(),
        concurrency: 2,
        queueLimit: 8,
        timeoutMs: 30_000,
      }),
    );
  });

  afterAll(async () => {
    await decoder.onModuleDestroy();
    compiled.cleanup();
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-voices-'));
    dataSource = await new DataSource({
      ...dataSourceOptions(join(dir, 'data.db')),
      logging: false,
    }).initialize();
    repository = new VoicesRepository(dataSource);
    registry = new CollectionRegistry(dataSource, COLLECTIONS);
    storage = new FileStorage({ pbDataDir: dir } as AppConfig);
    published = [];
    const events = {
      publish: (collection: string, action: string, record: Record<string, unknown>) => {
        published.push([collection, action, record]);
        return Promise.resolve();
      },
    } as unknown as RecordEvents;
    const catalog = {
      find: (id: string) => [ESPEAK, CLONE].find((entry) => entry.id === id),
    } as unknown as CatalogService;
    service = new VoicesService(repository, catalog, storage, registry, events, decoder);
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function seed(user: string, overrides: Partial<VoiceEntity>, at: string): Promise<VoiceEntity> {
    const voice: VoiceEntity = {
      id: newRecordId(),
      user,
      name: 'Voice',
      description: '',
      language: 'en',
      avatar: '',
      model: 'espeak-ng',
      presetVoice: 'en-us',
      options: {},
      tags: [],
      public: false,
      created: at,
      updated: at,
      ...overrides,
    };
    await repository.insert(voice);
    return voice;
  }

  it('lists own and public voices, newest first, with filters and pages', async () => {
    await seed(alice, { name: 'Alpha', tags: ['calm'] }, '2026-01-01 00:00:01.000Z');
    await seed(alice, { name: 'Beta', language: 'de-ch', presetVoice: 'de' }, '2026-01-01 00:00:02.000Z');
    await seed(
      bob,
      { name: 'Public Gamma', public: true, model: 'clone-tts', presetVoice: '' },
      '2026-01-01 00:00:03.000Z',
    );
    await seed(bob, { name: 'Private Delta' }, '2026-01-01 00:00:04.000Z');

    const names = async (query: Parameters<VoicesService['list']>[1], viewer = alice) =>
      (await service.list(viewer, query)).items.map((voice) => voice.name);
    expect(await names({})).toEqual(['Public Gamma', 'Beta', 'Alpha']);
    expect(await names({ scope: 'mine' })).toEqual(['Beta', 'Alpha']);
    expect(await names({ scope: 'public' })).toEqual(['Public Gamma']);
    expect(await names({ language: 'de' })).toEqual(['Beta']);
    expect(await names({ language: 'de-ch' })).toEqual(['Beta']);
    expect(await names({ model: 'clone-tts' })).toEqual(['Public Gamma']);
    expect(await names({ search: 'calm' })).toEqual(['Alpha']);
    expect(await names({ search: '100%' })).toEqual([]);
    expect(await names({}, bob)).toEqual(['Private Delta', 'Public Gamma']);

    const page = await service.list(alice, { perPage: 2, page: 2 });
    expect(page).toMatchObject({ page: 2, perPage: 2, totalItems: 3, totalPages: 2 });
    expect(page.items.map((voice) => voice.name)).toEqual(['Alpha']);
    expect(page.items[0].owned).toBe(true);
  });

  it('creates a voice with an avatar, validating it against the catalog', async () => {
    const created = await service.create(
      alice,
      { name: 'Narrator', model: 'espeak-ng', presetVoice: 'de', tags: ['x'], public: true },
      file(PNG, 'My Photo.PNG'),
    );
    expect(created).toMatchObject({
      name: 'Narrator',
      language: 'de',
      presetVoice: 'de',
      public: true,
      owned: true,
    });
    const collectionId = registry.get('voices').id;
    expect(created.avatarUrl).toMatch(
      new RegExp(`^/api/files/${collectionId}/${created.id}/my_photo_[a-z0-9]{10}\\.png$`),
    );
    expect(readdirSync(join(dir, 'storage', collectionId, created.id))).toHaveLength(1);
    expect(published.map(([collection, action]) => `${collection}/${action}`)).toEqual(['voices/create']);

    expect(await apiError(service.create(alice, { name: 'x', model: 'nope' }))).toMatchObject({
      status: 400,
      field: 'model',
    });
    expect(
      await apiError(
        service.create(alice, { name: 'x', model: 'espeak-ng' }, file(Buffer.from('text'), 'a.png')),
      ),
    ).toMatchObject({ status: 400, field: 'avatar', code: 'validation_invalid_mime_type' });
  });

  it('lets only the owner change or delete a voice: 403 for public ones, 404 for private ones', async () => {
    const open = await seed(bob, { public: true }, recordDate());
    const closed = await seed(bob, {}, recordDate());
    expect((await service.get(alice, open.id)).owned).toBe(false);
    expect((await apiError(service.get(alice, closed.id))).status).toBe(404);
    expect((await apiError(service.update(alice, open.id, { name: 'Mine now' }))).status).toBe(403);
    expect((await apiError(service.delete(alice, open.id))).status).toBe(403);
    expect((await apiError(service.update(alice, closed.id, { name: 'x' }))).status).toBe(404);
    expect((await apiError(service.delete(alice, 'not-an-id'))).status).toBe(404);
    expect((await service.update(bob, open.id, { name: 'Renamed', language: 'de' })).name).toBe('Renamed');
  });

  it('replaces and removes avatars, deleting the old files', async () => {
    const created = await service.create(alice, { name: 'A', model: 'espeak-ng' }, file(PNG, 'one.png'));
    const folder = join(dir, 'storage', registry.get('voices').id, created.id);
    const replaced = await service.update(alice, created.id, {}, file(PNG, 'two.png'));
    expect(readdirSync(folder)).toEqual([replaced.avatarUrl!.split('/').pop()]);
    expect((await service.update(alice, created.id, { removeAvatar: true })).avatarUrl).toBeNull();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('adds samples to cloning voices only, within the reference limit, and stores them as mono WAV', async () => {
    const preset = await service.create(alice, { name: 'Preset', model: 'espeak-ng' });
    expect(await apiError(service.addSample(alice, preset.id, {}, file(tone(1), 'a.wav')))).toMatchObject({
      status: 400,
      field: 'audio',
      code: 'validation_not_a_cloning_model',
    });

    const clone = await service.create(alice, { name: 'Clone', model: 'clone-tts' });
    const first = await service.addSample(
      alice,
      clone.id,
      { transcript: 'one' },
      file(tone(2), 'First Take.mp3'),
    );
    expect(first).toMatchObject({ transcript: 'one', sampleRate: 16_000 });
    expect(first.duration).toBeCloseTo(2, 5);
    expect(first.audioUrl).toMatch(/\/first_take_[a-z0-9]{10}\.wav$/);
    expect(
      await apiError(service.addSample(alice, clone.id, {}, file(Buffer.from('nope'), 'x.wav'))),
    ).toMatchObject({ status: 400, field: 'audio', code: 'validation_invalid_audio' });
    // Two concurrent uploads of 2 s each: only one fits in the remaining 3 s.
    const results = await Promise.allSettled([
      service.addSample(alice, clone.id, {}, file(tone(2), 'b.wav')),
      service.addSample(alice, clone.id, {}, file(tone(2), 'c.wav')),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected')!;
    const body = (refused.reason as ApiError).getResponse() as {
      data: { audio: { code: string; message: string } };
    };
    expect(body.data.audio.code).toBe('validation_reference_too_long');
    expect(body.data.audio.message).toContain('5 s');

    const voice = await service.get(alice, clone.id);
    expect(voice.samples).toHaveLength(2);
    expect(voice.referenceDuration).toBeCloseTo(4, 3);

    const usable = await service.findUsable(alice, clone.id);
    expect(usable?.references).toHaveLength(2);
    expect(parseWav(usable!.references[0].wav)).toMatchObject({ channels: 1, bitsPerSample: 16 });
    expect(usable!.references[0].transcript).toBe('one');
    expect(await service.findUsable(bob, clone.id)).toBeUndefined();

    expect((await apiError(service.deleteSample(bob, clone.id, first.id))).status).toBe(404);
    await service.deleteSample(alice, clone.id, first.id);
    expect((await apiError(service.deleteSample(alice, clone.id, first.id))).status).toBe(404);
    expect((await service.get(alice, clone.id)).samples).toHaveLength(1);
  });

  it('decodes compressed samples (Ogg Opus) with the worker decoders, to 16 kHz mono', async () => {
    const clone = await service.create(alice, { name: 'Clone', model: 'clone-tts' });
    const sample = await service.addSample(
      alice,
      clone.id,
      {},
      file(readFileSync(GOFORWARD_OPUS), 'go forward.opus'),
    );
    expect(sample.sampleRate).toBe(16_000);
    // "go forward ten meters": 2.786 s of speech (the Opus pre-skip may trim a few ms).
    expect(sample.duration).toBeGreaterThan(2.7);
    expect(sample.duration).toBeLessThan(2.9);
    expect(sample.audioUrl).toMatch(/\/go_forward_[a-z0-9]{10}\.wav$/);
    const stored = (await service.findUsable(alice, clone.id))!.references[0].wav;
    expect(parseWav(stored)).toMatchObject({ channels: 1, sampleRate: 16_000, bitsPerSample: 16 });
    // A second one would take the voice past the model's 5 s.
    expect(
      await apiError(
        service.addSample(alice, clone.id, {}, file(readFileSync(GOFORWARD_OPUS), 'again.opus')),
      ),
    ).toMatchObject({ status: 400, code: 'validation_reference_too_long' });
  });

  it('deletes a voice with its samples and files, unlinking the generations made with it', async () => {
    const clone = await service.create(alice, { name: 'Clone', model: 'clone-tts' }, file(PNG, 'a.png'));
    const sample = await service.addSample(alice, clone.id, {}, file(tone(1), 'a.wav'));
    const generation: GenerationEntity = {
      id: newRecordId(),
      user: alice,
      text: 'hi',
      model: 'clone-tts',
      voice: clone.id,
      voiceName: 'Clone',
      presetVoice: '',
      language: 'en',
      speed: 1,
      duration: 1,
      sampleRate: 16_000,
      audio: '',
      server: '',
      serverName: '',
      streamed: false,
      firstByteMs: 1,
      totalMs: 2,
      created: recordDate(),
      updated: recordDate(),
    };
    await dataSource.getRepository(GenerationEntity).insert(generation);
    published = [];

    await service.delete(alice, clone.id);
    expect(existsSync(join(dir, 'storage', registry.get('voices').id, clone.id))).toBe(false);
    expect(existsSync(join(dir, 'storage', registry.get('voice_samples').id, sample.id))).toBe(false);
    expect(await repository.samplesOf([clone.id])).toEqual([]);
    expect(await dataSource.getRepository(GenerationEntity).findOneBy({ id: generation.id })).toMatchObject({
      voice: '',
      voiceName: 'Clone',
    });
    expect(published.map(([collection, action]) => `${collection}/${action}`)).toEqual([
      'generations/update',
      'voice_samples/delete',
      'voices/delete',
    ]);
    expect((await apiError(service.get(alice, clone.id))).status).toBe(404);
  });

  it('refuses to move a voice with samples to a model that cannot take them', async () => {
    const clone = await service.create(alice, { name: 'Clone', model: 'clone-tts' });
    await service.addSample(alice, clone.id, {}, file(tone(1), 'a.wav'));
    expect(await apiError(service.update(alice, clone.id, { model: 'espeak-ng' }))).toMatchObject({
      status: 400,
      field: 'model',
      code: 'validation_not_a_cloning_model',
    });
  });
});
