import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import { checkReferenceLength, checkVoiceSpec, supportsLanguage } from './voice-rules';

function entry(overrides: Partial<CatalogEntry>): CatalogEntry {
  return {
    id: 'model',
    name: 'Model',
    description: 'd',
    backend: 'b',
    backendDisplayName: 'B',
    backendDescription: 'B',
    variant: 'v',
    repo: 'o/r',
    files: [{ path: 'f' }],
    size: 1,
    types: ['preset'],
    license: 'MIT',
    hardware: 'cpu',
    languages: ['en'],
    ...overrides,
  };
}

const CATALOG = new Map<string, CatalogEntry>([
  [
    'espeak',
    entry({
      id: 'espeak',
      embedded: true,
      repo: null,
      files: [],
      languages: ['*'],
      presetVoices: [
        { id: 'en-us', name: 'English (US)', language: 'en' },
        { id: 'de', name: 'German', language: 'de' },
      ],
    }),
  ],
  [
    'piper',
    entry({ id: 'piper', presetVoices: [{ id: 'joe', name: 'Joe', language: 'en' }], languages: ['en'] }),
  ],
  ['clone', entry({ id: 'clone', types: ['cloning'], languages: ['en', 'fr'], maxReferenceDuration: 30 })],
  ['whisper', entry({ id: 'whisper', types: ['transcription'], languages: ['*'] })],
]);
const find = (id: string) => CATALOG.get(id);

function errorOf(run: () => unknown): { field: string; code: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const body = (error as ApiError).getResponse() as {
      data: Record<string, { code: string; message: string }>;
    };
    const [field, detail] = Object.entries(body.data)[0];
    return { field, ...detail };
  }
  throw new Error('expected an ApiError');
}

describe('checkVoiceSpec', () => {
  it.each([
    [
      { model: 'espeak', presetVoice: 'en-us' },
      { presetVoice: 'en-us', language: 'en' },
    ],
    [
      { model: 'espeak', presetVoice: 'de', language: 'de-ch' },
      { presetVoice: 'de', language: 'de-ch' },
    ],
    // Embedded engines may speak by language alone.
    [
      { model: 'espeak', language: 'FR' },
      { presetVoice: '', language: 'fr' },
    ],
    [
      { model: 'piper', presetVoice: 'joe' },
      { presetVoice: 'joe', language: 'en' },
    ],
    [
      { model: 'clone', language: 'fr' },
      { presetVoice: '', language: 'fr' },
    ],
    [{ model: 'clone' }, { presetVoice: '', language: '' }],
  ])('accepts %j', (spec, expected) => {
    const checked = checkVoiceSpec(spec, find);
    expect({ presetVoice: checked.presetVoice, language: checked.language }).toEqual(expected);
    expect(checked.entry.id).toBe(spec.model);
  });

  it.each([
    [{ model: 'nope' }, 'model', 'validation_unknown_model'],
    [{ model: 'whisper' }, 'model', 'validation_not_a_speech_model'],
    [{ model: 'espeak', presetVoice: 'klingon' }, 'presetVoice', 'validation_unknown_voice'],
    [{ model: 'piper' }, 'presetVoice', 'validation_required'],
    [{ model: 'clone', presetVoice: 'joe' }, 'presetVoice', 'validation_no_preset_voices'],
    [{ model: 'clone', language: 'de' }, 'language', 'validation_unsupported_language'],
    [{ model: 'piper', presetVoice: 'joe', language: 'fr' }, 'language', 'validation_unsupported_language'],
  ])('refuses %j naming %s', (spec, field, code) => {
    expect(errorOf(() => checkVoiceSpec(spec, find))).toMatchObject({ field, code });
  });
});

describe('checkReferenceLength', () => {
  const clone = CATALOG.get('clone')!;

  it('accepts references up to the limit exactly', () => {
    expect(() => checkReferenceLength(clone, 20, 10)).not.toThrow();
  });

  it('refuses more, naming the limit', () => {
    const error = errorOf(() => checkReferenceLength(clone, 25, 6));
    expect(error).toMatchObject({ field: 'audio', code: 'validation_reference_too_long' });
    expect(error.message).toContain('30 s');
  });

  it('has no limit when the catalog gives none', () => {
    expect(() => checkReferenceLength(CATALOG.get('piper')!, 1000, 1000)).not.toThrow();
  });
});

describe('supportsLanguage', () => {
  it('matches base codes, regional tags and the "*" wildcard', () => {
    expect(supportsLanguage(CATALOG.get('piper')!, 'en-GB')).toBe(true);
    expect(supportsLanguage(CATALOG.get('piper')!, 'de')).toBe(false);
    expect(supportsLanguage(CATALOG.get('espeak')!, 'sw')).toBe(true);
  });
});
