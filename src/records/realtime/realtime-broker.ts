import { randomInt } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Observable, Subscriber } from 'rxjs';
import type { AuthContext } from '../auth/auth-context';
import { RECORDS_CONFIG, RecordsConfig } from '../records.config';

/** An SSE message as Nest's @Sse() writes it (`event:` type, `id:`, `data:` JSON). */
export interface SseMessage {
  readonly type: string;
  readonly id: string;
  readonly data: unknown;
}

/** Query and headers a subscription carries in its `?options=` JSON (filter, expand, fields...). */
export interface SubscriptionOptions {
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
}

export interface RealtimeClient {
  readonly id: string;
  readonly ip: string;
  /** Subscription string exactly as submitted (events are named after it) → its topic and options. */
  readonly subscriptions: Map<string, { topic: string; options: SubscriptionOptions }>;
  auth: AuthContext | null;
  /** The auth record's token key when `auth` was set, to drop the auth when the key changes. */
  authTokenKey: string;
}

interface Connection {
  client: RealtimeClient;
  subscriber: Subscriber<SseMessage>;
  idleTimer?: NodeJS.Timeout;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function newClientId(): string {
  let id = '';
  for (let i = 0; i < 40; i++) {
    id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  }
  return id;
}

/** Splits `topic?options={...}` into the topic and its options (bad options are ignored, as PocketBase does). */
export function parseSubscription(subscription: string): { topic: string; options: SubscriptionOptions } {
  const mark = subscription.indexOf('?');
  const topic = mark >= 0 ? subscription.slice(0, mark) : subscription;
  const options: { query: Record<string, string>; headers: Record<string, string> } = {
    query: {},
    headers: {},
  };
  if (mark >= 0) {
    const raw = new URLSearchParams(subscription.slice(mark + 1)).get('options');
    if (raw) {
      try {
        const parsed = JSON.parse(raw) as { query?: unknown; headers?: unknown };
        for (const [target, source] of [
          [options.query, parsed.query],
          [options.headers, parsed.headers],
        ] as const) {
          if (source && typeof source === 'object') {
            for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
              if (value !== null && value !== undefined) {
                const name = target === options.headers ? key.toLowerCase().replace(/-/g, '_') : key;
                target[name] = typeof value === 'string' ? value : JSON.stringify(value);
              }
            }
          }
        }
      } catch {
        // malformed options: the topic still works, without them
      }
    }
  }
  return { topic, options };
}

/**
 * Realtime clients (one per open SSE connection) and their subscriptions. A client that receives nothing for
 * the idle timeout is disconnected (an EventSource reconnects by itself when it still cares).
 */
@Injectable()
export class RealtimeBroker implements OnModuleDestroy {
  private readonly logger = new Logger(RealtimeBroker.name);
  private readonly connections = new Map<string, Connection>();

  constructor(@Inject(RECORDS_CONFIG) private readonly config: RecordsConfig) {}

  /** Ends every stream at shutdown, so open SSE connections do not hold the HTTP server open. */
  onModuleDestroy(): void {
    for (const connection of [...this.connections.values()]) {
      connection.subscriber.complete();
    }
  }

  /** A new client's event stream: PB_CONNECT first, then its events; unsubscribing unregisters it. */
  connect(ip: string): Observable<SseMessage> {
    return new Observable<SseMessage>((subscriber) => {
      const client: RealtimeClient = {
        id: newClientId(),
        ip,
        subscriptions: new Map(),
        auth: null,
        authTokenKey: '',
      };
      const connection: Connection = { client, subscriber };
      this.connections.set(client.id, connection);
      this.deliver(connection, { type: 'PB_CONNECT', id: client.id, data: { clientId: client.id } });
      return () => {
        clearTimeout(connection.idleTimer);
        this.connections.delete(client.id);
      };
    });
  }

  client(id: string): RealtimeClient | undefined {
    return this.connections.get(id)?.client;
  }

  clients(): RealtimeClient[] {
    return [...this.connections.values()].map((connection) => connection.client);
  }

  /** Replaces a client's subscriptions. */
  setSubscriptions(client: RealtimeClient, subscriptions: readonly string[]): void {
    client.subscriptions.clear();
    for (const subscription of subscriptions) {
      if (subscription) {
        client.subscriptions.set(subscription, parseSubscription(subscription));
      }
    }
  }

  /** Sends an event named `name` to a client (dropped when it has gone). */
  send(clientId: string, name: string, data: unknown): void {
    const connection = this.connections.get(clientId);
    if (connection) {
      this.deliver(connection, { type: name, id: clientId, data });
    }
  }

  private deliver(connection: Connection, message: SseMessage): void {
    try {
      connection.subscriber.next(message);
    } catch (error) {
      this.logger.debug(`realtime delivery to ${connection.client.id} failed: ${String(error)}`);
    }
    clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => {
      this.logger.debug(`realtime client ${connection.client.id} idle: disconnecting`);
      connection.subscriber.complete();
    }, this.config.realtimeIdleTimeoutMs);
    connection.idleTimer.unref();
  }
}
