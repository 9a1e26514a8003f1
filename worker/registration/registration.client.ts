import { Injectable } from '@nestjs/common';

import { REGISTER_WORKER_PATH, type RegisterWorkerRequest } from '../contract/worker-api';

export type RegistrationAnswer =
  { ok: true; status: number } | { ok: false; status: number; message: string };

/** The adapter for the one call the worker makes to the main service. */
@Injectable()
export class RegistrationClient {
  /**
   * `POST {serviceUrl}/api/inference-servers/register` with the registration token as bearer.
   *
   * @throws on network failures and timeouts (the signal's reason).
   */
  async register(
    serviceUrl: string,
    registrationToken: string,
    body: RegisterWorkerRequest,
    signal: AbortSignal,
  ): Promise<RegistrationAnswer> {
    const response = await fetch(`${serviceUrl}${REGISTER_WORKER_PATH}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${registrationToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(body),
      signal,
      // Never re-send the body (it carries the worker's auth token) to wherever a redirect points.
      redirect: 'manual',
    });
    const text = await response.text().catch(() => '');
    if (response.ok) {
      return { ok: true, status: response.status };
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400) {
      return {
        ok: false,
        status: response.status,
        message: `SERVICE_URL redirects${location ? ` to ${location.slice(0, 200)}` : ''}; set SERVICE_URL to the final URL`,
      };
    }
    return { ok: false, status: response.status, message: errorMessage(text) };
  }
}

/** The `message` of a JSON error body (the main service's `{status, message, data}`), else the text's start. */
function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') {
      return parsed.message.slice(0, 300);
    }
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300);
}
