/**
 * Messages between a Piper model's thread (`piper.thread.ts`) and its handle on the main thread
 * (`piper-model-thread.ts`). Types only: the thread entry must stay free of Nest.
 */

export type PiperProvider = 'cuda' | 'cpu';

/** `workerData` of a model thread. */
export interface PiperThreadData {
  /** Absolute path of `onnxruntime-node`'s entry (the thread may be compiled outside the project, in tests). */
  ortPath: string;
  /** Absolute path of the `.onnx` file. */
  modelFile: string;
  /** Execution providers to try, in order; `cuda` falls back to `cpu` when its session cannot be created. */
  providers: PiperProvider[];
  intraOpNumThreads: number;
  /** A short valid input (`^ _ $` ids) run once after loading, so the first request is not slowed. */
  warmUpIds: number[];
  /** Speaker id for the warm-up of a multi-speaker voice; null otherwise. */
  warmUpSpeakerId: number | null;
}

export interface PiperSynthesisTask {
  /** Input ids of each sentence (espeak may find several in one of the worker's sentences). */
  sentences: number[][];
  /** [noise_scale, length_scale, noise_w]. */
  scales: [number, number, number];
  /** Speaker of a multi-speaker voice; null for single-speaker voices. */
  speakerId: number | null;
}

export type ToPiperThread =
  { type: 'synthesize'; id: number; task: PiperSynthesisTask } | { type: 'release' };

export type FromPiperThread =
  | {
      type: 'ready';
      provider: PiperProvider;
      /** Why CUDA was not used although asked for. */
      cudaError?: string;
      inputNames: string[];
      loadMs: number;
    }
  | { type: 'init-error'; message: string }
  /** 16-bit PCM of all the task's sentences, one after the other. */
  | { type: 'audio'; id: number; pcm: Int16Array; inferenceMs: number }
  | { type: 'error'; id: number; message: string }
  | { type: 'released' };
