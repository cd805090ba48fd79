#!/usr/bin/env python3
"""Document fields, kind and text of `kordant ocr` on the generated document corpus
(scripts/make-doc-corpus: dev and test splits of separate layout families, fonts, phrasings and
seeds) and on the real receipts beside raw `tesseract`, in one run.

    benchmarks/doc-accuracy                          # test split + real receipts
    benchmarks/doc-accuracy --split all --verbose    # + dev split, and every wrong field
    benchmarks/doc-accuracy --engine /tmp/old-kordant --json out/before.json

Generated pages, per kind and per capture class: fields exact (after normalisation) out of the
fields a person would copy off the page; wrong (a value reported that is not the printed one,
not marked needs_review); flagged (wrong but marked needs_review); invented (any field reported
on a page of none of our kinds); kind right (incl. `unknown`); mean CER against the printed lines.
Receipts: text-line CER against the annotated lines (top to bottom) for engine and raw
`tesseract`, word F1 over bags of tokens (the SROIE protocol), key values (company, date, address,
total) found verbatim in the text, pages worse than raw, kind (`unknown` is right), pairs found.
"""
import argparse
import concurrent.futures
import csv
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mrz_accuracy import find_engine, snapshot  # noqa: E402

RECEIPTS = os.path.join(ROOT, "..", "shared", "data", "docs-real", "receipts")


def edit_distance(a, b):
    from rapidfuzz.distance import Levenshtein     # installed by benchmarks/doc-accuracy
    return Levenshtein.distance(a, b)


def squash(t):
    return " ".join(t.split())


def cer(hyp, ref):
    ref, hyp = squash(ref), squash(hyp)
    return edit_distance(hyp, ref) / max(1, len(ref))


# Letters NFKD does not decompose, as a person copying them in ASCII would write them.
FOLD = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss",
                      "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i", "ʻ": "'", "’": "'"})


def fold(s):
    return "".join(ch for ch in unicodedata.normalize("NFKD", s.translate(FOLD)) if not unicodedata.combining(ch))


def norm(field, v):
    """The comparison form of a field value (applied to truth and engine alike)."""
    if v is None:
        return None
    if isinstance(v, (int, float)):
        return round(float(v), 2)
    s = squash(fold(str(v))).strip(" .,;")
    if field == "consideration":
        try:
            return round(float(s.replace("$", "").replace(",", "")), 2)
        except ValueError:
            return s
    if field == "phone":
        return "".join(ch for ch in s if ch.isdigit())[-10:]
    if field in ("email",):
        return s.lower()
    if field == "listing_url":
        s = s.lower()
        for pre in ("https://", "http://"):
            s = s[len(pre):] if s.startswith(pre) else s
        return s.rstrip("/")
    if field == "request_options":
        return ",".join(sorted(x.strip() for x in s.split(",") if x.strip()))
    return s.upper().replace(" ,", ",")


# ----------------------------------------------------------------------------------------------

SAVE = None      # --save DIR: keep each page's JSON (with words) for offline replays of the extraction
REPLAY = None    # --replay DIR: score saved JSON instead of running the engine


