import type { EspeakVoiceEntry } from './espeak-protocol';
import { DEFAULT_ESPEAK_VOICE, EspeakVoiceIndex } from './espeak-voices';

/** A slice of espeak-ng's real voice list (as `list_voices()` returns it). */
const VOICES: EspeakVoiceEntry[] = [
  { name: 'German', identifier: 'gmw/de', languages: [{ priority: 5, name: 'de' }] },
  {
    name: 'English (Great Britain)',
    identifier: 'gmw/en',
    languages: [
      { priority: 2, name: 'en-gb' },
      { priority: 2, name: 'en' },
    ],
  },
  {
    name: 'English (America)',
    identifier: 'gmw/en-US',
    languages: [
      { priority: 2, name: 'en-us' },
      { priority: 3, name: 'en' },
    ],
  },
  {
    name: 'French (France)',
    identifier: 'roa/fr',
    languages: [
      { priority: 5, name: 'fr-fr' },
      { priority: 5, name: 'fr' },
    ],
  },
  {
    name: 'French (Belgium)',
    identifier: 'roa/fr-BE',
    languages: [
      { priority: 5, name: 'fr-be' },
      { priority: 8, name: 'fr' },
    ],
  },
  {
    name: 'Portuguese (Portugal)',
    identifier: 'roa/pt',
    languages: [
      { priority: 5, name: 'pt' },
      { priority: 5, name: 'pt-pt' },
    ],
  },
  {
    name: 'Portuguese (Brazil)',
    identifier: 'roa/pt-BR',
    languages: [
      { priority: 5, name: 'pt-br' },
      { priority: 6, name: 'pt' },
    ],
  },
  {
    name: 'Chinese (Mandarin, latin as English)',
    identifier: 'sit/cmn',
    languages: [
      { priority: 5, name: 'cmn' },
      { priority: 5, name: 'zh-cmn' },
      { priority: 5, name: 'zh' },
    ],
  },
  { name: 'Korean', identifier: 'ko', languages: [{ priority: 5, name: 'ko' }] },
];
const VARIANTS = ['f3', 'klatt', 'Andy', 'm1'];

describe('EspeakVoiceIndex', () => {
  const index = new EspeakVoiceIndex(VOICES, VARIANTS);

  it.each([
    ['en-us', 'gmw/en-US'],
    ['EN-US', 'gmw/en-US'],
    ['en_US', 'gmw/en-US'],
    ['gmw/en-US', 'gmw/en-US'],
    ['de', 'gmw/de'],
    ['fr', 'roa/fr'],
    ['fr-be', 'roa/fr-BE'],
    ['en-gb', 'gmw/en'],
    ['zh', 'sit/cmn'],
    ['cmn', 'sit/cmn'],
    ['ko', 'ko'],
    ['en-us+f3', 'gmw/en-US+f3'],
    ['de+KLATT', 'gmw/de+klatt'],
    ['en+andy', 'gmw/en+Andy'], // as a voice name, `en` is espeak's own (British) voice
  ])('resolves voice %p to %p', (name, expected) => {
    expect(index.resolveVoice(name)).toBe(expected);
  });

  it.each(['xx', '', '+f3', 'en-us+nope', 'en-us+f3+m1', 'klatt'])('rejects voice %p', (name) => {
    expect(index.resolveVoice(name)).toBeUndefined();
  });

  it.each([
    ['en', 'gmw/en-US'], // the product's default English, not espeak's British pick
    ['en-US', 'gmw/en-US'],
    ['en-GB', 'gmw/en'],
    ['en-AU', 'gmw/en-US'],
    ['pt', 'roa/pt'],
    ['pt_BR', 'roa/pt-BR'],
    ['fr-CA', 'roa/fr'],
    ['zh-Hans-CN', 'sit/cmn'],
    ['de-DE-1996', 'gmw/de'],
  ])('resolves language %p to %p', (language, expected) => {
    expect(index.resolveLanguage(language)).toBe(expected);
  });

  it('does not know languages espeak does not speak', () => {
    expect(index.resolveLanguage('tlh')).toBeUndefined();
  });

  it('resolves the default voice', () => {
    expect(index.resolveVoice(DEFAULT_ESPEAK_VOICE)).toBe('gmw/en-US');
  });

  it('lists voices with short ids usable as voice_path', () => {
    const voices = index.list();
    expect(voices).toHaveLength(VOICES.length);
    expect(voices.find((voice) => voice.id === 'en-us')).toEqual({
      id: 'en-us',
      name: 'English (America)',
      language: 'en-us',
      languages: ['en-us', 'en'],
    });
    for (const voice of voices) {
      expect(index.resolveVoice(voice.id)).toBeDefined();
    }
    expect(index.variantNames()).toEqual(['Andy', 'f3', 'klatt', 'm1']);
  });
});
