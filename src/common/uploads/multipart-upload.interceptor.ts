import { CallHandler, ExecutionContext, NestInterceptor, mixin, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { Observable, from, switchMap } from 'rxjs';
import { ApiError } from '../errors/api-error';

/** One file part a route accepts. */
export interface UploadField {
  readonly name: string;
  /** Largest accepted file, in bytes: a bigger one is a 413 before it is buffered whole. */
  readonly maxBytes: number;
}

/** An uploaded file as multer hands it over (in memory). */
export type UploadedFileData = Express.Multer.File;

/** Largest text part of a multipart body (names, transcripts, JSON options). */
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Parses a multipart body into memory: text parts into `req.body`, the named file parts into `req.files`
 * (`{[field]: File[]}`, at most one each). Other bodies (JSON) pass untouched. Limits answer in the API error
 * shape: a file over its field's limit → 413; an unexpected file part, or more than one per field → 400.
 * Per-field limits are enforced by checking each file after parsing; multer's own cap is the largest of them.
 */
export function MultipartUpload(...fields: UploadField[]): Type<NestInterceptor> {
  const largest = Math.max(1, ...fields.map((field) => field.maxBytes));
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: largest, files: fields.length, fieldSize: MAX_FIELD_BYTES, parts: 100 },
  }).fields(fields.map((field) => ({ name: field.name, maxCount: 1 })));

  class MultipartUploadInterceptor implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const http = context.switchToHttp();
      const request = http.getRequest<Request>();
      if (!request.is('multipart/form-data')) {
        return next.handle();
      }
      const parsed = new Promise<void>((resolve, reject) => {
        upload(request, http.getResponse<Response>(), (error: unknown) => {
          if (error) {
            reject(uploadError(error, fields));
            return;
          }
          const files = (request.files ?? {}) as Record<string, UploadedFileData[]>;
          for (const field of fields) {
            const file = files[field.name]?.[0];
            if (file && file.size > field.maxBytes) {
              reject(tooLarge(field));
              return;
            }
          }
          resolve();
        });
      });
      return from(parsed).pipe(switchMap(() => next.handle()));
    }
  }
  return mixin(MultipartUploadInterceptor);
}

/** The uploaded file of `field`, if the request carried one. */
export function uploadedFile(request: Request, field: string): UploadedFileData | undefined {
  const files = request.files;
  return files && !Array.isArray(files) ? files[field]?.[0] : undefined;
}

function tooLarge(field: UploadField): ApiError {
  return new ApiError(
    413,
    `The file "${field.name}" is too large (at most ${formatBytes(field.maxBytes)}).`,
    {
      [field.name]: {
        code: 'validation_file_size_limit',
        message: `The maximum allowed file size is ${field.maxBytes} bytes.`,
      },
    },
  );
}

function uploadError(error: unknown, fields: readonly UploadField[]): ApiError {
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE': {
        const field = fields.find((candidate) => candidate.name === error.field);
        return field ? tooLarge(field) : new ApiError(413, 'The request body is too large.');
      }
      case 'LIMIT_FIELD_VALUE':
        return new ApiError(413, 'The request body is too large.');
      case 'LIMIT_UNEXPECTED_FILE':
        return ApiError.badRequest('Failed to read the submitted data.', {
          [error.field ?? 'file']: {
            code: 'validation_unexpected_file',
            message: `Unexpected file part (accepted: ${fields.map((field) => field.name).join(', ')}; one each).`,
          },
        });
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_FIELD_KEY':
      case 'LIMIT_FIELD_COUNT':
      case 'MISSING_FIELD_NAME':
        return ApiError.badRequest('Failed to read the submitted data.');
    }
  }
  return ApiError.badRequest('Failed to read the submitted data.');
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${bytes} bytes`;
}
