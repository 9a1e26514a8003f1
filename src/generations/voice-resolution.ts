import type { CatalogEntry, GenerateRequest, PresetVoice } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import type { UsableVoice } from '../voices/voices.service';
import { canClone, findPresetVoice, supportsLanguage } from '../voices/voice-rules';
import { workerModelPath } from '../models/catalog.service';

/** How a request's `voice` was understood. */
export type VoiceChoice =
  /** A preset voice of the model given by id, or picked by default (none: an embedded engine picks by language). */
  | { kind: 'preset'; preset?: PresetVoice }
  /** A Chorus voice (own or public). */
  | { kind: 'voice'; usable: UsableVoice };

/** The worker request, and what the history records about the voice. */
export interface ResolvedRequest {
  request: GenerateRequest;
  voiceId: string;
  voiceName: string;
  presetVoice: string;
  language: string;
}

export interface SpeechInput {
  input: string;
  speed?: number;
  /** Already lower-cased and checked against the model. */
  language?: string;
}

/**
 * The preset voice used when a request names none: the model's first voice, or the one for the requested
 * language. An embedded multilingual engine picks its own voice for a language without a listed preset.
 */
export function defaultPresetVoice(entry: CatalogEntry, language?: string): PresetVoice | undefined {
  const voices = entry.presetVoices ?? [];
  if (!language) {
    return voices[0];
  }
  const base = language.split('-')[0];
  return (
    voices.find((voice) => voice.id === language) ??
    voices.find((voice) => voice.language === base) ??
    (entry.embedded ? undefined : voices[0])
  );
}

/**
 * Turns a validated request and its voice into the worker request: a preset voice becomes `voice_path`; a
 * Chorus voice of a preset model becomes its preset's `voice_path`; a Chorus voice of a cloning model becomes
 * `reference_audio` (base64 WAV per sample) and `reference_text`. The voice must belong to the requested model,
 * and its language (when the request gives none) must be one the model speaks.
 */
export function buildWorkerRequest(
  entry: CatalogEntry,
  input: SpeechInput,
  choice: VoiceChoice,
): ResolvedRequest {
  let preset: PresetVoice | undefined;
  let references: UsableVoice['references'] = [];
  let voiceId = '';
  let voiceName = '';
  let language = input.language;
  if (choice.kind === 'preset') {
    preset = choice.preset;
  } else {
    const { voice } = choice.usable;
    voiceId = voice.id;
    voiceName = voice.name;
    if (voice.model !== entry.id) {
      throw ApiError.field(
        'voice',
        'validation_voice_model_mismatch',
        `Voice "${voice.name}" speaks with model "${voice.model}", not "${entry.id}".`,
      );
    }
    if (voice.presetVoice) {
      preset = findPresetVoice(entry, voice.presetVoice);
      if (!preset) {
        throw ApiError.field(
          'voice',
          'validation_unknown_voice',
          `Voice "${voice.name}" uses preset "${voice.presetVoice}", which model "${entry.id}" no longer has.`,
        );
      }
    }
    language ??= (voice.language || preset?.language || '').toLowerCase() || undefined;
    if (language && !supportsLanguage(entry, language)) {
      throw ApiError.field(
        'voice',
        'validation_unsupported_language',
        `Voice "${voice.name}" speaks "${language}", which model "${entry.id}" does not support.`,
      );
    }
    if (!preset && canClone(entry)) {
      references = choice.usable.references;
      if (references.length === 0) {
        throw ApiError.field(
          'voice',
          'validation_voice_without_samples',
          `Voice "${voice.name}" has no samples yet: add a recording to clone it.`,
        );
      }
    } else if (!preset) {
      preset = defaultPresetVoice(entry, language);
    }
  }
  const cloning = references.length > 0;
  return {
    request: {
      backend: entry.backend,
      text: input.input,
      voice_path: preset ? presetVoicePath(entry, preset) : null,
      speed: input.speed ?? 1,
      language: language ?? preset?.language ?? null,
      reference_audio: cloning ? references.map((reference) => reference.wav.toString('base64')) : null,
      reference_text: cloning ? references.map((reference) => reference.transcript) : null,
      model_path: workerModelPath(entry),
    },
    voiceId,
    voiceName,
    presetVoice: preset?.id ?? '',
    language: language ?? preset?.language ?? '',
  };
}

/** Embedded engines take a voice name; file-based engines a path relative to the models directory. */
export function presetVoicePath(entry: CatalogEntry, voice: PresetVoice): string {
  return entry.embedded ? voice.id : `${entry.backend}/${entry.variant}/${voice.id}`;
}
