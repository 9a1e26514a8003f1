import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { Observable, from, switchMap } from 'rxjs';
import { ApiError } from '../common/errors/api-error';
import { CollectionRegistry } from './collections/collection-registry';

/** Most files in one request. */
const MAX_FILES = 50;
/** Largest non-file multipart part (e.g. an `@jsonPayload`). */
const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * Parses multipart bodies of record writes into memory (req.body text parts, req.files). The size cap is the
 * largest file field's maxSize: a bigger file is a 413 before it is buffered whole; per-field limits (size,
 * type) are then checked by the records service as 400s naming the field.
 */
@Injectable()
export class UploadsInterceptor implements NestInterceptor {
  private readonly upload: ReturnType<ReturnType<typeof multer>['any']>;

  constructor(registry: CollectionRegistry) {
    const largest = Math.max(
      1,
      ...registry.all().flatMap((collection) => collection.fields.map((field) => field.file?.maxSize ?? 0)),
    );
    this.upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: largest, files: MAX_FILES, fieldSize: MAX_FIELD_BYTES, parts: 1000 },
    }).any();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!request.is('multipart/form-data')) {
      return next.handle();
    }
    const parsed = new Promise<void>((resolve, reject) => {
      this.upload(request, http.getResponse<Response>(), (error: unknown) => {
        if (!error) {
          resolve();
        } else if (error instanceof multer.MulterError) {
          reject(
            error.code === 'LIMIT_FILE_SIZE' || error.code === 'LIMIT_FIELD_VALUE'
              ? new ApiError(413, 'The request body is too large.')
              : ApiError.badRequest('Failed to read the submitted data.'),
          );
        } else {
          reject(ApiError.badRequest('Failed to read the submitted data.'));
        }
      });
    });
    return from(parsed).pipe(switchMap(() => next.handle()));
  }
}
