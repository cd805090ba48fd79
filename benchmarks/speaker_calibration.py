#!/usr/bin/env python3
"""Calibrates and evaluates speaker verification and enrollment consistency on real speech
(../shared/data/speech: 105 clips, 35 speakers), speaker-disjoint.

Split: the speakers sorted by id; speakers with at least 2 clips alternate dev/test (even index
dev, odd test), single-clip speakers likewise (impostors only). Thresholds and the logistic
calibration are fitted on dev only; every figure marked `test` comes from speakers never used
for tuning.

Trials (within one split):
- 1-utterance: every pair of clips; target when both are the same speaker.
- 3-sample enrollment: for each speaker with >= 4 clips, up to 20 enrollments of 3 of its clips
  (voiceprint = L2-normalised mean embedding, as the engine), tested against each of its other
  clips (target) and every clip of the other speakers (non-target).
- Consistency: 3 clips of one speaker (genuine) and 2 of one + 1 of another (mixed); the
  leave-one-out score of a sample is its cosine to the normalised mean of the others.

Scores come from the engine (`kordant embed --json`) and from Resemblyzer 0.1.4 + torch (the
reference EER on the same trials).

Usage: benchmarks/speaker_calibration.py [--kordant .build/release/kordant] [--data ../shared/data/speech]
Prints a report and the chosen operating point as JSON (last line).
"""
import argparse
import csv
import itertools
import json
import os
import random
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def engine_embeddings(kordant, files):
    out = subprocess.run([kordant, "embed", "--json", "--jobs", "2", *files], check=True, capture_output=True, text=True)
    emb = {}
    for line in out.stdout.splitlines():
        o = json.loads(line)
        emb[o["file"]] = np.array(o["embedding"], dtype=np.float64)
    return emb


def reference_embeddings(files, cache):
    if os.path.exists(cache):
        with open(cache) as f:
            d = json.load(f)
        if all(f in d for f in files):
            return {k: np.array(v) for k, v in d.items()}
    import torch
    torch.set_num_threads(1)
    from resemblyzer import VoiceEncoder, preprocess_wav
    enc = VoiceEncoder(device="cpu", verbose=False)
    d = {f: enc.embed_utterance(preprocess_wav(f)).astype(float).tolist() for f in files}
    with open(cache, "w") as fh:
        json.dump(d, fh)
    return {k: np.array(v) for k, v in d.items()}


def unit(v):
    return v / np.linalg.norm(v)


def eer(target, nontarget):
    t, n = np.asarray(target), np.asarray(nontarget)
    best = (1.0, 0.0)
    for th in np.unique(np.concatenate([t, n])):
        frr, far = np.mean(t < th), np.mean(n >= th)
        if abs(frr - far) < abs(best[0] - best[1]) or (abs(frr - far) == abs(best[0] - best[1]) and frr + far < sum(best)):
            best = (frr, far)
    return (best[0] + best[1]) / 2


def trials(emb, clips_by_speaker, rng):
    """(target, nontarget) scores for 1-utterance pairs and 3-sample enrollments."""
    speakers = sorted(clips_by_speaker)
    allclips = [(s, c) for s in speakers for c in clips_by_speaker[s]]
    one_t, one_n = [], []
    for (s1, c1), (s2, c2) in itertools.combinations(allclips, 2):
        score = float(emb[c1] @ emb[c2])
        (one_t if s1 == s2 else one_n).append(score)
    three_t, three_n = [], []
    for s in speakers:
        clips = clips_by_speaker[s]
        if len(clips) < 4:
            continue
        combos = list(itertools.combinations(clips, 3))
        rng.shuffle(combos)
        for enrol in combos[:20]:
            vp = unit(np.mean([emb[c] for c in enrol], axis=0))
            three_t += [float(vp @ emb[c]) for c in clips if c not in enrol]
            three_n += [float(vp @ emb[c]) for s2, c in allclips if s2 != s]
    return np.array(one_t), np.array(one_n), np.array(three_t), np.array(three_n)


def consistency_trials(emb, clips_by_speaker, rng):
    """Leave-one-out scores: genuine enrollments (min LOO score) and mixed ones (odd sample's LOO
    score, the others' LOO scores)."""
    multi = [s for s in sorted(clips_by_speaker) if len(clips_by_speaker[s]) >= 3]
    others = sorted(clips_by_speaker)
    genuine, mixed = [], []
    for s in multi:
        combos = list(itertools.combinations(clips_by_speaker[s], 3))
        rng.shuffle(combos)
        for enrol in combos[:10]:
            genuine.append([loo(emb, enrol, i) for i in range(3)])
        for _ in range(10):
            two = rng.sample(clips_by_speaker[s], 2)
            s2 = rng.choice([o for o in others if o != s])
            odd = rng.choice(clips_by_speaker[s2])
            enrol = two + [odd]
            mixed.append([loo(emb, enrol, i) for i in range(3)])
    return genuine, mixed


def loo(emb, enrol, i):
    rest = unit(np.mean([emb[c] for j, c in enumerate(enrol) if j != i], axis=0))
    return float(rest @ emb[enrol[i]])


