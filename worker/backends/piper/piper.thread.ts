/**
 * Entry of one Piper model thread: holds the model's ONNX Runtime session and runs inference on it.
 *
 * onnxruntime-node creates sessions and runs them synchronously on the calling thread (its promises only defer
 * the call), so on the main thread a sentence would stall the event loop for hundreds of milliseconds. Here it
 * stalls only this thread. Loaded as plain `.js` beside its source; imports node built-ins, the ONNX runtime
 * (by absolute path) and the pure PCM helpers and post-processing only.
 */
import { parentPort, workerData } from 'node:worker_threads';

import type * as Ort from 'onnxruntime-node';

import { concatInt16 } from '../../audio/pcm';

import { toPiperPcm } from './piper-audio';
import type {
  FromPiperThread,
  PiperProvider,
  PiperSynthesisTask,
  PiperThreadData,
  ToPiperThread,
} from './piper-protocol';

const port = parentPort;
if (!port) {
  throw new Error('piper.thread must run in a worker thread');
}

function post(message: FromPiperThread, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function createSession(
  ort: typeof Ort,
  data: PiperThreadData,
): Promise<{ session: Ort.InferenceSession; provider: PiperProvider; cudaError?: string }> {
  const options = (providers: PiperProvider[]): Ort.InferenceSession.SessionOptions => ({
    executionProviders: providers,
    intraOpNumThreads: data.intraOpNumThreads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  let cudaError: string | undefined;
  if (data.providers.includes('cuda')) {
    try {
      const session = await ort.InferenceSession.create(data.modelFile, options(['cuda', 'cpu']));
      return { session, provider: 'cuda' };
    } catch (error) {
      cudaError = describe(error);
    }
  }
  const session = await ort.InferenceSession.create(data.modelFile, options(['cpu']));
  return { session, provider: 'cpu', cudaError };
}

async function main(): Promise<void> {
  const data = workerData as PiperThreadData;
  const started = performance.now();
  let ort: typeof Ort;
  let session: Ort.InferenceSession;
  let provider: PiperProvider;
  let cudaError: string | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved by the main thread, loaded here
    ort = require(data.ortPath) as typeof Ort;
    ({ session, provider, cudaError } = await createSession(ort, data));
  } catch (error) {
    post({ type: 'init-error', message: describe(error) });
    return;
  }
  const hasSpeakerInput = session.inputNames.includes('sid');

  const infer = async (ids: number[], scales: readonly number[], speakerId: number | null) => {
    const feeds: Record<string, Ort.Tensor> = {
      input: new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, (id) => BigInt(id)),
        [1, ids.length],
      ),
      input_lengths: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      scales: new ort.Tensor('float32', Float32Array.from(scales), [3]),
    };
    if (hasSpeakerInput && speakerId !== null) {
      feeds.sid = new ort.Tensor('int64', BigInt64Array.of(BigInt(speakerId)), [1]);
    }
    const results = await session.run(feeds);
    const output = results[session.outputNames[0]];
    const audio = output.data as Float32Array;
    for (const tensor of Object.values(results)) {
      tensor.dispose();
    }
    return audio;
  };

  try {
    await infer(data.warmUpIds, [0.667, 1, 0.8], data.warmUpSpeakerId);
  } catch (error) {
    await session.release().catch(() => undefined);
    post({ type: 'init-error', message: `the model does not run: ${describe(error)}` });
    return;
  }
  post({
    type: 'ready',
    provider,
    cudaError,
    inputNames: [...session.inputNames],
    loadMs: performance.now() - started,
  });

  const synthesize = async (id: number, task: PiperSynthesisTask) => {
    const started = performance.now();
    const parts: Int16Array[] = [];
    for (const ids of task.sentences) {
      parts.push(toPiperPcm(await infer(ids, task.scales, task.speakerId)));
    }
    const pcm = concatInt16(parts);
    post({ type: 'audio', id, pcm, inferenceMs: performance.now() - started }, [pcm.buffer as ArrayBuffer]);
  };

  // One message at a time: the handle sends the next task only after this one's answer.
  port!.on('message', (message: ToPiperThread) => {
    if (message.type === 'synthesize') {
      synthesize(message.id, message.task).catch((error: unknown) =>
        post({ type: 'error', id: message.id, message: describe(error) }),
      );
    } else if (message.type === 'release') {
      session
        .release()
        .catch(() => undefined)
        .finally(() => post({ type: 'released' }));
    }
  });
}

void main();
