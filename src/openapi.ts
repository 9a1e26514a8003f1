import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiErrorDto, FieldErrorDto } from './common/errors/api-error';
import { API_VERSION } from './health/health.service';

/** Builds the API's OpenAPI document. operationId = controller method name, so the client reads `getVoice`... */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Chorus API')
    .setDescription(
      'Self-hosted text-to-speech orchestration. Errors always have the shape {status, message, data} where data maps a field to {code, message}.',
    )
    .setVersion(API_VERSION)
    // The scheme @ApiBearerAuth() refers to: a records auth token or an API key, sent as `Bearer <token>`.
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, {
    extraModels: [ApiErrorDto, FieldErrorDto],
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
}

/** Stable JSON text of the document (two-space indent, trailing newline) as committed to the repository. */
export function serialiseOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
