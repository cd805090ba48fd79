#!/usr/bin/env python3
"""Fits the weights the MRZ reader gives its three readers (issue 14).

    scripts/fit-mrz-fusion dump BIN OUT.npz DEV_DIR...   read every page, keep each cell's evidence
    scripts/fit-mrz-fusion fit OUT.npz... [--weights=CELLMODEL.swift] [--as-set=T,s,b,c,n]
                                                         maximum-likelihood weights, cross-checked
                                                         against the engine's (or the given) set

`dump` runs `BIN ocr --json --mrz-cells` on every page of the given corpus folders (dev splits
only: a folder named `test` is refused) and keeps, for each cell of a zone found in the format of
the truth, the OCR-B template distances, the learned cell reader's log-probabilities, Tesseract's
log-likelihoods and the printed character. `fit` weighs them as the engine does,

    score_k = -d_k / (T * max(1, best / s)) + b * cellModel_k + c * tesseract_k + n * nameBonus_k

(the name bonus: Tesseract's letter read at confidence 90 or more in a name cell) over the
characters the grammar allows in the cell, and finds T, s, b, c and n that make the printed
characters likeliest: fitted on one half of the zones and reported on the other (and the reverse),
then on all, shown at the temperature the engine keeps. `--weights` recomputes the learned reader's
log-probabilities from the cells' ink with other weights (a retrained reader).
"""
import base64
import concurrent.futures as futures
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mrz_cell_model import log_probabilities  # noqa: E402
from mrz_confusion import read as read_page  # noqa: E402

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
K = len(ALPHABET)
INK = 32 * 48


def dump(binary, out, folders):
    jobs = []
    for folder in folders:
        if os.path.basename(os.path.normpath(folder)) == "test":
            sys.exit(f"fit-mrz-fusion: {folder} is a test split; fit on dev pages only")
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        for doc in manifest["documents"]:
            if doc.get("lines"):
                jobs.append((folder, doc))
    dist, model, tess, tchar, tconf, ink, truth, page, meta = [], [], [], [], [], [], [], [], []
    with futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(lambda j: read_page(binary, os.path.join(j[0], j[1]["file"])), jobs)
        for index, ((folder, doc), mrz) in enumerate(zip(jobs, results)):
            if not mrz or not mrz.get("cells") or len(mrz["lines"]) != len(doc["lines"]):
                continue
            if [len(l) for l in mrz["lines"]] != [len(l) for l in doc["lines"]]:
                continue
            for li, (line, cells) in enumerate(zip(doc["lines"], mrz["cells"])):
                for ci, (t, cell) in enumerate(zip(line, cells)):
                    d = cell.get("template_distances") or [-1] * K
                    dist.append(d)
                    model.append(cell.get("cell_model") or [0.0] * K)
                    tess.append(cell.get("tesseract_evidence") or [0.0] * K)
                    read = cell.get("tesseract") or ""
                    tchar.append(ALPHABET.index(read) if read and read in ALPHABET else -1)
                    tconf.append(cell.get("tesseract_confidence") or 0.0)
                    ink.append(np.frombuffer(base64.b64decode(cell["ink"]), np.uint8) if cell.get("ink")
                               else np.zeros(INK, np.uint8))
                    truth.append(ALPHABET.index(t))
                    page.append(index)
                    meta.append(f"{folder}|{doc['file']}|{doc.get('capture', '')}|{li}|{ci}")
            print(f"{index + 1}/{len(jobs)}", end="\r", file=sys.stderr)
    np.savez_compressed(out, dist=np.array(dist, np.float32), model=np.array(model, np.float32),
                        tess=np.array(tess, np.float32), tchar=np.array(tchar, np.int16),
                        tconf=np.array(tconf, np.float32), ink=np.array(ink, np.uint8), truth=np.array(truth, np.int16),
                        page=np.array(page, np.int32), meta=np.array(meta))
    print(f"\n{len(truth)} cells from {len(set(page))} zones of {len(jobs)} pages -> {out}", file=sys.stderr)


def load(paths):
    parts = [np.load(p) for p in paths]
    cat = lambda key: np.concatenate([p[key] for p in parts])
    # Pages numbered apart per file.
    pages, offset = [], 0
    for p in parts:
        pages.append(p["page"] + offset)
        offset += int(p["page"].max()) + 1
    return {"dist": cat("dist").astype(np.float64), "model": cat("model").astype(np.float64),
            "tess": cat("tess").astype(np.float64), "tchar": cat("tchar").astype(np.int64),
            "tconf": cat("tconf").astype(np.float64), "ink": cat("ink"), "truth": cat("truth").astype(np.int64),
            "page": np.concatenate(pages), "meta": cat("meta")}


def field_kind(lines, length, visa, line, cell):
    """What the grammar allows in a cell (ICAO 9303 layouts, as MRZDecoder.layout): L letters or
    filler, D digits, DF digit or filler, A anything, S sex."""
    if lines == 3:
        if line == 0:
            return "L" if cell < 5 else "A" if cell < 14 else "DF" if cell == 14 else "A"
        if line == 1:
            return "S" if cell == 7 else "D" if cell < 15 else "L" if cell < 18 else "A" if cell < 29 else "D"
        return "L"
    if line == 0:
        return "L"
    if cell < 9:
        return "A"
    if cell in (9, 19, 27) or 13 <= cell < 19 or 21 <= cell < 27:
        return "D"
    if cell < 13:
        return "L"
    if cell == 20:
        return "S"
    if visa or cell < length - (2 if length == 44 else 1):
        return "A"
    return "DF" if cell == 42 else "D"


