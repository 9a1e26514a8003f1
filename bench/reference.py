"""
The reference Piper runtime (PyPI `piper-tts`) driven by `bench/run.mjs`, one JSON request per stdin line and one
JSON answer per stdout line. Runs inside the bench's own virtualenv; uses only piper-tts's public Python API
(PiperVoice.phonemize, PiperVoice.phonemes_to_ids, PiperVoice.synthesize, PiperVoice.phoneme_ids_to_audio).

Requests:
  {"op": "load", "model": path, "config": path, "threads": n}
  {"op": "ids", "texts": [...]}                       -> ids and phonemes of each sentence of each text
  {"op": "synth", "text": str, "noise_scale"?, "noise_w"?, "audio"?: bool}
                                                      -> wall seconds (text to 16-bit PCM), samples, audio (base64)
  {"op": "synth_ids", "sentences": [[id...]...], "noise_scale"?, "noise_w"?}
                                                      -> the same, from given ids (runtime-only comparison)
"""

import base64
import json
import sys
import time
from importlib.metadata import version

import numpy as np
import onnxruntime

from piper import PiperVoice, SynthesisConfig
from piper.config import PiperConfig

MAX_WAV_VALUE = 32767.0
voice = None


def load(request):
    global voice
    with open(request["config"], "r", encoding="utf-8") as config_file:
        config = PiperConfig.from_dict(json.load(config_file))
    # Same session settings as the worker's model thread: N intra-op threads, one inter-op thread, all graph
    # optimisations, sequential execution. PiperVoice.load would use every core.
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = int(request["threads"])
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    started = time.perf_counter()
    session = onnxruntime.InferenceSession(
        request["model"], sess_options=options, providers=["CPUExecutionProvider"]
    )
    voice = PiperVoice(config=config, session=session)
    # Warm-up: espeak-ng initialisation and a first inference.
    for _ in voice.synthesize("Warm up."):
        pass
    return {
        "load_seconds": time.perf_counter() - started,
        "versions": {
            "piper-tts": version("piper-tts"),
            "onnxruntime": onnxruntime.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
        },
    }


def syn_config(request):
    return SynthesisConfig(
        noise_scale=request.get("noise_scale"),
        noise_w_scale=request.get("noise_w"),
    )


def ids(request):
    results = []
    for text in request["texts"]:
        sentences = voice.phonemize(text)
        results.append(
            {
                "ids": [voice.phonemes_to_ids(phonemes) for phonemes in sentences],
                "phonemes": ["".join(phonemes) for phonemes in sentences],
            }
        )
    return {"results": results}


def to_int16(audio):
    # What AudioChunk.audio_int16_array does, on float32 as PiperVoice.synthesize leaves it.
    return np.clip(audio * MAX_WAV_VALUE, -MAX_WAV_VALUE, MAX_WAV_VALUE).astype(np.int16)


def answer_audio(request, parts, seconds):
    pcm = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)
    result = {"seconds": seconds, "samples": int(pcm.shape[0]), "sample_rate": voice.config.sample_rate}
    if request.get("audio"):
        result["audio"] = base64.b64encode(pcm.astype("<i2").tobytes()).decode("ascii")
    return result


def synth(request):
    config = syn_config(request)
    started = time.perf_counter()
    parts = [chunk.audio_int16_array for chunk in voice.synthesize(request["text"], syn_config=config)]
    return answer_audio(request, parts, time.perf_counter() - started)


def synth_ids(request):
    config = syn_config(request)
    started = time.perf_counter()
    parts = []
    for sentence in request["sentences"]:
        audio = voice.phoneme_ids_to_audio(sentence, config)
        # PiperVoice.synthesize's post-processing (normalize_audio=True, volume 1).
        peak = np.max(np.abs(audio))
        audio = np.zeros_like(audio) if peak < 1e-8 else audio / peak
        parts.append(to_int16(np.clip(audio, -1.0, 1.0).astype(np.float32)))
    return answer_audio(request, parts, time.perf_counter() - started)


OPERATIONS = {"load": load, "ids": ids, "synth": synth, "synth_ids": synth_ids}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            result = {"ok": True, **OPERATIONS[request["op"]](request)}
        except Exception as error:  # reported to the bench, which prints it
            result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
