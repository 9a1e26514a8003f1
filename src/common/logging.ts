import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One JSON line per request with a request id (an incoming X-Request-Id is honoured when well-formed, and echoed).
 * Credentials never reach the log: authorization, cookies and tokens in query strings are redacted.
 */
export function loggerParams(level: string): Params {
  return {
    pinoHttp: {
      level,
      // Same line format as the worker's, so one log pipeline reads both services.
      base: { service: 'chorus' },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          url: redactQuery(req.url),
          userAgent: req.headers['user-agent'],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      // Health probes every few seconds would drown the log.
      autoLogging: { ignore: (req) => req.url === '/api/health' },
    },
  };
}

function redactQuery(url: string): string {
  return url.replace(/([?&](?:token|key|password|secret)[^=&]*=)[^&]*/gi, '$1[redacted]');
}
