import { Injectable, inject, signal } from '@angular/core';
import { GenerateSpeechRequest } from './api-types';
import { SpeechStreamApi } from './speech-stream.api';
import { pcm16ToWav } from './wav';

export type PcmPlayerState = 'idle' | 'connecting' | 'playing' | 'done' | 'stopped' | 'error';

/** Smallest number of samples scheduled as one buffer (except the last), to avoid tiny nodes. */
const MIN_SAMPLES_PER_BUFFER = 2048;
/** Head start given to the first buffer so that network jitter does not cause gaps. */
const START_LEAD_S = 0.1;

/**
 * Plays streamed PCM (s16le mono) with Web Audio while it arrives, scheduling one AudioBuffer per
 * received slice back to back. When the stream ends it resolves with the whole audio as a WAV blob,
 * so the UI can offer replay and download.
 *
 * Call `play()` from a user gesture (click): the AudioContext is created there, before the network
 * wait, so browsers allow it to make sound.
 */
@Injectable({ providedIn: 'root' })
export class PcmStreamPlayer {
  private readonly streamApi = inject(SpeechStreamApi);

  readonly state = signal<PcmPlayerState>('idle');
  /** Seconds of audio received so far. */
  readonly receivedSeconds = signal(0);

  private abort: AbortController | undefined;
  private context: AudioContext | undefined;
  private sources = new Set<AudioBufferSourceNode>();

  static isSupported(): boolean {
    return typeof AudioContext !== 'undefined' && typeof ReadableStream !== 'undefined';
  }

  /**
   * Starts generation and playback. Resolves with the complete WAV when the stream has ended
   * (playback may still be running), or null when stopped. Rejects with ApiError on API errors.
   */
  async play(request: GenerateSpeechRequest): Promise<Blob | null> {
    this.stop();
    const abort = new AbortController();
    this.abort = abort;
    const context = new AudioContext();
    this.context = context;
    void context.resume();
    this.state.set('connecting');
    this.receivedSeconds.set(0);

    const chunks: Uint8Array[] = [];
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let carry: number | null = null; // odd byte left over between network chunks
    let nextTime = 0;

    try {
      const { sampleRate, body } = await this.streamApi.open(request, abort.signal);
      this.state.set('playing');

      const schedule = (bytes: Uint8Array) => {
        const samples = bytes.byteLength >> 1;
        if (samples === 0) return;
        const buffer = context.createBuffer(1, samples, sampleRate);
        const channel = buffer.getChannelData(0);
        const view = new DataView(bytes.buffer, bytes.byteOffset, samples * 2);
        for (let i = 0; i < samples; i++) channel[i] = view.getInt16(i * 2, true) / 32768;
        const source = context.createBufferSource();
        source.buffer = buffer;
        source.connect(context.destination);
        nextTime = Math.max(nextTime, context.currentTime + (nextTime === 0 ? START_LEAD_S : 0.02));
        source.start(nextTime);
        nextTime += buffer.duration;
        this.sources.add(source);
        source.onended = () => this.sources.delete(source);
      };

      const flush = (force: boolean) => {
        if (pendingBytes === 0 || (!force && pendingBytes < MIN_SAMPLES_PER_BUFFER * 2)) return;
        const joined = new Uint8Array(pendingBytes);
        let offset = 0;
        for (const p of pending) {
          joined.set(p, offset);
          offset += p.byteLength;
        }
        pending = [];
        pendingBytes = 0;
        schedule(joined);
      };

      const reader = body.getReader();
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!value || value.byteLength === 0) continue;
        chunks.push(value);
        received += value.byteLength;
        this.receivedSeconds.set(received / 2 / sampleRate);

        // Keep whole 16-bit samples only; hold an odd trailing byte for the next chunk.
        let bytes = value;
        if (carry !== null) {
          const merged = new Uint8Array(bytes.byteLength + 1);
          merged[0] = carry;
          merged.set(bytes, 1);
          bytes = merged;
          carry = null;
        }
        if (bytes.byteLength % 2 === 1) {
          carry = bytes[bytes.byteLength - 1];
          bytes = bytes.subarray(0, bytes.byteLength - 1);
        }
        pending.push(bytes);
        pendingBytes += bytes.byteLength;
        flush(false);
      }
      flush(true);
      this.state.set('done');
      this.closeWhenPlayed(context, nextTime);
      return pcm16ToWav(chunks, sampleRate);
    } catch (e) {
      if (abort.signal.aborted) {
        return null;
      }
      this.state.set('error');
      this.teardown();
      throw e;
    } finally {
      if (this.abort === abort) this.abort = undefined;
    }
  }

  /** Stops the network stream and any sound still playing or scheduled. */
  stop(): void {
    const wasActive = !!this.abort || this.sources.size > 0;
    this.abort?.abort();
    this.abort = undefined;
    this.teardown();
    if (wasActive) this.state.set('stopped');
  }

  private teardown(): void {
    for (const source of this.sources) {
      try {
        source.stop();
      } catch {
        // already stopped
      }
    }
    this.sources.clear();
    void this.context?.close().catch(() => undefined);
    this.context = undefined;
  }

  private closeWhenPlayed(context: AudioContext, endTime: number): void {
    const ms = Math.max(0, (endTime - context.currentTime) * 1000) + 250;
    setTimeout(() => {
      if (this.context === context && !this.abort) {
        void context.close().catch(() => undefined);
        this.context = undefined;
        this.sources.clear();
      }
    }, ms);
  }
}
