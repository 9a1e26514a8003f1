import { plainToInstance } from 'class-transformer';
import {
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  ValidateNested,
  validateSync,
} from 'class-validator';

import { isSafeRelativePath } from './safe-relative-path.validator';
import { flattenValidationErrors, validationExceptionFactory } from './validation-errors';

class Inner {
  @IsString()
  name!: string;
}

class Sample {
  @IsString()
  @MaxLength(3)
  text!: string;

  @IsOptional()
  @IsNumber()
  @Max(4)
  speed?: number;

  @IsOptional()
  @ValidateNested()
  inner?: Inner;
}

function errorsOf(plain: object) {
  const instance = plainToInstance(Sample, plain);
  if ('inner' in plain) {
    instance.inner = plainToInstance(Inner, plain.inner as object);
  }
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
}

describe('validation errors', () => {
  it('maps each field to its most basic problem with a PocketBase-style code', () => {
    expect(flattenValidationErrors(errorsOf({ text: 42, speed: 9, extra: true }))).toEqual({
      text: { code: 'validation_invalid_type', message: 'text must be a string' },
      speed: { code: 'validation_max_less_equal_than_required', message: 'speed must not be greater than 4' },
      extra: { code: 'validation_unknown_field', message: 'property extra should not exist' },
    });
    expect(flattenValidationErrors(errorsOf({ text: 'long' }))).toEqual({
      text: {
        code: 'validation_length_out_of_range',
        message: 'text must be shorter than or equal to 3 characters',
      },
    });
  });

  it('names nested fields with dots', () => {
    expect(flattenValidationErrors(errorsOf({ text: 'ok', inner: { name: 1 } }))).toEqual({
      'inner.name': { code: 'validation_invalid_type', message: 'name must be a string' },
    });
  });

  it('builds one 400 ApiError', () => {
    const error = validationExceptionFactory(errorsOf({}));
    expect(error.getStatus()).toBe(400);
    expect(error.message).toBe('The request is invalid.');
    expect(Object.keys(error.data)).toEqual(['text']);
  });
});

describe('isSafeRelativePath', () => {
  it.each(['piper/en_US-lessac-medium', 'espeak', 'a/b/c.onnx', 'kokoro/v1.0'])('accepts %p', (path) => {
    expect(isSafeRelativePath(path)).toBe(true);
  });

  it.each([
    '',
    '/etc/passwd',
    '../models',
    'a/../../b',
    'a//b',
    'a/',
    'C:/x',
    'a\\b',
    'a\0b',
    'x'.repeat(1025),
    5,
  ])('rejects %p', (path) => {
    expect(isSafeRelativePath(path)).toBe(false);
  });
});
