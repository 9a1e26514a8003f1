import { ValidationPipe } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';

import { BearerTokenVerifier } from './auth/bearer-token';
import { ApiError } from './common/api-error';
import { ApiErrorFilter } from './common/api-error.filter';
import { toErrorResponse } from './common/error-response';
import { validationExceptionFactory } from './common/validation-errors';
import type { AppInfo } from './config/app-info';

/**
 * Largest JSON body: cloning references travel as base64 WAV inside the JSON (a few 30-second 24 kHz samples
 * are a few MB). Text alone is bounded far lower by INFERENCE_MAX_TEXT_LENGTH.
 */
export const JSON_BODY_LIMIT = '50mb';

export const DOCS_PATH = 'docs';
export const OPENAPI_PATH = 'openapi.json';

/** Everything `main.ts` applies to the application, shared with tests that start a real server. */
export function configureApp(app: NestExpressApplication, appInfo: AppInfo): void {
  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: validationExceptionFactory,
      validationError: { target: false, value: false },
    }),
  );
  app.useGlobalFilters(new ApiErrorFilter());
  setupOpenApi(app, appInfo);
  app.enableShutdownHooks();
}

/** Swagger UI at `/docs`, the document at `/openapi.json`; both behind the bearer token like every route but /health. */
function setupOpenApi(app: NestExpressApplication, appInfo: AppInfo): void {
  const verifier = app.get(BearerTokenVerifier);
  const requireToken = (request: Request, response: Response, next: NextFunction) => {
    if (verifier.verify(request.headers.authorization)) {
      next();
      return;
    }
    const { body, headers } = toErrorResponse(ApiError.unauthorized());
    response.status(body.status).set(headers).json(body);
  };
  app.use(`/${DOCS_PATH}`, requireToken);
  app.use(`/${OPENAPI_PATH}`, requireToken);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Chorus inference worker')
      .setDescription('Internal API of a Chorus inference worker, called by the main service.')
      .setVersion(appInfo.version)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'INFERENCE_AUTH_TOKEN' })
      .build(),
    { operationIdFactory: (_controllerKey, methodKey) => methodKey },
  );
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    yamlDocumentUrl: undefined,
  });
}
