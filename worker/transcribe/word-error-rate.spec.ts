import { editDistance, wordErrorRate, words } from './word-error-rate';

describe('wordErrorRate', () => {
  it('is 0 for the same words whatever the case and punctuation', () => {
    expect(wordErrorRate('Go forward, ten meters!', 'go forward ten meters')).toBe(0);
  });

  it('counts substitutions, deletions and insertions against the reference length', () => {
    expect(wordErrorRate('go forward ten meters', 'go forward and majors')).toBe(0.5);
    expect(wordErrorRate('go forward ten meters', 'go forward')).toBe(0.5);
    expect(wordErrorRate('go forward', 'go go forward now')).toBe(1);
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });

  it('keeps apostrophes inside words and letters of any script', () => {
    expect(words("I'm here — 'quoted' Grüße, 東京")).toEqual(["i'm", 'here', 'quoted', 'grüße', '東京']);
  });

  it('computes the edit distance of word sequences', () => {
    expect(editDistance(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toBe(2);
    expect(editDistance([], ['a'])).toBe(1);
  });
});
