import { pcm16ToWav } from './wav';

/** A recording decoded in the browser: mono samples, a 16-bit WAV of them, and peaks for a waveform. */
export interface DecodedRecording {
  wav: Blob;
  duration: number;
  sampleRate: number;
  /** Peak amplitude (0–1) per bucket, for drawing. */
  peaks: number[];
}

const PEAK_BUCKETS = 240;

/** Mono float samples → 16-bit little-endian PCM bytes. */
function floatToPcm16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return bytes;
}

export function peaksOf(samples: Float32Array, buckets = PEAK_BUCKETS): number[] {
  const size = Math.max(1, Math.floor(samples.length / buckets));
  const peaks: number[] = [];
  for (let b = 0; b < buckets && b * size < samples.length; b++) {
    let peak = 0;
    const end = Math.min(samples.length, (b + 1) * size);
    for (let i = b * size; i < end; i++) peak = Math.max(peak, Math.abs(samples[i]));
    peaks.push(peak);
  }
  return peaks;
}

/**
 * Decodes any audio the browser can play (WAV, MP3, OGG, WebM from the recorder…) and re-encodes it as mono
 * 16-bit WAV, the format voice samples are stored in. Rejects when the data is not audio.
 */
export async function decodeRecording(data: Blob): Promise<DecodedRecording> {
  const context = new AudioContext();
  try {
    const buffer = await context.decodeAudioData(await data.arrayBuffer());
    const mono = new Float32Array(buffer.length);
    for (let c = 0; c < buffer.numberOfChannels; c++) {
      const channel = buffer.getChannelData(c);
      for (let i = 0; i < channel.length; i++) mono[i] += channel[i] / buffer.numberOfChannels;
    }
    return {
      wav: pcm16ToWav([floatToPcm16(mono)], buffer.sampleRate),
      duration: buffer.duration,
      sampleRate: buffer.sampleRate,
      peaks: peaksOf(mono),
    };
  } finally {
    void context.close().catch(() => undefined);
  }
}

/** Records from the microphone until `stop()`; resolves with what the browser's MediaRecorder made. */
export class MicrophoneRecorder {
  private recorder: MediaRecorder | undefined;
  private stream: MediaStream | undefined;
  private chunks: Blob[] = [];
  private done: Promise<Blob> | undefined;

  static isSupported(): boolean {
    return typeof MediaRecorder !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
  }

  async start(): Promise<void> {
    this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const recorder = new MediaRecorder(this.stream);
    this.recorder = recorder;
    this.chunks = [];
    this.done = new Promise<Blob>((resolve) => {
      recorder.ondataavailable = (e) => {
        if (e.data.size > 0) this.chunks.push(e.data);
      };
      recorder.onstop = () => resolve(new Blob(this.chunks, { type: recorder.mimeType }));
    });
    recorder.start();
  }

  async stop(): Promise<Blob> {
    this.recorder?.stop();
    this.stream?.getTracks().forEach((track) => track.stop());
    const blob = await (this.done ?? Promise.resolve(new Blob()));
    this.recorder = undefined;
    this.stream = undefined;
    return blob;
  }

  cancel(): void {
    try {
      this.recorder?.stop();
    } catch {
      // already stopped
    }
    this.stream?.getTracks().forEach((track) => track.stop());
    this.recorder = undefined;
    this.stream = undefined;
  }
}
