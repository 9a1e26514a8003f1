import { Observable } from 'rxjs';
import type { MessageEvent } from '@nestjs/common';

/**
 * Reads a `text/event-stream` body and yields each event's `data` parsed as JSON. Comments (`:` lines) and other
 * fields are skipped; multi-line data is joined with newlines as the SSE format says.
 */
export async function* readSseJson<T>(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      if (signal?.aborted) {
        return;
      }
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer[newline] === '\r' ? 2 : 1));
        if (line === '') {
          if (data.length > 0) {
            yield JSON.parse(data.join('\n')) as T;
            data = [];
          }
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        }
      }
    }
    // A final event may end without the blank line.
    if (buffer.startsWith('data:')) {
      data.push(buffer.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) {
      yield JSON.parse(data.join('\n')) as T;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Wraps a JSON payload as a Nest SSE message (`data: <json>`). */
export function sseMessage(data: object, type?: string): MessageEvent {
  return type ? { data, type } : { data };
}

/** An observable that emits a comment-free heartbeat message every `periodMs`, to keep proxies from timing out. */
export function heartbeat(periodMs = 25_000): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    const timer = setInterval(() => subscriber.next({ data: { type: 'ping' }, type: 'ping' }), periodMs);
    timer.unref();
    return () => clearInterval(timer);
  });
}