def run_engine(engine, path, timeout):
    name = os.path.basename(path) + ".json"
    if REPLAY:
        try:
            doc = json.load(open(os.path.join(REPLAY, name)))
            return (doc.get("pages") or [None])[0], 0.0
        except (OSError, ValueError):
            return None, 0.0
    t0 = time.perf_counter()
    try:
        p = subprocess.run([engine, "ocr", "--json", "--jobs", "1"] + (["--words"] if SAVE else []) + [path], capture_output=True,
                           text=True, timeout=timeout, env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    except subprocess.TimeoutExpired:
        return None, timeout
    dt = time.perf_counter() - t0
    try:
        line = p.stdout.strip().splitlines()[0]
        doc = json.loads(line)
        if SAVE:
            with open(os.path.join(SAVE, name), "w") as fh:
                fh.write(line)
        return (doc.get("pages") or [None])[0], dt
    except (ValueError, IndexError):
        return None, dt


def run_tesseract(path, timeout):
    t0 = time.perf_counter()
    p = subprocess.run(["tesseract", path, "stdout"], capture_output=True, text=True, timeout=timeout,
                       env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    return p.stdout, time.perf_counter() - t0


def score_page(truth, page):
    exp = truth["fields"]
    got = {} if page is None else page.get("fields", {})
    res = dict(expected=len(exp), exact=0, exact_flagged=0, wrong=0, flagged=0, missing=0, invented=0, details=[])
    for k, v in exp.items():
        f = got.get(k)
        if f is None:
            res["missing"] += 1
            res["details"].append((k, v, None, ""))
            continue
        if norm(k, f.get("value")) == norm(k, v):
            res["exact"] += 1
            res["exact_flagged"] += bool(f.get("needs_review"))
        elif f.get("needs_review"):
            res["flagged"] += 1
            res["details"].append((k, v, f.get("value"), " (review)"))
        else:
            res["wrong"] += 1
            res["details"].append((k, v, f.get("value"), " (WRONG, not flagged)"))
    if truth["kind"] == "unknown":
        res["invented"] = sum(1 for f in got.values() if not f.get("needs_review"))
    res["kind_right"] = page is not None and page.get("kind") == truth["kind"]
    res["cer"] = cer(page.get("text", "") if page else "", " ".join(truth["lines"])) if truth["lines"] else None
    return res


def table(title, groups):
    print(f"\n{title}")
    print(f"{'group':24s} {'pages':>5s} {'fields':>6s} {'exact':>7s} {'(review)':>8s} {'wrong':>6s} {'flagged':>7s} {'missing':>7s} "
          f"{'invented':>8s} {'kind':>6s} {'CER':>6s}")
    for name, rows in groups:
        n = sum(r["expected"] for r in rows)
        cers = [r["cer"] for r in rows if r["cer"] is not None]
        pct = lambda x: f"{100 * x / n:5.1f}%" if n else "    -"
        print(f"{name:24s} {len(rows):5d} {n:6d} {pct(sum(r['exact'] for r in rows)):>7s} {pct(sum(r['exact_flagged'] for r in rows)):>8s} "
              f"{pct(sum(r['wrong'] for r in rows)):>6s} "
              f"{pct(sum(r['flagged'] for r in rows)):>7s} {pct(sum(r['missing'] for r in rows)):>7s} "
              f"{sum(r['invented'] for r in rows):8d} {100 * sum(r['kind_right'] for r in rows) / len(rows):5.1f}% "
              f"{statistics.mean(cers) if cers else 0:6.3f}")


def summary(rows):
    n = sum(r["expected"] for r in rows) or 1
    return dict(pages=len(rows), fields=n, exact=sum(r["exact"] for r in rows) / n,
                exact_flagged=sum(r["exact_flagged"] for r in rows) / n, wrong=sum(r["wrong"] for r in rows) / n,
                flagged=sum(r["flagged"] for r in rows) / n, invented=sum(r["invented"] for r in rows),
                kind=sum(r["kind_right"] for r in rows) / max(1, len(rows)),
                cer=statistics.mean([r["cer"] for r in rows if r["cer"] is not None] or [0]))


def generated(engine, corpus, split, jobs, timeout, verbose):
    d = os.path.join(corpus, split)
    manifest = json.load(open(os.path.join(d, "manifest.json")))["documents"]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda t: run_engine(engine, os.path.join(d, t["file"]), timeout), manifest))
    from PIL import Image
    rows = []
    for t, (page, dt) in zip(manifest, results):
        r = score_page(t, page)
        r.update(kind=t["kind"], capture=t["capture"], family=t["family"], font=t.get("font", "?"), seconds=dt, file=t["file"])
        # Issue 15: word boxes in the coordinates of the input image as given. A page the engine
        # rescaled, turned or deskewed reports its boxes (and width, height) in the image it read.
        with Image.open(os.path.join(d, t["file"])) as im:
            w, h = im.size
        boxes = [x["box"] for x in (page or {}).get("words", [])]
        boxes += [f["box"] for f in ((page or {}).get("fields") or {}).values() if isinstance(f, dict) and f.get("box")]
        r["boxes_inside"] = all(b["x"] >= -2 and b["y"] >= -2 and b["x"] + b["width"] <= w + 2 and b["y"] + b["height"] <= h + 2 for b in boxes)
        r["other_frame"] = bool(page) and (page.get("width"), page.get("height")) != (w, h)
        rows.append(r)
        if verbose and (r["details"] or not r["kind_right"] or r["invented"]):
            print(f"  {t['file']}: kind {page.get('kind') if page else None}"
                  + "".join(f"\n      {k}: want {v!r} got {g!r}{mark}" for k, v, g, mark in r["details"]))
    by = lambda key: [(v, [r for r in rows if r[key] == v]) for v in sorted({r[key] for r in rows})]
    table(f"{split} split, per kind", by("kind") + [("all", rows)])
    table(f"{split} split, per capture", by("capture"))
    if verbose:
        table(f"{split} split, per family", by("family"))
        table(f"{split} split, per font", by("font"))
    print(f"median page time {statistics.median(r['seconds'] for r in rows):.2f} s")
    inside, other_frame = sum(r["boxes_inside"] for r in rows), sum(r["other_frame"] for r in rows)
    print(f"word and field boxes inside the input image: {inside}/{len(rows)} pages; "
          f"pages reported in the frame they were read in (not the input's size): {other_frame}/{len(rows)}")
    return dict(all=summary(rows), boxes_inside=inside, other_frame=other_frame, kinds={k: summary(v) for k, v in by("kind")}, captures={k: summary(v) for k, v in by("capture")},
                median_seconds=statistics.median(r["seconds"] for r in rows))


