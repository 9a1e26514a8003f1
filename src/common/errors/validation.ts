import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldError } from './api-error';

/** Flattens class-validator errors into `{ "a.b": {code, message} }`, first failing constraint per field. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): Record<string, FieldError> {
  const data: Record<string, FieldError> = {};
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      const [rule, message] = constraints[0];
      data[path] = { code: `validation_${toSnake(rule)}`, message: capitalise(message) };
    }
    if (error.children?.length) {
      Object.assign(data, flattenValidationErrors(error.children, path));
    }
  }
  return data;
}

const RULE_CODES: Record<string, string> = { whitelistValidation: 'unknown_field' };

function toSnake(rule: string): string {
  if (RULE_CODES[rule]) {
    return RULE_CODES[rule];
  }
  return rule.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function capitalise(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
}

/** The global validation pipe: strict whitelisting, transformation, errors in the API error shape. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) =>
      ApiError.badRequest('Failed to process the request.', flattenValidationErrors(errors)),
  });
}
