import { Logger } from '@nestjs/common';
import { loadRecordsConfig } from '../records.config';
import { RealtimeBroker, SseMessage, parseSubscription } from './realtime-broker';

describe('RealtimeBroker', () => {
  afterEach(() => jest.useRealTimers());

  it('parses topics and their ?options= (query, headers)', () => {
    const options = encodeURIComponent(
      JSON.stringify({ query: { filter: 'a = 1', expand: 'user' }, headers: { 'X-Token': 'abc' } }),
    );
    expect(parseSubscription(`users/*?options=${options}`)).toEqual({
      topic: 'users/*',
      options: { query: { filter: 'a = 1', expand: 'user' }, headers: { x_token: 'abc' } },
    });
    expect(parseSubscription('users/abc')).toEqual({
      topic: 'users/abc',
      options: { query: {}, headers: {} },
    });
    expect(parseSubscription('users/*?options=%7Bbroken')).toEqual({
      topic: 'users/*',
      options: { query: {}, headers: {} },
    });
  });

  it('greets with PB_CONNECT, delivers named events, forgets the client on unsubscribe', () => {
    const broker = new RealtimeBroker(loadRecordsConfig({}));
    const received: SseMessage[] = [];
    const subscription = broker.connect('127.0.0.1').subscribe((message) => received.push(message));
    const [hello] = received;
    expect(hello.type).toBe('PB_CONNECT');
    expect(hello.id).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(hello.data).toEqual({ clientId: hello.id });
    const client = broker.client(hello.id)!;
    broker.setSubscriptions(client, ['users/*', '', 'users/abc?options=%7B%7D']);
    expect([...client.subscriptions.keys()]).toEqual(['users/*', 'users/abc?options=%7B%7D']);
    broker.send(hello.id, 'users/*', { action: 'create', record: { id: 'x' } });
    expect(received[1]).toEqual({
      type: 'users/*',
      id: hello.id,
      data: { action: 'create', record: { id: 'x' } },
    });
    subscription.unsubscribe();
    expect(broker.client(hello.id)).toBeUndefined();
    expect(broker.clients()).toHaveLength(0);
  });

  it('closes a client idle for the configured time, and only then', () => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const broker = new RealtimeBroker(loadRecordsConfig({ REALTIME_IDLE_TIMEOUT_MS: '1000' }));
    let completed = false;
    let id = '';
    broker.connect('ip').subscribe({
      next: (message) => (id ||= message.id),
      complete: () => (completed = true),
    });
    jest.advanceTimersByTime(900);
    broker.send(id, 'users/*', {}); // activity restarts the idle clock
    jest.advanceTimersByTime(900);
    expect(completed).toBe(false);
    jest.advanceTimersByTime(200);
    expect(completed).toBe(true);
    expect(broker.client(id)).toBeUndefined();
  });
});
