#!/usr/bin/env python3
"""The peer of `kordant embed --json FILE…`: the same work with Resemblyzer 0.1.4 on torch CPU
(one thread), imports included. Prints one {file, embedding, model} line per file.

With --encoder-only N: instead, times N runs of the encoder alone (mel + network, embed_utterance
on the already preprocessed audio) per file and prints {file, seconds, partials, median_ms}.
"""
import json
import sys
import time

import torch

torch.set_num_threads(1)
from resemblyzer import VoiceEncoder, preprocess_wav  # noqa: E402


def main():
    args = sys.argv[1:]
    repeat = 0
    if args[:1] == ["--encoder-only"]:
        repeat, args = int(args[1]), args[2:]
    encoder = VoiceEncoder(device="cpu", verbose=False)
    for path in args:
        wav = preprocess_wav(path)
        if repeat:
            encoder.embed_utterance(wav)  # warm-up
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                _, partials, _ = encoder.embed_utterance(wav, return_partials=True)
                times.append(time.perf_counter() - t)
            times.sort()
            print(json.dumps({"file": path, "seconds": len(wav) / 16000, "partials": len(partials),
                              "median_ms": 1000 * times[len(times) // 2]}))
        else:
            e = encoder.embed_utterance(wav)
            print(json.dumps({"file": path, "embedding": [round(float(x), 6) for x in e], "model": "resemblyzer-ge2e-0.1.4"}))


if __name__ == "__main__":
    main()
