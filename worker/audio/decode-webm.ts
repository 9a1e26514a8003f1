import { AudioDecodeError } from './decode-errors';

/**
 * A small EBML/Matroska demuxer: enough of WebM (RFC 9559, webmproject.org) to pull the frames of one audio
 * track out of what browsers' MediaRecorder and muxers such as ffmpeg write — live files included (Segment and
 * Cluster of unknown size, no Cues, no duration).
 *
 * The file is walked as a flat sequence of elements: the masters that lead to what is needed (EBML header,
 * Segment, Info, Tracks, TrackEntry, Audio, Cluster, BlockGroup) are entered, every other element is skipped by
 * its size. So an unknown-size master never needs its end, and unknown elements cost nothing.
 */

export const MATROSKA_IDS = {
  EBML: 0x1a45dfa3,
  DOC_TYPE: 0x4282,
  SEGMENT: 0x18538067,
  INFO: 0x1549a966,
  TIMECODE_SCALE: 0x2ad7b1,
  TRACKS: 0x1654ae6b,
  TRACK_ENTRY: 0xae,
  TRACK_NUMBER: 0xd7,
  TRACK_TYPE: 0x83,
  CODEC_ID: 0x86,
  CODEC_PRIVATE: 0x63a2,
  CODEC_DELAY: 0x56aa,
  SEEK_PRE_ROLL: 0x56bb,
  AUDIO: 0xe1,
  SAMPLING_FREQUENCY: 0xb5,
  CHANNELS: 0x9f,
  CLUSTER: 0x1f43b675,
  TIMECODE: 0xe7,
  SIMPLE_BLOCK: 0xa3,
  BLOCK_GROUP: 0xa0,
  BLOCK: 0xa1,
  DISCARD_PADDING: 0x75a2,
} as const;

const MASTERS: ReadonlySet<number> = new Set([
  MATROSKA_IDS.EBML,
  MATROSKA_IDS.SEGMENT,
  MATROSKA_IDS.INFO,
  MATROSKA_IDS.TRACKS,
  MATROSKA_IDS.TRACK_ENTRY,
  MATROSKA_IDS.AUDIO,
  MATROSKA_IDS.CLUSTER,
  MATROSKA_IDS.BLOCK_GROUP,
]);

export const TRACK_TYPE_AUDIO = 2;

export interface MatroskaTrack {
  number: number;
  /** 1 video, 2 audio, 17 subtitle... (0 when absent). */
  type: number;
  codecId: string;
  codecPrivate?: Uint8Array;
  /** Codec built-in delay, in nanoseconds (Opus: the pre-skip). */
  codecDelayNs: number;
  sampleRate?: number;
  channels?: number;
}

export interface MatroskaFrame {
  track: number;
  /** Presentation time of the block, in nanoseconds. */
  timeNs: number;
  data: Uint8Array;
  /** Nanoseconds of padding to drop from the end of this frame's decoded audio (BlockGroup's DiscardPadding). */
  discardPaddingNs?: number;
}

export interface MatroskaFile {
  /** `webm` or `matroska`. */
  docType: string;
  tracks: MatroskaTrack[];
  frames: MatroskaFrame[];
  /** The data ended inside an element (a recording cut short): frames read until then are kept. */
  truncated: boolean;
}

/**
 * Reads the tracks and every block's frames (subarrays of `bytes`, no copies).
 *
 * @throws AudioDecodeError `invalid_audio` when the data is not EBML or is malformed before any frame.
 */
