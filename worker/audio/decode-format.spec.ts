import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AudioDecodeError } from './decode-errors';
import { mpegFrameLength, mpegStreamInfo, sniffAudioFormat } from './decode-format';
import { encodeWav } from './wav';

const TESTDATA = join(__dirname, 'testdata');

/** An MPEG-1 layer III frame header (128 kbps, 44.1 kHz) followed by its body. */
function mp3Frame(mode: 'stereo' | 'mono' = 'stereo'): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, mode === 'mono' ? 0xc4 : 0x04]);
  return frame;
}

function ogg(firstPacket: Buffer): Buffer {
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'ascii');
  header[5] = 0x02;
  header[26] = 1;
  header[27] = firstPacket.length;
  return Buffer.concat([header, firstPacket]);
}

function codeOf(bytes: Uint8Array): string {
  try {
    return sniffAudioFormat(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(AudioDecodeError);
    return `${(error as AudioDecodeError).code}: ${(error as Error).message}`;
  }
}

describe('sniffAudioFormat', () => {
  it.each<[string, () => Uint8Array, string]>([
    ['WAV', () => encodeWav(new Int16Array(4), 16000), 'wav'],
    ['FLAC', () => Buffer.from('fLaC\0\0\0\x22'), 'flac'],
    [
      'FLAC behind an ID3 tag',
      () => Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\x02\0\0'), Buffer.from('fLaC')]),
      'flac',
    ],
    ['MP3 frames', () => Buffer.concat([mp3Frame(), mp3Frame()]), 'mp3'],
    [
      'MP3 behind an ID3 tag',
      () => Buffer.concat([Buffer.from('ID3\x03\0\0\0\0\0\x05'), Buffer.alloc(5), mp3Frame(), mp3Frame()]),
      'mp3',
    ],
    ['OGG/Opus', () => ogg(Buffer.from('OpusHead\x01\x01\x38\x01')), 'ogg-opus'],
    ['OGG/Vorbis', () => ogg(Buffer.from('\x01vorbis\0\0\0\0')), 'ogg-vorbis'],
    ['the committed Ogg Opus fixture', () => readFileSync(join(TESTDATA, 'goforward.opus')), 'ogg-opus'],
    ['WebM', () => readFileSync(join(TESTDATA, 'goforward-chrome.webm')), 'webm'],
  ])('recognises %s by its bytes', (_name, bytes, format) => {
    expect(sniffAudioFormat(bytes())).toBe(format);
  });

  it.each<[string, () => Uint8Array, RegExp]>([
    ['an empty file', () => new Uint8Array(0), /^invalid_audio: The audio file is empty/],
    ['JSON', () => Buffer.from('{"text": "hello"}\n'), /^invalid_audio: The file is text/],
    [
      'AAC (ADTS)',
      () => Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]),
      /^unsupported_audio: AAC \(ADTS\) audio is not supported/,
    ],
    ['MP4/M4A', () => Buffer.from('\0\0\0\x20ftypM4A \0\0\0\0'), /^unsupported_audio: MP4\/M4A/],
    ['AIFF', () => Buffer.from('FORM\0\0\0\0AIFFCOMM'), /^unsupported_audio: AIFF/],
    ['OGG/Speex', () => ogg(Buffer.from('Speex   1.2')), /^unsupported_audio: OGG\/Speex/],
    ['FLAC in OGG', () => ogg(Buffer.from('\x7fFLAC\x01\0')), /^unsupported_audio: FLAC in OGG/],
    ['AVI', () => Buffer.from('RIFF\0\0\0\0AVI LIST'), /^unsupported_audio: a RIFF file of type "AVI "/],
    ['RF64', () => Buffer.from('RF64\xff\xff\xff\xffWAVE'), /^unsupported_audio: RF64/],
    [
      'an ID3 tag alone',
      () => Buffer.from('ID3\x03\0\0\0\0\0\x02\0\0'),
      /^invalid_audio: The file has an ID3 tag but no MP3/,
    ],
    [
      'binary noise',
      () => Uint8Array.from({ length: 600 }, (_, i) => (i * 13) % 200),
      /^unsupported_audio: The audio format was not recognised/,
    ],
    [
      'a lone MPEG sync word',
      () => Buffer.from([0xff, 0xfb, 0x90, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
      /^mp3$/,
    ],
  ])('answers %s', (_name, bytes, expected) => {
    expect(codeOf(bytes())).toMatch(expected);
  });
});

describe('MPEG audio frame headers', () => {
  it('computes frame lengths and reads channels and rate', () => {
    expect(mpegFrameLength(mp3Frame(), 0)).toBe(417);
    expect(mpegFrameLength(Buffer.from([0xff, 0xfb, 0xf0, 0x04]), 0)).toBe(0); // bitrate index 15
    expect(mpegFrameLength(Buffer.from([0xff, 0xe9, 0x90, 0x04]), 0)).toBe(0); // reserved version
    expect(mpegStreamInfo(Buffer.concat([mp3Frame('mono'), mp3Frame('mono')]))).toEqual({
      channels: 1,
      sampleRate: 44100,
    });
    expect(mpegStreamInfo(Buffer.concat([mp3Frame(), mp3Frame()]))).toEqual({
      channels: 2,
      sampleRate: 44100,
    });
    expect(mpegStreamInfo(Buffer.from('nothing here'))).toBeUndefined();
  });
});
