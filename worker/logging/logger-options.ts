import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Params } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';

import { REQUEST_ID_HEADER } from '../contract/worker-api';
import type { LogLevel } from '../config/worker-config';

/** Incoming request ids are kept when they look like ids (no log injection, bounded length). */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Routes polled by the main service's health loop: logged at debug so the log stays about real work. */
const QUIET_ROUTES = new Set(['/health']);

export function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers[REQUEST_ID_HEADER.toLowerCase()];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * nestjs-pino settings: JSON lines, one per request (method, url, status, duration, request id), Nest's own
 * logs in the same stream and carrying the request id when logged during a request. No header is ever logged,
 * so the Authorization header cannot leak; `redact` guards against a future serializer that adds them.
 */
export function loggerParams(level: LogLevel): Params {
  return {
    pinoHttp: {
      level,
      base: { service: 'chorus-worker' },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      genReqId: requestIdOf,
      customLogLevel: (request, response, error) => {
        if (error || response.statusCode >= 500) {
          return 'error';
        }
        if (response.statusCode >= 400) {
          return 'warn';
        }
        return QUIET_ROUTES.has(request.url ?? '') ? 'debug' : 'info';
      },
      customSuccessMessage: (request, response, responseTime) =>
        response.writableEnded
          ? `${request.method} ${request.url} ${response.statusCode} ${Math.round(responseTime)}ms`
          : `${request.method} ${request.url} aborted by the client after ${Math.round(responseTime)}ms`,
      customErrorMessage: (request, response) =>
        `${request.method} ${request.url} failed (${response.statusCode})`,
      // The error filter already logged the real error with its stack; pino-http's own is a synthetic
      // "failed with status code 500" whose stack says nothing. Keep only its message on the request line.
      customErrorObject: (_request, _response, error: Error, value: Record<string, unknown>) => {
        const { err: _ignored, ...line } = value;
        return { ...line, error: error.message };
      },
      serializers: {
        req: (request: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url,
          remoteAddress: request.remoteAddress,
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization'],
        censor: '[redacted]',
      },
    },
  };
}
