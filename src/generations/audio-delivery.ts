import type { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { CommittedGeneration } from './history.service';

/** Where relayed audio goes (the HTTP response; a fake in tests). */
export interface AudioSink {
  /** Resolves once the chunk is handed over (respecting back-pressure); rejects when the client is gone. */
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the response; resolves true once everything was handed to the client, false if it went away first. */
  end(): Promise<boolean>;
  /** Cuts the connection: the only way left to tell the client the audio is incomplete. */
  abort(): void;
}

/** Records a generation once its audio is complete. */
export interface GenerationRecorder {
  commit(chunks: readonly Uint8Array[]): Promise<CommittedGeneration | undefined>;
}

/**
 * Relays audio to the client while keeping a copy, and records the history entry only for a complete delivery.
 *
 * The entry (file, then row) is committed before the client can see the end of the audio, so a client that has
 * the whole audio can already find it in the history: the response is ended only after the commit, and with
 * `holdLastChunk` (responses with a Content-Length, whose end the client sees with the last byte) the last chunk
 * waits for the commit too. Streams write every chunk at once, so holding nothing back costs them no latency.
 * If the client is gone before the end, the entry is removed again; the realtime event goes out only after a
 * complete delivery. A worker failing mid-stream, or a client leaving early, records nothing.
 */
export async function deliverAudio(
  body: AsyncIterable<Uint8Array>,
  sink: AudioSink,
  recorder: GenerationRecorder,
  options: { holdLastChunk: boolean; logger: Pick<Logger, 'error'> },
): Promise<void> {
  const chunks: Uint8Array[] = [];
  let held: Uint8Array | undefined;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      if (options.holdLastChunk) {
        if (held) {
          await sink.write(held);
        }
        held = chunk;
      } else {
        await sink.write(chunk);
      }
    }
  } catch {
    // The relay has logged a worker failure; a client that left needs no answer.
    sink.abort();
    return;
  }
  let committed: CommittedGeneration | undefined;
  try {
    committed = await recorder.commit(chunks);
  } catch (error) {
    // The audio itself is fine: the client still gets it, the history just misses this one.
    options.logger.error(`could not record a generation in the history: ${String(error)}`);
  }
  let delivered = false;
  try {
    if (held) {
      await sink.write(held);
    }
    delivered = await sink.end();
  } catch {
    sink.abort();
  }
  if (committed) {
    await (delivered ? committed.publish() : committed.discard());
  }
}

/** An AudioSink over an Express response. */
export function responseSink(request: Request, response: Response): AudioSink {
  const gone = (): Error => new Error('the client closed the connection');
  return {
    write(chunk) {
      if (response.destroyed || response.writableEnded) {
        return Promise.reject(gone());
      }
      if (response.write(chunk)) {
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const onDrain = (): void => {
          response.off('close', onClose);
          resolve();
        };
        const onClose = (): void => {
          response.off('drain', onDrain);
          reject(gone());
        };
        response.once('drain', onDrain);
        response.once('close', onClose);
      });
    },
    end() {
      return new Promise<boolean>((resolve) => {
        if (response.destroyed) {
          resolve(false);
          return;
        }
        response.once('close', () => resolve(response.writableFinished));
        response.end(() => resolve(true));
      });
    },
    abort() {
      request.socket.destroy();
    },
  };
}
