import { join } from 'node:path';
import { readSseJson } from '../../src/common/sse';
import { TestAccount, call, signUp } from '../support/accounts';
import { HubMirror } from '../support/hub-mirror';
import {
  REPO_ROOT,
  ServiceProcess,
  Stack,
  startWorker,
  freePort,
  startStack,
  tempDir,
  waitFor,
} from '../support/processes';
import { recogniseWithPocketSphinx, wordOverlap } from '../support/recognizer';
import { parseWav, rms } from '../support/wav';

const JOE = 'piper-en-us-joe-medium';
const TEXT =
  'The quick brown fox jumps over the lazy dog. Seven bright stars shine over the quiet river tonight.';

interface JobEvent {
  type: 'snapshot' | 'job';
  jobs?: Job[];
  job?: Job;
}
interface Job {
  id: string;
  serverId: string;
  status: string;
  progress: number;
  error?: string;
}

/**
 * Issue 4 + 5 acceptance: a real main service, a Local worker and a second worker that registers itself with a
 * bearer token, the real Piper voice served by the local hub mirror, pulled through the API to both workers.
 */
describe('Piper across a fleet of two workers', () => {
  let hub: HubMirror;
  let stack: Stack;
  let second: ServiceProcess;
  let admin: TestAccount;
  let user: TestAccount;
  const secondToken = 'second-worker-secret-0123456789';

  beforeAll(async () => {
    hub = await HubMirror.start({ root: join(REPO_ROOT, 'test', '.fixtures', 'hub') });
    stack = await startStack({ apiEnv: { HF_ENDPOINT: hub.url } });
    admin = await signUp(stack.api.url, 'admin');
    user = await signUp(stack.api.url, 'user');
    const token = (
      await call(stack.api.url, 'POST', '/api/inference-servers/registration-tokens', { account: admin })
    ).body as { token: string };
    const port = await freePort();
    second = await startWorker(
      tempDir('second'),
      {
        PORT: String(port),
        INFERENCE_AUTH_TOKEN: secondToken,
        SERVICE_URL: stack.api.url,
        SERVICE_REGISTRATION_TOKEN: token.token,
        INFERENCE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        INFERENCE_NAME: 'second',
      },
      'second-worker',
    );
  });

  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
    await hub?.stop();
  });

  const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(stack.api.url, method, path, options);

  it('the second worker registered itself and is online with its device', async () => {
    const servers = await waitFor(
      async () => {
        const list = (await api('GET', '/api/inference-servers', { account: admin })).body as {
          name: string;
          status: string;
          device: string;
          hasAuthToken: boolean;
        }[];
        return list.length === 2 && list.every((server) => server.status === 'online') ? list : undefined;
      },
      30_000,
      'both workers online',
    );
    expect(servers.find((server) => server.name === 'second')).toMatchObject({
      device: 'cpu',
      hasAuthToken: true,
    });
    const health = (await (await fetch(`${second.url}/health`)).json()) as {
      registration: { status: string };
    };
    expect(health.registration.status).toBe('registered');
    // The worker enforces its token: the main service sends it, anyone else is refused.
    expect((await fetch(`${second.url}/backends`)).status).toBe(401);
  });

  it('installs the voice on both workers, followed through the jobs stream and model events', async () => {
    const controller = new AbortController();
    const jobsStream = await fetch(`${stack.api.url}/api/jobs/stream`, {
      headers: { authorization: admin.authorization },
      signal: controller.signal,
    });
    const modelEvents = await fetch(
      `${stack.api.url}/api/models/events?token=${encodeURIComponent(admin.token)}`,
      {
        signal: controller.signal,
      },
    );
    expect(jobsStream.status).toBe(200);
    expect(modelEvents.status).toBe(200);
    const installedPings: string[] = [];
    const pings = (async () => {
      for await (const event of readSseJson<{ type: string; model: string; serverId: string }>(
        modelEvents.body!,
      )) {
        if (event.type === 'installed' && event.model === JOE) {
          installedPings.push(event.serverId);
        }
      }
    })().catch(() => undefined);

    const started = await api('POST', `/api/models/${JOE}/pull`, { account: admin, body: {} });
    expect(started.status).toBe(200);
    const jobIds = (started.body as { jobs: { id: string }[] }).jobs.map((job) => job.id);
    expect(jobIds).toHaveLength(2);

    const seen = new Map<string, string[]>();
    const done = new Set<string>();
    for await (const event of readSseJson<JobEvent>(jobsStream.body!)) {
      const jobs = event.type === 'snapshot' ? (event.jobs ?? []) : [event.job!];
      for (const job of jobs.filter((candidate) => jobIds.includes(candidate.id))) {
        const statuses = seen.get(job.id) ?? [];
        if (statuses.at(-1) !== job.status) {
          statuses.push(job.status);
        }
        seen.set(job.id, statuses);
        expect(job.status).not.toBe('error');
        if (job.status === 'complete') {
          expect(job.progress).toBe(100);
          done.add(job.id);
        }
      }
      if (done.size === jobIds.length) {
        break;
      }
    }
    for (const statuses of seen.values()) {
      expect(statuses).toContain('downloading');
      expect(statuses.at(-1)).toBe('complete');
    }
    await waitFor(
      () => Promise.resolve(installedPings.length >= 2 ? true : undefined),
      10_000,
      'model events',
    );
    controller.abort();
    await pings;

    const installed = (await api('GET', '/api/models/installed', { account: user })).body as {
      id: string;
      workers: { serverName: string }[];
    }[];
    expect(
      installed
        .find((model) => model.id === JOE)
        ?.workers.map((worker) => worker.serverName)
        .sort(),
    ).toEqual(['Local', 'second']);
    // Pulling again is a conflict; the mirror served each file once per worker.
    expect((await api('POST', `/api/models/${JOE}/pull`, { account: admin, body: {} })).status).toBe(409);
    const onnxGets = hub.requests.filter(
      (request) => request.path.endsWith('.onnx') && request.method === 'GET',
    );
    expect(onnxGets).toHaveLength(2);
  });

  it('speaks with the Piper voice: WAV and stream, 22,050 Hz, plausible length, recognisable words', async () => {
    const wavResponse = await fetch(`${stack.api.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.authorization },
      body: JSON.stringify({ model: JOE, input: TEXT, voice: 'joe' }),
    });
    expect(wavResponse.status).toBe(200);
    const wavBytes = Buffer.from(await wavResponse.arrayBuffer());
    const wav = parseWav(wavBytes);
    expect(wav.sampleRate).toBe(22_050);
    expect(wav.durationSeconds).toBeGreaterThan(TEXT.length * 0.03);
    expect(wav.durationSeconds).toBeLessThan(TEXT.length * 0.15);
    expect(rms(wav.samples)).toBeGreaterThan(0.01);
    const heard = await recogniseWithPocketSphinx(wavBytes);
    expect(wordOverlap(TEXT, heard)).toBeGreaterThanOrEqual(0.5);

    const streamResponse = await fetch(`${stack.api.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.authorization },
      body: JSON.stringify({ model: JOE, input: TEXT, voice: 'joe', stream: true }),
    });
    expect(streamResponse.status).toBe(200);
    expect(streamResponse.headers.get('x-sample-rate')).toBe('22050');
    const pcm = Buffer.from(await streamResponse.arrayBuffer());
    const streamedSeconds = pcm.length / 2 / 22_050;
    expect(Math.abs(streamedSeconds - wav.durationSeconds)).toBeLessThan(wav.durationSeconds * 0.25);
  });

  it('transcribes through the main service with a real recogniser', async () => {
    const speech = await fetch(`${stack.api.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.authorization },
      body: JSON.stringify({ model: JOE, input: TEXT, voice: 'joe' }),
    });
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from(await speech.arrayBuffer())], { type: 'audio/wav' }),
      'speech.wav',
    );
    const response = await fetch(`${stack.api.url}/api/transcribe`, {
      method: 'POST',
      headers: { authorization: user.authorization },
      body: form,
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { text: string; language: string };
    expect(result.language).toBe('en');
    expect(wordOverlap(TEXT, result.text)).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps generating on the other worker when one stops', async () => {
    await stack.worker.stop();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${stack.api.url}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: user.authorization },
        body: JSON.stringify({ model: JOE, input: `Attempt number ${i + 1}.`, voice: 'joe' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-inference-server')).toBe('second');
      expect(parseWav(Buffer.from(await response.arrayBuffer())).durationSeconds).toBeGreaterThan(0.3);
    }
  });
});
