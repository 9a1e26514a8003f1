import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import type { UploadedFileData } from '../common/uploads/multipart-upload.interceptor';
import type { FleetService } from '../fleet/fleet.service';
import type { InferenceServerEntity } from '../fleet/inference-server.entity';
import { WorkerCallError, type WorkerClient } from '../fleet/worker-client';
import type { CatalogService } from '../models/catalog.service';
import type { ModelsService } from '../models/models.service';
import { TranscriptionService, rankTranscriptionModels } from './transcription.service';

function entry(id: string, overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    name: id,
    description: 'd',
    backend: id.split('-')[0],
    backendDisplayName: 'B',
    backendDescription: 'B',
    variant: id,
    repo: 'o/r',
    files: [{ path: 'f' }],
    size: 1,
    types: ['transcription'],
    license: 'MIT',
    hardware: 'cpu',
    languages: ['*'],
    ...overrides,
  };
}

const SPHINX = entry('pocketsphinx-en', {
  embedded: true,
  repo: null,
  files: [],
  variant: 'embedded',
  languages: ['en'],
});
const WHISPER_TINY = entry('whisper-tiny');
const WHISPER_BASE = entry('whisper-base', { recommended: true });
const ESPEAK = entry('espeak-ng', { types: ['preset'] });

function server(id: string, name = id): InferenceServerEntity {
  return { id, name, url: `http://${id}`, authToken: '' } as InferenceServerEntity;
}

const A = server('aaaaaaaaaaaaaaa', 'A');
const B = server('bbbbbbbbbbbbbbb', 'B');

function setup(installed: Record<string, InferenceServerEntity[]>) {
  const catalogEntries = [ESPEAK, SPHINX, WHISPER_TINY, WHISPER_BASE];
  const catalog = {
    list: () => catalogEntries,
    find: (id: string) => catalogEntries.find((candidate) => candidate.id === id),
  } as unknown as CatalogService;
  const models = {
    installed: () =>
      Promise.resolve(
        Object.entries(installed).map(([id, servers]) => ({
          id,
          workers: servers.map((holder) => ({ serverId: holder.id, serverName: holder.name })),
        })),
      ),
  } as unknown as ModelsService;
  const fleet = {
    candidates: () => [A, B],
    find: (id: string) => [A, B].find((candidate) => candidate.id === id),
    lease: (target: InferenceServerEntity) => ({ server: target, target, release: jest.fn() }),
    reportFailure: jest.fn(),
  } as unknown as FleetService;
  const transcribe = jest.fn();
  const client = { transcribe } as unknown as WorkerClient;
  return { service: new TranscriptionService(catalog, models, fleet, client), transcribe };
}

function wavFile(): UploadedFileData {
  const buffer = Buffer.concat([Buffer.from('RIFF0000WAVEfmt '), Buffer.alloc(64)]);
  return { buffer, size: buffer.length, originalname: 'hello.wav' } as UploadedFileData;
}

async function statusOf(
  promise: Promise<unknown>,
): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const body = (error as ApiError).getResponse() as { status: number; data: Record<string, unknown> };
    return { status: body.status, data: body.data };
  }
  throw new Error('expected an ApiError');
}

describe('rankTranscriptionModels', () => {
  it('puts recommended, then downloaded models before embedded ones, dropping other languages', () => {
    expect(rankTranscriptionModels([SPHINX, WHISPER_TINY, WHISPER_BASE]).map((e) => e.id)).toEqual([
      'whisper-base',
      'whisper-tiny',
      'pocketsphinx-en',
    ]);
    expect(rankTranscriptionModels([SPHINX], 'de')).toEqual([]);
  });
});

describe('TranscriptionService', () => {
  it('routes to the best installed model on the best worker, and forwards the upload', async () => {
    const { service, transcribe } = setup({ 'pocketsphinx-en': [B, A], 'whisper-tiny': [B] });
    transcribe.mockResolvedValue({ text: 'hello', language: 'en', duration: 1.5 });
    await expect(service.transcribe(wavFile(), {})).resolves.toEqual({
      text: 'hello',
      language: 'en',
      duration: 1.5,
      model: 'whisper-tiny',
      serverName: 'B',
    });
    expect(transcribe).toHaveBeenCalledWith(
      expect.objectContaining({ url: B.url }),
      expect.objectContaining({
        backend: 'whisper',
        modelPath: 'whisper/whisper-tiny',
        fileName: 'hello.wav',
      }),
      expect.any(AbortSignal),
    );
  });

  it('honours the chosen server and model; embedded engines get no model path', async () => {
    const { service, transcribe } = setup({ 'pocketsphinx-en': [A, B], 'whisper-tiny': [B] });
    transcribe.mockResolvedValue({ text: 'hi', language: 'en' });
    const result = await service.transcribe(wavFile(), { server: A.id, language: 'en' });
    expect(result).toMatchObject({ model: 'pocketsphinx-en', serverName: 'A' });
    expect(transcribe.mock.calls[0][1]).toMatchObject({
      backend: 'pocketsphinx',
      modelPath: null,
      language: 'en',
    });
  });

  it('retries once on another worker when one fails, not when one refuses the audio', async () => {
    const { service, transcribe } = setup({ 'pocketsphinx-en': [A, B] });
    transcribe
      .mockRejectedValueOnce(new WorkerCallError('down', 0))
      .mockResolvedValue({ text: 'ok', language: 'en' });
    await expect(service.transcribe(wavFile(), {})).resolves.toMatchObject({ serverName: 'B' });

    transcribe.mockReset().mockRejectedValue(new WorkerCallError('bad', 400, 'cannot decode'));
    expect(await statusOf(service.transcribe(wavFile(), {}))).toMatchObject({
      status: 400,
      data: { file: { code: 'validation_invalid_audio', message: 'cannot decode' } },
    });
    expect(transcribe).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['nothing installed', {}, {}, 503],
    ['a server without a model', { 'pocketsphinx-en': [A] }, { server: B.id }, 503],
    ['a model not installed', { 'pocketsphinx-en': [A] }, { model: 'whisper-base' }, 503],
    ['an unknown model', { 'pocketsphinx-en': [A] }, { model: 'nope' }, 400],
    ['a speech model', { 'pocketsphinx-en': [A] }, { model: 'espeak-ng' }, 400],
    ['an unknown server', { 'pocketsphinx-en': [A] }, { server: 'zzzzzzzzzzzzzzz' }, 400],
  ])(
    'asking for %s answers the right status',
    async (_what, installed: Record<string, InferenceServerEntity[]>, query, status) => {
      const { service } = setup(installed);
      expect((await statusOf(service.transcribe(wavFile(), query))).status).toBe(status);
    },
  );

  it('refuses a missing file and non-audio before asking any worker', async () => {
    const { service } = setup({ 'pocketsphinx-en': [A] });
    expect((await statusOf(service.transcribe(undefined, {}))).data).toHaveProperty('file');
    const text = Buffer.from('just some text');
    const notAudio = { buffer: text, size: text.length, originalname: 'a.txt' } as UploadedFileData;
    expect(await statusOf(service.transcribe(notAudio, {}))).toMatchObject({
      status: 400,
      data: { file: { code: 'validation_invalid_audio' } },
    });
  });
});
