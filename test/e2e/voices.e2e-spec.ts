import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestAccount, signUp } from '../support/accounts';
import { REPO_ROOT, Stack, startStack, waitFor } from '../support/processes';
import { parseWav } from '../support/wav';
import {
  FilePart,
  PNG_1X1,
  TEST_CLONE_MAX_REFERENCE,
  TEST_CLONE_MODEL,
  api,
  sendForm,
  silentWav,
  toneWav,
  writeTestCatalog,
} from '../support/voice-fixtures';

describe('voices and samples (main service + worker as real processes)', () => {
  let stack: Stack;
  let admin: TestAccount;
  let alice: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { CATALOG_FILE: writeTestCatalog() } });
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
    admin = await signUp(stack.api.url, 'admin');
    alice = await signUp(stack.api.url, 'alice');
    bob = await signUp(stack.api.url, 'bob');
    expect(admin.role).toBe('admin');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const url = () => stack.api.url;
  const createVoice = (
    account: TestAccount,
    fields: Record<string, string | string[]>,
    files: FilePart[] = [],
  ) => sendForm(url(), 'POST', '/api/voices', account, fields, files);

  async function generate(account: TestAccount, body: Record<string, unknown>): Promise<Response> {
    return fetch(`${url()}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: account.authorization },
      body: JSON.stringify(body),
    });
  }

  describe('creating and reading', () => {
    it('creates a preset voice on espeak-ng with an avatar, and reads it back', async () => {
      const created = await createVoice(
        alice,
        {
          name: 'Narrator',
          description: 'Calm',
          model: 'espeak-ng',
          presetVoice: 'en-gb',
          tags: ['calm', 'british'],
          public: 'false',
        },
        [{ field: 'avatar', bytes: PNG_1X1, name: 'face.png', type: 'image/png' }],
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        user: alice.id,
        owned: true,
        name: 'Narrator',
        description: 'Calm',
        language: 'en',
        model: 'espeak-ng',
        presetVoice: 'en-gb',
        tags: ['calm', 'british'],
        public: false,
        samples: [],
        referenceDuration: 0,
        options: {},
      });
      expect(created.body.id).toMatch(/^[a-z0-9]{15}$/);
      const avatar = await fetch(`${url()}${created.body.avatarUrl as string}`);
      expect(avatar.status).toBe(200);
      expect(avatar.headers.get('content-type')).toBe('image/png');

      const read = await api(url(), 'GET', `/api/voices/${created.body.id}`, alice);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
    });

    it('accepts JSON-less form values: tags as text, options as JSON text', async () => {
      const created = await createVoice(alice, {
        name: 'Options',
        model: 'espeak-ng',
        language: 'fr',
        tags: 'a, b',
        options: '{"pitch": 3}',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        language: 'fr',
        presetVoice: '',
        tags: ['a', 'b'],
        options: { pitch: 3 },
      });
    });

    it.each([
      ['no name', { model: 'espeak-ng' }, 'name'],
      ['a blank name', { name: '   ', model: 'espeak-ng' }, 'name'],
      ['no model', { name: 'x' }, 'model'],
      ['an unknown model', { name: 'x', model: 'no-such-model' }, 'model'],
      ['a transcription model', { name: 'x', model: 'pocketsphinx-en' }, 'model'],
      [
        'a preset voice of no such name',
        { name: 'x', model: 'espeak-ng', presetVoice: 'klingon' },
        'presetVoice',
      ],
      [
        'a preset voice on a cloning model',
        { name: 'x', model: TEST_CLONE_MODEL, presetVoice: 'en-us' },
        'presetVoice',
      ],
      ['an unsupported language', { name: 'x', model: TEST_CLONE_MODEL, language: 'de' }, 'language'],
      ['a malformed language', { name: 'x', model: 'espeak-ng', language: 'not a language' }, 'language'],
      ['tags that are not a list', { name: 'x', model: 'espeak-ng', tags: '[oops' }, 'tags'],
      ['a too long tag', { name: 'x', model: 'espeak-ng', tags: 'x'.repeat(33) }, 'tags'],
      ['options that are not an object', { name: 'x', model: 'espeak-ng', options: '[1,2]' }, 'options'],
      ['a public flag that is not a boolean', { name: 'x', model: 'espeak-ng', public: 'maybe' }, 'public'],
      ['an unknown field', { name: 'x', model: 'espeak-ng', colour: 'red' }, 'colour'],
    ])('refuses %s with a 400 naming the field', async (_what, fields, field) => {
      const response = await createVoice(alice, fields);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, message: expect.any(String) });
      expect(response.body.data[field].code).toMatch(/^validation_/);
    });

    it('refuses avatars that are not images (400), too large (413), or sent twice (400)', async () => {
      const fields = { name: 'x', model: 'espeak-ng' };
      const notImage = await createVoice(alice, fields, [
        { field: 'avatar', bytes: Buffer.from('hello'), name: 'a.png', type: 'image/png' },
      ]);
      expect(notImage.status).toBe(400);
      expect(notImage.body.data.avatar.code).toBe('validation_invalid_mime_type');
      const huge = await createVoice(alice, fields, [
        { field: 'avatar', bytes: Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)]), name: 'a.png' },
      ]);
      expect(huge.status).toBe(413);
      expect(huge.body.status).toBe(413);
      const twice = await createVoice(alice, fields, [
        { field: 'avatar', bytes: PNG_1X1, name: 'a.png' },
        { field: 'avatar', bytes: PNG_1X1, name: 'b.png' },
      ]);
      expect(twice.status).toBe(400);
      const stray = await createVoice(alice, fields, [{ field: 'photo', bytes: PNG_1X1, name: 'a.png' }]);
      expect(stray.status).toBe(400);
    });

    it('answers 401 to every route without a signed-in user', async () => {
      const id = 'aaaaaaaaaaaaaaa';
      for (const [method, path] of [
        ['GET', '/api/voices'],
        ['POST', '/api/voices'],
        ['GET', `/api/voices/${id}`],
        ['PUT', `/api/voices/${id}`],
        ['DELETE', `/api/voices/${id}`],
        ['POST', `/api/voices/${id}/samples`],
        ['DELETE', `/api/voices/${id}/samples/${id}`],
      ]) {
        const response = await api(url(), method, path, null);
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
        expect(response.body).toMatchObject({ status: 401, data: {} });
      }
    });
  });

  describe('visibility and ownership', () => {
    let privateVoice: string;
    let publicVoice: string;

    beforeAll(async () => {
      privateVoice = (await createVoice(alice, { name: 'Secret', model: 'espeak-ng', presetVoice: 'de' }))
        .body.id;
      publicVoice = (
        await createVoice(alice, {
          name: 'Shared Voice',
          model: 'espeak-ng',
          presetVoice: 'fr-fr',
          public: 'true',
        })
      ).body.id;
    });

    it('shows others a public voice (not theirs) and hides a private one', async () => {
      const seen = await api(url(), 'GET', `/api/voices/${publicVoice}`, bob);
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ name: 'Shared Voice', owned: false, public: true });
      expect((await api(url(), 'GET', `/api/voices/${privateVoice}`, bob)).status).toBe(404);
      // Admins have no special rights over users' voices.
      expect((await api(url(), 'GET', `/api/voices/${privateVoice}`, admin)).status).toBe(404);
      const list = await api(url(), 'GET', '/api/voices', bob);
      const names = (list.body.items as { name: string }[]).map((voice) => voice.name);
      expect(names).toContain('Shared Voice');
      expect(names).not.toContain('Secret');
    });

    it('lets nobody but the owner change or delete a voice: 403 when public, 404 when private', async () => {
      const attempts = (id: string): [string, string, Record<string, string>][] => [
        ['PUT', `/api/voices/${id}`, { name: 'Hijacked' }],
        ['DELETE', `/api/voices/${id}`, {}],
        ['POST', `/api/voices/${id}/samples`, { transcript: 'Hijacked' }],
      ];
      for (const [method, path, fields] of attempts(publicVoice)) {
        const response = await sendForm(url(), method, path, bob, fields);
        expect({ path, status: response.status }).toEqual({ path, status: 403 });
      }
      for (const [method, path, fields] of attempts(privateVoice)) {
        const response = await sendForm(url(), method, path, bob, fields);
        expect({ path, status: response.status }).toEqual({ path, status: 404 });
      }
      expect((await api(url(), 'GET', `/api/voices/${publicVoice}`, alice)).body.name).toBe('Shared Voice');
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of ['zzzzzzzzzzzzzzz', 'nope', '..%2F..']) {
        expect((await api(url(), 'GET', `/api/voices/${id}`, alice)).status).toBe(404);
        expect((await api(url(), 'PUT', `/api/voices/${id}`, alice, { name: 'x' })).status).toBe(404);
        expect((await api(url(), 'DELETE', `/api/voices/${id}`, alice)).status).toBe(404);
      }
      expect(
        (await api(url(), 'DELETE', `/api/voices/${privateVoice}/samples/zzzzzzzzzzzzzzz`, alice)).status,
      ).toBe(404);
    });

    it('keeps the records API to the same rules', async () => {
      const bobs = await api(url(), 'GET', '/api/collections/voices/records?perPage=100', bob);
      const ids = (bobs.body.items as { id: string }[]).map((voice) => voice.id);
      expect(ids).toContain(publicVoice);
      expect(ids).not.toContain(privateVoice);
      expect(
        (await api(url(), 'PATCH', `/api/collections/voices/records/${publicVoice}`, bob, { name: 'x' }))
          .status,
      ).toBe(404);
      // Catalog fields are read-only through the records API (they are checked by /api/voices).
      const patched = await api(url(), 'PATCH', `/api/collections/voices/records/${privateVoice}`, alice, {
        name: 'Secret 2',
        model: 'no-such-model',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Secret 2', model: 'espeak-ng' });
      expect((await api(url(), 'POST', '/api/collections/voices/records', alice, { name: 'x' })).status).toBe(
        403,
      );
    });

    it('updates with JSON or a form; a new preset voice brings its language', async () => {
      const json = await api(url(), 'PUT', `/api/voices/${privateVoice}`, alice, {
        tags: ['x'],
        description: 'New',
      });
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({ tags: ['x'], description: 'New', presetVoice: 'de', language: 'de' });
      const form = await sendForm(url(), 'PUT', `/api/voices/${privateVoice}`, alice, {
        presetVoice: 'en-us',
      });
      expect(form.status).toBe(200);
      expect(form.body).toMatchObject({ presetVoice: 'en-us', language: 'en', tags: ['x'] });
      const bad = await api(url(), 'PUT', `/api/voices/${privateVoice}`, alice, { presetVoice: 'klingon' });
      expect(bad.status).toBe(400);
      expect(bad.body.data.presetVoice.code).toBe('validation_unknown_voice');
      const wrongType = await api(url(), 'PUT', `/api/voices/${privateVoice}`, alice, { public: 'perhaps' });
      expect(wrongType.status).toBe(400);
    });

    it('filters and pages the list', async () => {
      const names = async (query: string, account = alice) =>
        ((await api(url(), 'GET', `/api/voices?${query}`, account)).body.items as { name: string }[]).map(
          (voice) => voice.name,
        );
      expect(await names('search=shared')).toEqual(['Shared Voice']);
      expect(await names('language=fr&scope=public')).toEqual(['Shared Voice']);
      expect(await names('scope=public', bob)).toEqual(expect.arrayContaining(['Shared Voice']));
      expect(await names('scope=mine', bob)).toEqual([]);
      expect(await names(`model=${TEST_CLONE_MODEL}`)).toEqual([]);
      const page = await api(url(), 'GET', '/api/voices?perPage=1&page=2&scope=mine', alice);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ page: 2, perPage: 1 });
      expect(page.body.totalItems).toBeGreaterThanOrEqual(3);
      expect(page.body.totalPages).toBe(page.body.totalItems);
      expect(page.body.items).toHaveLength(1);
      for (const query of ['perPage=0', 'perPage=101', 'page=abc', 'scope=everyone', 'language=%25%25']) {
        const response = await api(url(), 'GET', `/api/voices?${query}`, alice);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });
  });

  describe('samples', () => {
    let cloneVoice: string;

    beforeAll(async () => {
      const created = await createVoice(alice, { name: 'My Clone', model: TEST_CLONE_MODEL, language: 'en' });
      expect(created.status).toBe(201);
      cloneVoice = created.body.id;
    });

    const addSample = (voice: string, bytes: Buffer, fields: Record<string, string> = {}, account = alice) =>
      sendForm(url(), 'POST', `/api/voices/${voice}/samples`, account, fields, [
        { field: 'audio', bytes, name: 'take.wav', type: 'audio/wav' },
      ]);

    it('refuses samples on a model that does not clone', async () => {
      const preset = await createVoice(alice, { name: 'Preset', model: 'espeak-ng' });
      const response = await addSample(preset.body.id as string, toneWav(1));
      expect(response.status).toBe(400);
      expect(response.body.data.audio.code).toBe('validation_not_a_cloning_model');
    });

    it('decodes, measures and stores a sample as mono WAV', async () => {
      const response = await addSample(cloneVoice, toneWav(2, 44_100, 2), { transcript: 'A test tone.' });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        voice: cloneVoice,
        transcript: 'A test tone.',
        sampleRate: 44_100,
      });
      expect(response.body.duration).toBeCloseTo(2, 3);
      // The file is protected: only with a file token of the owner.
      expect((await fetch(`${url()}${response.body.audioUrl as string}`)).status).toBe(404);
      const token = (await api(url(), 'POST', '/api/files/token', alice)).body.token as string;
      const audio = await fetch(`${url()}${response.body.audioUrl as string}?token=${token}`);
      expect(audio.status).toBe(200);
      const wav = parseWav(Buffer.from(await audio.arrayBuffer()));
      expect(wav).toMatchObject({ channels: 1, bitsPerSample: 16, sampleRate: 44_100 });
      expect(wav.durationSeconds).toBeCloseTo(2, 3);
      const bobsToken = (await api(url(), 'POST', '/api/files/token', bob)).body.token as string;
      expect((await fetch(`${url()}${response.body.audioUrl as string}?token=${bobsToken}`)).status).toBe(
        404,
      );

      const voice = await api(url(), 'GET', `/api/voices/${cloneVoice}`, alice);
      expect(voice.body.samples).toHaveLength(1);
      expect(voice.body.referenceDuration).toBeCloseTo(2, 3);
    });

    it.each(['goforward.opus', 'goforward-chrome.webm'])(
      'decodes a compressed recording (%s) with the worker decoders',
      async (name) => {
        const other = (await createVoice(alice, { name: 'Compressed', model: TEST_CLONE_MODEL })).body
          .id as string;
        const bytes = readFileSync(join(REPO_ROOT, 'worker', 'audio', 'testdata', name));
        const response = await addSample(other, bytes);
        expect(response.status).toBe(201);
        expect(response.body.sampleRate).toBe(16_000);
        expect(response.body.duration).toBeGreaterThan(2.5);
        expect((await api(url(), 'DELETE', `/api/voices/${other}`, alice)).status).toBe(204);
      },
    );

    it('refuses non-audio (400), no file (400) and oversized files (413)', async () => {
      const text = await addSample(cloneVoice, Buffer.from('this is not audio'));
      expect(text.status).toBe(400);
      expect(text.body.data.audio.code).toBe('validation_invalid_audio');
      const image = await addSample(cloneVoice, PNG_1X1);
      expect(image.status).toBe(400);
      const none = await sendForm(url(), 'POST', `/api/voices/${cloneVoice}/samples`, alice, {
        transcript: 'x',
      });
      expect(none.status).toBe(400);
      expect(none.body.data.audio.code).toBe('validation_required');
      const huge = await addSample(cloneVoice, silentWav(21 * 1024 * 1024));
      expect(huge.status).toBe(413);
    });

    it("keeps the total reference length within the model's limit, naming it", async () => {
      const response = await addSample(cloneVoice, toneWav(TEST_CLONE_MAX_REFERENCE - 1));
      expect(response.status).toBe(400);
      expect(response.body.data.audio.code).toBe('validation_reference_too_long');
      expect(response.body.data.audio.message).toContain(`${TEST_CLONE_MAX_REFERENCE} s`);
      expect((await addSample(cloneVoice, toneWav(TEST_CLONE_MAX_REFERENCE - 2.5))).status).toBe(201);
    });

    it('generates with a cloning voice (its samples travel as references)', async () => {
      const response = await generate(alice, {
        model: TEST_CLONE_MODEL,
        input: 'Cloned speech, through the whole chain.',
        voice: cloneVoice,
      });
      expect(response.status).toBe(200);
      expect(parseWav(Buffer.from(await response.arrayBuffer())).durationSeconds).toBeGreaterThan(0.5);
      const history = await api(url(), 'GET', `/api/generations?voice=${cloneVoice}`, alice);
      expect(history.body.items[0]).toMatchObject({
        voice: cloneVoice,
        voiceName: 'My Clone',
        language: 'en',
      });
    });

    it('shows samples to the owner only through the records API', async () => {
      expect((await api(url(), 'GET', '/api/collections/voice_samples/records', alice)).body.totalItems).toBe(
        2,
      );
      expect((await api(url(), 'GET', '/api/collections/voice_samples/records', bob)).body.totalItems).toBe(
        0,
      );
    });

    it('deletes samples of own voices only', async () => {
      const sample = (await api(url(), 'GET', `/api/voices/${cloneVoice}`, alice)).body.samples[0]
        .id as string;
      expect((await api(url(), 'DELETE', `/api/voices/${cloneVoice}/samples/${sample}`, bob)).status).toBe(
        404,
      );
      expect((await api(url(), 'DELETE', `/api/voices/${cloneVoice}/samples/${sample}`, alice)).status).toBe(
        204,
      );
      expect((await api(url(), 'DELETE', `/api/voices/${cloneVoice}/samples/${sample}`, alice)).status).toBe(
        404,
      );
      expect((await api(url(), 'GET', `/api/voices/${cloneVoice}`, alice)).body.samples).toHaveLength(1);
    });

    it('deletes a voice with its samples and files; its history stays, unlinked', async () => {
      const voice = (await api(url(), 'GET', `/api/voices/${cloneVoice}`, alice)).body;
      const sampleFolder = join(
        stack.dataDir,
        'pb_data',
        'storage',
        (voice.samples[0].audioUrl as string).split('/')[3],
        voice.samples[0].id as string,
      );
      expect(existsSync(sampleFolder)).toBe(true);
      expect((await api(url(), 'DELETE', `/api/voices/${cloneVoice}`, alice)).status).toBe(204);
      expect(existsSync(sampleFolder)).toBe(false);
      expect((await api(url(), 'GET', `/api/voices/${cloneVoice}`, alice)).status).toBe(404);
      expect((await api(url(), 'DELETE', `/api/voices/${cloneVoice}`, alice)).status).toBe(404);
      const history = await api(url(), 'GET', '/api/generations', alice);
      const made = (history.body.items as { voice: string; voiceName: string }[]).filter(
        (item) => item.voiceName === 'My Clone',
      );
      expect(made.length).toBeGreaterThan(0);
      expect(made.every((item) => item.voice === '')).toBe(true);
      expect(
        (await generate(alice, { model: TEST_CLONE_MODEL, input: 'Hi.', voice: cloneVoice })).status,
      ).toBe(400);
    });
  });

  describe('generating with voices', () => {
    it("speaks with an own voice and with someone's public voice, not with a private one", async () => {
      const own = (await createVoice(alice, { name: 'German', model: 'espeak-ng', presetVoice: 'de' })).body
        .id;
      const shared = (
        await createVoice(alice, {
          name: 'Shared EN',
          model: 'espeak-ng',
          presetVoice: 'en-us',
          public: 'true',
        })
      ).body.id;
      expect((await generate(alice, { model: 'espeak-ng', input: 'Guten Tag.', voice: own })).status).toBe(
        200,
      );
      expect((await generate(bob, { model: 'espeak-ng', input: 'Hello.', voice: shared })).status).toBe(200);
      const refused = await generate(bob, { model: 'espeak-ng', input: 'Hello.', voice: own });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { data: { voice: { code: string } } }).data.voice.code).toBe(
        'validation_unknown_voice',
      );
      const mismatch = await generate(alice, { model: TEST_CLONE_MODEL, input: 'Hello.', voice: own });
      expect(mismatch.status).toBe(400);
      expect(((await mismatch.json()) as { data: { voice: { code: string } } }).data.voice.code).toBe(
        'validation_voice_model_mismatch',
      );
      // Bob's history holds his generation with Alice's public voice; Alice's does not.
      const bobs = await api(url(), 'GET', `/api/generations?voice=${shared}`, bob);
      expect(bobs.body.totalItems).toBe(1);
      expect((await api(url(), 'GET', `/api/generations?voice=${shared}`, alice)).body.totalItems).toBe(0);
    });
  });
});
