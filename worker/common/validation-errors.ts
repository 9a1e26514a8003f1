import { HttpStatus, type ValidationError } from '@nestjs/common';

import { ApiError, type FieldErrors } from './api-error';

/**
 * PocketBase-style codes for class-validator constraints; constraints not listed become
 * `validation_<snake_case_name>`.
 */
const CONSTRAINT_CODES: Readonly<Record<string, string>> = {
  isDefined: 'validation_required',
  isNotEmpty: 'validation_required',
  whitelistValidation: 'validation_unknown_field',
  isString: 'validation_invalid_type',
  isNumber: 'validation_invalid_type',
  isInt: 'validation_invalid_type',
  isBoolean: 'validation_invalid_type',
  isArray: 'validation_invalid_type',
  isObject: 'validation_invalid_type',
  minLength: 'validation_length_out_of_range',
  maxLength: 'validation_length_out_of_range',
  length: 'validation_length_out_of_range',
  arrayMaxSize: 'validation_length_out_of_range',
  arrayMinSize: 'validation_length_out_of_range',
  min: 'validation_min_greater_equal_than_required',
  max: 'validation_max_less_equal_than_required',
  matches: 'validation_match_invalid',
  isIn: 'validation_in_invalid',
  isEnum: 'validation_in_invalid',
};

export const VALIDATION_FAILED_MESSAGE = 'The request is invalid.';

/** `ValidationPipe.exceptionFactory`: one 400 whose `data` maps each offending field to its first problem. */
export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  return new ApiError(HttpStatus.BAD_REQUEST, VALIDATION_FAILED_MESSAGE, flattenValidationErrors(errors));
}

export function flattenValidationErrors(errors: readonly ValidationError[], prefix = ''): FieldErrors {
  const data: FieldErrors = {};
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      const [name, message] = mostBasicConstraint(constraints);
      data[field] = { code: constraintCode(name), message };
    }
    if (error.children?.length) {
      Object.assign(data, flattenValidationErrors(error.children, field));
    }
  }
  return data;
}

/** Constraints reported first when several fail: an unknown or missing field, then a wrong type. */
const CONSTRAINT_PRIORITY = [
  'whitelistValidation',
  'isDefined',
  'isNotEmpty',
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isObject',
];

function mostBasicConstraint(constraints: ReadonlyArray<[string, string]>): [string, string] {
  for (const name of CONSTRAINT_PRIORITY) {
    const found = constraints.find(([constraint]) => constraint === name);
    if (found) {
      return found;
    }
  }
  return constraints[0];
}

function constraintCode(constraint: string): string {
  return (
    CONSTRAINT_CODES[constraint] ??
    `validation_${constraint.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`
  );
}
