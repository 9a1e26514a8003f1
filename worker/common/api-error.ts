import { HttpException, HttpStatus } from '@nestjs/common';

import type { WorkerError } from '../contract/worker-api';

export type FieldErrors = WorkerError['data'];

/**
 * An error meant for the client: its status, message and per-field `data` are serialised as they are
 * (PocketBase's `{status, message, data}`). Anything that is not an ApiError or an HttpException is an internal
 * error: logged, and answered with a generic message.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly data: FieldErrors = {},
    /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super({ status, message, data }, status);
  }

  static badRequest(message: string, data: FieldErrors = {}): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message, data);
  }

  /** A 400 about one field of the request body. */
  static invalidField(field: string, code: string, message: string): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message, { [field]: { code, message } });
  }

  static notFound(message: string = DEFAULT_MESSAGES[HttpStatus.NOT_FOUND]): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, message);
  }

  static unauthorized(message: string = DEFAULT_MESSAGES[HttpStatus.UNAUTHORIZED]): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, message, {}, { 'WWW-Authenticate': 'Bearer' });
  }

  static serviceUnavailable(message: string, retryAfterSeconds?: number): ApiError {
    const headers: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) };
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, message, {}, headers);
  }
}

/** Messages used when an error carries none of its own (or must not show its own). */
export const DEFAULT_MESSAGES: Readonly<Record<number, string>> = {
  [HttpStatus.BAD_REQUEST]: 'Something went wrong while processing your request.',
  [HttpStatus.UNAUTHORIZED]: 'The request requires a valid bearer token.',
  [HttpStatus.FORBIDDEN]: 'You are not allowed to perform this request.',
  [HttpStatus.NOT_FOUND]: "The requested resource wasn't found.",
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'The request body is too large.',
  [HttpStatus.TOO_MANY_REQUESTS]: 'Too many requests.',
  [HttpStatus.INTERNAL_SERVER_ERROR]: 'Something went wrong while processing your request.',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'The service is temporarily unavailable.',
};

export function defaultMessage(status: number): string {
  return DEFAULT_MESSAGES[status] ?? (status >= 500 ? DEFAULT_MESSAGES[500] : DEFAULT_MESSAGES[400]);
}