export function readMatroska(bytes: Uint8Array): MatroskaFile {
  const result: MatroskaFile = { docType: '', tracks: [], frames: [], truncated: false };
  let timecodeScale = 1_000_000;
  let clusterTimecode = 0;
  let track: MatroskaTrack | undefined;
  /** End offset of the current BlockGroup (undefined: unknown size or none), and its frames. */
  let group: { end: number | undefined; frames: MatroskaFrame[] } | undefined;
  let offset = 0;
  let seenHeader = false;

  while (offset < bytes.byteLength) {
    if (group && group.end !== undefined && offset >= group.end) {
      group = undefined;
    }
    const id = readId(bytes, offset);
    const size = id ? readSize(bytes, offset + id.length) : undefined;
    if (!id || !size) {
      if (offset + 12 >= bytes.byteLength && result.frames.length > 0) {
        result.truncated = true; // cut inside an element header
        break;
      }
      throw malformed(result, `bad element header at byte ${offset}`);
    }
    if (!seenHeader) {
      if (id.value !== MATROSKA_IDS.EBML) {
        throw AudioDecodeError.invalid('The file is not a WebM/Matroska file (no EBML header).');
      }
      seenHeader = true;
    }
    const start = offset + id.length + size.length;
    if (MASTERS.has(id.value)) {
      switch (id.value) {
        case MATROSKA_IDS.TRACK_ENTRY:
          track = { number: 0, type: 0, codecId: '', codecDelayNs: 0 };
          result.tracks.push(track);
          break;
        case MATROSKA_IDS.CLUSTER:
          track = undefined;
          group = undefined;
          break;
        case MATROSKA_IDS.BLOCK_GROUP:
          group = { end: size.value === undefined ? undefined : start + size.value, frames: [] };
          break;
        default:
          break;
      }
      offset = start;
      continue;
    }
    if (size.value === undefined) {
      throw malformed(result, `element 0x${id.value.toString(16)} has an unknown size`);
    }
    const end = start + size.value;
    if (end > bytes.byteLength) {
      result.truncated = true;
      if (result.frames.length === 0) {
        throw AudioDecodeError.invalid('The WebM file is truncated before any audio.');
      }
      break;
    }
    const body = bytes.subarray(start, end);
    switch (id.value) {
      case MATROSKA_IDS.DOC_TYPE:
        result.docType = text(body);
        break;
      case MATROSKA_IDS.TIMECODE_SCALE:
        timecodeScale = readUint(body) || timecodeScale;
        break;
      case MATROSKA_IDS.TRACK_NUMBER:
        if (track) {
          track.number = readUint(body);
        }
        break;
      case MATROSKA_IDS.TRACK_TYPE:
        if (track) {
          track.type = readUint(body);
        }
        break;
      case MATROSKA_IDS.CODEC_ID:
        if (track) {
          track.codecId = text(body);
        }
        break;
      case MATROSKA_IDS.CODEC_PRIVATE:
        if (track) {
          track.codecPrivate = body;
        }
        break;
      case MATROSKA_IDS.CODEC_DELAY:
        if (track) {
          track.codecDelayNs = readUint(body);
        }
        break;
      case MATROSKA_IDS.SAMPLING_FREQUENCY:
        if (track) {
          track.sampleRate = readFloat(body);
        }
        break;
      case MATROSKA_IDS.CHANNELS:
        if (track) {
          track.channels = readUint(body);
        }
        break;
      case MATROSKA_IDS.TIMECODE:
        clusterTimecode = readUint(body);
        break;
      case MATROSKA_IDS.SIMPLE_BLOCK:
        pushBlock(result, body, clusterTimecode, timecodeScale);
        break;
      case MATROSKA_IDS.BLOCK: {
        const frames = pushBlock(result, body, clusterTimecode, timecodeScale);
        group?.frames.push(...frames);
        break;
      }
      case MATROSKA_IDS.DISCARD_PADDING: {
        const last = group?.frames.at(-1);
        if (last) {
          last.discardPaddingNs = readInt(body);
        }
        break;
      }
      default:
        break;
    }
    offset = end;
  }
  if (!seenHeader) {
    throw AudioDecodeError.invalid('The WebM file is empty.');
  }
  return result;
}

/** Parses one (Simple)Block and appends its frames; returns them. */
function pushBlock(
  file: MatroskaFile,
  body: Uint8Array,
  clusterTimecode: number,
  scale: number,
): MatroskaFrame[] {
  const trackNumber = readSize(body, 0);
  if (!trackNumber || trackNumber.value === undefined || trackNumber.length + 3 > body.byteLength) {
    throw malformed(file, 'a block header is truncated');
  }
  let position = trackNumber.length;
  const relative = ((body[position] << 24) >> 16) | body[position + 1]; // signed 16-bit big-endian
  const flags = body[position + 2];
  position += 3;
  const timeNs = (clusterTimecode + relative) * scale;
  const sizes = lacedSizes(file, body, position, (flags >> 1) & 3);
  position = sizes.position;
  const frames: MatroskaFrame[] = [];
  for (const size of sizes.sizes) {
    if (position + size > body.byteLength) {
      throw malformed(file, 'a laced frame runs past its block');
    }
    frames.push({ track: trackNumber.value, timeNs, data: body.subarray(position, position + size) });
    position += size;
  }
  file.frames.push(...frames);
  return frames;
}

