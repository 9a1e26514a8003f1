import type { HttpAdapterHost } from '@nestjs/core';
import { EventEmitter } from 'node:events';

import { loadWorkerConfig, type Environment } from '../config/worker-config';
import type { RegisterWorkerRequest } from '../contract/worker-api';
import type { RegistrationAnswer } from './registration.client';
import { DEFAULT_REGISTRATION_OPTIONS } from './registration.options';
import { RegistrationService } from './registration.service';
import { firstNonLoopbackIPv4, registrationUrl } from './registration-target';

const ENV: Environment = {
  SERVICE_URL: 'http://main.test',
  SERVICE_REGISTRATION_TOKEN: 'reg-secret',
  INFERENCE_AUTH_TOKEN: 'auth-secret',
  INFERENCE_PUBLIC_URL: 'http://worker.test:8000',
  INFERENCE_NAME: 'gpu-box',
};

class FakeServer extends EventEmitter {
  listening = false;
  address() {
    return { address: '0.0.0.0', family: 'IPv4', port: 4321 };
  }
}

class FakeClient {
  readonly calls: { serviceUrl: string; token: string; body: RegisterWorkerRequest }[] = [];
  constructor(private readonly answers: (RegistrationAnswer | Error)[]) {}

  register(serviceUrl: string, token: string, body: RegisterWorkerRequest): Promise<RegistrationAnswer> {
    this.calls.push({ serviceUrl, token, body });
    const answer = this.answers.shift() ?? { ok: true, status: 200 };
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }
}

function setup(env: Environment, answers: (RegistrationAnswer | Error)[]) {
  const server = new FakeServer();
  const client = new FakeClient(answers);
  const service = new RegistrationService(
    loadWorkerConfig(env, { hostname: 'host-1' }),
    { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost,
    client,
    { ...DEFAULT_REGISTRATION_OPTIONS, attempts: 3, backoffMs: 1, maxBackoffMs: 2 },
  );
  return { server, client, service };
}

async function settle(service: RegistrationService) {
  for (let i = 0; i < 100 && service.state().status === 'pending'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('RegistrationService', () => {
  it('is disabled without SERVICE_URL and token', () => {
    const { service, client } = setup({}, []);
    service.onApplicationBootstrap();
    expect(service.state()).toEqual({ status: 'disabled', attempts: 0 });
    expect(client.calls).toEqual([]);
  });

  it('waits for the server to listen, then registers once', async () => {
    const { service, client, server } = setup(ENV, []);
    service.onApplicationBootstrap();
    expect(service.state()).toEqual({ status: 'pending', attempts: 0, serviceUrl: 'http://main.test' });
    expect(client.calls).toEqual([]);
    server.listening = true;
    server.emit('listening');
    await settle(service);
    expect(client.calls).toEqual([
      {
        serviceUrl: 'http://main.test',
        token: 'reg-secret',
        body: { name: 'gpu-box', url: 'http://worker.test:8000', authToken: 'auth-secret' },
      },
    ]);
    expect(service.state()).toEqual({
      status: 'registered',
      attempts: 1,
      serviceUrl: 'http://main.test',
      publicUrl: 'http://worker.test:8000',
      at: expect.any(String),
    });
  });

  it('retries network failures and 5xx, then gives up and says why', async () => {
    const { service, client, server } = setup(ENV, [
      new TypeError('fetch failed'),
      { ok: false, status: 502, message: 'bad gateway' },
      { ok: false, status: 503, message: 'reg-secret is not logged' },
    ]);
    server.listening = true;
    service.onApplicationBootstrap();
    await settle(service);
    expect(client.calls).toHaveLength(3);
    expect(service.state()).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'HTTP 503: *** is not logged',
    });
  });

  it('stops at a 4xx (an expired registration token)', async () => {
    const { service, client, server } = setup(ENV, [{ ok: false, status: 401, message: 'token expired' }]);
    server.listening = true;
    service.onApplicationBootstrap();
    await settle(service);
    expect(client.calls).toHaveLength(1);
    expect(service.state()).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'HTTP 401: token expired',
    });
  });

  it('sends a null authToken for an open worker and derives the URL from the port', async () => {
    const { service, client, server } = setup(
      { SERVICE_URL: 'http://main.test', SERVICE_REGISTRATION_TOKEN: 'reg' },
      [],
    );
    server.listening = true;
    service.onApplicationBootstrap();
    await settle(service);
    expect(client.calls[0].body.authToken).toBeNull();
    expect(client.calls[0].body.name).toBe('host-1');
    expect(client.calls[0].body.url).toMatch(/^http:\/\/[^/]+:4321$/);
  });
});

describe('registrationUrl', () => {
  const interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
    eth0: [
      { address: 'fe80::1', family: 'IPv6', internal: false },
      { address: '10.1.2.3', family: 'IPv4', internal: false },
    ],
  } as never;
  const registration = (publicUrl?: string, serverUrl?: string) =>
    ({ serviceUrl: undefined, token: undefined, name: 'x', publicUrl, serverUrl }) as const;

  it('prefers INFERENCE_PUBLIC_URL, then SERVER_URL, then the first address and the port', () => {
    expect(registrationUrl(registration('https://pub', 'http://srv'), 8000, 'h', interfaces)).toBe(
      'https://pub',
    );
    expect(registrationUrl(registration(undefined, 'http://srv'), 8000, 'h', interfaces)).toBe('http://srv');
    expect(registrationUrl(registration(), 8000, 'h', interfaces)).toBe('http://10.1.2.3:8000');
    expect(registrationUrl(registration(), 8000, 'host-1', { lo: [] })).toBe('http://host-1:8000');
  });

  it('skips loopback and IPv6 addresses', () => {
    expect(firstNonLoopbackIPv4(interfaces)).toBe('10.1.2.3');
    expect(
      firstNonLoopbackIPv4({ lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }] } as never),
    ).toBeUndefined();
  });
});
