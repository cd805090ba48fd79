#!/usr/bin/env python3
"""The engine's VAD and quality verdict on real speech, beside webrtcvad and silero-vad.

    python3 benchmarks/vad_compare.py --engine after=.build/release/kordant \
        [--engine before=/path/to/older/kordant] [--data ../shared/data/speech]

For every clip of the real speech set (manifest.csv): the engine's speech segments and verdict
(`kordant quality --json`, default policy), webrtcvad (modes 1 and 3, 10 ms frames) and silero-vad
(the ONNX model its wheel ships, run with onnxruntime, no torch: probability per 32 ms chunk
≥ 0.5, no smoothing). Per 10 ms frame: agreement of each pair and the speech fraction; per
engine: the clean clips (notes without NOISY / real noisy / meeting) rejected as too_noisy, and the
hum / dc_offset warnings. Needs: pip install soundfile webrtcvad onnxruntime; pip install --no-deps
silero-vad. silero-vad and webrtcvad are peers here, never used at run time.
"""
import argparse
import csv
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import soundfile as sf

FRAME = 160  # 10 ms at 16 kHz


def clean(notes):
    n = notes.lower()
    return not ("noisy" in n or "meeting" in n)


def engine_run(binary, path):
    p = subprocess.run([binary, "quality", "--json", path], capture_output=True, text=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def frames_from_segments(segments, n):
    s = np.zeros(n, dtype=bool)
    for a, b in segments:
        # A frame is speech when its centre lies inside a segment.
        lo = int(np.ceil(a * 100 - 0.5))
        hi = int(np.ceil(b * 100 - 0.5))
        s[max(0, lo):min(n, hi)] = True
    return s


def webrtc_frames(pcm16, mode):
    import webrtcvad
    v = webrtcvad.Vad(mode)
    n = len(pcm16) // FRAME
    raw = pcm16.tobytes()
    return np.array([v.is_speech(raw[i * FRAME * 2:(i + 1) * FRAME * 2], 16000) for i in range(n)], dtype=bool)


class Silero:
    def __init__(self):
        import onnxruntime as ort
        root = importlib.util.find_spec("silero_vad").submodule_search_locations[0]
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(os.path.join(root, "data", "silero_vad.onnx"), sess_options=opts,
                                            providers=["CPUExecutionProvider"])

    def frames(self, x, n):
        # The model's own streaming protocol: 512-sample chunks with 64 samples of context and
        # the recurrent state carried over (as silero_vad.utils_vad.OnnxWrapper does).
        state = np.zeros((2, 1, 128), dtype=np.float32)
        context = np.zeros((1, 64), dtype=np.float32)
        probs = []
        for start in range(0, len(x), 512):
            chunk = x[start:start + 512]
            if len(chunk) < 512:
                chunk = np.pad(chunk, (0, 512 - len(chunk)))
            inp = np.concatenate([context, chunk[None, :].astype(np.float32)], axis=1)
            out, state = self.session.run(None, {"input": inp, "state": state, "sr": np.array(16000, dtype=np.int64)})
            context = inp[:, -64:]
            probs.append(float(out[0][0]))
        centres = np.arange(n) * FRAME + FRAME // 2
        return np.array([probs[min(len(probs) - 1, c // 512)] >= 0.5 for c in centres], dtype=bool)


def reference_snr(data, noisy_file):
    """Speech-band SNR of a VoiceBank-DEMAND noisy clip against its clean original (noise = noisy
    - clean; both DC-removed and high-passed at 100 Hz like the engine; frames where the clean
    speech is within 40 dB of its loudest frame)."""
    from scipy.signal import butter, sosfilt
    sos = butter(4, 100, "highpass", fs=16000, output="sos")
    clean_x, _ = sf.read(os.path.join(data, noisy_file.replace("_noisy", "")))
    noisy_x, _ = sf.read(os.path.join(data, noisy_file))
    m = min(len(clean_x), len(noisy_x))
    c = sosfilt(sos, clean_x[:m] - clean_x[:m].mean())
    d = sosfilt(sos, (noisy_x[:m] - clean_x[:m]) - (noisy_x[:m] - clean_x[:m]).mean())
    frames = lambda x: (x[:len(x) // FRAME * FRAME].reshape(-1, FRAME) ** 2).mean(1)
    pc, pd = frames(c), frames(d)
    active = pc > pc.max() * 1e-4
    return 10 * np.log10(pc[active].mean() / pd[active].mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="NAME=path/to/kordant (several to compare builds)")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "speech"))
    ap.add_argument("--per-clip", action="store_true", help="print one line per clip")
    args = ap.parse_args()
    engines = [e.split("=", 1) for e in args.engine]
    rows = list(csv.DictReader(open(os.path.join(args.data, "manifest.csv"))))
    silero = Silero()

    names = [n for n, _ in engines] + ["webrtc1", "webrtc3", "silero"]
    agree = {(a, b): [0, 0] for i, a in enumerate(names) for b in names[i + 1:]}
    speech = {n: [0, 0] for n in names}
    snrs = {}
    verdicts = {n: {"clean": 0, "clean_too_noisy": [], "clean_fail": [], "noisy": 0, "noisy_too_noisy": 0, "hum": 0, "dc_offset": 0}
                for n, _ in engines}
    for r in rows:
        path = os.path.join(args.data, r["file"])
        x, sr = sf.read(path, dtype="float32")
        pcm16, _ = sf.read(path, dtype="int16")
        assert sr == 16000
        n = len(x) // FRAME
        decisions = {}
        for name, binary in engines:
            q = engine_run(binary, path)
            snrs[(name, r["file"])] = q["snr_db"]
            decisions[name] = frames_from_segments(q["segments"], n)
            v = verdicts[name]
            is_clean = clean(r["notes"])
            too_noisy = "too_noisy" in q["reasons"]
            if is_clean:
                v["clean"] += 1
                if too_noisy:
                    v["clean_too_noisy"].append(r["file"])
                if not q["pass"]:
                    v["clean_fail"].append((r["file"], q["reasons"]))
            else:
                v["noisy"] += 1
                v["noisy_too_noisy"] += too_noisy
            codes = [w["code"] for w in q.get("quality_warnings", [])]
            v["hum"] += "hum" in codes
            v["dc_offset"] += "dc_offset" in codes
            if args.per_clip:
                print(f"{name:7s} {r['file'][:40]:40s} {'clean' if is_clean else 'noisy'} snr {q['snr_db']} "
                      f"hum {q.get('hum_db')} reasons {q['reasons']} warnings {codes}")
        decisions["webrtc1"] = webrtc_frames(pcm16, 1)[:n]
        decisions["webrtc3"] = webrtc_frames(pcm16, 3)[:n]
        decisions["silero"] = silero.frames(x, n)
        for (a, b), acc in agree.items():
            acc[0] += int(np.sum(decisions[a] == decisions[b]))
            acc[1] += n
        for name in names:
            speech[name][0] += int(decisions[name].sum())
            speech[name][1] += n

    print(f"{len(rows)} clips, {sum(v[1] for v in speech.values()) // len(names)} frames of 10 ms")
    print("\nspeech fraction of 10 ms frames:")
    for name in names:
        print(f"  {name:8s} {speech[name][0] / speech[name][1]:.3f}")
    print("\nframe agreement:")
    for (a, b), (same, total) in agree.items():
        print(f"  {a:8s} vs {b:8s} {same / total:.3f}")
    print("\nspeech-band SNR of the VoiceBank-DEMAND noisy clips (reference from the clean original | engines):")
    for r in rows:
        if r["file"].endswith("_noisy.wav"):
            print(f"  {r['file']:32s} reference {reference_snr(args.data, r['file']):5.1f} |"
                  + "".join(f" {name} {snrs[(name, r['file'])]:5.1f}" for name, _ in engines))
    for name, _ in engines:
        clean_snrs = [snrs[(name, r["file"])] for r in rows if clean(r["notes"]) and snrs[(name, r["file"])] is not None]
        print(f"  {name}: lowest SNR of a clean clip {min(clean_snrs):.1f} dB, median {np.median(clean_snrs):.1f} dB")
    print("\nquality verdicts (default policy):")
    for name, v in verdicts.items():
        print(f"  {name}: clean clips rejected too_noisy {len(v['clean_too_noisy'])} of {v['clean']}"
              f" {v['clean_too_noisy']}; clean clips failing for any reason {len(v['clean_fail'])}"
              f" {v['clean_fail']}; noisy/meeting clips too_noisy {v['noisy_too_noisy']} of {v['noisy']};"
              f" hum warnings {v['hum']}, dc_offset warnings {v['dc_offset']}")


if __name__ == "__main__":
    sys.exit(main())
