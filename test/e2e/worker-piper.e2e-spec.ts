import { join } from 'node:path';
import type { CatalogEntry, PullEvent, WorkerHealth } from '../../worker/contract/worker-api';
import { readSseJson } from '../../src/common/sse';
import { HubMirror } from '../support/hub-mirror';
import { REPO_ROOT, ServiceProcess, startWorker, tempDir } from '../support/processes';
import { wordOverlap } from '../support/recognizer';
import { parseWav, rms } from '../support/wav';

const TOKEN = 'worker-e2e-token-0123456789abcdef';
const TEXT = 'Seven bright stars shine over the quiet river. The quick brown fox jumps over the lazy dog.';
const JOE_DIR = 'en/en_US/joe/medium';

function joeEntry(variant: string): CatalogEntry {
  return {
    id: `piper-${variant}`,
    name: 'Joe',
    description: 'test',
    backend: 'piper',
    backendDisplayName: 'Piper',
    backendDescription: 'test',
    variant,
    repo: 'rhasspy/piper-voices',
    files: [
      {
        path: `${JOE_DIR}/en_US-joe-medium.onnx`,
        size: 63201294,
        sha256: '58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06',
      },
      { path: `${JOE_DIR}/en_US-joe-medium.onnx.json`, size: 4794 },
    ],
    size: 63201294 + 4794,
    types: ['preset'],
    presetVoices: [{ id: 'joe', name: 'Joe', language: 'en' }],
    license: 'CC0-1.0',
    hardware: 'cpu',
    languages: ['en'],
  };
}

/** Issue 4 acceptance on the worker alone: real process, real voice from the local hub mirror, real recogniser. */
describe('worker: pull, speak and transcribe with the real Piper voice', () => {
  let hub: HubMirror;
  let worker: ServiceProcess;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    hub = await HubMirror.start({ root: join(REPO_ROOT, 'test', '.fixtures', 'hub') });
    worker = await startWorker(tempDir('worker-piper'), {
      INFERENCE_AUTH_TOKEN: TOKEN,
      INFERENCE_MAX_LOADED_MODELS: '1',
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await hub?.stop();
  });

  async function pull(variant: string): Promise<PullEvent[]> {
    const response = await fetch(`${worker.url}/models/pull`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hub.url, dest_path: `piper/${variant}`, manifest: joeEntry(variant) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events: PullEvent[] = [];
    for await (const event of readSseJson<PullEvent>(response.body!)) {
      events.push(event);
    }
    return events;
  }

  async function generate(variant: string, stream = false): Promise<Response> {
    return fetch(`${worker.url}/generate${stream ? '/stream' : ''}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ backend: 'piper', text: TEXT, model_path: `piper/${variant}`, language: 'en' }),
    });
  }

  it('refuses requests without the right bearer token, but not /health', async () => {
    expect((await fetch(`${worker.url}/backends`)).status).toBe(401);
    expect(
      (await fetch(`${worker.url}/backends`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect((await fetch(`${worker.url}/backends`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${worker.url}/health`)).status).toBe(200);
  });

  it('pulls the voice with progress events in order, ending complete', async () => {
    const events = await pull('en_US-joe-medium');
    expect(events.length).toBeGreaterThan(2);
    expect(events[0].status).toBe('downloading');
    expect(events.at(-1)).toMatchObject({ status: 'complete', progress: 100 });
    const progress = events.map((event) => event.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(events.filter((event) => event.status === 'error')).toEqual([]);
    const check = await fetch(`${worker.url}/models/piper/en_US-joe-medium?verify=true`, { headers: auth });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ installed: true, verified: true });
  });

  let wavBytes: Buffer;

  it('speaks a WAV at 22,050 Hz with a plausible length, not silent', async () => {
    const response = await generate('en_US-joe-medium');
    expect(response.status).toBe(200);
    wavBytes = Buffer.from(await response.arrayBuffer());
    const wav = parseWav(wavBytes);
    expect(wav.sampleRate).toBe(22_050);
    expect(wav.durationSeconds).toBeGreaterThan(TEXT.length * 0.03);
    expect(wav.durationSeconds).toBeLessThan(TEXT.length * 0.15);
    expect(rms(wav.samples)).toBeGreaterThan(0.01);
  });

  it('streams the same speech as PCM chunks, one per sentence', async () => {
    const response = await generate('en_US-joe-medium', true);
    expect(response.headers.get('x-sample-rate')).toBe('22050');
    const reader = response.body!.getReader();
    let chunks = 0;
    let bytes = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      chunks++;
      bytes += (value as Uint8Array).length;
    }
    expect(chunks).toBeGreaterThanOrEqual(2);
    const seconds = bytes / 2 / 22_050;
    expect(Math.abs(seconds - parseWav(wavBytes).durationSeconds)).toBeLessThan(1);
  });

  it('transcribes its own speech back with PocketSphinx, sharing most words', async () => {
    const form = new FormData();
    form.append('file', new Blob([wavBytes], { type: 'audio/wav' }), 'speech.wav');
    const response = await fetch(`${worker.url}/transcribe`, { method: 'POST', headers: auth, body: form });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { text: string; language: string };
    expect(result.language).toBe('en');
    expect(wordOverlap(TEXT, result.text)).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps /health answering while 8 generations run', async () => {
    const generations = Array.from({ length: 8 }, () =>
      generate('en_US-joe-medium').then((r) => r.arrayBuffer()),
    );
    const probes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${worker.url}/health`);
      probes.push(response.status);
    }
    await Promise.all(generations);
    expect(probes).toEqual(Array(10).fill(200));
  });

  it('evicts the least recently used model at INFERENCE_MAX_LOADED_MODELS=1, and unload frees it', async () => {
    expect((await pull('joe-copy')).at(-1)?.status).toBe('complete');
    expect((await generate('joe-copy')).status).toBe(200);
    let health = (await (await fetch(`${worker.url}/health`)).json()) as WorkerHealth;
    const piperLoaded = () =>
      health.loadedModels.filter((model) => model.backend === 'piper').map((m) => m.modelPath);
    expect(piperLoaded()).toEqual(['piper/joe-copy']);
    expect(
      health.loadedModels.find((model) => model.modelPath === 'piper/joe-copy')!.memoryBytes,
    ).toBeGreaterThan(0);

    const unload = await fetch(`${worker.url}/models/unload`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ backend: 'piper', model_path: 'piper/joe-copy' }),
    });
    expect(await unload.json()).toEqual({ status: 'unloaded' });
    health = (await (await fetch(`${worker.url}/health`)).json()) as WorkerHealth;
    expect(piperLoaded()).toEqual([]);
  });

  it('refuses traversal in dest_path and file paths', async () => {
    for (const [destPath, path] of [
      ['../escape', `${JOE_DIR}/en_US-joe-medium.onnx.json`],
      ['piper/ok-variant', '../../etc/passwd'],
      ['/abs/path', `${JOE_DIR}/en_US-joe-medium.onnx.json`],
    ]) {
      const manifest = joeEntry('ok-variant');
      manifest.files = [{ path }];
      const response = await fetch(`${worker.url}/models/pull`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: hub.url, dest_path: destPath, manifest }),
      });
      expect(response.status).toBe(400);
    }
  });
});
