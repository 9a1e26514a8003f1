import { ApiError } from '../common/api-error';
import { abortReason } from '../runtime/abort';
import type { BackendDependencyState, BackendVoice } from '../contract/worker-api';
import type { SynthesisRequest, SynthesisStream, TtsBackend } from '../backends/backend.interface';

/**
 * A deterministic in-memory backend for tests: each sentence becomes `samplesPerChar` samples per character,
 * produced after `sentenceDelayMs`. Records loads, unloads and syntheses; honours abort signals.
 */
export class FakeTtsBackend implements TtsBackend {
  readonly displayName: string;
  readonly description = 'Test double';
  readonly capabilities = { preset: true, cloning: false, transcription: false, streaming: true };
  readonly events: string[] = [];
  readonly loaded = new Set<string>();
  readonly sampleRate = 16_000;
  samplesPerChar = 10;
  sentenceDelayMs = 0;
  loadDelayMs = 0;
  failLoad?: Error;
  /** Fails while producing the sentence with this index. */
  failAtSentence?: number;
  sentencesProduced = 0;

  constructor(
    readonly name = 'fake',
    readonly embedded = false,
    readonly concurrencyPerModel = 1,
  ) {
    this.displayName = `Fake ${name}`;
  }

  dependencies(): Promise<BackendDependencyState> {
    return Promise.resolve({ installed: true, packages: [] });
  }

  resolveModelPath(request: { model_path?: string | null }): string {
    if (this.embedded) {
      return this.name;
    }
    if (!request.model_path) {
      throw ApiError.invalidField('model_path', 'validation_required', 'model_path is required');
    }
    return request.model_path;
  }

  async load(modelPath: string): Promise<void> {
    this.events.push(`load ${modelPath}`);
    await delay(this.loadDelayMs);
    if (this.failLoad) {
      throw this.failLoad;
    }
    this.loaded.add(modelPath);
  }

  unload(modelPath: string): Promise<void> {
    this.events.push(`unload ${modelPath}`);
    this.loaded.delete(modelPath);
    return Promise.resolve();
  }

  memoryBytes(modelPath: string): number {
    return this.loaded.has(modelPath) ? 1000 : 0;
  }

  synthesize(request: SynthesisRequest, signal: AbortSignal): Promise<SynthesisStream> {
    if (request.voice === 'unknown') {
      return Promise.reject(ApiError.invalidField('voice_path', 'unknown_voice', 'no such voice'));
    }
    this.events.push(`synthesize ${request.modelPath} ${request.sentences.length}`);
    const produce = async function* (this: FakeTtsBackend): AsyncGenerator<Int16Array> {
      for (const [index, sentence] of request.sentences.entries()) {
        await delay(this.sentenceDelayMs, signal);
        if (index === this.failAtSentence) {
          throw new Error('engine exploded');
        }
        this.sentencesProduced++;
        yield new Int16Array(sentence.length * this.samplesPerChar).fill(index + 1);
      }
    };
    return Promise.resolve({ sampleRate: this.sampleRate, chunks: produce.call(this) });
  }

  listVoices(): Promise<BackendVoice[]> {
    return Promise.resolve([{ id: 'a', name: 'Voice A', language: 'en' }]);
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      },
      { once: true },
    );
  });
}
