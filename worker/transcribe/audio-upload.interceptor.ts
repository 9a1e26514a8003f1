import {
  HttpStatus,
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';

import { ApiError } from '../common/api-error';
import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';

/** Multipart field names accepted for the audio (`file` is the contract's; `audio` is accepted too). */
export const AUDIO_FIELDS = ['file', 'audio'] as const;

/** The uploaded audio of a request that went through {@link AudioUploadInterceptor}, if any. */
export function uploadedAudio(request: Request): Express.Multer.File | undefined {
  const files = request.files as Partial<Record<string, Express.Multer.File[]>> | undefined;
  return AUDIO_FIELDS.map((field) => files?.[field]?.[0]).find((file) => file !== undefined);
}

/**
 * Reads a multipart/form-data upload into memory with multer, bounded by INFERENCE_MAX_UPLOAD_MB (larger →
 * 413 as soon as the limit is crossed, without buffering the rest), one audio part, a few small text fields.
 * Multer errors become the worker's error shape with a message that says what to change.
 */
@Injectable()
export class AudioUploadInterceptor implements NestInterceptor {
  private readonly upload: RequestHandler;
  private readonly maxBytes: number;

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.maxBytes = config.transcription.maxUploadBytes;
    this.upload = multer({
      storage: multer.memoryStorage(),
      limits: {
        fileSize: this.maxBytes,
        files: 1,
        fields: 8,
        fieldSize: 16 * 1024,
        parts: 10,
        headerPairs: 100,
      },
    }).fields(AUDIO_FIELDS.map((name) => ({ name, maxCount: 1 })));
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    await new Promise<void>((resolve, reject) => {
      this.upload(request, response, (error: unknown) =>
        error ? reject(this.toApiError(error)) : resolve(),
      );
    });
    return next.handle();
  }

  private toApiError(error: unknown): Error {
    if (error instanceof multer.MulterError) {
      switch (error.code) {
        case 'LIMIT_FILE_SIZE': {
          const message = `The audio file is larger than the ${formatBytes(this.maxBytes)} limit (INFERENCE_MAX_UPLOAD_MB).`;
          return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, message, {
            file: { code: 'file_too_large', message },
          });
        }
        case 'LIMIT_FILE_COUNT':
        case 'LIMIT_UNEXPECTED_FILE': {
          const other =
            error.field && !(AUDIO_FIELDS as readonly string[]).includes(error.field)
              ? `; "${error.field}" is not one`
              : '';
          const message = `Send exactly one audio file, in the form field "file" (or "audio")${other}.`;
          return ApiError.invalidField(error.field || 'file', 'unexpected_file', message);
        }
        case 'LIMIT_FIELD_COUNT':
        case 'LIMIT_FIELD_KEY':
        case 'LIMIT_FIELD_VALUE':
        case 'LIMIT_PART_COUNT':
        case 'MISSING_FIELD_NAME':
          return ApiError.badRequest(`The multipart form is not acceptable: ${error.message.toLowerCase()}.`);
      }
    }
    if (error instanceof ApiError) {
      return error;
    }
    // busboy: a malformed multipart body ("Unexpected end of form", "Malformed part header", ...).
    return ApiError.badRequest(
      `The multipart form could not be read: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${Math.round(mb * 10) / 10} MB`;
}
