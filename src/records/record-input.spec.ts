import type { ResolvedField } from './collections/collection.types';
import {
  castValue,
  isEmail,
  isUrl,
  normaliseDate,
  parseKey,
  readSubmittedInput,
  validateValue,
  zeroValue,
} from './record-input';
import type { Request } from 'express';

const field = (definition: Partial<ResolvedField> & Pick<ResolvedField, 'type'>): ResolvedField => ({
  name: 'f',
  column: 'f',
  ...definition,
});

describe('record input', () => {
  it('splits modifiers off keys', () => {
    expect(parseKey('tags')).toEqual({ name: 'tags', modifier: 'set' });
    expect(parseKey('tags+')).toEqual({ name: 'tags', modifier: 'append' });
    expect(parseKey('+tags')).toEqual({ name: 'tags', modifier: 'prepend' });
    expect(parseKey('tags-')).toEqual({ name: 'tags', modifier: 'remove' });
  });

  it.each([
    [field({ type: 'bool' }), 'true', true],
    [field({ type: 'bool' }), 'off', false],
    [field({ type: 'bool' }), '', false],
    [field({ type: 'number' }), '12.5', 12.5],
    [field({ type: 'number' }), '', 0],
    [field({ type: 'text' }), 42, '42'],
    [field({ type: 'text' }), null, ''],
    [field({ type: 'text' }), ['a', 'b'], 'b'],
    [field({ type: 'json' }), '{"a":1}', { a: 1 }],
    [field({ type: 'json' }), 'plain', 'plain'],
    [field({ type: 'select', multiple: true, values: ['a', 'b'] }), 'a', ['a']],
    [field({ type: 'select', multiple: true, values: ['a', 'b'] }), ['a', 'a', 'b', ''], ['a', 'b']],
    [field({ type: 'relation', multiple: true }), '', []],
  ])('casts %j ← %j', (target, raw, expected) => {
    expect(castValue(target, raw)).toEqual({ value: expected });
  });

  it('refuses values that cannot be cast', () => {
    expect(castValue(field({ type: 'bool' }), 'maybe').error?.code).toBe('validation_invalid_bool');
    expect(castValue(field({ type: 'number' }), 'ten').error?.code).toBe('validation_invalid_number');
    expect(castValue(field({ type: 'text' }), { a: 1 }).error?.code).toBe('validation_invalid_value');
    expect(castValue(field({ type: 'select', multiple: true }), [{}]).error?.code).toBe(
      'validation_invalid_value',
    );
  });

  it('validates with PocketBase codes', () => {
    expect(validateValue(field({ type: 'text', required: true }), '')?.code).toBe('validation_required');
    expect(validateValue(field({ type: 'text', min: 3 }), 'ab')?.code).toBe('validation_min_text_constraint');
    expect(validateValue(field({ type: 'text', max: 3 }), 'abcd')?.code).toBe(
      'validation_max_text_constraint',
    );
    expect(validateValue(field({ type: 'text', pattern: '^[a-z]+$' }), 'A1')?.code).toBe(
      'validation_invalid_format',
    );
    expect(validateValue(field({ type: 'email' }), 'nope')?.code).toBe('validation_is_email');
    expect(validateValue(field({ type: 'url' }), 'ftp://x')?.code).toBe('validation_is_url');
    expect(validateValue(field({ type: 'number', onlyInt: true }), 1.5)?.code).toBe(
      'validation_only_int_constraint',
    );
    expect(validateValue(field({ type: 'number', max: 10 }), 11)?.code).toBe(
      'validation_max_number_constraint',
    );
    expect(validateValue(field({ type: 'select', values: ['a'] }), 'b')?.code).toBe(
      'validation_invalid_value',
    );
    expect(
      validateValue(field({ type: 'select', values: ['a', 'b'], multiple: true, maxSelect: 1 }), ['a', 'b'])
        ?.code,
    ).toBe('validation_too_many_values');
    expect(validateValue(field({ type: 'date' }), 'yesterday')?.code).toBe('validation_invalid_date');
    expect(validateValue(field({ type: 'text' }), '')).toBeUndefined();
    expect(validateValue(field({ type: 'text', required: true, min: 1 }), 'ok')).toBeUndefined();
  });

  it('knows e-mails, URLs and dates', () => {
    expect(isEmail('a.b+c@example.co.uk')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('a b@example.com')).toBe(false);
    expect(isUrl('https://example.com/x')).toBe(true);
    expect(isUrl('javascript:alert(1)')).toBe(false);
    expect(normaliseDate('2024-01-02')).toBe('2024-01-02 00:00:00.000Z');
    expect(normaliseDate('2024-01-02T03:04:05+02:00')).toBe('2024-01-02 01:04:05.000Z');
    expect(normaliseDate('2024-13-45')).toBeUndefined();
  });

  it('starts records from zero values and defaults', () => {
    expect(zeroValue(field({ type: 'bool' }))).toBe(false);
    expect(zeroValue(field({ type: 'select', multiple: true }))).toEqual([]);
    expect(zeroValue(field({ type: 'select', default: 'user' }))).toBe('user');
  });

  it('merges @jsonPayload parts over plain multipart parts', () => {
    const request = {
      body: { name: 'plain', '@jsonPayload': ['{"tags":["a","b"]}', '{"count":2}'] },
      files: [{ fieldname: 'doc', originalname: 'a.txt', buffer: Buffer.from('x'), size: 1 }],
    } as unknown as Request;
    const input = readSubmittedInput(request);
    expect(input.body).toEqual({ name: 'plain', tags: ['a', 'b'], count: 2 });
    expect(input.files).toHaveLength(1);
    expect(() => readSubmittedInput({ body: { '@jsonPayload': '[1]' } } as unknown as Request)).toThrow();
    expect(readSubmittedInput({ body: undefined } as unknown as Request).body).toEqual({});
  });
});
