import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import type { RegisterWorkerRequest, RegistrationState } from '../contract/worker-api';
import { RegistrationClient } from './registration.client';
import { REGISTRATION_OPTIONS, type RegistrationOptions } from './registration.options';
import { registrationUrl } from './registration-target';

/**
 * Self-registration (SPEC §1): once the HTTP server listens, and when SERVICE_URL and SERVICE_REGISTRATION_TOKEN
 * are set, the worker calls `POST {SERVICE_URL}/api/inference-servers/register` with `{name, url, authToken}`.
 * Best effort: network failures and 5xx are retried a few times with a growing wait, a 4xx (an expired token, a
 * refused request) ends it at once, and the worker keeps serving whatever happens. The outcome is in
 * `/health.registration`. Tokens are never logged nor put in the state.
 */
@Injectable()
export class RegistrationService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RegistrationService.name);
  private readonly lifetime = new AbortController();
  private current: RegistrationState;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly client: RegistrationClient,
    @Inject(REGISTRATION_OPTIONS) private readonly options: RegistrationOptions,
  ) {
    const { serviceUrl, token } = config.registration;
    this.current =
      serviceUrl && token
        ? { status: 'pending', attempts: 0, serviceUrl }
        : { status: 'disabled', attempts: 0 };
  }

  /** The registration state for `/health` (a copy). */
  state(): RegistrationState {
    return { ...this.current };
  }

  /** Waits for the server to listen (the port may be 0 = any), then registers in the background. */
  onApplicationBootstrap(): void {
    if (this.current.status === 'disabled') {
      return;
    }
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) {
      return;
    }
    const start = () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : this.config.server.port;
      this.running ??= this.register(port);
    };
    if (server.listening) {
      start();
    } else {
      server.once('listening', start);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.lifetime.abort();
    await this.running;
  }

  /** Never rejects. */
  private async register(port: number): Promise<void> {
    const { serviceUrl, token, name } = this.config.registration;
    if (!serviceUrl || !token) {
      return;
    }
    const body: RegisterWorkerRequest = {
      name,
      url: registrationUrl(this.config.registration, port, hostname()),
      authToken: this.config.auth.token ?? null,
    };
    this.current = { ...this.current, publicUrl: body.url };
    const signal = this.lifetime.signal;
    for (let attempt = 1; attempt <= this.options.attempts && !signal.aborted; attempt++) {
      let retry: boolean;
      let error: string;
      try {
        const answer = await this.client.register(
          serviceUrl,
          token,
          body,
          AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
        );
        if (answer.ok) {
          this.update({ status: 'registered', attempts: attempt });
          this.logger.log(
            { serviceUrl, publicUrl: body.url, name, attempts: attempt },
            `Registered with the main service as "${name}" (${body.url})`,
          );
          return;
        }
        error = this.redact(`HTTP ${answer.status}${answer.message ? `: ${answer.message}` : ''}`);
        // A 4xx will not change by asking again (an expired registration token stays expired).
        retry = answer.status >= 500 || answer.status === 408 || answer.status === 429;
      } catch (caught) {
        if (signal.aborted) {
          return;
        }
        error = this.redact(describe(caught));
        retry = true;
      }
      const last = !retry || attempt >= this.options.attempts;
      this.update({ status: last ? 'failed' : 'pending', attempts: attempt, error });
      if (last) {
        this.logger.error(
          { serviceUrl, attempts: attempt },
          `Registration with the main service failed (${error}); the worker keeps running unregistered`,
        );
        return;
      }
      const wait = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
      this.logger.warn(
        { serviceUrl, attempt, waitMs: wait },
        `Registration with the main service failed (${error}); retrying in ${wait} ms`,
      );
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        return;
      }
    }
  }

  private update(change: Pick<RegistrationState, 'status' | 'attempts'> & { error?: string }): void {
    const { error: _previous, ...rest } = this.current;
    this.current = {
      ...rest,
      ...change,
      at: new Date().toISOString(),
    };
  }

  /** No token ever reaches the state or the log, even if an error message were to echo one. */
  private redact(message: string): string {
    let out = message;
    for (const secret of [this.config.registration.token, this.config.auth.token]) {
      if (secret) {
        out = out.split(secret).join('***');
      }
    }
    return out;
  }
}

/** Duck-typed: errors of `fetch` may come from another realm (a test VM), where `instanceof Error` fails. */
function describe(error: unknown): string {
  if (!error || typeof error !== 'object') {
    return String(error);
  }
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError') {
    return 'the main service did not answer in time';
  }
  const causeCode =
    cause && typeof cause === 'object'
      ? ((cause as { code?: unknown }).code ?? (cause as { message?: unknown }).message)
      : undefined;
  const text = typeof message === 'string' && message ? message : typeof name === 'string' ? name : 'error';
  return typeof causeCode === 'string' && causeCode ? `${text} (${causeCode})` : text;
}
