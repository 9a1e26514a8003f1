/**
 * A Piper voice's `<name>.onnx.json`: what Piper's own runtime reads from it, validated.
 */

export type PiperPhonemeType = 'espeak' | 'text';

/** The phoneme-id map's reserved symbols: beginning and end of a sentence, and the pad after every phoneme. */
export const BOS = '^';
export const EOS = '$';
export const PAD = '_';

export interface PiperVoiceConfig {
  sampleRate: number;
  /** 1 for a single-speaker voice; a multi-speaker voice takes a speaker id (`sid` input). */
  numSpeakers: number;
  /** Speaker name → id (multi-speaker voices). */
  speakerIdMap: ReadonlyMap<string, number>;
  defaultSpeakerId: number;
  phonemeType: PiperPhonemeType;
  /** espeak-ng voice used for phonemes, e.g. `en-us` (phoneme type `espeak`). */
  espeakVoice: string;
  /** Phoneme (one or more code points) → ids. */
  phonemeIdMap: ReadonlyMap<string, readonly number[]>;
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
  /** Sequences of phonemes merged into one phoneme before mapping, e.g. `a`,`ɪ` → `aɪ`. */
  vowelClusters: readonly (readonly string[])[];
  /** ISO 639-1 family of the voice (`en`), when the config says. */
  language: string | null;
  /** Human-readable language, e.g. `English (United States)`, when the config says. */
  languageName: string | null;
}

