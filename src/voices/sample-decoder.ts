import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { AudioDecodeError } from '../../worker/audio/decode-errors';
import { AudioDecodePool } from '../../worker/audio/decode-pool';
import { QueueFullError } from '../../worker/runtime/keyed-queue';
import { ApiError } from '../common/errors/api-error';
import {
  NormalisedSample,
  SampleAudioError,
  normaliseMono,
  normaliseWavSample,
  sniffSampleFormat,
} from './sample-audio';

/** Longest sample decoded at all, in seconds, when the model gives no reference limit. */
const MAX_SAMPLE_SECONDS = 600;

/**
 * Turns an uploaded recording into a stored reference. WAV is decoded in process at its own rate (up to 48 kHz);
 * MP3, FLAC, OGG and WebM go through the worker's WebAssembly decoders in short-lived threads
 * (worker/audio/decode-pool), which yield 16 kHz mono.
 */
@Injectable()
export class SampleDecoder implements OnModuleDestroy {
  constructor(private readonly pool: AudioDecodePool) {}

  /**
   * @param maxSeconds the longest recording that could still fit (decoding stops past it).
   * @throws SampleAudioError for uploads that are not usable audio; ApiError 503 when the decoders are busy.
   */
  async normalise(bytes: Uint8Array, maxSeconds = MAX_SAMPLE_SECONDS): Promise<NormalisedSample> {
    if (sniffSampleFormat(bytes) === 'wav') {
      return normaliseWavSample(bytes);
    }
    try {
      const decoded = await this.pool.decode(bytes, Math.min(maxSeconds, MAX_SAMPLE_SECONDS));
      return normaliseMono(decoded.samples, decoded.sampleRate);
    } catch (error) {
      if (error instanceof AudioDecodeError) {
        throw SampleAudioError.from(error);
      }
      if (error instanceof QueueFullError) {
        throw ApiError.unavailable('Too many recordings are being decoded; try again shortly.');
      }
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}
