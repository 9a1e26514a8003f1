import { AudioDecodeError } from './decode-errors';
import { AUDIO_FORMAT_NAMES, mpegStreamInfo, sniffAudioFormat, type AudioFormat } from './decode-format';
import { oggPackets } from './decode-ogg';
import { opusDecoderOptions, parseOpusHead, type OpusDecoderOptions, type OpusHead } from './decode-opus';
import { readWavInfo, wavMonoBlocks } from './decode-wav';
import { readMatroska, TRACK_TYPE_AUDIO } from './decode-webm';
import { downmix, Resampler } from './resample';

/** Rate of every decoded upload: what speech recognisers (Whisper, PocketSphinx) take. */
export const TARGET_SAMPLE_RATE = 16_000;

/** Output of the WebAssembly decoders (`@wasm-audio-decoders/*`, `mpg123-decoder`, `opus-decoder`). */
export interface DecodedBlock {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: readonly { message: string }[];
}

/** A decoder fed with consecutive pieces of a file (MP3, FLAC, Ogg Vorbis). */
export interface StreamDecoder {
  decode(data: Uint8Array): DecodedBlock | Promise<DecodedBlock>;
  flush?(): DecodedBlock | Promise<DecodedBlock>;
  free(): void;
}

/** A decoder of single Opus packets. */
export interface OpusPacketDecoder {
  decodeFrame(packet: Uint8Array): DecodedBlock;
  free(): void;
}

/** Creates ready decoders; the worker thread backs it with the npm WebAssembly decoders. */
export interface Codecs {
  mp3(): Promise<StreamDecoder>;
  flac(): Promise<StreamDecoder>;
  vorbis(): Promise<StreamDecoder>;
  opus(options: OpusDecoderOptions): Promise<OpusPacketDecoder>;
}

export interface DecodeOptions {
  /** Longest audio accepted, in seconds; longer → `audio_too_long` (decoding stops as soon as it is passed). */
  maxDurationSeconds: number;
  /** Bytes fed to stream decoders at a time. */
  chunkBytes?: number;
}

export interface DecodedUpload {
  /** Mono samples in [-1, 1] at {@link TARGET_SAMPLE_RATE}. */
  samples: Float32Array;
  sampleRate: number;
  format: AudioFormat;
  sourceSampleRate: number;
  sourceChannels: number;
  durationSeconds: number;
  /** Frames the decoder reported as corrupt and skipped. */
  decodeErrors: number;
}

const DEFAULT_CHUNK_BYTES = 64 * 1024;

/**
 * Decodes any supported upload to 16 kHz mono: the format is sniffed from the bytes, decoded block by block,
 * averaged to mono and resampled as it goes, so memory stays near the size of the output and an over-long
 * file is refused as soon as it passes the limit.
 *
 * @throws AudioDecodeError for unsupported, undecodable or over-long audio.
 */
export async function decodeUpload(
  bytes: Uint8Array,
  codecs: Codecs,
  options: DecodeOptions,
): Promise<DecodedUpload> {
  const format = sniffAudioFormat(bytes);
  const sink = new MonoSink(options.maxDurationSeconds);
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  switch (format) {
    case 'wav':
      decodeWavInto(bytes, sink, options.maxDurationSeconds);
      break;
    case 'mp3':
      sink.sourceChannels = mpegStreamInfo(bytes)?.channels ?? 0;
      await decodeStream(await codecs.mp3(), bytes, sink, chunkBytes);
      break;
    case 'flac':
      await decodeStream(await codecs.flac(), bytes, sink, chunkBytes);
      break;
    case 'ogg-vorbis':
      await decodeStream(await codecs.vorbis(), bytes, sink, chunkBytes);
      break;
    case 'ogg-opus':
      await decodeOggOpus(bytes, codecs, sink);
      break;
    case 'webm':
      await decodeMatroskaOpus(bytes, codecs, sink);
      break;
    default: {
      const never: never = format;
      throw new Error(`unhandled format ${String(never)}`);
    }
  }
  const samples = sink.finish();
  if (samples.length === 0) {
    throw AudioDecodeError.invalid(
      sink.decodeErrors > 0
        ? `The ${AUDIO_FORMAT_NAMES[format]} file could not be decoded (${sink.decodeErrors} corrupt frames).`
        : `The ${AUDIO_FORMAT_NAMES[format]} file contains no audio.`,
    );
  }
  return {
    samples,
    sampleRate: TARGET_SAMPLE_RATE,
    format,
    sourceSampleRate: sink.sourceSampleRate,
    sourceChannels: sink.sourceChannels,
    durationSeconds: samples.length / TARGET_SAMPLE_RATE,
    decodeErrors: sink.decodeErrors,
  };
}

