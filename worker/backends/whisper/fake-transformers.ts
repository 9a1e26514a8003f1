import type {
  AsrOptions,
  AsrPipeline,
  PipelineOptions,
  TransformersEnv,
  TransformersModule,
} from './transformers-runtime';

/** What a synthetic pipeline saw. */
export interface FakeAsrCall {
  audio: Float32Array;
  options: AsrOptions;
}

export interface FakeTransformers {
  module: TransformersModule;
  /** `pipeline()` calls: task, model id, options. */
  created: { task: string; model: string; options: PipelineOptions }[];
  /** Transcriptions run. */
  calls: FakeAsrCall[];
  /** Inputs of language detection (the processor) and the decoder prompt it ran. */
  detections: { audioLength: number; prompt: bigint[] }[];
  disposed: number;
}

/**
 * A stand-in for transformers.js with Whisper's shape (test support): the real weights cannot be downloaded
 * in the test environment. The pipeline answers `text`; language detection scores the language tokens so that
 * `detected` wins; `multilingual: false` mimics an English-only (`.en`) model.
 */
export function fakeTransformers(
  options: { text?: string; detected?: string; multilingual?: boolean; failLoad?: Error } = {},
): FakeTransformers {
  const languages = ['en', 'de', 'fr', 'es', 'ja'];
  const langToId = Object.fromEntries(languages.map((code, index) => [`<|${code}|>`, 50_259 + index]));
  const vocabulary = 51_865;
  const state: FakeTransformers = {
    module: undefined as unknown as TransformersModule,
    created: [],
    calls: [],
    detections: [],
    disposed: 0,
  };
  const env = {} as TransformersEnv;
  class Tensor {
    constructor(
      readonly type: string,
      readonly data: BigInt64Array,
      readonly dims: number[],
    ) {}
  }
  state.module = {
    env,
    Tensor,
    pipeline: (task, model, pipelineOptions) => {
      state.created.push({ task, model, options: pipelineOptions });
      if (options.failLoad) {
        return Promise.reject(options.failLoad);
      }
      const call = (audio: Float32Array, asr: AsrOptions) => {
        state.calls.push({ audio, options: asr });
        return Promise.resolve({ text: options.text ?? ' Hello from Whisper.' });
      };
      let lastAudioLength = 0;
      const pipe = Object.assign(call, {
        processor: (audio: Float32Array) => {
          lastAudioLength = audio.length;
          return Promise.resolve({ input_features: { dims: [1, 80, 3000] } });
        },
        model: Object.assign(
          (inputs: { input_features: unknown; decoder_input_ids: unknown }) => {
            const prompt = [...(inputs.decoder_input_ids as Tensor).data];
            state.detections.push({ audioLength: lastAudioLength, prompt });
            const logits = new Float32Array(vocabulary).fill(-5);
            logits[langToId[`<|${options.detected ?? 'en'}|>`]] = 10;
            logits[100] = 50; // a text token scores higher still: detection must only look at language tokens
            return Promise.resolve({ logits: { data: logits, dims: [1, 1, vocabulary] } });
          },
          {
            generation_config:
              options.multilingual === false
                ? { is_multilingual: false, decoder_start_token_id: 50_257 }
                : { is_multilingual: true, lang_to_id: langToId, decoder_start_token_id: 50_258 },
          },
        ),
        dispose: () => {
          state.disposed++;
          return Promise.resolve();
        },
      });
      return Promise.resolve(pipe as AsrPipeline);
    },
  };
  return state;
}
