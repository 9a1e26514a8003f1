import { AudioDecodeError, SUPPORTED_AUDIO_FORMATS } from './decode-errors';

/** Containers/codecs the decoder handles. */
export type AudioFormat = 'wav' | 'mp3' | 'flac' | 'ogg-vorbis' | 'ogg-opus' | 'webm';

/** Human names, for logs and messages. */
export const AUDIO_FORMAT_NAMES: Readonly<Record<AudioFormat, string>> = {
  wav: 'WAV',
  mp3: 'MP3',
  flac: 'FLAC',
  'ogg-vorbis': 'OGG/Vorbis',
  'ogg-opus': 'OGG/Opus',
  webm: 'WebM/Matroska',
};

/**
 * The format of an upload, from its first bytes (never from a file name or a declared content type, which
 * browsers and users get wrong). Recognised but unsupported formats get a message naming them.
 *
 * @throws AudioDecodeError `invalid_audio` for empty or non-audio data, `unsupported_audio` for audio in a
 *   format the worker cannot decode.
 */
export function sniffAudioFormat(bytes: Uint8Array): AudioFormat {
  if (bytes.byteLength === 0) {
    throw AudioDecodeError.invalid('The audio file is empty.');
  }
  const at = (offset: number, text: string) => ascii(bytes, offset, text.length) === text;

  if (at(0, 'RIFF')) {
    if (at(8, 'WAVE')) {
      return 'wav';
    }
    throw unsupported(`a RIFF file of type "${printable(bytes, 8, 4)}"`);
  }
  if (at(0, 'RF64') || at(0, 'BW64')) {
    throw unsupported('RF64/BW64 (WAV larger than 4 GB)');
  }
  if (at(0, 'fLaC')) {
    return 'flac';
  }
  if (at(0, 'OggS')) {
    return oggFormat(bytes);
  }
  if (
    bytes.byteLength >= 4 &&
    bytes[0] === 0x1a &&
    bytes[1] === 0x45 &&
    bytes[2] === 0xdf &&
    bytes[3] === 0xa3
  ) {
    return 'webm';
  }
  let start = 0;
  if (at(0, 'ID3')) {
    start = id3v2Length(bytes);
    if (at(start, 'fLaC')) {
      return 'flac';
    }
  }
  const mpeg = findMpegAudio(bytes, start);
  if (mpeg === 'mp3') {
    return 'mp3';
  }
  if (mpeg === 'aac') {
    throw unsupported('AAC (ADTS)');
  }
  if (start > 0) {
    throw AudioDecodeError.invalid('The file has an ID3 tag but no MP3 audio after it.');
  }
  if (at(4, 'ftyp')) {
    throw unsupported('MP4/M4A (AAC or ALAC)');
  }
  if (at(0, 'FORM') && (at(8, 'AIFF') || at(8, 'AIFC'))) {
    throw unsupported('AIFF');
  }
  if (at(0, 'caff')) {
    throw unsupported('Core Audio (CAF)');
  }
  if (at(0, '#!AMR')) {
    throw unsupported('AMR');
  }
  if (at(0, '.snd')) {
    throw unsupported('Sun/NeXT AU');
  }
  if (
    bytes.byteLength >= 4 &&
    bytes[0] === 0x30 &&
    bytes[1] === 0x26 &&
    bytes[2] === 0xb2 &&
    bytes[3] === 0x75
  ) {
    throw unsupported('Windows Media (ASF/WMA)');
  }
  if (looksLikeText(bytes)) {
    throw AudioDecodeError.invalid(`The file is text, not audio. Upload ${SUPPORTED_AUDIO_FORMATS}.`);
  }
  throw AudioDecodeError.unsupported(
    `The audio format was not recognised. Upload ${SUPPORTED_AUDIO_FORMATS}.`,
  );
}

function unsupported(what: string): AudioDecodeError {
  return AudioDecodeError.unsupported(`${what} audio is not supported; upload ${SUPPORTED_AUDIO_FORMATS}.`);
}

/** The codec of an Ogg stream, from the first packet of its first page. */
function oggFormat(bytes: Uint8Array): AudioFormat {
  if (bytes.byteLength < 27) {
    throw AudioDecodeError.invalid('The OGG file is truncated.');
  }
  const segments = bytes[26];
  const packet = 27 + segments;
  const at = (text: string) => ascii(bytes, packet, text.length) === text;
  if (at('OpusHead')) {
    return 'ogg-opus';
  }
  if (bytes[packet] === 0x01 && ascii(bytes, packet + 1, 6) === 'vorbis') {
    return 'ogg-vorbis';
  }
  if (bytes[packet] === 0x7f && ascii(bytes, packet + 1, 4) === 'FLAC') {
    throw unsupported('FLAC in OGG');
  }
  if (at('Speex')) {
    throw unsupported('OGG/Speex');
  }
  if (bytes.byteLength < packet + 8) {
    throw AudioDecodeError.invalid('The OGG file is truncated.');
  }
  throw unsupported('This OGG codec');
}

