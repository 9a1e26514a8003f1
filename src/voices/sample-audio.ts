import { AudioDecodeError, SUPPORTED_AUDIO_FORMATS } from '../../worker/audio/decode-errors';
import { sniffAudioFormat, type AudioFormat } from '../../worker/audio/decode-format';
import { floatToInt16 } from '../../worker/audio/pcm';
import { downmixInterleaved, resample } from '../../worker/audio/resample';
import { WavFormatError, decodeWav, encodeWav } from '../../worker/audio/wav';

/** Highest sample rate a stored reference keeps; anything above is resampled down to it. */
export const MAX_REFERENCE_SAMPLE_RATE = 48_000;
/** Shortest usable reference recording, in seconds. */
export const MIN_SAMPLE_SECONDS = 0.5;

/** A reference recording ready to store: mono 16-bit PCM WAV, and what was measured. */
export interface NormalisedSample {
  wav: Buffer;
  durationSeconds: number;
  sampleRate: number;
}

export type SampleAudioErrorCode =
  | 'validation_invalid_audio'
  | 'validation_unsupported_audio'
  | 'validation_audio_too_short'
  | 'validation_audio_too_long';

/** Why an upload is not usable audio; `message` is meant for the user. */
export class SampleAudioError extends Error {
  constructor(
    readonly code: SampleAudioErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SampleAudioError';
  }

  /** The same problem, as reported by the worker's decoder. */
  static from(error: AudioDecodeError): SampleAudioError {
    switch (error.code) {
      case 'invalid_audio':
        return new SampleAudioError('validation_invalid_audio', error.message);
      case 'unsupported_audio':
        return new SampleAudioError('validation_unsupported_audio', error.message);
      case 'audio_too_long':
        return new SampleAudioError('validation_audio_too_long', error.message);
    }
  }
}

/** The container/codec of an upload, from its bytes. @throws SampleAudioError when it is not decodable audio. */
export function sniffSampleFormat(bytes: Uint8Array): AudioFormat {
  try {
    return sniffAudioFormat(bytes);
  } catch (error) {
    throw error instanceof AudioDecodeError ? SampleAudioError.from(error) : error;
  }
}

/**
 * Checks that a WAV upload is real audio, measures it, and normalises it into the form cloning backends get:
 * mono (channels averaged), 16-bit PCM WAV, at the original rate up to 48 kHz. (Compressed formats go through
 * the worker's decoder instead; see SampleDecoder.)
 */
export function normaliseWavSample(bytes: Uint8Array): NormalisedSample {
  let decoded: ReturnType<typeof decodeWav>;
  try {
    decoded = decodeWav(bytes);
  } catch (error) {
    if (error instanceof WavFormatError) {
      throw new SampleAudioError(
        'validation_invalid_audio',
        `The WAV file cannot be decoded (${error.message}).`,
      );
    }
    throw error;
  }
  const mono = downmixInterleaved(decoded.samples, decoded.channels);
  if (decoded.sampleRate > MAX_REFERENCE_SAMPLE_RATE) {
    return normaliseMono(
      resample(mono, decoded.sampleRate, MAX_REFERENCE_SAMPLE_RATE),
      MAX_REFERENCE_SAMPLE_RATE,
    );
  }
  return normaliseMono(mono, decoded.sampleRate);
}

/** Mono float samples as a stored reference, refusing silence-free-of-content and too short recordings. */
export function normaliseMono(mono: Float32Array, sampleRate: number): NormalisedSample {
  const durationSeconds = mono.length / sampleRate;
  if (mono.length === 0 || !Number.isFinite(durationSeconds)) {
    throw new SampleAudioError('validation_invalid_audio', 'The audio file contains no sound.');
  }
  if (durationSeconds < MIN_SAMPLE_SECONDS) {
    throw new SampleAudioError(
      'validation_audio_too_short',
      `The recording is ${durationSeconds.toFixed(2)} s long; samples must be at least ${MIN_SAMPLE_SECONDS} s.`,
    );
  }
  return { wav: encodeWav(floatToInt16(mono), sampleRate), durationSeconds, sampleRate };
}

export { SUPPORTED_AUDIO_FORMATS };