def fit_logistic(target, nontarget):
    x = np.concatenate([target, nontarget])
    y = np.concatenate([np.ones(len(target)), np.zeros(len(nontarget))])
    # Balanced classes: each trial weighted so targets and non-targets count equally.
    w = np.where(y == 1, 0.5 / len(target), 0.5 / len(nontarget))
    a, b = 10.0, -7.0
    for _ in range(100):  # Newton's method on the weighted log-loss
        p = 1 / (1 + np.exp(-(a * x + b)))
        g = np.array([np.sum(w * (p - y) * x), np.sum(w * (p - y))])
        h = np.array([[np.sum(w * p * (1 - p) * x * x), np.sum(w * p * (1 - p) * x)],
                      [np.sum(w * p * (1 - p) * x), np.sum(w * p * (1 - p))]]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(h, g)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-9:
            break
    return float(a), float(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kordant", default=os.path.join(ROOT, ".build/release/kordant"))
    ap.add_argument("--data", default=os.path.join(ROOT, "../shared/data/speech"))
    ap.add_argument("--reference-cache", default="/tmp/kordant-resemblyzer-embeddings.json")
    ap.add_argument("--no-reference", action="store_true")
    args = ap.parse_args()
    data = os.path.realpath(args.data)
    with open(os.path.join(data, "manifest.csv")) as f:
        rows = list(csv.DictReader(f))
    clips = {}
    for r in rows:
        clips.setdefault(r["speaker"], []).append(os.path.join(data, r["file"]))
    speakers = sorted(clips)
    multi = [s for s in speakers if len(clips[s]) >= 2]
    single = [s for s in speakers if len(clips[s]) < 2]
    split = {"dev": multi[0::2] + single[0::2], "test": multi[1::2] + single[1::2]}
    files = [c for s in speakers for c in clips[s]]

    scorers = {"kordant": engine_embeddings(args.kordant, files)}
    if not args.no_reference:
        scorers["resemblyzer"] = reference_embeddings(files, args.reference_cache)

    report = {}
    for name, emb in scorers.items():
        for part in ("dev", "test"):
            by = {s: clips[s] for s in split[part]}
            rng = random.Random(16)
            t1, n1, t3, n3 = trials(emb, by, rng)
            genuine, mixed = consistency_trials(emb, by, rng)
            report[(name, part)] = dict(t1=t1, n1=n1, t3=t3, n3=n3, genuine=genuine, mixed=mixed)

    dev = report[("kordant", "dev")]
    # Operating point on dev 3-sample trials: match threshold where FAR is 0.5 % (or the lowest
    # threshold with no false accept, if lower), no-match threshold where FRR is 2 %.
    n3 = np.sort(dev["n3"])
    match = float(np.quantile(n3, 0.995))
    no_match = float(np.quantile(dev["t3"], 0.02))
    no_match = min(no_match, match)
    a, b = fit_logistic(np.concatenate([dev["t1"], dev["t3"]]), np.concatenate([dev["n1"], dev["n3"]]))
    # Consistency: the odd sample of mixed dev enrollments against genuine samples.
    genuine_min = np.array([min(g) for g in dev["genuine"]])
    odd = np.array([m[2] for m in dev["mixed"]])
    consistency = float((genuine_min.min() + odd.max()) / 2) if genuine_min.min() > odd.max() else float(np.quantile(genuine_min, 0.02))

    print(f"split: dev {len(split['dev'])} speakers, test {len(split['test'])} speakers (speaker-disjoint)")
    print(f"operating point (dev): match >= {match:.3f}, no_match < {no_match:.3f}, logistic a={a:.2f} b={b:.2f}, consistency {consistency:.3f}")
    for (name, part), r in sorted(report.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        e1, e3 = eer(r["t1"], r["n1"]), eer(r["t3"], r["n3"])
        far = np.mean(r["n3"] >= match)
        frr = np.mean(r["t3"] < match)
        nm = np.mean(r["t3"] < no_match)
        far1, frr1 = np.mean(r["n1"] >= match), np.mean(r["t1"] < match)
        gen_ok = np.mean([min(g) >= consistency for g in r["genuine"]])
        named = np.mean([m[2] < consistency and min(m[0], m[1]) >= consistency for m in r["mixed"]])
        rejected = np.mean([min(m) < consistency for m in r["mixed"]])
        print(f"{part:4} {name:11} 1-utt EER {100*e1:5.2f} % ({len(r['t1'])} target / {len(r['n1'])} non-target)"
              f" | 3-sample EER {100*e3:5.2f} % ({len(r['t3'])}/{len(r['n3'])})"
              f" | at match threshold: 3-sample FAR {100*far:.2f} % FRR {100*frr:.2f} % (match verdicts {100*(1-frr):.1f} % same / {100*far:.2f} % others),"
              f" 1-utt FAR {100*far1:.2f} % FRR {100*frr1:.2f} %, same-speaker no_match {100*nm:.2f} %"
              f" | consistency: genuine accepted {100*gen_ok:.0f} % ({len(r['genuine'])}), mixed rejected {100*rejected:.0f} %, odd one named {100*named:.0f} % ({len(r['mixed'])})")
    print(json.dumps({"matchThreshold": round(match, 3), "noMatchThreshold": round(no_match, 3),
                      "calibrationSlope": round(a, 3), "calibrationIntercept": round(b, 3),
                      "consistencyThreshold": round(consistency, 3)}))


if __name__ == "__main__":
    main()