/** Size of an ID3v2 tag at the start (header, syncsafe body size, optional footer). */
function id3v2Length(bytes: Uint8Array): number {
  if (bytes.byteLength < 10) {
    return bytes.byteLength;
  }
  const size =
    ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  const footer = bytes[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

const MPEG_BITRATES_KBPS = {
  // [version 1 | version 2/2.5][layer 1, 2, 3]
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const MPEG_SAMPLE_RATES = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
} as const;

/** Length in bytes of the MPEG audio frame whose header is at `offset`, or 0 when it is not a valid header. */
export function mpegFrameLength(bytes: Uint8Array, offset: number): number {
  if (offset + 4 > bytes.byteLength || bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0) {
    return 0;
  }
  const version = (bytes[offset + 1] >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 = reserved
  const layerBits = (bytes[offset + 1] >> 1) & 3; // 3 = layer I, 2 = layer II, 1 = layer III, 0 = reserved
  const bitrateIndex = bytes[offset + 2] >> 4;
  const rateIndex = (bytes[offset + 2] >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return 0;
  }
  const layer = 4 - layerBits; // 1, 2 or 3
  const padding = (bytes[offset + 2] >> 1) & 1;
  const bitrate =
    (version === 3 ? MPEG_BITRATES_KBPS.v1 : MPEG_BITRATES_KBPS.v2)[layer - 1][bitrateIndex] * 1000;
  const sampleRate = MPEG_SAMPLE_RATES[version as 0 | 2 | 3][rateIndex];
  if (layer === 1) {
    return (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  }
  const samplesPerFrame = layer === 3 && version !== 3 ? 576 : 1152;
  return Math.floor((samplesPerFrame / 8) * (bitrate / sampleRate)) + padding;
}

/** ADTS (AAC) header: 12-bit sync and layer bits 00. */
function isAdtsHeader(bytes: Uint8Array, offset: number): boolean {
  return (
    offset + 7 <= bytes.byteLength &&
    bytes[offset] === 0xff &&
    (bytes[offset + 1] & 0xf6) === 0xf0 &&
    ((bytes[offset + 2] >> 2) & 0xf) < 13
  );
}

/** Channels and rate of the first MPEG audio frame (mpg123-decoder always outputs two channels). */
export function mpegStreamInfo(bytes: Uint8Array): { channels: number; sampleRate: number } | undefined {
  const start = ascii(bytes, 0, 3) === 'ID3' ? id3v2Length(bytes) : 0;
  const offset = findMpegFrame(bytes, start);
  if (offset < 0) {
    return undefined;
  }
  const version = (bytes[offset + 1] >> 3) & 3;
  const rateIndex = (bytes[offset + 2] >> 2) & 3;
  return {
    channels: bytes[offset + 3] >> 6 === 3 ? 1 : 2,
    sampleRate: MPEG_SAMPLE_RATES[version as 0 | 2 | 3][rateIndex],
  };
}

/** Offset of the first of two consecutive MPEG audio frames near `start`, or -1. */
function findMpegFrame(bytes: Uint8Array, start: number): number {
  const end = Math.min(bytes.byteLength - 4, start + 8192);
  for (let offset = start; offset <= end; offset++) {
    const length = bytes[offset] === 0xff ? mpegFrameLength(bytes, offset) : 0;
    if (length === 0) {
      continue;
    }
    const next = offset + length;
    // A single frame (tiny file) counts when it is the whole file.
    if (next >= bytes.byteLength - 4 || mpegFrameLength(bytes, next) > 0) {
      return offset;
    }
  }
  return -1;
}

/** Looks for two consecutive MPEG audio frames (or an ADTS header) at `start`. */
function findMpegAudio(bytes: Uint8Array, start: number): 'mp3' | 'aac' | undefined {
  if (isAdtsHeader(bytes, start)) {
    return 'aac';
  }
  return findMpegFrame(bytes, start) >= 0 ? 'mp3' : undefined;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (offset < 0 || offset + length > bytes.byteLength) {
    return '';
  }
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function printable(bytes: Uint8Array, offset: number, length: number): string {
  return ascii(bytes, offset, length).replace(/[^\x20-\x7e]/g, '?');
}

/** Printable ASCII/UTF-8 text with whitespace (JSON, HTML, a form field sent as the file...). */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 512);
  for (const byte of sample) {
    const text =
      byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte < 0x7f) || byte >= 0x80;
    if (!text) {
      return false;
    }
  }
  return true;
}