/** Frame sizes of a block's lacing (none, Xiph, fixed, EBML) and where the first frame starts. */
function lacedSizes(
  file: MatroskaFile,
  body: Uint8Array,
  position: number,
  lacing: number,
): { sizes: number[]; position: number } {
  if (lacing === 0) {
    return { sizes: [body.byteLength - position], position };
  }
  if (position >= body.byteLength) {
    throw malformed(file, 'a laced block is truncated');
  }
  const count = body[position++] + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    // Xiph: each size as a run of 255s plus a final byte below 255.
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      let byte: number;
      do {
        if (position >= body.byteLength) {
          throw malformed(file, 'a Xiph lace is truncated');
        }
        byte = body[position++];
        size += byte;
      } while (byte === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    // EBML: first size as a VINT, then signed differences to the previous size.
    const first = readSize(body, position);
    if (!first || first.value === undefined) {
      throw malformed(file, 'an EBML lace is malformed');
    }
    position += first.length;
    sizes.push(first.value);
    for (let i = 1; i < count - 1; i++) {
      const delta = readSize(body, position);
      if (!delta || delta.value === undefined) {
        throw malformed(file, 'an EBML lace is malformed');
      }
      position += delta.length;
      const bias = 2 ** (7 * delta.length - 1) - 1;
      sizes.push(sizes[i - 1] + delta.value - bias);
    }
  } else {
    // Fixed: equal sizes.
    const each = (body.byteLength - position) / count;
    if (!Number.isInteger(each)) {
      throw malformed(file, 'a fixed-size lace does not divide its block');
    }
    return { sizes: new Array<number>(count).fill(each), position };
  }
  const used = sizes.reduce((sum, size) => sum + size, 0);
  const last = body.byteLength - position - used;
  if (last < 0 || sizes.some((size) => size < 0)) {
    throw malformed(file, 'laced frame sizes exceed their block');
  }
  sizes.push(last);
  return { sizes, position };
}

function malformed(file: MatroskaFile, detail: string): AudioDecodeError {
  return AudioDecodeError.invalid(
    `The ${file.docType === 'matroska' ? 'Matroska' : 'WebM'} file is malformed: ${detail}.`,
  );
}

/** An element ID (marker bits kept, as IDs are written in the specification). */
export function readId(bytes: Uint8Array, offset: number): { value: number; length: number } | undefined {
  if (offset >= bytes.byteLength) {
    return undefined;
  }
  const first = bytes[offset];
  const length = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (length === 0 || offset + length > bytes.byteLength) {
    return undefined;
  }
  let value = 0;
  for (let i = 0; i < length; i++) {
    value = value * 256 + bytes[offset + i];
  }
  return { value, length };
}

/** A variable-size integer (marker removed); `value` undefined = the reserved "unknown size". */
export function readSize(
  bytes: Uint8Array,
  offset: number,
): { value: number | undefined; length: number } | undefined {
  if (offset >= bytes.byteLength) {
    return undefined;
  }
  const first = bytes[offset];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) {
    length++;
  }
  if (length > 8 || offset + length > bytes.byteLength) {
    return undefined;
  }
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[offset + i];
    allOnes &&= byte === 0xff;
    value = value * 256 + byte;
  }
  return { value: allOnes ? undefined : value, length };
}

function readUint(body: Uint8Array): number {
  let value = 0;
  for (const byte of body) {
    value = value * 256 + byte;
  }
  return value;
}

function readInt(body: Uint8Array): number {
  if (body.byteLength === 0) {
    return 0;
  }
  const unsigned = readUint(body);
  return body[0] & 0x80 ? unsigned - 2 ** (8 * body.byteLength) : unsigned;
}

function readFloat(body: Uint8Array): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (body.byteLength === 4) {
    return view.getFloat32(0);
  }
  if (body.byteLength === 8) {
    return view.getFloat64(0);
  }
  return 0;
}

function text(body: Uint8Array): string {
  let end = body.indexOf(0);
  if (end < 0) {
    end = body.byteLength;
  }
  return Buffer.from(body.buffer, body.byteOffset, end).toString('utf8');
}
