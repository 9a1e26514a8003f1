import { parseWav, decodeWav, encodeWav } from '../../worker/audio/wav';
import { SampleAudioError, normaliseWavSample, sniffSampleFormat } from './sample-audio';

function tone(seconds: number, sampleRate: number, channels: number): Buffer {
  const frames = Math.round(seconds * sampleRate);
  const samples = new Int16Array(frames * channels);
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels; channel++) {
      samples[frame * channels + channel] = Math.round(
        Math.sin((2 * Math.PI * 440 * frame) / sampleRate) * 8000 * (channel + 1),
      );
    }
  }
  return encodeWav(samples, sampleRate, channels);
}

describe('normaliseWavSample', () => {
  it('measures the duration and stores mono 16-bit at the original rate', () => {
    const result = normaliseWavSample(tone(2, 22_050, 2));
    expect(result.durationSeconds).toBeCloseTo(2, 5);
    expect(result.sampleRate).toBe(22_050);
    const info = parseWav(result.wav);
    expect(info).toMatchObject({ channels: 1, bitsPerSample: 16, sampleRate: 22_050, audioFormat: 1 });
    expect(info.durationSeconds).toBeCloseTo(2, 5);
    // The channels are averaged: (1 + 2) / 2 = 1.5 × the left channel's amplitude.
    const mono = decodeWav(result.wav).samples;
    const peak = mono.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);
    expect(peak).toBeCloseTo((8000 * 1.5) / 32768, 2);
  });

  it('resamples recordings above 48 kHz down to 48 kHz, keeping the duration', () => {
    const result = normaliseWavSample(tone(1, 96_000, 1));
    expect(result.sampleRate).toBe(48_000);
    expect(result.durationSeconds).toBeCloseTo(1, 5);
    expect(parseWav(result.wav).durationSeconds).toBeCloseTo(1, 2);
  });

  it.each([
    ['a broken WAV', Buffer.from('RIFF\0\0\0\0WAVEjunk')],
    ['an empty WAV', encodeWav(new Int16Array(0), 16_000)],
  ])('refuses %s as invalid audio', (_what, bytes) => {
    expect(() => normaliseWavSample(bytes)).toThrow(SampleAudioError);
    try {
      normaliseWavSample(bytes);
    } catch (error) {
      expect((error as SampleAudioError).code).toBe('validation_invalid_audio');
    }
  });

  it('refuses recordings shorter than half a second', () => {
    expect(() => normaliseWavSample(tone(0.2, 16_000, 1))).toThrow(/at least 0.5 s/);
  });
});

describe('sniffSampleFormat', () => {
  it('recognises audio containers from their bytes', () => {
    expect(sniffSampleFormat(tone(1, 8000, 1))).toBe('wav');
    expect(sniffSampleFormat(Buffer.from('fLaC\0\0\0\x22'))).toBe('flac');
  });

  it.each([
    ['text', Buffer.from('this is not audio at all'), 'validation_invalid_audio'],
    ['a PNG', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'validation_unsupported_audio'],
    ['an AVI', Buffer.from('RIFF\0\0\0\0AVI LIST'), 'validation_unsupported_audio'],
  ])('refuses %s', (_what, bytes, code) => {
    expect(() => sniffSampleFormat(bytes)).toThrow(SampleAudioError);
    try {
      sniffSampleFormat(bytes);
    } catch (error) {
      expect((error as SampleAudioError).code).toBe(code);
    }
  });
});
