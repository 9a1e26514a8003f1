/**
 * Why an upload could not be turned into audio. The codes are the worker's error codes for the `file` field of
 * `POST /transcribe` (see `TranscribeErrorCode` in the contract).
 */
export type AudioDecodeErrorCode = 'unsupported_audio' | 'invalid_audio' | 'audio_too_long';

export class AudioDecodeError extends Error {
  constructor(
    readonly code: AudioDecodeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AudioDecodeError';
  }

  static unsupported(message: string): AudioDecodeError {
    return new AudioDecodeError('unsupported_audio', message);
  }

  static invalid(message: string): AudioDecodeError {
    return new AudioDecodeError('invalid_audio', message);
  }
}

/** Formats the decoder accepts, for messages. */
export const SUPPORTED_AUDIO_FORMATS = 'WAV, MP3, FLAC, OGG (Vorbis or Opus) or WebM/Matroska (Opus)';
