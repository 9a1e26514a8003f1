import type { CatalogEntry } from '../../../worker/contract/worker-api';

/** An embedded preset-voice catalog entry (English and German voices) for tests to build on. */
export const ESPEAK_ENTRY: CatalogEntry = {
  id: 'espeak-ng',
  name: 'eSpeak NG',
  description: 'd',
  backend: 'espeak',
  backendDisplayName: 'eSpeak',
  backendDescription: 'e',
  variant: 'embedded',
  repo: null,
  files: [],
  size: 0,
  types: ['preset'],
  license: 'GPL-3.0-or-later',
  hardware: 'cpu',
  languages: ['*'],
  embedded: true,
  presetVoices: [
    { id: 'en-us', name: 'English', language: 'en' },
    { id: 'de', name: 'German', language: 'de' },
  ],
};
