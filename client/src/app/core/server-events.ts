import { Injectable, inject } from '@angular/core';
import { Observable } from 'rxjs';
import { ApiConfiguration } from '../api';
import { SessionService } from './session.service';

const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export interface ServerEventsOptions {
  /** Called each time the stream is (re)connected; SSE endpoints send a fresh snapshot then. */
  onOpen?: () => void;
  /** Called when the connection is lost (it is retried). */
  onDrop?: () => void;
}

/**
 * Server-Sent Events from the API (`GET /api/jobs/stream`, `GET /api/models/events`) through the browser's
 * EventSource. EventSource cannot send headers, so the session token goes as `?token=` (these routes accept it).
 * Each `data` is parsed as JSON; heartbeats (`{type: 'ping'}`) are skipped. A dropped or refused connection is
 * retried with back-off and the current token, as long as someone is subscribed and the user is signed in.
 */
@Injectable({ providedIn: 'root' })
export class ServerEvents {
  private readonly config = inject(ApiConfiguration);
  private readonly session = inject(SessionService);

  /** Events of the SSE endpoint at `path` (a generated operation's PATH), as parsed JSON. */
  stream<T>(path: string, options: ServerEventsOptions = {}): Observable<T> {
    return new Observable<T>((subscriber) => {
      let source: EventSource | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let delay = RETRY_MIN_MS;
      let closed = false;

      const connect = () => {
        const token = this.session.token();
        if (!token) {
          subscriber.complete();
          return;
        }
        const url = `${this.config.rootUrl}${path}?token=${encodeURIComponent(token)}`;
        const es = new EventSource(url);
        source = es;
        es.onopen = () => {
          delay = RETRY_MIN_MS;
          options.onOpen?.();
        };
        es.onmessage = (event: MessageEvent<string>) => {
          let data: unknown;
          try {
            data = JSON.parse(event.data);
          } catch {
            return;
          }
          if (data && typeof data === 'object' && (data as { type?: unknown }).type === 'ping')
            return;
          subscriber.next(data as T);
        };
        es.onerror = () => {
          // CONNECTING: the browser retries by itself. CLOSED: refused (e.g. 401/403) — retry ourselves with
          // the current token, later.
          options.onDrop?.();
          if (es.readyState === EventSource.CLOSED && !closed) {
            es.close();
            timer = setTimeout(connect, delay);
            delay = Math.min(RETRY_MAX_MS, delay * 2);
          }
        };
      };

      connect();
      return () => {
        closed = true;
        clearTimeout(timer);
        source?.close();
      };
    });
  }
}