function decodeWavInto(bytes: Uint8Array, sink: MonoSink, maxSeconds: number): void {
  const info = readWavInfo(bytes);
  if (info.durationSeconds > maxSeconds) {
    throw tooLong(maxSeconds, info.durationSeconds);
  }
  sink.sourceChannels = info.channels;
  for (const block of wavMonoBlocks(bytes, info)) {
    sink.pushMono(block, info.sampleRate);
  }
}

async function decodeStream(
  decoder: StreamDecoder,
  bytes: Uint8Array,
  sink: MonoSink,
  chunkBytes: number,
): Promise<void> {
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += chunkBytes) {
      sink.pushBlock(await decoder.decode(bytes.subarray(offset, offset + chunkBytes)));
    }
    if (decoder.flush) {
      sink.pushBlock(await decoder.flush());
    }
  } finally {
    decoder.free();
  }
}

async function decodeOggOpus(bytes: Uint8Array, codecs: Codecs, sink: MonoSink): Promise<void> {
  /** The Opus stream being decoded: the first one, then each link of a chain once the previous one ended. */
  let stream:
    | { serial: number; head: OpusHead; decoder: OpusPacketDecoder; packets: number; ended: boolean }
    | undefined;
  let streams = 0;
  try {
    for (const packet of oggPackets(bytes)) {
      if (packet.bos) {
        if (!isOpusHead(packet.data) || (stream && !stream.ended)) {
          continue; // a multiplexed stream of another codec, or a second concurrent stream: ignored
        }
        stream?.decoder.free();
        stream = undefined;
        const head = parseOpusHead(packet.data);
        sink.sourceChannels = Math.max(sink.sourceChannels, head.channels);
        stream = {
          serial: packet.serial,
          head,
          decoder: await codecs.opus(opusDecoderOptions(head, TARGET_SAMPLE_RATE)),
          packets: 0,
          ended: false,
        };
        streams++;
        sink.beginSegment();
        continue;
      }
      if (!stream || packet.serial !== stream.serial || stream.ended) {
        continue;
      }
      if (stream.packets++ === 0) {
        continue; // OpusTags
      }
      sink.pushOpus(stream.decoder.decodeFrame(packet.data), stream.head);
      if (packet.eos) {
        stream.ended = true;
        if (packet.granule >= 0) {
          // The last page's granule position is the exact length: drop the encoder's end padding.
          const samples48k = Math.max(0, packet.granule - stream.head.preSkip);
          sink.trimSegment(Math.round((samples48k * TARGET_SAMPLE_RATE) / 48_000));
        }
      }
    }
  } finally {
    stream?.decoder.free();
  }
  if (streams === 0) {
    throw AudioDecodeError.invalid('The OGG/Opus file has no Opus stream header.');
  }
}

function isOpusHead(data: Uint8Array): boolean {
  return data.byteLength >= 8 && String.fromCharCode(...data.subarray(0, 8)) === 'OpusHead';
}

async function decodeMatroskaOpus(bytes: Uint8Array, codecs: Codecs, sink: MonoSink): Promise<void> {
  const file = readMatroska(bytes);
  const audio = file.tracks.filter(
    (track) => track.type === TRACK_TYPE_AUDIO || track.codecId.startsWith('A_'),
  );
  if (audio.length === 0) {
    throw AudioDecodeError.invalid('The WebM file has no audio track.');
  }
  const track = audio.find((candidate) => candidate.codecId === 'A_OPUS');
  if (!track) {
    const codecs = [...new Set(audio.map((candidate) => candidate.codecId.replace(/^A_/, '')))].join(', ');
    throw AudioDecodeError.unsupported(
      `WebM/Matroska audio in ${codecs} is not supported; only Opus (what browsers record) is.`,
    );
  }
  if (!track.codecPrivate) {
    throw AudioDecodeError.invalid('The WebM Opus track has no codec header (CodecPrivate).');
  }
  const head = parseOpusHead(track.codecPrivate);
  sink.sourceChannels = head.channels;
  const decoder = await codecs.opus(opusDecoderOptions(head, TARGET_SAMPLE_RATE));
  sink.beginSegment();
  try {
    for (const frame of file.frames) {
      if (frame.track !== track.number) {
        continue;
      }
      sink.pushOpus(decoder.decodeFrame(frame.data), head);
      if (frame.discardPaddingNs && frame.discardPaddingNs > 0) {
        sink.dropTail(Math.round((frame.discardPaddingNs * TARGET_SAMPLE_RATE) / 1e9));
      }
    }
  } finally {
    decoder.free();
  }
}

