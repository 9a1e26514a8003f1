/**
 * Piper's output post-processing: each sentence's audio is scaled so its loudest sample is full scale, clipped to
 * [-1, 1] and converted to 16-bit PCM (×32767, truncated), as Piper's runtime does. Pure: runs in the model threads.
 */

const MAX_WAV_VALUE = 32767;
/** Below this peak a sentence is silence: Piper outputs zeros rather than amplify noise. */
const SILENCE_PEAK = 1e-8;

export function toPiperPcm(audio: Float32Array): Int16Array {
  let peak = 0;
  for (let i = 0; i < audio.length; i++) {
    const magnitude = Math.abs(audio[i]);
    if (magnitude > peak) {
      peak = magnitude;
    }
  }
  const pcm = new Int16Array(audio.length);
  if (peak < SILENCE_PEAK) {
    return pcm;
  }
  const gain = Math.fround(peak);
  for (let i = 0; i < audio.length; i++) {
    // float32 arithmetic, as numpy does it on float32 arrays
    const normalized = Math.min(1, Math.max(-1, Math.fround(audio[i] / gain)));
    pcm[i] = Math.trunc(Math.fround(normalized * MAX_WAV_VALUE));
  }
  return pcm;
}
