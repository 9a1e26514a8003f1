/**
 * How a generate request picks what a Piper voice says it with: the speaker (`voice_path`) and the language.
 */
import { ApiError } from '../../common/api-error';
import type { PiperVoiceConfig } from './piper-config';

/**
 * The speaker id to feed the model (`sid`), or null for a single-speaker voice.
 *
 * `voice` may be a speaker name from `speaker_id_map` or a speaker number, bare or prefixed with the model path
 * (`piper/<variant>/<speaker>`, as the main service sends preset voices). No voice → the voice's default
 * speaker. A single-speaker voice has nothing to choose: any voice of that model is its only speaker.
 *
 * @throws ApiError 400 `unknown_voice`
 */
export function resolveSpeaker(
  config: PiperVoiceConfig,
  modelPath: string,
  voice: string | null,
): number | null {
  const multi = config.numSpeakers > 1;
  if (!voice?.trim()) {
    return multi ? config.defaultSpeakerId : null;
  }
  let speaker = voice.trim();
  const prefix = `${modelPath}/`;
  if (speaker.startsWith(prefix)) {
    speaker = speaker.slice(prefix.length);
  } else if (speaker.includes('/')) {
    throw ApiError.invalidField(
      'voice_path',
      'unknown_voice',
      `voice_path "${voice}" is not a voice of ${modelPath}.`,
    );
  }
  if (!multi) {
    return null;
  }
  const named = config.speakerIdMap.get(speaker);
  if (named !== undefined) {
    return named;
  }
  if (/^\d{1,6}$/.test(speaker) && Number(speaker) < config.numSpeakers) {
    return Number(speaker);
  }
  const names = [...config.speakerIdMap.keys()];
  throw ApiError.invalidField(
    'voice_path',
    'unknown_voice',
    `The Piper voice ${modelPath} has no speaker "${speaker}"; use a speaker number from 0 to ${config.numSpeakers - 1}` +
      (names.length > 0 ? ` or a name such as ${names.slice(0, 5).join(', ')}.` : '.'),
  );
}

/**
 * A Piper voice speaks one language: a request for another one is refused rather than read with the wrong
 * phonemes. Regional variants are not told apart (`en-GB` text on an `en_US` voice is fine).
 *
 * @throws ApiError 400 `unsupported_language`
 */
export function checkLanguage(config: PiperVoiceConfig, modelPath: string, language: string | null): void {
  if (!language?.trim() || !config.language) {
    return;
  }
  const requested = language.trim().toLowerCase().split(/[-_]/)[0];
  if (requested !== config.language) {
    throw ApiError.invalidField(
      'language',
      'unsupported_language',
      `The Piper voice ${modelPath} speaks ${config.languageName ?? config.language} only, not "${language}".`,
    );
  }
}