function tooLong(maxSeconds: number, seconds?: number): AudioDecodeError {
  const limit = formatDuration(maxSeconds);
  return new AudioDecodeError(
    'audio_too_long',
    seconds === undefined
      ? `The audio is longer than the ${limit} limit.`
      : `The audio is ${formatDuration(seconds)} long; the limit is ${limit}.`,
  );
}

function formatDuration(seconds: number): string {
  if (seconds < 120) {
    return `${Math.round(seconds * 10) / 10} s`;
  }
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/**
 * Collects decoded audio as 16 kHz mono: averages channels, resamples (one resampler per source rate, flushed
 * when the rate changes), counts against the duration limit, and keeps the output as a list of blocks.
 */
class MonoSink {
  sourceSampleRate = 0;
  sourceChannels = 0;
  decodeErrors = 0;
  private readonly blocks: Float32Array[] = [];
  private length = 0;
  private readonly maxSamples: number;
  private resampler?: Resampler;
  /** Output length when the current segment (one Opus stream of a chain) began. */
  private segmentStart = 0;

  constructor(private readonly maxSeconds: number) {
    this.maxSamples = Math.floor(maxSeconds * TARGET_SAMPLE_RATE);
  }

  pushBlock(block: DecodedBlock): void {
    this.decodeErrors += block.errors.length;
    if (block.samplesDecoded === 0 || block.channelData.length === 0) {
      return;
    }
    this.sourceChannels ||= block.channelData.length;
    this.pushMono(downmix(block.channelData, block.samplesDecoded), block.sampleRate);
  }

  pushOpus(block: DecodedBlock, head: OpusHead): void {
    this.sourceSampleRate = head.inputSampleRate || 48_000;
    this.decodeErrors += block.errors.length;
    const count = block.samplesDecoded;
    if (count === 0 || block.channelData.length === 0) {
      return;
    }
    // Decoder output may be a view of WebAssembly memory that the next call overwrites: always copy.
    const mono =
      block.channelData.length === 1
        ? block.channelData[0].slice(0, count)
        : downmix(block.channelData, count);
    if (head.outputGainDb !== 0) {
      const gain = 10 ** (head.outputGainDb / 20);
      for (let i = 0; i < mono.length; i++) {
        mono[i] *= gain;
      }
    }
    this.append(mono);
  }

  /** Mono samples at any rate; `samples` may be reused by the caller afterwards. */
  pushMono(samples: Float32Array, sampleRate: number): void {
    if (samples.length === 0) {
      return;
    }
    if (!Number.isInteger(sampleRate) || sampleRate < 1000 || sampleRate > 768_000) {
      throw AudioDecodeError.invalid(`The audio declares an unusable sample rate (${sampleRate} Hz).`);
    }
    this.sourceSampleRate ||= sampleRate;
    if (this.resampler && this.resampler.inputRate !== sampleRate) {
      this.append(this.resampler.flush());
      this.resampler = undefined;
    }
    if (sampleRate === TARGET_SAMPLE_RATE) {
      this.append(samples.slice());
      return;
    }
    this.resampler ??= new Resampler(sampleRate, TARGET_SAMPLE_RATE);
    this.append(this.resampler.process(samples));
  }

  beginSegment(): void {
    this.segmentStart = this.length;
  }

  /** Cuts the current segment to `samples` (drops what lies beyond, e.g. Opus end padding). */
  trimSegment(samples: number): void {
    const keep = this.segmentStart + samples;
    if (keep < this.length) {
      this.dropTail(this.length - keep);
    }
  }

  dropTail(count: number): void {
    let remaining = Math.min(count, this.length - this.segmentStart);
    while (remaining > 0 && this.blocks.length > 0) {
      const last = this.blocks[this.blocks.length - 1];
      if (last.length <= remaining) {
        this.blocks.pop();
        this.length -= last.length;
        remaining -= last.length;
      } else {
        this.blocks[this.blocks.length - 1] = last.subarray(0, last.length - remaining);
        this.length -= remaining;
        remaining = 0;
      }
    }
  }

  finish(): Float32Array {
    if (this.resampler) {
      this.append(this.resampler.flush());
      this.resampler = undefined;
    }
    const out = new Float32Array(this.length);
    let offset = 0;
    for (const block of this.blocks) {
      out.set(block, offset);
      offset += block.length;
    }
    return out;
  }

  private append(samples: Float32Array): void {
    if (samples.length === 0) {
      return;
    }
    this.blocks.push(samples);
    this.length += samples.length;
    if (this.length > this.maxSamples) {
      throw tooLong(this.maxSeconds);
    }
  }
}
