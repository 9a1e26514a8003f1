import { HttpErrorResponse } from '@angular/common/http';
import { ApiErrorBody } from './api-types';

/** A failed API call, normalised to what the UI shows. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    /** Per-field problems, keyed by request field name. */
    readonly fields: Readonly<Record<string, { code: string; message: string }>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get fieldList(): { field: string; code: string; message: string }[] {
    return Object.entries(this.fields).map(([field, e]) => ({ field, code: e.code, message: e.message }));
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).message === 'string';
}

/** Turns a parsed body (or nothing) into an ApiError; the message is empty when the body has none. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) {
    const data = body.data && typeof body.data === 'object' ? body.data : {};
    const fields: Record<string, { code: string; message: string }> = {};
    for (const [key, value] of Object.entries(data)) {
      if (value && typeof value === 'object' && typeof value.message === 'string') {
        fields[key] = { code: String(value.code ?? ''), message: value.message };
      }
    }
    return new ApiError(status, body.message, fields);
  }
  return new ApiError(status, '');
}

async function parseBody(body: unknown): Promise<unknown> {
  if (body instanceof Blob) {
    body = await body.text();
  }
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return undefined;
    }
  }
  return body;
}

/**
 * Normalises anything thrown by an API call (HttpErrorResponse with a JSON, text or Blob body,
 * a fetch Response, a network failure) into an ApiError.
 */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpErrorResponse) {
    return apiErrorFromBody(error.status, await parseBody(error.error));
  }
  if (typeof Response !== 'undefined' && error instanceof Response) {
    let text: string | undefined;
    try {
      text = await error.text();
    } catch {
      text = undefined;
    }
    return apiErrorFromBody(error.status, await parseBody(text));
  }
  return new ApiError(0, '');
}
