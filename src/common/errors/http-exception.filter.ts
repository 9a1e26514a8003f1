import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiErrorBody } from './api-error';

/** Human wording per status, used when an exception carries no message of ours. */
const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Failed to process the request.',
  401: 'The request requires valid authorization.',
  403: 'You are not allowed to perform this request.',
  404: "The requested resource wasn't found.",
  405: 'Method not allowed.',
  409: 'The request conflicts with the current state.',
  413: 'The request body is too large.',
  415: 'Unsupported media type.',
  429: 'Too many requests.',
  500: 'Something went wrong while processing your request.',
  502: 'An inference worker failed to process the request.',
  503: 'The service is temporarily unavailable.',
};

export function defaultMessage(status: number): string {
  return DEFAULT_MESSAGES[status] ?? (status >= 500 ? DEFAULT_MESSAGES[500] : DEFAULT_MESSAGES[400]);
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Partial<ApiErrorBody>;
  return typeof candidate.status === 'number' && typeof candidate.message === 'string' && !!candidate.data;
}

/** Nest maps body-parser's SyntaxError to a BadRequestException carrying the parser's message. */
function looksLikeJsonParseError(response: unknown): boolean {
  const message =
    typeof response === 'object' && response !== null
      ? (response as { message?: unknown }).message
      : response;
  return typeof message === 'string' && /JSON|Unexpected token|Expected property name/.test(message);
}

/** Converts any exception into an ApiErrorBody. Internal errors are logged, never serialised. */
export function toApiError(exception: unknown, logger: Logger): ApiErrorBody {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (isApiErrorBody(response)) {
      return response;
    }
    if (status === 400 && looksLikeJsonParseError(response)) {
      return { status, message: 'The request body is not valid JSON.', data: {} };
    }
    if (status >= 500) {
      logger.error(exception);
    }
    return { status, message: defaultMessage(status), data: {} };
  }
  // body-parser and multer raise plain errors that carry an HTTP status.
  const withStatus = exception as { status?: unknown; statusCode?: unknown; type?: unknown } | null;
  const status = Number(withStatus?.status ?? withStatus?.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const message =
      withStatus?.type === 'entity.parse.failed'
        ? 'The request body is not valid JSON.'
        : defaultMessage(status);
    return { status, message, data: {} };
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return { status: 500, message: defaultMessage(500), data: {} };
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const response = context.getResponse<Response>();
    const request = context.getRequest<Request>();
    const body = toApiError(exception, this.logger);
    if (response.headersSent) {
      // A streamed response already started: the only honest signal left is to cut the connection.
      this.logger.warn(`error after response started on ${request.method} ${request.path}: ${body.message}`);
      response.destroy();
      return;
    }
    response.status(body.status).json(body);
  }
}
