import { ApiError } from '../../common/api-error';
import { parsePiperConfig } from './piper-config';
import synthetic from './testdata/synthetic.onnx.json';
import { checkLanguage, resolveSpeaker } from './piper-voice-select';

const multi = parsePiperConfig({ ...synthetic, default_speaker_id: 1 });
const single = parsePiperConfig({ ...synthetic, num_speakers: 1, speaker_id_map: {} });
const model = 'piper/de_DE-test-low';

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected an error');
}

describe('resolveSpeaker', () => {
  it.each<[string | null, number]>([
    [null, 1], // the voice's default speaker
    ['bert', 2],
    ['piper/de_DE-test-low/anna', 0],
    ['1', 1],
  ])('%p on a multi-speaker voice → %p', (voice, id) => {
    expect(resolveSpeaker(multi, model, voice)).toBe(id);
  });

  it('refuses unknown speakers before any audio', () => {
    const error = errorOf(() => resolveSpeaker(multi, model, 'carl'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.getStatus()).toBe(400);
    expect(error.data.voice_path.code).toBe('unknown_voice');
    expect(error.message).toContain('anna, bert');
    expect(() => resolveSpeaker(multi, model, '3')).toThrow(ApiError);
    expect(() => resolveSpeaker(multi, model, 'piper/other-voice/anna')).toThrow(ApiError);
  });

  it('has nothing to choose on a single-speaker voice', () => {
    expect(resolveSpeaker(single, model, null)).toBeNull();
    expect(resolveSpeaker(single, model, 'piper/de_DE-test-low/default')).toBeNull();
    expect(() => resolveSpeaker(single, model, 'piper/other-voice/default')).toThrow(ApiError);
  });
});

describe('checkLanguage', () => {
  it('accepts the voice language in any region, or none', () => {
    expect(() => checkLanguage(multi, model, 'de')).not.toThrow();
    expect(() => checkLanguage(multi, model, 'de-AT')).not.toThrow();
    expect(() => checkLanguage(multi, model, null)).not.toThrow();
  });

  it('refuses another language', () => {
    const error = errorOf(() => checkLanguage(multi, model, 'fr'));
    expect(error.getStatus()).toBe(400);
    expect(error.data.language.code).toBe('unsupported_language');
    expect(error.message).toContain('German (Germany)');
  });
});
