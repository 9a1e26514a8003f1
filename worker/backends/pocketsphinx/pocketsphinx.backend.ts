import { execFile } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';

import { Inject, Injectable } from '@nestjs/common';

import { floatToInt16 } from '../../audio/pcm';
import { downmixInterleaved, resample } from '../../audio/resample';
import { encodeWav } from '../../audio/wav';
import { ApiError } from '../../common/api-error';
import type { BackendDependencyState, TranscribeResponse } from '../../contract/worker-api';
import { abortReason } from '../../runtime/abort';
import type { SynthesisStream, TranscriptionRequest, TtsBackend } from '../backend.interface';
import { parsePocketsphinxOutput, POCKETSPHINX_MODEL_FILES } from './pocketsphinx-output';

export const POCKETSPHINX_OPTIONS = Symbol('POCKETSPHINX_OPTIONS');

export interface PocketsphinxOptions {
  /** `pocketsphinx_continuous`: a command looked up on PATH, or a path. */
  binary: string;
  /** Folder holding `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir: string;
  /** Recognitions run at once (one single-threaded process each). */
  concurrency: number;
  /** Where the temporary WAV of each request is written. */
  tempDir?: string;
  /** Folders searched for a bare `binary` name (PATH syntax). */
  searchPath: string;
}

/** One recogniser process per core, up to four: each is single-threaded and holds ~50 MB of model. */
export function defaultPocketsphinxConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** The recogniser's input: 16 kHz mono, as every upload is decoded to. */
const SAMPLE_RATE = 16_000;
const DEBIAN_PACKAGES = 'pocketsphinx pocketsphinx-en-us';

/**
 * CMU PocketSphinx: a small offline recogniser for US English, run as the system's `pocketsphinx_continuous`
 * (Debian packages `pocketsphinx` and `pocketsphinx-en-us`). Its accuracy is far below Whisper's, but it needs no
 * download and no GPU, so every worker with the packages can transcribe, and the transcription path is
 * exercised with real recognition in tests.
 *
 * Each request writes its decoded audio to a temporary WAV and runs one child process on it (no shell, a
 * timeout proportional to the audio, killed when the client goes away): recognition never runs on the event loop.
 */
@Injectable()
export class PocketsphinxBackend implements TtsBackend {
  readonly name = 'pocketsphinx';
  readonly displayName = 'PocketSphinx';
  readonly description =
    'CMU PocketSphinx offline speech recognition (US English), from the system packages pocketsphinx and ' +
    'pocketsphinx-en-us: no download, CPU only, modest accuracy.';
  readonly capabilities = { preset: false, cloning: false, transcription: true, streaming: false } as const;
  readonly embedded = true;
  readonly concurrencyPerModel: number;

  constructor(@Inject(POCKETSPHINX_OPTIONS) private readonly options: PocketsphinxOptions) {
    this.concurrencyPerModel = options.concurrency;
  }

  async dependencies(): Promise<BackendDependencyState> {
    const problems: string[] = [];
    if (!(await this.findBinary())) {
      problems.push(`${this.options.binary} was not found`);
    }
    const model = this.modelFiles();
    const missing: string[] = [];
    for (const [kind, path] of Object.entries(model)) {
      try {
        const info = await stat(path);
        if (kind === 'hmm' ? !info.isDirectory() : !info.isFile()) {
          missing.push(path);
        }
      } catch {
        missing.push(path);
      }
    }
    if (missing.length > 0) {
      problems.push(`model files missing: ${missing.join(', ')}`);
    }
    return problems.length === 0
      ? { installed: true, packages: [], detail: `system packages ${DEBIAN_PACKAGES}` }
      : {
          installed: false,
          packages: [],
          detail: `${problems.join('; ')} (install the system packages ${DEBIAN_PACKAGES})`,
        };
  }

  resolveModelPath(): string {
    return this.name;
  }

  async load(): Promise<void> {
    const dependencies = await this.dependencies();
    if (!dependencies.installed) {
      throw ApiError.serviceUnavailable(`PocketSphinx is not usable on this worker: ${dependencies.detail}.`);
    }
  }

  unload(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing stays in memory between requests (each runs its own short-lived process). */
  memoryBytes(): number {
    return 0;
  }

  synthesize(): Promise<SynthesisStream> {
    return Promise.reject(
      ApiError.invalidField(
        'backend',
        'capability_not_supported',
        'pocketsphinx recognises speech; it does not speak.',
      ),
    );
  }

  async transcribe(request: TranscriptionRequest, signal: AbortSignal): Promise<TranscribeResponse> {
    if (request.language && !/^en(?:[-_]|$)/i.test(request.language)) {
      throw ApiError.invalidField(
        'language',
        'unsupported_language',
        `pocketsphinx only recognises English; "${request.language}" needs a Whisper model.`,
      );
    }
    const binary = await this.findBinary();
    if (!binary) {
      throw ApiError.serviceUnavailable(
        `PocketSphinx is not usable on this worker: ${this.options.binary} was not found.`,
      );
    }
    const samples = toRecognizerInput(request.audio);
    const seconds = samples.length / SAMPLE_RATE;
    const dir = await mkdtemp(join(this.options.tempDir ?? tmpdir(), 'chorus-pocketsphinx-'));
    try {
      const wav = join(dir, 'input.wav');
      await writeFile(wav, encodeWav(floatToInt16(samples), SAMPLE_RATE));
      const model = this.modelFiles();
      const stdout = await run(
        binary,
        [
          '-infile',
          wav,
          '-hmm',
          model.hmm,
          '-lm',
          model.lm,
          '-dict',
          model.dict,
          '-samprate',
          String(SAMPLE_RATE),
          '-logfn',
          '/dev/null',
        ],
        { signal, timeoutMs: 60_000 + Math.ceil(seconds * 2000) },
      );
      return { text: parsePocketsphinxOutput(stdout), language: 'en' };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private modelFiles(): { hmm: string; lm: string; dict: string } {
    const dir = this.options.modelDir;
    return {
      hmm: join(dir, POCKETSPHINX_MODEL_FILES.hmm),
      lm: join(dir, POCKETSPHINX_MODEL_FILES.lm),
      dict: join(dir, POCKETSPHINX_MODEL_FILES.dict),
    };
  }

  /** Absolute path of the executable, or undefined. */
  private async findBinary(): Promise<string | undefined> {
    const { binary } = this.options;
    const candidates =
      isAbsolute(binary) || binary.includes('/')
        ? [binary]
        : this.options.searchPath
            .split(delimiter)
            .filter(Boolean)
            .map((dir) => join(dir, binary));
    for (const candidate of candidates) {
      try {
        await access(candidate, fsConstants.X_OK);
        return candidate;
      } catch {
        // next
      }
    }
    return undefined;
  }
}

/** 16 kHz mono floats, whatever the request carries (uploads are already decoded to that). */
function toRecognizerInput(audio: TranscriptionRequest['audio']): Float32Array {
  const mono = downmixInterleaved(audio.samples, audio.channels);
  return audio.sampleRate === SAMPLE_RATE ? mono : resample(mono, audio.sampleRate, SAMPLE_RATE);
}

/** Runs the recogniser; its standard output. */
function run(
  binary: string,
  args: string[],
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<string> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      {
        signal: options.signal,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        if (options.signal.aborted) {
          reject(abortReason(options.signal));
          return;
        }
        const detail = (error as NodeJS.ErrnoException & { killed?: boolean }).killed
          ? `timed out after ${options.timeoutMs} ms`
          : `${error.message.split('\n')[0]}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
        reject(new Error(`pocketsphinx_continuous failed: ${detail}`));
      },
    );
  });
}
