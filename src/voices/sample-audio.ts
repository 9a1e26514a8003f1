import { floatToInt16 } from '../../worker/audio/pcm';
import { downmixInterleaved, resample } from '../../worker/audio/resample';
import { DecodedAudio, WavFormatError, decodeWav, encodeWav } from '../../worker/audio/wav';

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

/** Why an upload is not usable audio; `message` is meant for the user. */
export class SampleAudioError extends Error {
  constructor(
    readonly code: 'validation_invalid_audio' | 'validation_audio_too_short',
    message: string,
  ) {
    super(message);
    this.name = 'SampleAudioError';
  }
}

/**
 * Decodes an uploaded sample. Formats: WAV (PCM 8/16/24/32-bit or float). The worker's multi-format decoder
 * (worker/audio/decode*) replaces this function once it lands; callers only see DecodedAudio.
 */
export function decodeSampleAudio(bytes: Uint8Array): DecodedAudio {
  try {
    return decodeWav(bytes);
  } catch (error) {
    if (error instanceof WavFormatError) {
      throw new SampleAudioError(
        'validation_invalid_audio',
        `The file is not audio that can be decoded (${error.message}); upload a WAV recording.`,
      );
    }
    throw error;
  }
}

/**
 * Checks that `bytes` are real audio, measures them, and normalises them into the form cloning backends get:
 * mono (channels averaged), 16-bit PCM WAV, at the original rate up to 48 kHz.
 */
export function normaliseSample(bytes: Uint8Array): NormalisedSample {
  const decoded = decodeSampleAudio(bytes);
  const frames = Math.floor(decoded.samples.length / Math.max(1, decoded.channels));
  const durationSeconds = frames / decoded.sampleRate;
  if (frames === 0 || !Number.isFinite(durationSeconds)) {
    throw new SampleAudioError('validation_invalid_audio', 'The audio file contains no sound.');
  }
  if (durationSeconds < MIN_SAMPLE_SECONDS) {
    throw new SampleAudioError(
      'validation_audio_too_short',
      `The recording is ${durationSeconds.toFixed(2)} s long; samples must be at least ${MIN_SAMPLE_SECONDS} s.`,
    );
  }
  let mono = downmixInterleaved(decoded.samples, decoded.channels);
  let sampleRate = decoded.sampleRate;
  if (sampleRate > MAX_REFERENCE_SAMPLE_RATE) {
    mono = resample(mono, sampleRate, MAX_REFERENCE_SAMPLE_RATE);
    sampleRate = MAX_REFERENCE_SAMPLE_RATE;
  }
  return { wav: encodeWav(floatToInt16(mono), sampleRate), durationSeconds, sampleRate };
}