def features(d, weights=None):
    """The grammar's mask, the name cells' Tesseract bonus (as MRZScanner.read weighs it) and the
    learned reader's log-probabilities (recomputed from the ink for other weights)."""
    meta, page = d["meta"], d["page"]
    line = np.array([int(m.split("|")[3]) for m in meta])
    cell = np.array([int(m.split("|")[4]) for m in meta])
    lines, length, visa = {}, {}, {}
    for p, l, c, t in zip(page, line, cell, d["truth"]):
        lines[p] = max(lines.get(p, 0), l + 1)
        length[p] = max(length.get(p, 0), c + 1)
        if l == 0 and c == 0:
            visa[p] = ALPHABET[t] == "V"
    kinds = np.array([field_kind(lines[p], length[p], visa.get(p, False), l, c) for p, l, c in zip(page, line, cell)])
    allowed = {"L": list(range(10, 37)), "D": list(range(10)), "DF": list(range(10)) + [36],
               "A": list(range(K)), "S": [ALPHABET.index(x) for x in "MFX<"]}
    mask = np.zeros((len(kinds), K), bool)
    for k, a in allowed.items():
        mask[np.ix_(kinds == k, a)] = True
    truth = d["truth"]
    mask[np.arange(len(truth)), truth] = True   # a printed character the layout does not foresee
    name = np.array([(lines[p] == 3 and l == 2) or (lines[p] == 2 and l == 0 and c >= 5)
                     for p, l, c in zip(page, line, cell)])
    bonus = np.zeros((len(truth), K))
    sure = name & (d["tconf"] >= 90) & (d["tchar"] >= 10) & (d["tchar"] < 36)
    q = np.minimum(0.97, d["tconf"][sure] / 100)
    bonus[sure, :36] = np.log((1 - q) / 36)[:, None]
    bonus[np.where(sure)[0], d["tchar"][sure]] = np.log(q)
    model = log_probabilities(weights, d["ink"]) if weights else d["model"]
    return mask, bonus, model


def scores(params, d, mask, bonus, model):
    T, s, b, c, n = params
    dist = d["dist"]
    finite = dist >= 0
    best = np.where(finite, dist, np.inf).min(axis=1, keepdims=True)
    best = np.where(np.isfinite(best), best, s)
    template = np.where(finite, -dist / (T * np.maximum(1.0, best / s)), -20.0)
    return np.where(mask, template + b * model + c * d["tess"] + n * bonus, -1e9)


def nll(params, d, mask, bonus, model, rows):
    z = scores(params, d, mask, bonus, model)[rows]
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(rows.sum()), d["truth"][rows]].sum()


def errors(params, d, mask, bonus, model, rows):
    return int((scores(params, d, mask, bonus, model)[rows].argmax(axis=1) != d["truth"][rows]).sum())


def fit_params(start, d, mask, bonus, model, rows):
    """Coordinate search in log space (five parameters; no optimiser library needed)."""
    params = list(start)
    best = nll(params, d, mask, bonus, model, rows)
    step = 0.5
    while step > 0.02:
        improved = False
        for i in range(len(params)):
            for sign in (1, -1):
                trial = list(params)
                trial[i] = params[i] * np.exp(sign * step)
                value = nll(trial, d, mask, bonus, model, rows)
                if value < best - 1e-6:
                    params, best, improved = trial, value, True
        if not improved:
            step /= 2
    return params, best


def show(params):
    """At the templates' temperature the engine keeps (0.012): the other weights scale with it."""
    f = params[0] / 0.012
    return (f"softening distance {params[1]:.3f}, cell reader {params[2] * f:.3f}, Tesseract {params[3] * f:.3f}, "
            f"names {params[4] * f:.3f} (fitted temperature {params[0]:.4f})")


def fit(paths, weights=None, engine=(0.012, 0.088, 1.6, 0.96, 0.185)):
    d = load(paths)
    mask, bonus, model = features(d, weights)
    page, everything = d["page"], np.ones(len(d["truth"]), bool)
    engine = list(engine)
    print(f"{len(page)} cells, {len(set(page))} zones; weights {show(engine)}")
    alone = int((np.where(mask, model, -1e9).argmax(axis=1) != d["truth"]).sum())
    print(f"  the learned reader alone: characters wrong within the grammar {alone}")
    print(f"  as set: nll {nll(engine, d, mask, bonus, model, everything):.1f}, "
          f"characters wrong within the grammar {errors(engine, d, mask, bonus, model, everything)}")
    for k in (0, 1):
        half, other = page % 2 == k, page % 2 != k
        params, _ = fit_params(engine, d, mask, bonus, model, half)
        print(f"  fitted on half {k} of the zones: {show(params)}\n"
              f"    other half: nll {nll(params, d, mask, bonus, model, other):.1f} "
              f"(as set {nll(engine, d, mask, bonus, model, other):.1f}), wrong "
              f"{errors(params, d, mask, bonus, model, other)} (as set {errors(engine, d, mask, bonus, model, other)})")
    params, value = fit_params(engine, d, mask, bonus, model, everything)
    print(f"  fitted on all: {show(params)}\n    nll {value:.1f}, wrong {errors(params, d, mask, bonus, model, everything)}")
    captures = np.array([m.split("|")[2] for m in d["meta"]])
    for cap in sorted(set(captures)):
        rows = captures == cap
        print(f"    {cap:12s} cells {rows.sum():6d}  wrong as set {errors(engine, d, mask, bonus, model, rows):4d}"
              f"  fitted {errors(params, d, mask, bonus, model, rows):4d}")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "fit":
        flags = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("--")}
        kwargs = {"weights": flags.get("--weights")}
        if "--as-set" in flags:
            kwargs["engine"] = tuple(float(v) for v in flags["--as-set"].split(","))
        fit([a for a in sys.argv[2:] if not a.startswith("--")], **kwargs)
    else:
        sys.exit(__doc__)
