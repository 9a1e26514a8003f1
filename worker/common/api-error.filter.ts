import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';

import { toErrorResponse } from './error-response';
import { ClientGoneError } from './request-signal';

/** Global filter: every error leaves the worker as `{status, message, data}`. */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    if (exception instanceof ClientGoneError || response.destroyed) {
      // Nobody is listening: the work was stopped on purpose and the request line is logged as aborted.
      this.logger.debug(`Client of ${request.method} ${request.originalUrl} went away; work stopped`);
      response.destroy();
      return;
    }
    const { body, headers, internal } = toErrorResponse(exception);

    if (internal) {
      this.logger.error(
        { err: exception, method: request.method, url: request.originalUrl },
        `Internal error while serving ${request.method} ${request.originalUrl}`,
      );
    }

    if (response.headersSent) {
      // Audio was already streaming: the status line is gone, so the only honest signal left is to cut the
      // transfer short (the client sees an incomplete chunked body instead of a clean end).
      response.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) {
      response.setHeader(name, value);
    }
    response.status(body.status).json(body);
  }
}
