import { HttpException } from '@nestjs/common';

import type { WorkerError } from '../contract/worker-api';
import { ApiError, defaultMessage } from './api-error';

export interface ErrorResponse {
  body: WorkerError;
  headers: Readonly<Record<string, string>>;
  /** True for errors the client did not cause: they are logged with their stack. */
  internal: boolean;
}

/**
 * Maps anything thrown while serving a request to the one error shape. Only messages the code chose for the
 * client are serialised; an internal error's message, stack and cause stay in the log.
 */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof ApiError) {
    return {
      body: { status: exception.getStatus(), message: exception.message, data: exception.data },
      headers: exception.headers,
      internal: exception.getStatus() >= 500 && exception.getStatus() !== 503,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const internal = status >= 500;
    return {
      body: {
        status,
        message: internal ? defaultMessage(status) : httpExceptionMessage(exception),
        data: {},
      },
      headers: {},
      internal,
    };
  }
  const clientError = asExposedHttpError(exception);
  if (clientError) {
    return {
      body: { status: clientError.status, message: clientError.message, data: {} },
      headers: {},
      internal: false,
    };
  }
  return { body: { status: 500, message: defaultMessage(500), data: {} }, headers: {}, internal: true };
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') {
    return response;
  }
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string' && message) {
    return message;
  }
  if (Array.isArray(message) && message.length > 0) {
    return message.map(String).join('; ');
  }
  return defaultMessage(exception.getStatus());
}

/**
 * Errors of Express middleware (body-parser uses `http-errors`) carry `status` and `expose`; `expose` marks
 * messages written for the client (e.g. "request entity too large", JSON syntax errors).
 */
function asExposedHttpError(exception: unknown): { status: number; message: string } | undefined {
  if (!exception || typeof exception !== 'object') {
    return undefined;
  }
  const { status, expose, message, type } = exception as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    type?: unknown;
  };
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) {
    return undefined;
  }
  if (type === 'entity.parse.failed') {
    return { status, message: 'The request body is not valid JSON.' };
  }
  return { status, message: typeof message === 'string' && message ? message : defaultMessage(status) };
}
