import { Injectable } from '@nestjs/common';
import type {
  BackendInfo,
  DeleteModelResponse,
  GenerateRequest,
  InstalledModel,
  PullRequest,
  TranscribeRequest,
  TranscribeResult,
  WorkerHealth,
} from '../../worker/contract/worker-api';

/** What the client needs to reach one worker. */
export interface WorkerTarget {
  url: string;
  authToken: string;
}

/** An audio upload to transcribe on a worker. */
export interface TranscribeUpload {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  backend: string;
  /** `<backend>/<variant>`, or null for embedded engines. */
  modelPath: string | null;
  language?: string;
}

export class WorkerCallError extends Error {
  constructor(
    message: string,
    /** HTTP status of the worker's answer, or 0 when it could not be reached. */
    readonly status: number,
    /** The worker's own error message, when it answered in the error shape. */
    readonly workerMessage?: string,
  ) {
    super(message);
  }
}

/** The one HTTP client for inference workers: every call carries the worker's bearer token when it has one. */
@Injectable()
export class WorkerClient {
  async health(target: WorkerTarget, timeoutMs: number): Promise<WorkerHealth> {
    const response = await this.call(target, '/health', {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return (await response.json()) as WorkerHealth;
  }

  async listModels(target: WorkerTarget, timeoutMs: number): Promise<InstalledModel[]> {
    const response = await this.call(target, '/models', {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return (await response.json()) as InstalledModel[];
  }

  async listBackends(target: WorkerTarget, timeoutMs: number): Promise<BackendInfo[]> {
    const response = await this.call(target, '/backends', {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return (await response.json()) as BackendInfo[];
  }

  /** Starts a pull; the answer is the worker's SSE progress stream. Aborting `signal` cancels the download. */
  pull(target: WorkerTarget, request: PullRequest, signal: AbortSignal): Promise<Response> {
    return this.call(target, '/models/pull', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(request),
      signal,
    });
  }

  async deleteModel(
    target: WorkerTarget,
    backend: string,
    variant: string,
    timeoutMs: number,
  ): Promise<DeleteModelResponse> {
    const path = `/models/${encodeURIComponent(backend)}/${encodeURIComponent(variant)}`;
    const response = await this.call(target, path, {
      method: 'DELETE',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return (await response.json()) as DeleteModelResponse;
  }

  /** Speech recognition: forwards an upload as `POST /transcribe` (multipart `file`, optional backend/model/language). */
  async transcribe(
    target: WorkerTarget,
    upload: TranscribeUpload,
    signal: AbortSignal,
  ): Promise<TranscribeResult> {
    const fields: TranscribeRequest = {
      backend: upload.backend,
      model_path: upload.modelPath,
      language: upload.language ?? null,
    };
    const form = new FormData();
    form.set('file', new Blob([upload.bytes], { type: upload.contentType }), upload.fileName);
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string' && value !== '') {
        form.set(name, value);
      }
    }
    const response = await this.call(target, '/transcribe', { method: 'POST', body: form, signal });
    return (await response.json()) as TranscribeResult;
  }

  /**
   * Starts a generation and resolves once the worker has answered with a success status, so the caller can still
   * retry elsewhere; the body is then streamed by the caller.
   */
  generate(
    target: WorkerTarget,
    request: GenerateRequest,
    stream: boolean,
    signal: AbortSignal,
  ): Promise<Response> {
    return this.call(target, stream ? '/generate/stream' : '/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
  }

  private async call(target: WorkerTarget, path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (target.authToken) {
      headers.set('authorization', `Bearer ${target.authToken}`);
    }
    let response: Response;
    try {
      response = await fetch(new URL(path, ensureSlash(target.url)), { ...init, headers });
    } catch (error) {
      throw new WorkerCallError(`worker ${target.url} unreachable: ${describeFetchError(error)}`, 0);
    }
    if (!response.ok) {
      const workerMessage = await readErrorMessage(response);
      throw new WorkerCallError(
        `worker ${target.url}${path} answered ${response.status}${workerMessage ? `: ${workerMessage}` : ''}`,
        response.status,
        workerMessage,
      );
    }
    return response;
  }
}

function ensureSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') {
      return error.name === 'TimeoutError' ? 'timed out' : 'aborted';
    }
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

async function readErrorMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message.slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}
