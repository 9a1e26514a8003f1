import { Injectable, inject } from '@angular/core';
import { Router } from '@angular/router';
import { ApiConfiguration, generateSpeech$Pcm } from '../api';
import { apiErrorFromBody, toApiError } from './api-error';
import { GenerateSpeechRequest } from './api-types';
import { goToSignIn } from './auth.interceptor';
import { SessionService } from './session.service';

/** Sample rate assumed when the server does not send X-Sample-Rate. */
export const DEFAULT_PCM_SAMPLE_RATE = 24_000;

export interface PcmStream {
  /** Samples per second, from the X-Sample-Rate response header. */
  sampleRate: number;
  /** Raw audio/pcm: signed 16-bit little-endian, mono. */
  body: ReadableStream<Uint8Array>;
}

/**
 * Streaming speech generation (POST /api/generate with stream: true).
 *
 * THE SINGLE EXCEPTION to "talk to the API only through the generated client": Angular's HttpClient
 * buffers whole responses and cannot hand out a ReadableStream, so this one call uses fetch().
 * It still takes its path, root URL and request type from the generated client, so a spec change
 * that renames or retypes the operation breaks the build here rather than at run time.
 */
@Injectable({ providedIn: 'root' })
export class SpeechStreamApi {
  private readonly config = inject(ApiConfiguration);
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);

  async open(request: GenerateSpeechRequest, signal?: AbortSignal): Promise<PcmStream> {
    const body: GenerateSpeechRequest = { ...request, stream: true };
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'audio/pcm' };
    const token = this.session.token();
    if (token) headers['Authorization'] = `Bearer ${token}`;
    let response: Response;
    try {
      response = await fetch(this.config.rootUrl + generateSpeech$Pcm.PATH, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw await toApiError(e);
    }
    if (response.status === 401 && token) {
      this.session.expire();
      goToSignIn(this.router);
    }
    if (!response.ok) throw await toApiError(response);
    if (!response.body) throw apiErrorFromBody(response.status, undefined);
    const rate = Number(response.headers.get('X-Sample-Rate'));
    return {
      sampleRate: Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_PCM_SAMPLE_RATE,
      body: response.body,
    };
  }
}
