import type { BackendVoice } from '../../contract/worker-api';
import type { EspeakVoiceEntry } from './espeak-protocol';

/** The voice used when a request names neither a voice nor a language. */
export const DEFAULT_ESPEAK_VOICE = 'en-us';

/**
 * Where espeak's own ranking of a bare language code is not what users of this product expect. espeak ranks
 * `en` → British English; the worker's default voice is American English, so `language: "en"` matches it.
 */
const LANGUAGE_PREFERENCES: Readonly<Record<string, string>> = {
  en: 'gmw/en-us',
};

/**
 * Resolves request voices and languages to espeak voice specs, from the voice list of the loaded engine.
 *
 * Accepted voice names (case-insensitive, `_` or `-`): a voice's short name (`en-us`, `de`, `cmn`), its full
 * identifier (`gmw/en-US`), any language code it lists (`en-gb`, `zh`), each optionally followed by
 * `+<variant>` (`en-us+f3`, `de+klatt`).
 */
export class EspeakVoiceIndex {
  /** Lower-case key → identifier. */
  private readonly byName = new Map<string, string>();
  private readonly byLanguage = new Map<string, string>();
  /** Lower-case variant → its file name. */
  private readonly variants = new Map<string, string>();
  private readonly voices: readonly EspeakVoiceEntry[];

  constructor(voices: readonly EspeakVoiceEntry[], variants: readonly string[]) {
    this.voices = voices;
    for (const voice of voices) {
      this.byName.set(voice.identifier.toLowerCase(), voice.identifier);
      this.byName.set(shortName(voice.identifier), voice.identifier);
    }
    // Best (lowest priority number) voice per language code; the first listed wins ties, as in espeak.
    const best = new Map<string, { identifier: string; priority: number }>();
    for (const voice of voices) {
      for (const language of voice.languages) {
        const code = normalize(language.name);
        const current = best.get(code);
        if (!current || language.priority < current.priority) {
          best.set(code, { identifier: voice.identifier, priority: language.priority });
        }
      }
    }
    for (const [code, { identifier }] of best) {
      this.byLanguage.set(code, identifier);
    }
    for (const [code, preferred] of Object.entries(LANGUAGE_PREFERENCES)) {
      const identifier = this.byName.get(preferred);
      if (identifier) {
        this.byLanguage.set(code, identifier);
      }
    }
    for (const variant of variants) {
      this.variants.set(variant.toLowerCase(), variant);
    }
  }

  get size(): number {
    return this.voices.length;
  }

  /** The espeak voice spec for a voice name, or undefined when the voice or its variant is unknown. */
  resolveVoice(name: string): string | undefined {
    const [base, variant, ...rest] = name.trim().split('+');
    if (rest.length > 0 || !base) {
      return undefined;
    }
    const key = normalize(base);
    const identifier = this.byName.get(key) ?? this.byLanguage.get(key);
    if (!identifier) {
      return undefined;
    }
    if (variant === undefined) {
      return identifier;
    }
    const variantFile = this.variants.get(variant.trim().toLowerCase());
    return variantFile ? `${identifier}+${variantFile}` : undefined;
  }

  /**
   * The espeak voice for a language tag (`en`, `en-US`, `pt_BR`, `zh-Hans-CN`): the exact tag if espeak knows
   * it, else its language and region, else its primary language.
   */
  resolveLanguage(language: string): string | undefined {
    const subtags = normalize(language).split('-').filter(Boolean);
    for (let length = subtags.length; length > 0; length--) {
      const identifier = this.byLanguage.get(subtags.slice(0, length).join('-'));
      if (identifier) {
        return identifier;
      }
    }
    // Region after a script subtag (`zh-hans-cn`): try language-region.
    if (subtags.length >= 3) {
      return this.byLanguage.get(`${subtags[0]}-${subtags[2]}`);
    }
    return undefined;
  }

  /** Every voice, for `GET /backends/espeak/voices`. */
  list(): BackendVoice[] {
    return this.voices.map((voice) => {
      const languages = [...voice.languages].sort((a, b) => a.priority - b.priority).map((l) => l.name);
      return {
        id: shortName(voice.identifier),
        name: voice.name,
        language: languages[0] ?? shortName(voice.identifier),
        languages,
      };
    });
  }

  variantNames(): string[] {
    return [...this.variants.values()].sort((a, b) => a.localeCompare(b));
  }
}

function shortName(identifier: string): string {
  return normalize(identifier.slice(identifier.lastIndexOf('/') + 1));
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/_/g, '-');
}
