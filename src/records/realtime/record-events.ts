import { Injectable, Logger } from '@nestjs/common';
import { AuthService } from '../auth/auth.service';
import { CollectionRegistry } from '../collections/collection-registry';
import type { RecordData, ResolvedCollection } from '../collections/collection.types';
import { dataFromEntity } from '../record-codec';
import { RecordEnricher } from '../record-enricher';
import { RequestInfo, RuleEngine } from '../rules';
import { RealtimeBroker, RealtimeClient } from './realtime-broker';

export type RecordAction = 'create' | 'update' | 'delete';

/** The payload of a realtime record event. */
export interface RecordEventPayload {
  action: RecordAction;
  record: Record<string, unknown>;
}

/**
 * Realtime record events. Call `publish()` AFTER the write has committed: each subscriber of `<collection>/*`
 * (list rule) or `<collection>/<id>` (view rule) receives `{action, record}` only when the rule, checked with the
 * subscriber's own auth on the record's values, lets them see it. Events are dispatched one at a time, in the
 * order they were published.
 */
@Injectable()
export class RecordEvents {
  private readonly logger = new Logger(RecordEvents.name);
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: CollectionRegistry,
    private readonly broker: RealtimeBroker,
    private readonly rules: RuleEngine,
    private readonly enricher: RecordEnricher,
    private readonly auth: AuthService,
  ) {}

  /**
   * Announces a committed change of a record. `record` is the record's data by field name (a TypeORM entity of
   * the collection works as is). Never rejects: delivery problems are logged.
   */
  publish(collection: string, action: RecordAction, record: object): Promise<void> {
    const resolved = this.registry.find(collection);
    if (!resolved) {
      this.logger.warn(`publish: unknown collection "${collection}"`);
      return Promise.resolve();
    }
    const data = dataFromEntity(resolved, record as Record<string, unknown>);
    const run = this.queue.then(() => this.dispatch(resolved, action, data));
    this.queue = run.catch((error: unknown) => {
      this.logger.error(`realtime dispatch failed for ${resolved.name}/${String(data.id)}: ${String(error)}`);
    });
    return this.queue;
  }

  private async dispatch(
    collection: ResolvedCollection,
    action: RecordAction,
    data: RecordData,
  ): Promise<void> {
    if (collection.type === 'auth') {
      this.updateClientsAuth(collection, action, data);
    }
    const id = String(data.id);
    const viewTopics = new Set([`${collection.name}/${id}`, `${collection.id}/${id}`]);
    const listTopics = new Set([
      `${collection.name}/*`,
      `${collection.id}/*`,
      collection.name,
      collection.id,
    ]);
    for (const client of this.broker.clients()) {
      for (const [subscription, { topic, options }] of client.subscriptions) {
        const rule = viewTopics.has(topic)
          ? collection.rules.view
          : listTopics.has(topic)
            ? collection.rules.list
            : undefined;
        if (rule === undefined) {
          continue;
        }
        await this.deliver(client, subscription, collection, action, data, rule, options);
      }
    }
  }

  private async deliver(
    client: RealtimeClient,
    subscription: string,
    collection: ResolvedCollection,
    action: RecordAction,
    data: RecordData,
    rule: string | null,
    options: { query: Record<string, string>; headers: Record<string, string> },
  ): Promise<void> {
    const info: RequestInfo = {
      auth: client.auth,
      query: options.query,
      headers: options.headers,
      method: 'GET',
      context: 'realtime',
    };
    try {
      if (!(await this.rules.canAccessData(collection, data, rule, info, options.query.filter))) {
        return;
      }
      const [record] = await this.enricher.enrich(collection, [data], info, {
        expand: options.query.expand,
        fields: options.query.fields,
      });
      const payload: RecordEventPayload = { action, record };
      this.broker.send(client.id, subscription, payload);
    } catch (error) {
      this.logger.debug(`realtime event for ${client.id} skipped: ${String(error)}`);
    }
  }

  /** Keeps realtime clients' auth in step with their auth record: dropped on delete or token key change. */
  private updateClientsAuth(collection: ResolvedCollection, action: RecordAction, data: RecordData): void {
    for (const client of this.broker.clients()) {
      if (client.auth?.collection !== collection.name || client.auth.record.id !== data.id) {
        continue;
      }
      if (action === 'delete' || (client.authTokenKey !== '' && client.authTokenKey !== data.tokenKey)) {
        client.auth = null;
        client.authTokenKey = '';
      } else {
        client.auth = this.auth.contextFor(collection, data, client.auth.method);
      }
    }
  }
}