export class PiperConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid Piper voice config: ${problems.join('; ')}`);
    this.name = 'PiperConfigError';
  }
}

/** Phoneme types of Piper that need a phonemizer this worker does not have (Chinese, Hebrew, Japanese, Thai). */
const UNSUPPORTED_PHONEME_TYPES = new Set(['pinyin', 'hebrew', 'japanese', 'thai']);

/** Piper's defaults for a config without `inference` settings. */
const DEFAULT_NOISE_SCALE = 0.667;
const DEFAULT_LENGTH_SCALE = 1;
const DEFAULT_NOISE_W = 0.8;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a parsed `.onnx.json`.
 *
 * @throws PiperConfigError naming every problem found
 */
export function parsePiperConfig(value: unknown): PiperVoiceConfig {
  const problems: string[] = [];
  if (!isObject(value)) {
    throw new PiperConfigError(['the config is not a JSON object']);
  }
  const section = (name: string): Json => {
    const part = value[name];
    if (part === undefined) {
      return {};
    }
    if (!isObject(part)) {
      problems.push(`${name} must be an object`);
      return {};
    }
    return part;
  };
  const integer = (name: string, raw: unknown, min: number, max: number, fallback?: number): number => {
    if (raw === undefined && fallback !== undefined) {
      return fallback;
    }
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
      problems.push(`${name} must be an integer between ${min} and ${max}`);
      return fallback ?? min;
    }
    return raw;
  };
  const scale = (name: string, raw: unknown, fallback: number): number => {
    if (raw === undefined || raw === null) {
      return fallback;
    }
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw > 10) {
      problems.push(`inference.${name} must be a number between 0 and 10`);
      return fallback;
    }
    return raw;
  };

  const audio = section('audio');
  const sampleRate = integer('audio.sample_rate', audio.sample_rate, 8_000, 192_000);
  const numSpeakers = integer('num_speakers', value.num_speakers, 1, 100_000, 1);
  const numSymbols =
    value.num_symbols === undefined ? undefined : integer('num_symbols', value.num_symbols, 1, 1_000_000);

  const rawType = value.phoneme_type ?? 'espeak';
  let phonemeType: PiperPhonemeType = 'espeak';
  if (rawType === 'espeak' || rawType === 'text') {
    phonemeType = rawType;
  } else if (typeof rawType === 'string' && UNSUPPORTED_PHONEME_TYPES.has(rawType)) {
    problems.push(`phoneme_type "${rawType}" needs a phonemizer this worker does not provide`);
  } else {
    problems.push(`phoneme_type must be "espeak" or "text"`);
  }

  const espeak = section('espeak');
  const espeakVoice = typeof espeak.voice === 'string' ? espeak.voice.trim() : '';
  if (phonemeType === 'espeak' && !/^[A-Za-z0-9_+/-]{1,64}$/.test(espeakVoice)) {
    problems.push('espeak.voice must name an espeak-ng voice (e.g. "en-us")');
  }

  const phonemeIdMap = new Map<string, number[]>();
  if (!isObject(value.phoneme_id_map)) {
    problems.push('phoneme_id_map must be an object');
  } else {
    for (const [phoneme, ids] of Object.entries(value.phoneme_id_map)) {
      const valid =
        Array.isArray(ids) &&
        ids.length > 0 &&
        ids.every((id) => Number.isInteger(id) && id >= 0 && (numSymbols === undefined || id < numSymbols));
      if (!valid) {
        problems.push(`phoneme_id_map["${phoneme}"] must be a non-empty list of ids below num_symbols`);
        continue;
      }
      phonemeIdMap.set(phoneme, ids as number[]);
    }
    for (const symbol of [BOS, EOS, PAD]) {
      if (!phonemeIdMap.has(symbol)) {
        problems.push(`phoneme_id_map lacks "${symbol}"`);
      }
    }
  }

  const speakerIdMap = new Map<string, number>();
  if (value.speaker_id_map !== undefined && value.speaker_id_map !== null) {
    if (!isObject(value.speaker_id_map)) {
      problems.push('speaker_id_map must be an object');
    } else {
      for (const [speaker, id] of Object.entries(value.speaker_id_map)) {
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= numSpeakers) {
          problems.push(`speaker_id_map["${speaker}"] must be an id below num_speakers`);
          continue;
        }
        speakerIdMap.set(speaker, id);
      }
    }
  }
  const defaultSpeakerId = integer('default_speaker_id', value.default_speaker_id, 0, numSpeakers - 1, 0);

  const inference = section('inference');
  const noiseScale = scale('noise_scale', inference.noise_scale, DEFAULT_NOISE_SCALE);
  const lengthScale = scale('length_scale', inference.length_scale, DEFAULT_LENGTH_SCALE);
  const noiseW = scale('noise_w', inference.noise_w, DEFAULT_NOISE_W);
  if (lengthScale === 0) {
    problems.push('inference.length_scale must be above 0');
  }

  const vowelClusters: string[][] = [];
  if (value.vowel_clusters !== undefined && value.vowel_clusters !== null) {
    if (!Array.isArray(value.vowel_clusters)) {
      problems.push('vowel_clusters must be a list');
    } else {
      for (const cluster of value.vowel_clusters) {
        if (!Array.isArray(cluster) || cluster.length < 2 || !cluster.every((p) => typeof p === 'string')) {
          problems.push('each of vowel_clusters must list at least two phonemes');
          continue;
        }
        vowelClusters.push(cluster);
      }
    }
  }

  const language = section('language');
  const family = typeof language.family === 'string' ? language.family : undefined;
  const code = typeof language.code === 'string' ? language.code : undefined;
  const primary = (family ?? code ?? '').toLowerCase().split(/[-_]/)[0];
  const languageName =
    typeof language.name_english === 'string'
      ? typeof language.country_english === 'string'
        ? `${language.name_english} (${language.country_english})`
        : language.name_english
      : null;

  if (problems.length > 0) {
    throw new PiperConfigError(problems);
  }
  return {
    sampleRate,
    numSpeakers,
    speakerIdMap,
    defaultSpeakerId,
    phonemeType,
    espeakVoice,
    phonemeIdMap,
    noiseScale,
    lengthScale,
    noiseW,
    vowelClusters,
    language: /^[a-z]{2,3}$/.test(primary) ? primary : null,
    languageName,
  };
}
