import { InjectionToken } from '@angular/core';

/**
 * All user-facing text of the client, in one typed object.
 *
 * To add a language: create an object of type `Strings` (the compiler checks every key) and provide it
 * for the `STRINGS` token, e.g. `{ provide: STRINGS, useValue: fr }` in app.config.ts.
 * Parameterised messages are plain functions so that translations can reorder words.
 */
const en = {
  app: {
    name: 'Chorus',
    skipToContent: 'Skip to main content',
    titleSuffix: 'Chorus',
  },
  nav: {
    label: 'Main',
    studio: 'Studio',
    voices: 'Voices',
    models: 'Models',
    history: 'History',
    admin: 'Administration',
  },
  theme: {
    toLight: 'Switch to light theme',
    toDark: 'Switch to dark theme',
  },
  health: {
    checking: 'Checking service health…',
    ok: (online: number, total: number) => `Service healthy · ${online} of ${total} workers online`,
    degraded: (online: number, total: number) =>
      `Service running with problems · ${online} of ${total} workers online`,
    databaseDown: 'Service running, but its database is not healthy',
    down: 'Service unreachable',
  },
  footer: {
    version: (name: string, version: string, apiVersion: string) => `${name} ${version} · API ${apiVersion}`,
    versionUnknown: 'Version unknown',
  },
  studio: {
    title: 'Studio',
    intro: 'Type some text, pick a model and a voice, and turn it into speech.',
    textLabel: 'Text',
    textPlaceholder: 'What should Chorus say?',
    charCount: (n: number, max: number) => `${n} / ${max} characters`,
    tooLong: (max: number) => `The text is longer than ${max} characters.`,
    modelLabel: 'Model',
    modelsLoading: 'Loading models…',
    modelsEmpty: 'No installed model is available.',
    modelsFailed: 'The list of models could not be loaded.',
    retry: 'Retry',
    voiceLabel: 'Voice',
    voiceDefault: 'Model default',
    languageLabel: 'Language',
    languageAuto: 'Automatic',
    speedLabel: 'Speed',
    speedValue: (speed: number) => `${speed.toFixed(2)}×`,
    streamLabel: 'Stream (start playing while it is generated)',
    generate: 'Generate',
    generating: 'Generating…',
    stop: 'Stop',
    shortcutHint: 'Ctrl + Enter generates',
    resultHeading: 'Result',
    audioLabel: 'Generated speech',
    download: 'Download WAV',
    streaming: 'Streaming…',
    errorHeading: 'Speech could not be generated',
  },
  fields: {
    model: 'Model',
    input: 'Text',
    voice: 'Voice',
    speed: 'Speed',
    language: 'Language',
    stream: 'Stream',
  } as Record<string, string>,
  errors: {
    network: 'The server could not be reached. Check your connection and try again.',
    unknown: 'Something went wrong. Please try again.',
    status: (status: number) => `The server answered with an error (HTTP ${status}).`,
    audioUnsupported: 'This browser cannot play streamed audio.',
  },
  recordsAdmin: {
    title: 'Records admin',
    body: 'This panel lets a superuser browse and edit the service records. It needs a superuser account and will be built later.',
  },
  notFound: {
    title: 'Page not found',
    body: 'There is nothing at this address.',
    home: 'Go to the Studio',
  },
};

/** Shape of the message catalogue; every translation must provide all of it. */
export type Strings = typeof en;

export const STRINGS = new InjectionToken<Strings>('STRINGS', {
  providedIn: 'root',
  factory: () => en,
});
