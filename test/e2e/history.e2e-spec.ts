import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestAccount, signUp } from '../support/accounts';
import { REPO_ROOT, Stack, startStack, waitFor } from '../support/processes';
import { parseWav } from '../support/wav';
import { FilePart, JsonBody, api, sendForm, toneWav } from '../support/voice-fixtures';

const TEXT = 'History keeps what was said. Every sentence is kept.';

interface Generated {
  status: number;
  bytes: Buffer;
  sampleRate: number;
}

describe('generation history and transcription (main service + worker as real processes)', () => {
  let stack: Stack;
  let alice: TestAccount;
  let bob: TestAccount;
  let voice: string;

  beforeAll(async () => {
    stack = await startStack();
    await waitFor(
      async () => {
        const health = (await (await fetch(`${stack.api.url}/api/health`)).json()) as {
          fleet: { online: number };
        };
        return health.fleet.online === 1 ? true : undefined;
      },
      15_000,
      'the Local worker to come online',
    );
    await signUp(stack.api.url, 'admin');
    alice = await signUp(stack.api.url, 'alice');
    bob = await signUp(stack.api.url, 'bob');
    const created = await sendForm(stack.api.url, 'POST', '/api/voices', alice, {
      name: 'Reader',
      model: 'espeak-ng',
      presetVoice: 'en-us',
    });
    expect(created.status).toBe(201);
    voice = created.body.id;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const url = () => stack.api.url;

  async function generate(account: TestAccount, body: Record<string, unknown>): Promise<Generated> {
    const response = await fetch(`${url()}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: account.authorization },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      bytes: Buffer.from(await response.arrayBuffer()),
      sampleRate: Number(response.headers.get('x-sample-rate')),
    };
  }

  async function history(account: TestAccount, query = ''): Promise<JsonBody> {
    const response = await api(url(), 'GET', `/api/generations${query ? `?${query}` : ''}`, account);
    expect(response.status).toBe(200);
    return response.body;
  }

  async function download(account: TestAccount, id: string): Promise<Response> {
    return fetch(`${url()}/api/generations/${id}/audio`, {
      headers: { authorization: account.authorization },
    });
  }

  describe('recording', () => {
    let wavEntry: JsonBody;
    let streamEntry: JsonBody;
    let wav: Generated;
    let pcm: Generated;

    beforeAll(async () => {
      wav = await generate(alice, { model: 'espeak-ng', input: TEXT, voice });
      expect(wav.status).toBe(200);
      pcm = await generate(alice, { model: 'espeak-ng', input: TEXT, voice, stream: true, speed: 1.25 });
      expect(pcm.status).toBe(200);
      // The entry is committed before the response ends: no waiting needed.
      const page = await history(alice);
      [streamEntry, wavEntry] = page.items;
    });

    it('records a WAV generation with its real duration, voice, worker and timings', () => {
      const parsed = parseWav(wav.bytes);
      expect(wavEntry).toMatchObject({
        user: alice.id,
        text: TEXT,
        model: 'espeak-ng',
        voice,
        voiceName: 'Reader',
        presetVoice: 'en-us',
        language: 'en',
        speed: 1,
        streamed: false,
        sampleRate: parsed.sampleRate,
        serverName: 'Local',
        audioUrl: `/api/generations/${wavEntry.id as string}/audio`,
      });
      expect(wavEntry.duration).toBeCloseTo(parsed.durationSeconds, 6);
      expect(wavEntry.firstByteMs).toBeGreaterThan(0);
      expect(wavEntry.totalMs).toBeGreaterThanOrEqual(wavEntry.firstByteMs as number);
      expect(wavEntry.server).toMatch(/^[a-z0-9]{15}$/);
    });

    it('records a streamed generation, its PCM assembled into a WAV', async () => {
      expect(streamEntry).toMatchObject({ streamed: true, speed: 1.25, sampleRate: pcm.sampleRate, voice });
      expect(streamEntry.duration).toBeCloseTo(pcm.bytes.length / 2 / pcm.sampleRate, 6);
      const response = await download(alice, streamEntry.id as string);
      expect(response.status).toBe(200);
      const file = Buffer.from(await response.arrayBuffer());
      const parsed = parseWav(file);
      expect(parsed).toMatchObject({ sampleRate: pcm.sampleRate, channels: 1, bitsPerSample: 16 });
      expect(file.subarray(file.length - pcm.bytes.length)).toEqual(pcm.bytes);
    });

    it('serves the audio as a WAV download, byte for byte', async () => {
      const response = await download(alice, wavEntry.id as string);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.wav"$/);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(wav.bytes);
    });

    it('shows one entry, and the records collection, to the owner only', async () => {
      const id = wavEntry.id as string;
      expect((await api(url(), 'GET', `/api/generations/${id}`, alice)).body).toEqual(wavEntry);
      expect((await api(url(), 'GET', `/api/generations/${id}`, bob)).status).toBe(404);
      expect((await download(bob, id)).status).toBe(404);
      expect((await api(url(), 'DELETE', `/api/generations/${id}`, bob)).status).toBe(404);
      expect((await history(bob)).totalItems).toBe(0);
      const records = await api(url(), 'GET', `/api/collections/generations/records/${id}`, alice);
      expect(records.status).toBe(200);
      expect((await api(url(), 'GET', `/api/collections/generations/records/${id}`, bob)).status).toBe(404);
      // The stored file is protected: the records file API wants the owner's file token.
      const filePath = `/api/files/${records.body.collectionId as string}/${id}/${records.body.audio as string}`;
      expect((await fetch(`${url()}${filePath}`)).status).toBe(404);
      const token = (await api(url(), 'POST', '/api/files/token', alice)).body.token as string;
      expect((await fetch(`${url()}${filePath}?token=${token}`)).status).toBe(200);
    });

    it('serves the audio to `<audio src>` with ?token=, for the owner only', async () => {
      const audioPath = `/api/generations/${wavEntry.id as string}/audio`;
      const own = await fetch(`${url()}${audioPath}?token=${encodeURIComponent(alice.token)}`);
      expect(own.status).toBe(200);
      expect(own.headers.get('content-type')).toContain('audio/wav');
      expect((await fetch(`${url()}${audioPath}?token=${encodeURIComponent(bob.token)}`)).status).toBe(404);
      expect((await fetch(`${url()}${audioPath}?token=not-a-token`)).status).toBe(401);
    });

    it('answers 401 without a signed-in user and 404 for unknown ids', async () => {
      for (const [method, path] of [
        ['GET', '/api/generations'],
        ['GET', `/api/generations/${wavEntry.id as string}`],
        ['GET', `/api/generations/${wavEntry.id as string}/audio`],
        ['DELETE', `/api/generations/${wavEntry.id as string}`],
        ['POST', '/api/transcribe'],
      ]) {
        expect({ path, status: (await api(url(), method, path, null)).status }).toEqual({
          path,
          status: 401,
        });
      }
      for (const id of ['zzzzzzzzzzzzzzz', 'bad-id']) {
        expect((await api(url(), 'GET', `/api/generations/${id}`, alice)).status).toBe(404);
        expect((await download(alice, id)).status).toBe(404);
        expect((await api(url(), 'DELETE', `/api/generations/${id}`, alice)).status).toBe(404);
      }
    });
  });

  describe('filters and pages', () => {
    beforeAll(async () => {
      for (const body of [
        { model: 'espeak-ng', input: 'Guten Morgen.', voice: 'de' },
        { model: 'espeak-ng', input: 'Bonjour.', language: 'fr' },
        { model: 'espeak-ng', input: 'One more in English.', voice },
      ]) {
        expect((await generate(alice, body)).status).toBe(200);
      }
    });

    it('filters by voice (Chorus or preset), model, language and date', async () => {
      const texts = async (query: string) =>
        ((await history(alice, query)).items as { text: string }[]).map((item) => item.text);
      expect(await texts(`voice=${voice}`)).toEqual(['One more in English.', TEXT, TEXT]);
      expect(await texts('voice=de')).toEqual(['Guten Morgen.']);
      expect(await texts('language=fr')).toEqual(['Bonjour.']);
      expect(await texts('language=de')).toEqual(['Guten Morgen.']);
      expect(await texts('model=espeak-ng')).toHaveLength(5);
      expect(await texts('model=piper-en-us-joe-medium')).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect(await texts(`from=${today}&to=${today}`)).toHaveLength(5);
      expect(await texts('to=2000-01-01')).toEqual([]);
      expect(await texts(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual(
        [],
      );
    });

    it('pages newest first (20 by default, at most 100)', async () => {
      const all = await history(alice);
      expect(all).toMatchObject({ page: 1, perPage: 20, totalItems: 5, totalPages: 1 });
      const created = (all.items as { created: string }[]).map((item) => item.created);
      expect([...created].sort().reverse()).toEqual(created);
      const second = await history(alice, 'perPage=2&page=2');
      expect(second).toMatchObject({ page: 2, perPage: 2, totalItems: 5, totalPages: 3 });
      expect(second.items).toEqual((all.items as unknown[]).slice(2, 4));
      expect((await history(alice, 'perPage=2&page=9')).items).toEqual([]);
    });

    it.each([
      'perPage=0',
      'perPage=101',
      'page=0',
      'page=abc',
      'from=yesterday',
      'to=2026-13-01',
      'from=2026-02-01&to=2026-01-01',
      'language=not%20a%20language',
      'colour=red',
    ])('refuses ?%s with a 400', async (query) => {
      const response = await api(url(), 'GET', `/api/generations?${query}`, alice);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, data: expect.any(Object) });
    });
  });

  describe('what is not recorded', () => {
    it('leaves no entry for refused requests', async () => {
      const before = (await history(alice)).totalItems as number;
      for (const body of [
        { model: 'espeak-ng', input: 'x'.repeat(5001) },
        { model: 'espeak-ng', input: 'Hello.', voice: 'zzzzzzzzzzzzzzz' },
        { model: 'espeak-ng', input: 'Hello.', voice: 'no-such-preset' },
        { model: 'espeak-ng', input: '   ' },
      ]) {
        expect((await generate(alice, body)).status).toBe(400);
      }
      expect((await history(alice)).totalItems).toBe(before);
    });

    it('leaves no entry when the client goes away mid-stream', async () => {
      const before = (await history(alice)).totalItems as number;
      const abort = new AbortController();
      const response = await fetch(`${url()}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: alice.authorization },
        body: JSON.stringify({
          model: 'espeak-ng',
          input: Array.from({ length: 40 }, (_, i) => `This is sentence ${i + 1} of a long reading.`).join(
            ' ',
          ),
          stream: true,
        }),
        signal: abort.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      abort.abort();
      await reader.cancel().catch(() => undefined);
      await new Promise((wait) => setTimeout(wait, 1500));
      expect((await history(alice)).totalItems).toBe(before);
    });

    it('deletes an entry with its file', async () => {
      const entry = (await history(alice)).items[0] as { id: string };
      const record = await api(url(), 'GET', `/api/collections/generations/records/${entry.id}`, alice);
      const folder = join(stack.dataDir, 'pb_data', 'storage', record.body.collectionId as string, entry.id);
      expect(existsSync(folder)).toBe(true);
      expect((await api(url(), 'DELETE', `/api/generations/${entry.id}`, alice)).status).toBe(204);
      expect(existsSync(folder)).toBe(false);
      expect((await api(url(), 'GET', `/api/generations/${entry.id}`, alice)).status).toBe(404);
      expect((await download(alice, entry.id)).status).toBe(404);
    });
  });

  describe('transcription', () => {
    const transcribe = (query: string, files: FilePart[], account: TestAccount | null = alice) =>
      sendForm(url(), 'POST', `/api/transcribe${query}`, account, {}, files);
    const wavPart = (bytes: Buffer) => [{ field: 'file', bytes, name: 'speech.wav', type: 'audio/wav' }];

    it('refuses bad input with 4xx in the error shape', async () => {
      const speech = toneWav(1);
      const cases: [string, FilePart[], number][] = [
        ['', [], 400],
        ['', [{ field: 'file', bytes: Buffer.from('plain text'), name: 'a.txt' }], 400],
        ['', [{ field: 'audio', bytes: speech, name: 'a.wav' }], 400],
        ['?model=no-such-model', wavPart(speech), 400],
        ['?model=espeak-ng', wavPart(speech), 400],
        ['?server=zzzzzzzzzzzzzzz', wavPart(speech), 400],
        ['?language=not%20a%20language', wavPart(speech), 400],
        ['', wavPart(Buffer.alloc(26 * 1024 * 1024)), 413],
      ];
      for (const [query, files, status] of cases) {
        const response = await transcribe(query, files);
        expect({ query, files: files.map((part) => part.name), status: response.status }).toEqual({
          query,
          files: files.map((part) => part.name),
          status,
        });
        expect(response.body).toMatchObject({
          status,
          message: expect.any(String),
          data: expect.any(Object),
        });
      }
    });

    it('transcribes through a worker with a transcription backend, or answers 503 when none has one', async () => {
      const backends = (await (await fetch(`${stack.worker.url}/backends`)).json()) as {
        name: string;
        capabilities: { transcription: boolean };
        dependenciesInstalled: boolean;
      }[];
      const sphinx = backends.some(
        (backend) =>
          backend.name === 'pocketsphinx' &&
          backend.capabilities.transcription &&
          backend.dependenciesInstalled,
      );
      // "go forward ten meters" (pocketsphinx-testdata), as an Ogg Opus file: the worker decodes it.
      const recording = readFileSync(join(REPO_ROOT, 'worker', 'audio', 'testdata', 'goforward.opus'));
      const server = ((await history(alice)).items as { server: string }[])[0].server;
      const response = await transcribe(`?model=pocketsphinx-en&server=${server}&language=en`, [
        { field: 'file', bytes: recording, name: 'goforward.opus', type: 'audio/ogg' },
      ]);
      if (sphinx) {
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          language: 'en',
          model: 'pocketsphinx-en',
          serverName: 'Local',
        });
        expect(response.body.text).toMatch(/forward/);
      } else {
        // The worker was built without the system pocketsphinx packages: nothing can transcribe.
        expect(response.status).toBe(503);
        expect(response.body.message).toMatch(/not installed/);
      }
      // Whisper is in the catalog but not installed on any worker.
      const whisper = await transcribe('?model=whisper-tiny', wavPart(toneWav(1)));
      expect(whisper.status).toBe(503);
      expect(whisper.body.message).toMatch(/whisper-tiny.*not installed/);
    });
  });

  describe('a worker lost mid-stream', () => {
    it('leaves no entry and cuts the stream', async () => {
      const before = (await history(alice)).totalItems as number;
      const response = await fetch(`${url()}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: alice.authorization },
        body: JSON.stringify({
          model: 'espeak-ng',
          input: Array.from(
            { length: 60 },
            (_, i) => `This is sentence ${i + 1} of a very long reading.`,
          ).join(' '),
          stream: true,
        }),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      stack.worker.child.kill('SIGKILL');
      let failed = false;
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) {
            break;
          }
        }
      } catch {
        failed = true;
      }
      expect(failed).toBe(true);
      await new Promise((wait) => setTimeout(wait, 500));
      expect((await history(alice)).totalItems).toBe(before);
    });
  });
});
