import { formBoolean, formJsonObject, formStringList, formTrim } from './forms';

describe('form value coercions', () => {
  it.each([
    ['true', true],
    ['ON', true],
    ['1', true],
    ['false', false],
    ['no', false],
    [true, true],
    ['maybe', 'maybe'],
  ])('formBoolean(%j) = %j', (input, expected) => {
    expect(formBoolean(input)).toBe(expected);
  });

  it.each([
    ['a, b ,,a', ['a', 'b']],
    ['["x","y"]', ['x', 'y']],
    ['', []],
    [
      ['calm', ' calm ', 'deep'],
      ['calm', 'deep'],
    ],
    ['[not json', '[not json'],
    [
      [1, 2],
      [1, 2],
    ],
    [42, 42],
  ])('formStringList(%j) = %j', (input, expected) => {
    expect(formStringList(input)).toEqual(expected);
  });

  it('parses JSON objects given as text, and leaves anything else for the validators', () => {
    expect(formJsonObject('{"pitch":2}')).toEqual({ pitch: 2 });
    expect(formJsonObject('')).toEqual({});
    expect(formJsonObject('{oops')).toBe('{oops');
    expect(formJsonObject({ a: 1 })).toEqual({ a: 1 });
    expect(formTrim('  x ')).toBe('x');
  });
});
