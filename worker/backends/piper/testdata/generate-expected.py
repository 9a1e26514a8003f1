"""Writes expected-ids.json: the phoneme ids Piper's reference runtime (piper-tts) feeds the model.

Run with piper-tts installed (pip install piper-tts), from this folder:

    python generate-expected.py ../../../../test/.fixtures/piper/en_US-joe-medium.onnx sentences.json

For each sentence of sentences.json it records what piper-tts's PiperVoice.phonemize and phonemes_to_ids give:
one phoneme string and one id list per sentence espeak-ng finds in the text. Ids are written as
space-separated strings so the file stays small and formatters leave it alone.
"""

import json
import sys
from importlib.metadata import version

from piper import PiperVoice

model, sentences_file = sys.argv[1], sys.argv[2]
voice = PiperVoice.load(model)
with open(sentences_file, encoding="utf-8") as f:
    sentences = json.load(f)

cases = []
for text in sentences:
    phonemes = voice.phonemize(text)
    cases.append(
        {
            "text": text,
            "phonemes": ["".join(p) for p in phonemes],
            "ids": [" ".join(map(str, voice.phonemes_to_ids(p))) for p in phonemes],
        }
    )

result = {
    "generator": f"piper-tts {version('piper-tts')} (generate-expected.py)",
    "voice": "en_US-joe-medium",
    "espeakVoice": voice.config.espeak_voice,
    "cases": cases,
}
with open("expected-ids.json", "w", encoding="utf-8") as f:
    json.dump(result, f, ensure_ascii=False, indent=2)
    f.write("\n")
