import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { AppModule } from '../app.module';
import { configureApp } from '../app.setup';
import { TTS_BACKENDS } from '../backends/backend.interface';
import { loadWorkerConfig } from '../config/worker-config';
import type { RegistrationState, WorkerHealth } from '../contract/worker-api';
import { FakeTtsBackend } from '../testing/fake-tts-backend';
import { REGISTRATION_OPTIONS } from './registration.options';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** A stand-in for the main service's register route, answering with the given statuses in turn. */
async function fakeMainService(statuses: number[]) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: JSON.parse(body) as unknown,
      });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(status < 300 ? { id: 'srv1' } : { status, message: `answer ${status}`, data: {} }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function startWorker(env: Record<string, string>) {
  const config = loadWorkerConfig({ LOG_LEVEL: 'silent', ...env }, { hostname: 'test-host' });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config, { version: '9.9.9' })],
  })
    .overrideProvider(TTS_BACKENDS)
    .useValue([new FakeTtsBackend('fakeembedded', true)])
    .overrideProvider(REGISTRATION_OPTIONS)
    .useValue({ attempts: 3, backoffMs: 20, maxBackoffMs: 40, timeoutMs: 2_000 })
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app, { version: '9.9.9' });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, base, port: (app.getHttpServer().address() as AddressInfo).port };
}

async function registrationOf(base: string, until: (state: RegistrationState) => boolean) {
  for (let i = 0; i < 200; i++) {
    const health = (await (await fetch(`${base}/health`)).json()) as WorkerHealth;
    if (until(health.registration)) {
      return health.registration;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('registration did not settle');
}

describe('worker self-registration', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) {
      await close();
    }
  });

  it('registers after a 500, with the registration token as bearer and {name, url, authToken}', async () => {
    const main = await fakeMainService([500, 200]);
    cleanup.push(main.close);
    const { app, base } = await startWorker({
      SERVICE_URL: main.url,
      SERVICE_REGISTRATION_TOKEN: 'reg-token-1',
      INFERENCE_AUTH_TOKEN: 'worker-token',
      INFERENCE_PUBLIC_URL: 'http://worker.example:8000',
      INFERENCE_NAME: 'gpu-box',
    });
    cleanup.push(() => app.close());
    const state = await registrationOf(base, (s) => s.status !== 'pending');
    expect(state).toEqual({
      status: 'registered',
      attempts: 2,
      serviceUrl: main.url,
      publicUrl: 'http://worker.example:8000',
      at: expect.any(String),
    });
    expect(main.seen).toHaveLength(2);
    expect(main.seen[1]).toEqual({
      method: 'POST',
      url: '/api/inference-servers/register',
      authorization: 'Bearer reg-token-1',
      contentType: 'application/json',
      body: { name: 'gpu-box', url: 'http://worker.example:8000', authToken: 'worker-token' },
    });
  });

  it('gives up at once on a 401 and keeps serving', async () => {
    const main = await fakeMainService([401]);
    cleanup.push(main.close);
    const { app, base, port } = await startWorker({
      SERVICE_URL: main.url,
      SERVICE_REGISTRATION_TOKEN: 'expired-token',
    });
    cleanup.push(() => app.close());
    const state = await registrationOf(base, (s) => s.status !== 'pending');
    expect(state).toMatchObject({ status: 'failed', attempts: 1, error: 'HTTP 401: answer 401' });
    expect(JSON.stringify(state)).not.toContain('expired-token');
    expect(main.seen).toHaveLength(1);
    expect(main.seen[0].body).toEqual({
      name: 'test-host',
      url: expect.stringMatching(new RegExp(`:${port}$`)),
      authToken: null,
    });
    expect((await fetch(`${base}/backends`)).status).toBe(200);
  });

  it('retries an unreachable main service a bounded number of times', async () => {
    const main = await fakeMainService([]);
    await main.close(); // nothing listens there any more
    const { app, base } = await startWorker({ SERVICE_URL: main.url, SERVICE_REGISTRATION_TOKEN: 'reg' });
    cleanup.push(() => app.close());
    const state = await registrationOf(base, (s) => s.status === 'failed');
    expect(state).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
