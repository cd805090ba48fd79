#!/usr/bin/env python3
"""MRZ accuracy of `kordant ocr` beside PassportEye, in one run, on the real MRZ set (originals,
half-size copies, JPEG quality-30 copies) and on the generated corpus (scripts/make-mrz-corpus).

    benchmarks/mrz-accuracy                       # real set + generated test split
    benchmarks/mrz-accuracy --split all --verbose # + dev split, and every failing file
    benchmarks/mrz-accuracy --baseline-engine /path/to/old/kordant   # same-run page-time ratio

Per set and capture class: whole-MRZ exact (returned lines == truth lines), false-valid (the tool
says valid but the lines differ from the truth, or the printed check digits are wrong, or the page
has no MRZ), MRZ found, kind right (engine: kind "id" and the format named; PassportEye: format),
median wall time per page. See benchmarks/mrz/README.md.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
GENERATOR = os.path.join(ROOT, "scripts", "mrz_corpus.py")
LINES_ONLY = {"imagejs_id-fra.jpg"}    # French CNI: 2x36 with its own layout, judged on lines only
IMG_EXT = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp", ".pnm")


# ----------------------------------------------------------------------------------------------
# Inputs

def find_engine(path):
    if path:
        return os.path.abspath(path)
    for p in (".build/release/kordant", ".build/debug/kordant"):
        full = os.path.join(ROOT, p)
        if os.access(full, os.X_OK):
            return full
    sys.exit("mrz-accuracy: no kordant binary in .build/release or .build/debug (build it, or pass --engine PATH)")


def snapshot(path, dest, wait_s=900):
    """Copy the binary once: a rebuild during the run must not mix two engines (or fail with
    'text file busy'). Waits while the file is missing or being written."""
    import shutil
    t0 = time.time()
    while True:
        try:
            st = os.stat(path)
            if time.time() - st.st_mtime > 5:       # not being written right now
                shutil.copy2(path, dest)
                if os.path.getsize(dest) == st.st_size:
                    return dest
        except OSError:
            pass
        if time.time() - t0 > wait_s:
            sys.exit(f"mrz-accuracy: {path}: no usable binary after {wait_s} s")
        print(f"mrz-accuracy: waiting for {path} (missing or being rebuilt)", file=sys.stderr)
        time.sleep(10)


def ensure_corpus(corpus, splits, count, seed):
    """(Re)generates a split when it is missing or was made by another generator version, count or seed."""
    sys.path.insert(0, os.path.dirname(GENERATOR))
    import mrz_corpus
    want = mrz_corpus.stamp(count, seed)
    for split in splits:
        d = os.path.join(corpus, split)
        stamp_path = os.path.join(d, "stamp.json")
        have = json.load(open(stamp_path)) if os.path.exists(stamp_path) and os.path.exists(os.path.join(d, "manifest.json")) else None
        if have != want:
            print(f"mrz-accuracy: generating the {split} split into {d} ...", file=sys.stderr)
            t0 = time.time()
            subprocess.run([sys.executable, GENERATOR, corpus, "--split", split, "--count", str(count), "--seed", str(seed), "--quiet"],
                           check=True)
            print(f"mrz-accuracy: {split} generated in {time.time() - t0:.0f} s", file=sys.stderr)


def generated_items(corpus, split):
    d = os.path.join(corpus, split)
    items = []
    for t in json.load(open(os.path.join(d, "manifest.json")))["documents"]:
        items.append(dict(set=f"gen-{split}", group=("no-MRZ pages" if t["format"] == "none" else t["capture"]),
                          path=os.path.join(d, t["file"]), file=t["file"], truth=t))
    return items


def real_items(real_dir, tmp):
    """Originals, half-size copies and JPEG quality-30 copies of the real set (copies in tmp)."""
    from PIL import Image
    truth = json.load(open(os.path.join(real_dir, "truth.json")))
    items = []
    for variant in ("original", "half", "q30"):
        for name in sorted(truth):
            t = dict(truth[name])
            src = os.path.join(real_dir, name)
            if not os.path.exists(src):
                continue
            if variant == "original":
                path = src
            else:
                im = Image.open(src)
                im.load()
                base, ext = os.path.splitext(name)
                if variant == "half":
                    im = im.resize((max(1, im.width // 2), max(1, im.height // 2)), Image.LANCZOS)
                    path = os.path.join(tmp, f"{base}.half{ext}")
                    if ext.lower() in (".jpg", ".jpeg"):
                        im.convert("RGB").save(path, quality=95)
                    else:
                        im.save(path)
                else:
                    path = os.path.join(tmp, f"{base}.q30.jpg")
                    im.convert("RGB").save(path, quality=30)
            items.append(dict(set=f"real-{variant}", group=variant, path=path, file=name, truth=t))
    return items


# ----------------------------------------------------------------------------------------------
# Readers: each returns dict(found, lines, valid, format, kind, seconds, error)

class Engine:
    def __init__(self, name, path, kind, timeout):
        self.name, self.path, self.kind, self.timeout = name, path, kind, timeout

    def read(self, path):
        cmd = [self.path, "ocr", "--json", "--jobs", "1"] + (["--kind", self.kind] if self.kind else []) + [path]
        t0 = time.perf_counter()
        r = dict(found=False, lines=None, valid=False, format=None, kind=None, seconds=0.0, error=None, needs_review=None)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:       # counted as no MRZ, with the time it was given
            r.update(seconds=time.perf_counter() - t0, error=f"timeout after {self.timeout} s")
            return r
        r["seconds"] = time.perf_counter() - t0
        try:
            doc = json.loads(p.stdout.strip().splitlines()[0])
        except (ValueError, IndexError):
            r["error"] = f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
            return r
        if "error" in doc:
            r["error"] = doc["error"].get("message", str(doc["error"]))
            return r
        page = (doc.get("pages") or [{}])[0]
        r["kind"] = page.get("kind")
        mrz = page.get("mrz")
        if mrz:
            r.update(found=True, lines=list(mrz.get("lines") or []), valid=bool(mrz.get("valid")), format=mrz.get("format"),
                     needs_review=mrz.get("needs_review", page.get("needs_review")),
                     failed_checks=sum(1 for c in mrz.get("checks") or [] if not c.get("valid")),
                     unsure=unsure_share(mrz))
        return r


def unsure_share(mrz):
    """Share of the zone's characters the engine reports as low-confidence (its review reason
    lists them, "(N in all)" when there are many)."""
    n = sum(len(l) for l in mrz.get("lines") or []) or 1
    for reason in mrz.get("review_reasons") or []:
        if reason.startswith("low-confidence characters"):
            m = re.search(r"\((\d+) in all\)", reason)
            return (int(m.group(1)) if m else reason.count("col ")) / n
    return 0.0


class PassportEye:
    name = "passporteye"

    def __init__(self):
        import warnings
        warnings.filterwarnings("ignore")
        from passporteye import read_mrz
        from passporteye.mrz.text import MRZOCRCleaner
        self.read_mrz, self.cleaner = read_mrz, MRZOCRCleaner

    def read(self, path):
        r = dict(found=False, lines=None, valid=False, format=None, kind=None, seconds=0.0, error=None, needs_review=None)
        t0 = time.perf_counter()
        try:
            m = self.read_mrz(path)     # (no stderr redirect: it is process-wide and would swallow other threads' output)
        except Exception as e:          # a crash on one image is that image's result, not the run's
            r["seconds"] = time.perf_counter() - t0
            r["error"] = f"{type(e).__name__}: {e}"
            return r
        r["seconds"] = time.perf_counter() - t0
        if m is not None and m.mrz_type is not None:
            raw = m.aux.get("raw_text") or m.aux.get("text") or ""
            try:
                lines = list(self.cleaner.apply(raw))
            except Exception:
                lines = [l for l in raw.splitlines() if l.strip()]
            r.update(found=True, lines=lines, valid=bool(m.valid), format=m.mrz_type)
        return r


# ----------------------------------------------------------------------------------------------
# Scoring

def score(item, r, tool):
    t = item["truth"]
    has_mrz = bool(t["lines"])
    exact = has_mrz and r["lines"] == t["lines"]
    false_valid = bool(r["valid"]) and (not has_mrz or r["lines"] != t["lines"] or not t["check_digits_valid"])
    if has_mrz:
        fmt_ok = item["file"] in LINES_ONLY or r["format"] == t["format"]
        kind_right = r["found"] and fmt_ok and (tool == "passporteye" or r["kind"] == "id")
    else:
        kind_right = not r["found"]
    # What a user can take without review: `valid`, and right (printed check digits right too).
    valid_right = bool(r["valid"]) and exact and t["check_digits_valid"]
    return dict(has_mrz=has_mrz, exact=exact, false_valid=false_valid, found=r["found"], kind_right=kind_right,
                valid_right=valid_right, checkable=has_mrz and t["check_digits_valid"])


def aggregate(rows):
    mrz = [s for s in rows if s["has_mrz"]]
    neg = [s for s in rows if not s["has_mrz"]]
    return dict(pages=len(rows), mrz_pages=len(mrz), no_mrz_pages=len(neg),
                exact=sum(s["exact"] for s in mrz), false_valid=sum(s["false_valid"] for s in rows),
                found=sum(s["found"] for s in mrz), false_found=sum(s["found"] for s in neg),
                kind_right=sum(s["kind_right"] for s in rows),
                valid_right=sum(s["valid_right"] for s in rows), checkable=sum(s["checkable"] for s in rows),
                median_s=statistics.median([s["seconds"] for s in rows]) if rows else None,
                errors=sum(1 for s in rows if s["error"]))


def diff_marks(a, b):
    return "".join(" " if i < len(b) and c == b[i] else "^" for i, c in enumerate(a))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="kordant binary (default .build/release/kordant, else .build/debug/kordant)")
    ap.add_argument("--baseline-engine", help="a second kordant binary, run on the same pages for a same-run time ratio")
    ap.add_argument("--kind", help="pass --kind to kordant ocr (default: auto detection)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "out", "mrz-corpus"), help="generated corpus (made here if missing or stale)")
    ap.add_argument("--split", choices=["test", "dev", "all", "none"], default="test")
    ap.add_argument("--count", type=int, default=150, help="documents with an MRZ per generated split")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--real", default="/work/shared/data/mrz", help="real set with truth.json ('none' to skip)")
    ap.add_argument("--no-passporteye", action="store_true")
    ap.add_argument("--parallel", type=int, default=1,
                    help="pages read at once (default 1; above 1 the page times are inflated, compare them only within the run)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per page for kordant (then: no MRZ, error 'timeout')")
    ap.add_argument("--limit", type=int, help="at most this many pages per set (quick runs)")
    ap.add_argument("--breakdown", action="store_true", help="also rows per MRZ format and per layout family (generated sets)")
    ap.add_argument("--json", metavar="PATH", help="write aggregates and per-file results as JSON ('-' for stdout)")
    ap.add_argument("--verbose", "-v", action="store_true", help="list each failing file with what was read vs the truth")
    a = ap.parse_args()

    engine_path = find_engine(a.engine)
    tools = [Engine("engine", engine_path, a.kind, a.timeout)]
    if a.baseline_engine:
        tools.append(Engine("baseline", os.path.abspath(a.baseline_engine), a.kind, a.timeout))
    if not a.no_passporteye:
        try:
            tools.append(PassportEye())
        except ImportError:
            sys.exit("mrz-accuracy: passporteye is not installed (pip install passporteye), or pass --no-passporteye")
    tmp = tempfile.TemporaryDirectory(prefix="mrz-accuracy-")
    for t in tools:
        if isinstance(t, Engine):
            t.path = snapshot(t.path, os.path.join(tmp.name, f"kordant-{t.name}"))

    splits = {"test": ["test"], "dev": ["dev"], "all": ["dev", "test"], "none": []}[a.split]
    ensure_corpus(a.corpus, splits, a.count, a.seed)
    items = []
    if a.real and a.real != "none":
        if os.path.exists(os.path.join(a.real, "truth.json")):
            items += real_items(a.real, tmp.name)
        else:
            print(f"mrz-accuracy: {a.real}/truth.json not found, real set skipped", file=sys.stderr)
    for s in splits:
        items += generated_items(a.corpus, s)
    if a.limit:
        per, kept = {}, []
        for it in items:
            per[it["set"]] = per.get(it["set"], 0) + 1
            if per[it["set"]] <= a.limit:
                kept.append(it)
        items = kept

    # One page at a time, the tools interleaved, so load from other processes hits them alike.
    def run_one(it):
        rec = dict(set=it["set"], group=it["group"], file=it["file"], path=it["path"], truth_lines=it["truth"]["lines"],
                   truth_format=it["truth"]["format"], truth_check_digits_valid=it["truth"]["check_digits_valid"],
                   family=it["truth"].get("family"), tools={})
        for t in tools:
            r = t.read(it["path"])
            r.update(score(it, r, t.name))
            rec["tools"][t.name] = r
        return rec

    t_start = time.time()
    results = []
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, a.parallel)) as pool:
        for i, rec in enumerate(pool.map(run_one, items)):
            results.append(rec)
            if (i + 1) % 20 == 0:
                print(f"mrz-accuracy: {i + 1}/{len(items)} pages, {time.time() - t_start:.0f} s", file=sys.stderr)

    names = [t.name for t in tools]
    groups = {}
    for rec in results:
        keys = [(rec["set"], "all"), (rec["set"], rec["group"])]
        if rec["truth_lines"] and not rec["truth_check_digits_valid"]:
            keys.append((rec["set"], "~ wrong check digit"))
        if a.breakdown and rec["set"].startswith("gen-"):
            keys += [(rec["set"], f"~ format {rec['truth_format']}"), (rec["set"], f"~ family {rec['family']}")]
        for key in keys:
            groups.setdefault(key, []).append(rec)
    agg = {f"{s}/{g}": {n: aggregate([r["tools"][n] for r in recs]) for n in names} for (s, g), recs in groups.items()}

    # table
    def cell(x, n):
        return f"{x}/{n}" if n else "-"
    head = f"{'set / capture':28s}{'pages':>6s}"
    sub = " " * 34
    for n in names:
        head += f" | {n[:28]:^34s}"
        sub += f" | {'exact':>7s} {'f-valid':>7s} {'found':>7s} {'kind' if n != 'passporteye' else 'format':>6s} {'med s':>5s}"
    print(head)
    print(sub)
    order = ["real-original", "real-half", "real-q30", "gen-dev", "gen-test"]
    sets = sorted({s for s, _ in groups}, key=lambda s: order.index(s) if s in order else 99)
    for s in sets:
        gnames = ["all"] + sorted({g for (ss, g) in groups if ss == s and g != "all"},
                                  key=lambda g: (g.startswith("~"), g == "no-MRZ pages", g))
        if s.startswith("real-"):
            gnames = [g for g in gnames if g == "all" or g.startswith("~")]
        for g in gnames:
            a_ = agg[f"{s}/{g}"]
            first = next(iter(a_.values()))
            label = s if g == "all" else f"  {g}"
            line = f"{label:28s}{first['pages']:>6d}"
            for n in names:
                x = a_[n]
                if g == "no-MRZ pages" or (g.startswith("~ format none") or g.startswith("~ family neg-")):
                    line += f" | {'-':>7s} {x['false_valid']:>7d} {cell(x['false_found'], x['no_mrz_pages']):>7s} {'-':>6s} {x['median_s']:>5.2f}"
                else:
                    line += (f" | {cell(x['exact'], x['mrz_pages']):>7s} {x['false_valid']:>7d} {cell(x['found'], x['mrz_pages']):>7s}"
                             f" {cell(x['kind_right'], x['pages']):>6s} {x['median_s']:>5.2f}")
            print(line)
    # totals and ratios
    allrows = {n: aggregate([r["tools"][n] for r in results]) for n in names}
    print()
    print("false-valid over every page: " + ", ".join(f"{n} {allrows[n]['false_valid']}" for n in names)
          + f"   (pages {len(results)}; found on no-MRZ pages counts in 'found' of the no-MRZ rows)")
    for s_ in sets:
        a_ = agg[f"{s_}/all"]
        print(f"valid and right ({s_}, of the MRZ pages whose printed check digits are right): "
              + ", ".join(f"{n} {cell(a_[n]['valid_right'], a_[n]['checkable'])}" for n in names))
    med = {n: allrows[n]["median_s"] for n in names}
    if "baseline" in med and med["baseline"]:
        print(f"median page time: engine {med['engine']:.2f} s, baseline {med['baseline']:.2f} s, ratio {med['engine'] / med['baseline']:.2f}x (same run)")
    errs = {n: allrows[n]["errors"] for n in names if allrows[n]["errors"]}
    if errs:
        print("errors (no result): " + ", ".join(f"{n} {k}" for n, k in errs.items()))

    if a.verbose:
        for n in names:
            print(f"\n== {n}: pages not read exactly, or false-valid ==")
            for rec in results:
                r = rec["tools"][n]
                if (r["has_mrz"] and not r["exact"]) or r["false_valid"] or (not r["has_mrz"] and r["found"]):
                    tag = "FALSE-VALID " if r["false_valid"] else ""
                    print(f"{tag}{rec['set']} {rec['file']} [{rec['truth_format']}, check digits "
                          f"{'ok' if rec['truth_check_digits_valid'] else 'WRONG'}] -> found={r['found']} valid={r['valid']} "
                          f"format={r['format']} kind={r['kind']}" + (f" error={r['error']}" if r["error"] else ""))
                    tl, gl = rec["truth_lines"], r["lines"] or []
                    for k in range(max(len(tl), len(gl))):
                        t_ = tl[k] if k < len(tl) else ""
                        g_ = gl[k] if k < len(gl) else ""
                        print(f"    truth {t_}\n    read  {g_}")
                        if t_ and g_ and t_ != g_:
                            print(f"          {diff_marks(g_, t_)}")

    if a.json:
        out = dict(engine=engine_path, baseline=a.baseline_engine, corpus=a.corpus, split=a.split, seed=a.seed, count=a.count,
                   aggregates=agg, totals=allrows,
                   files=[{k: v for k, v in r.items() if k != "path"} for r in results])
        if a.json == "-":
            json.dump(out, sys.stdout, indent=1)
        else:
            json.dump(out, open(a.json, "w"), indent=1)
    tmp.cleanup()


if __name__ == "__main__":
    main()
