/**
 * Messages between {@link AudioDecodePool} (main thread) and a decode thread (`decode.thread.ts`).
 * Types only: the thread must not pull Nest or anything heavy in.
 */
import type { AudioDecodeErrorCode } from './decode-errors';
import type { DecodedUpload } from './decode-pipeline';

/** file: URLs of the WebAssembly decoders (ESM packages, loaded with a real dynamic import in the thread). */
export interface DecoderPackageUrls {
  mp3: string;
  flac: string;
  vorbis: string;
  opus: string;
}

/** `workerData` of a decode thread: one upload per thread. */
export interface DecodeThreadData {
  packages: DecoderPackageUrls;
  bytes: Uint8Array;
  maxDurationSeconds: number;
}

export type FromDecodeThread =
  | { type: 'decoded'; result: DecodedUpload }
  /** `internal`: a bug or a decoder crash, not a problem of the upload that the client can be told about. */
  | { type: 'failed'; code: AudioDecodeErrorCode | 'internal'; message: string };
