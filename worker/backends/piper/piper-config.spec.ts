import { parsePiperConfig, PiperConfigError } from './piper-config';
import synthetic from './testdata/synthetic.onnx.json';

/** A small config shaped like rhasspy/piper-voices' `.onnx.json` files, with overrides. */
function syntheticConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(synthetic as Record<string, unknown>), ...overrides };
}

describe('parsePiperConfig', () => {
  it('reads what Piper reads', () => {
    const config = parsePiperConfig(syntheticConfig());
    expect(config).toMatchObject({
      sampleRate: 16000,
      numSpeakers: 3,
      defaultSpeakerId: 0,
      phonemeType: 'espeak',
      espeakVoice: 'de',
      noiseScale: 0.5,
      lengthScale: 1.2,
      noiseW: 0.7,
      vowelClusters: [],
      language: 'de',
      languageName: 'German (Germany)',
    });
    expect(config.phonemeIdMap.get('a')).toEqual([4]);
    expect(config.phonemeIdMap.size).toBe(9);
    expect([...config.speakerIdMap]).toEqual([
      ['anna', 0],
      ['bert', 2],
    ]);
  });

  it("applies Piper's defaults", () => {
    const config = parsePiperConfig(
      syntheticConfig({
        inference: undefined,
        num_speakers: undefined,
        speaker_id_map: undefined,
        language: undefined,
      }),
    );
    expect(config).toMatchObject({
      noiseScale: 0.667,
      lengthScale: 1,
      noiseW: 0.8,
      numSpeakers: 1,
      language: null,
    });
    expect(config.speakerIdMap.size).toBe(0);
  });

  it('reads the real joe voice', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const joe = require('../../../test/.fixtures/piper/en_US-joe-medium.onnx.json') as unknown;
    const config = parsePiperConfig(joe);
    expect(config).toMatchObject({ sampleRate: 22050, numSpeakers: 1, espeakVoice: 'en-us', language: 'en' });
    expect(config.phonemeIdMap.get('ʲ')).toEqual([119]);
  });

  it('accepts text phonemes and vowel clusters', () => {
    const config = parsePiperConfig(
      syntheticConfig({ phoneme_type: 'text', espeak: undefined, vowel_clusters: [['a', 'b']] }),
    );
    expect(config.phonemeType).toBe('text');
    expect(config.vowelClusters).toEqual([['a', 'b']]);
  });

  it('names every problem at once', () => {
    const bad = syntheticConfig({
      audio: { sample_rate: 'fast' },
      phoneme_id_map: { a: [4], b: [99] },
      speaker_id_map: { carl: 7 },
      espeak: { voice: '' },
    });
    let error: unknown;
    try {
      parsePiperConfig(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PiperConfigError);
    const problems = (error as PiperConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'audio.sample_rate must be an integer between 8000 and 192000',
        'phoneme_id_map["b"] must be a non-empty list of ids below num_symbols',
        'phoneme_id_map lacks "^"',
        'phoneme_id_map lacks "$"',
        'phoneme_id_map lacks "_"',
        'speaker_id_map["carl"] must be an id below num_speakers',
        'espeak.voice must name an espeak-ng voice (e.g. "en-us")',
      ]),
    );
  });

  it('refuses phoneme types that need another phonemizer', () => {
    expect(() => parsePiperConfig(syntheticConfig({ phoneme_type: 'pinyin' }))).toThrow(
      'phoneme_type "pinyin" needs a phonemizer this worker does not provide',
    );
    expect(() => parsePiperConfig([])).toThrow('not a JSON object');
  });
});
