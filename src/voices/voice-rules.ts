import type { CatalogEntry, PresetVoice } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';

/** What a voice says about how to speak, before it is checked against the catalog. */
export interface VoiceSpec {
  model: string;
  presetVoice?: string;
  language?: string;
}

/** A VoiceSpec that fits its catalog entry, with the language filled in from the preset voice when absent. */
export interface CheckedVoiceSpec {
  entry: CatalogEntry;
  presetVoice: string;
  language: string;
}

/** Whether the model turns text into speech from a voice (what `POST /api/generate` accepts). */
export function isSpeechModel(entry: CatalogEntry): boolean {
  return entry.types.includes('preset') || entry.types.includes('cloning');
}

export function canClone(entry: CatalogEntry): boolean {
  return entry.types.includes('cloning');
}

/** Whether `language` (ISO 639-1 or a regional tag such as en-gb) is spoken by the model. */
export function supportsLanguage(entry: CatalogEntry, language: string): boolean {
  return entry.languages.includes('*') || entry.languages.includes(language.toLowerCase().split('-')[0]);
}

export function findPresetVoice(entry: CatalogEntry, id: string): PresetVoice | undefined {
  return entry.presetVoices?.find((voice) => voice.id === id);
}

/**
 * Checks a voice against the catalog: the model exists and speaks, the preset voice (if any) is one of the
 * model's, and the language is one the model supports. A preset-only model that is not an embedded engine needs
 * a preset voice (embedded engines can pick one by language). Throws a 400 naming the field.
 */
export function checkVoiceSpec(
  spec: VoiceSpec,
  find: (id: string) => CatalogEntry | undefined,
): CheckedVoiceSpec {
  const entry = find(spec.model);
  if (!entry) {
    throw ApiError.field('model', 'validation_unknown_model', `Unknown model "${spec.model}".`);
  }
  if (!isSpeechModel(entry)) {
    throw ApiError.field(
      'model',
      'validation_not_a_speech_model',
      `Model "${entry.id}" does not synthesise speech, so it cannot have voices.`,
    );
  }
  let preset: PresetVoice | undefined;
  if (spec.presetVoice) {
    if (!entry.types.includes('preset')) {
      throw ApiError.field(
        'presetVoice',
        'validation_no_preset_voices',
        `Model "${entry.id}" has no preset voices.`,
      );
    }
    preset = findPresetVoice(entry, spec.presetVoice);
    if (!preset) {
      throw ApiError.field(
        'presetVoice',
        'validation_unknown_voice',
        `"${spec.presetVoice}" is not a preset voice of model "${entry.id}".`,
      );
    }
  } else if (!canClone(entry) && !entry.embedded) {
    throw ApiError.field(
      'presetVoice',
      'validation_required',
      `Model "${entry.id}" speaks only with its preset voices: choose one.`,
    );
  }
  const language = (spec.language || preset?.language || '').toLowerCase();
  if (language && !supportsLanguage(entry, language)) {
    throw ApiError.field(
      'language',
      'validation_unsupported_language',
      `Model "${entry.id}" does not support language "${language}" (supported: ${entry.languages.join(', ')}).`,
    );
  }
  return { entry, presetVoice: preset?.id ?? '', language };
}

/**
 * Checks that one more sample of `addSeconds` keeps a voice's references within the model's
 * maxReferenceDuration (no limit when the catalog gives none). Throws a 400 naming the limit.
 */
export function checkReferenceLength(entry: CatalogEntry, currentSeconds: number, addSeconds: number): void {
  const limit = entry.maxReferenceDuration;
  if (limit === undefined || currentSeconds + addSeconds <= limit + 1e-6) {
    return;
  }
  throw ApiError.field(
    'audio',
    'validation_reference_too_long',
    `Model "${entry.id}" accepts at most ${limit} s of reference audio per voice: this voice has ` +
      `${currentSeconds.toFixed(1)} s and the sample is ${addSeconds.toFixed(1)} s.`,
  );
}
