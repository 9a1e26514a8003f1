import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createValidationPipe } from './common/errors/validation';
import { spaFallback } from './common/spa';
import { AppConfig } from './config/configuration';
import { buildOpenApiDocument } from './openapi';

/** Creates the configured application without listening (used by main.ts, the OpenAPI script and tests). */
export async function createApp(
  config: AppConfig,
  options: { logs?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    abortOnError: false,
    logger: options.logs === false ? false : undefined,
  });
  if (options.logs !== false) {
    app.useLogger(app.get(Logger));
  }
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.useBodyParser('json', { limit: '1mb' });
  app.use((_req: express.Request, res: express.Response, next: express.NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
    customSiteTitle: 'Chorus API',
  });
  app.use(express.static(config.clientDir, { index: false, maxAge: '1h', fallthrough: true }));
  app.use(spaFallback(config.clientDir));
  app.enableShutdownHooks();
  return app;
}