def tokens(t):
    return Counter(t.split())


def word_f1(hyp, ref):
    """SROIE's word F1: the two texts as bags of whitespace-separated tokens."""
    ht, rt = tokens(hyp), tokens(ref)
    inter = sum((ht & rt).values())
    prec, rec = inter / max(1, sum(ht.values())), inter / max(1, sum(rt.values()))
    return 2 * prec * rec / max(1e-9, prec + rec)


def receipts(engine, folder, jobs, timeout, verbose):
    files = sorted(glob.glob(os.path.join(folder, "*.jpg")))
    if not files:
        print(f"\nreceipts: {folder} not found, skipped")
        return None

    def one(path):
        page, dt = run_engine(engine, path, timeout)
        raw, rdt = run_tesseract(path, timeout)
        return page, dt, raw, rdt

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(one, files))
    agg = dict(engine=[], raw=[])
    worse = worse_folded = 0
    for path, (page, dt, raw, rdt) in zip(files, results):
        base = path[:-4]
        with open(base + ".csv", encoding="utf-8", errors="replace") as fh:
            lines = [",".join(row[8:]) for row in csv.reader(fh) if len(row) >= 9]
        keys = json.load(open(base + ".json"))
        ref = "\n".join(lines)
        out = {}
        for name, text in (("engine", page.get("text", "") if page else ""), ("raw", raw)):
            flat = squash(text).upper()
            found = sum(1 for v in keys.values() if squash(str(v)).upper() in flat)
            # SROIE's transcripts are in capitals (not one lower-case letter in the 30 CSVs), so
            # "Cashier" printed and read as printed counts six errors against "CASHIER". Both
            # readers are also scored case-folded (the text upper-cased), which counts what was
            # misread and not how the annotators wrote it down.
            out[name] = dict(cer=cer(text, ref), f1=word_f1(text, ref), cer_folded=cer(text.upper(), ref),
                             f1_folded=word_f1(text.upper(), ref), found=found, keys=len(keys))
        out["engine"].update(kind=page.get("kind") if page else None, seconds=dt,
                             pairs=len(page.get("pairs", [])) if page else 0)
        out["raw"].update(seconds=rdt)
        worse += out["engine"]["cer"] > out["raw"]["cer"] + 1e-9
        worse_folded += out["engine"]["cer_folded"] > out["raw"]["cer_folded"] + 1e-9
        for k in agg:
            agg[k].append(out[k])
        if verbose:
            print(f"  {os.path.basename(path)}: CER {out['engine']['cer']:.3f} vs raw {out['raw']['cer']:.3f} "
                  f"(folded {out['engine']['cer_folded']:.3f} vs {out['raw']['cer_folded']:.3f}), "
                  f"F1 {out['engine']['f1']:.3f} vs {out['raw']['f1']:.3f} "
                  f"(folded {out['engine']['f1_folded']:.3f} vs {out['raw']['f1_folded']:.3f}), keys {out['engine']['found']} vs "
                  f"{out['raw']['found']}, kind {out['engine']['kind']}")
    m = lambda side, k: statistics.mean(x[k] for x in agg[side])
    res = dict(pages=len(files), cer_engine=m("engine", "cer"), cer_raw=m("raw", "cer"), f1_engine=m("engine", "f1"),
               f1_raw=m("raw", "f1"), cer_folded_engine=m("engine", "cer_folded"), cer_folded_raw=m("raw", "cer_folded"),
               f1_folded_engine=m("engine", "f1_folded"), f1_folded_raw=m("raw", "f1_folded"), worse_folded=worse_folded,
               keys_engine=sum(x["found"] for x in agg["engine"]),
               keys_raw=sum(x["found"] for x in agg["raw"]), keys=sum(x["keys"] for x in agg["engine"]), worse=worse,
               unknown=sum(1 for x in agg["engine"] if x["kind"] == "unknown"),
               pairs_pages=sum(1 for x in agg["engine"] if x["pairs"]),
               median_engine=statistics.median(x["seconds"] for x in agg["engine"]),
               median_raw=statistics.median(x["seconds"] for x in agg["raw"]))
    print(f"\nreal receipts ({res['pages']} pages, {folder})")
    print(f"  text-line CER  engine {res['cer_engine']:.3f}  raw tesseract {res['cer_raw']:.3f}  "
          f"ratio {res['cer_engine'] / max(1e-9, res['cer_raw']):.2f}")
    print(f"  word F1        engine {res['f1_engine']:.3f}  raw tesseract {res['f1_raw']:.3f}")
    print(f"  case-folded (the transcripts are in capitals): CER engine {res['cer_folded_engine']:.3f}  raw "
          f"{res['cer_folded_raw']:.3f}  ratio {res['cer_folded_engine'] / max(1e-9, res['cer_folded_raw']):.2f};  "
          f"word F1 engine {res['f1_folded_engine']:.3f}  raw {res['f1_folded_raw']:.3f};  "
          f"pages worse than raw {worse_folded}/{res['pages']}")
    print(f"  key values     engine {res['keys_engine']}/{res['keys']}  raw {res['keys_raw']}/{res['keys']}")
    print(f"  pages worse than raw (CER) {worse}/{res['pages']};  kind unknown {res['unknown']}/{res['pages']};  "
          f"pages with pairs {res['pairs_pages']}")
    print(f"  median page time engine {res['median_engine']:.2f} s, raw {res['median_raw']:.2f} s")
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="kordant binary (default .build/release/kordant, else .build/debug/kordant)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "out", "doc-corpus"))
    ap.add_argument("--split", choices=["dev", "test", "all", "none"], default="test")
    ap.add_argument("--count", type=int, default=30, help="documents per kind when generating the corpus")
    ap.add_argument("--receipts", default=RECEIPTS, help="real receipts folder ('' to skip)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--save", help="keep every page's JSON (with words) in this folder")
    ap.add_argument("--replay", help="score the JSON saved in this folder instead of running the engine (receipts: engine side only)")
    a = ap.parse_args()
    global SAVE, REPLAY
    SAVE, REPLAY = a.save, a.replay
    if SAVE:
        os.makedirs(SAVE, exist_ok=True)
    tmp = tempfile.TemporaryDirectory()
    engine = None if REPLAY else snapshot(find_engine(a.engine), os.path.join(tmp.name, "kordant"))
    splits = {"all": ["dev", "test"], "none": []}.get(a.split, [a.split])
    out = {"engine": a.engine or "default"}
    for split in splits:
        if not os.path.exists(os.path.join(a.corpus, split, "manifest.json")):
            subprocess.run([os.path.join(ROOT, "scripts", "make-doc-corpus"), a.corpus, "--split", split, "--count",
                            str(a.count), "--quiet"], check=True)
        out[split] = generated(engine, a.corpus, split, a.jobs, a.timeout, a.verbose)
    if a.receipts:
        out["receipts"] = receipts(engine, a.receipts, a.jobs, a.timeout, a.verbose)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
