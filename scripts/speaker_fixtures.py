#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/speaker/embeddings.json: what Resemblyzer 0.1.4 (torch CPU) gives for
a few TestAudio files, for KordantVoice's SpeakerEncoder tests.

Per file: `embedding` (preprocess_wav + embed_utterance, the full reference pipeline),
`embedding_raw` (embed_utterance of the decoded 16 kHz waveform without preprocessing: mel and
network alone), `partials` (the partial embeddings of the full pipeline, first file only), `preprocessed_samples`
(length after volume normalisation and silence trimming), `vad` (webrtcvad's 30 ms decisions on the
volume-normalised audio, as a 0/1 string) and `mel_head` (the first 3 mel frames of the
preprocessed audio).

Needs: pip install torch==2.13.0+cpu librosa webrtcvad "setuptools<80" and
pip install --no-deps resemblyzer==0.1.4 (fixture generation only; the engine never uses Python).
Usage: scripts/make-speaker-fixtures
"""
import json
import os
import struct
import sys

import numpy as np
import torch

torch.set_num_threads(1)
from resemblyzer import VoiceEncoder, audio, preprocess_wav  # noqa: E402
import webrtcvad  # noqa: E402
import librosa  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = [
    "TestAudio/speech_us_male.wav",
    "TestAudio/speech_gb_female.wav",
    "TestAudio/enroll_scot_male_1.wav",
    "TestAudio/noisy_pink_snr10.wav",
    "TestAudio/quiet_speech.wav",
    "TestAudio/short_speech.wav",
    "TestAudio/fmt_44k1_stereo.flac",
]


def vad_flags(wav):
    w = 480
    wav = wav[: len(wav) - len(wav) % w]
    pcm = struct.pack("%dh" % len(wav), *(np.round(wav * 32767)).astype(np.int16))
    vad = webrtcvad.Vad(mode=3)
    return "".join("1" if vad.is_speech(pcm[i * 2:(i + w) * 2], sample_rate=16000) else "0" for i in range(0, len(wav), w))


def r(a):
    return [float("%.8g" % x) for x in np.asarray(a, dtype=np.float64).ravel()]


def main():
    encoder = VoiceEncoder(device="cpu", verbose=False)
    out = {"reference": "resemblyzer 0.1.4, torch %s CPU, librosa %s" % (torch.__version__, librosa.__version__), "files": []}
    for rel in FILES:
        path = os.path.join(ROOT, rel)
        wav, sr = librosa.load(path, sr=None)
        if sr != 16000:
            wav = librosa.resample(wav, orig_sr=sr, target_sr=16000)
        normalised = audio.normalize_volume(wav, -30, increase_only=True)
        pre = preprocess_wav(path)
        emb, partials, _ = encoder.embed_utterance(pre, return_partials=True)
        raw = encoder.embed_utterance(wav)
        mel = audio.wav_to_mel_spectrogram(pre)
        out["files"].append({
            "file": rel,
            "preprocessed_samples": int(len(pre)),
            "vad": vad_flags(normalised),
            "embedding": r(emb),
            "embedding_raw": r(raw),
            # One file's partials is enough to debug the network; keeps the fixture small.
            "partials": [r(p) for p in partials] if rel == FILES[0] else [],
            "mel_head": r(mel[:3]),
        })
        print(rel, len(pre), partials.shape, file=sys.stderr)
    dst = os.path.join(ROOT, "Tests/Fixtures/speaker/embeddings.json")
    with open(dst, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(dst, os.path.getsize(dst), "bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
