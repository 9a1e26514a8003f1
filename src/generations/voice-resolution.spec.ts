import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import type { UsableVoice } from '../voices/voices.service';
import type { VoiceEntity } from '../voices/voice.entity';
import { buildWorkerRequest, defaultPresetVoice } from './voice-resolution';
import { ESPEAK_ENTRY as ESPEAK } from '../models/testing/catalog-fixtures';

const PIPER: CatalogEntry = {
  ...ESPEAK,
  id: 'piper-joe',
  backend: 'piper',
  variant: 'en_US-joe-medium',
  repo: 'rhasspy/piper-voices',
  files: [{ path: 'joe.onnx' }],
  embedded: undefined,
  languages: ['en'],
  presetVoices: [{ id: 'joe', name: 'Joe', language: 'en' }],
};

const CLONE: CatalogEntry = {
  ...PIPER,
  id: 'clone-tts',
  backend: 'clonetts',
  variant: 'v1',
  types: ['cloning'],
  presetVoices: undefined,
  languages: ['en', 'fr'],
  maxReferenceDuration: 30,
};

function voice(overrides: Partial<VoiceEntity>): VoiceEntity {
  return {
    id: 'v00000000000001',
    user: 'u00000000000001',
    name: 'Narrator',
    description: '',
    language: '',
    avatar: '',
    model: 'espeak-ng',
    presetVoice: '',
    options: {},
    tags: [],
    public: false,
    created: '',
    updated: '',
    ...overrides,
  };
}

function usable(
  entry: CatalogEntry,
  overrides: Partial<VoiceEntity>,
  references: UsableVoice['references'] = [],
) {
  return { kind: 'voice' as const, usable: { voice: voice(overrides), entry, references } };
}

function fieldError(run: () => unknown): { field: string; code: string } {
  try {
    run();
  } catch (error) {
    const body = (error as ApiError).getResponse() as { data: Record<string, { code: string }> };
    const [field, detail] = Object.entries(body.data)[0];
    return { field, code: detail.code };
  }
  throw new Error('expected an ApiError');
}

describe('buildWorkerRequest', () => {
  it('sends a preset voice of an embedded engine by name, and records it', () => {
    const resolved = buildWorkerRequest(
      ESPEAK,
      { input: 'Hi', speed: 1.5 },
      {
        kind: 'preset',
        preset: ESPEAK.presetVoices![1],
      },
    );
    expect(resolved.request).toEqual({
      backend: 'espeak',
      text: 'Hi',
      voice_path: 'de',
      speed: 1.5,
      language: 'de',
      reference_audio: null,
      reference_text: null,
      model_path: null,
    });
    expect(resolved).toMatchObject({ voiceId: '', voiceName: '', presetVoice: 'de', language: 'de' });
  });

  it('sends file-based preset voices as paths under the model folder', () => {
    const resolved = buildWorkerRequest(
      PIPER,
      { input: 'Hi' },
      { kind: 'preset', preset: PIPER.presetVoices![0] },
    );
    expect(resolved.request).toMatchObject({
      voice_path: 'piper/en_US-joe-medium/joe',
      model_path: 'piper/en_US-joe-medium',
      speed: 1,
    });
  });

  it("resolves a Chorus voice of a preset model to its preset voice, in the voice's language", () => {
    const resolved = buildWorkerRequest(
      ESPEAK,
      { input: 'Hallo' },
      usable(ESPEAK, { presetVoice: 'de', language: 'de-ch', name: 'Heidi' }),
    );
    expect(resolved.request).toMatchObject({ voice_path: 'de', language: 'de-ch', reference_audio: null });
    expect(resolved).toMatchObject({ voiceId: 'v00000000000001', voiceName: 'Heidi', presetVoice: 'de' });
  });

  it('lets the request language win over the voice language', () => {
    const resolved = buildWorkerRequest(
      ESPEAK,
      { input: 'Hi', language: 'en' },
      usable(ESPEAK, { presetVoice: 'de', language: 'de' }),
    );
    expect(resolved.request.language).toBe('en');
  });

  it('lets an embedded engine pick by language for a voice without a preset', () => {
    const resolved = buildWorkerRequest(ESPEAK, { input: 'Bonjour' }, usable(ESPEAK, { language: 'fr' }));
    expect(resolved.request).toMatchObject({ voice_path: null, language: 'fr' });
  });

  it('sends the samples of a cloning voice as base64 WAVs with their transcripts', () => {
    const wavs = [Buffer.from('RIFF-one'), Buffer.from('RIFF-two')];
    const resolved = buildWorkerRequest(
      CLONE,
      { input: 'Hi' },
      usable(CLONE, { model: 'clone-tts', language: 'en' }, [
        { wav: wavs[0], transcript: 'first' },
        { wav: wavs[1], transcript: 'second' },
      ]),
    );
    expect(resolved.request).toMatchObject({
      backend: 'clonetts',
      voice_path: null,
      language: 'en',
      model_path: 'clonetts/v1',
      reference_audio: [wavs[0].toString('base64'), wavs[1].toString('base64')],
      reference_text: ['first', 'second'],
    });
    expect(resolved.presetVoice).toBe('');
  });

  it.each([
    [
      'a voice of another model',
      () => usable(ESPEAK, { model: 'piper-joe' }),
      'validation_voice_model_mismatch',
    ],
    [
      'a cloning voice without samples',
      () => usable(CLONE, { model: 'clone-tts' }),
      'validation_voice_without_samples',
    ],
    [
      'a preset the model no longer has',
      () => usable(ESPEAK, { presetVoice: 'gone' }),
      'validation_unknown_voice',
    ],
  ])('refuses %s', (_what, choice, code) => {
    const entry = code === 'validation_voice_without_samples' ? CLONE : ESPEAK;
    expect(fieldError(() => buildWorkerRequest(entry, { input: 'Hi' }, choice()))).toEqual({
      field: 'voice',
      code,
    });
  });

  it('refuses a voice whose language the model does not speak', () => {
    expect(
      fieldError(() =>
        buildWorkerRequest(
          PIPER,
          { input: 'Hi' },
          usable(PIPER, { model: 'piper-joe', presetVoice: 'joe', language: 'de' }),
        ),
      ),
    ).toEqual({ field: 'voice', code: 'validation_unsupported_language' });
  });
});

describe('defaultPresetVoice', () => {
  it('takes the first voice, or the one for the language', () => {
    expect(defaultPresetVoice(ESPEAK)?.id).toBe('en-us');
    expect(defaultPresetVoice(ESPEAK, 'de-at')?.id).toBe('de');
    expect(defaultPresetVoice(ESPEAK, 'sw')).toBeUndefined();
    expect(defaultPresetVoice(PIPER, 'sw')?.id).toBe('joe');
  });
});
