#!/usr/bin/env python3
"""Raw `tesseract` on generated pages with the image varied, scored against the generator's lines:
the measurements behind `Preprocessor.thickened`, `Preprocessor.lightDithers` and `MedianFilter`
(issue 15).

    benchmarks/page-variants out/fax-dev/dev/*.png out/fax-s30/dev/*.png
    benchmarks/page-variants --light out/fax-s37/dev/*.png out/fax-s38/dev/*.png
    benchmarks/page-variants --dithers out/fax-dev/dev/*.png
    benchmarks/page-variants --median out/pc-id38/dev/*.png out/pc-s30/dev/*.png

Per page and as a mean, the CER (benchmarks/doc_accuracy.py's) of `tesseract PAGE stdout` on the
page as faxed (`raw`), dilated 2 × 2 (`dil2`), the dilated page only where it read more words at
confidence 60 or more (`picked`), scaled 2× and dilated 3 × 3 (`up2dil3`) and dilated 2 × 1
(`dil2x1`). --light: only pages whose truth names a light face. --dithers: instead, the pale
dither regions the speck rule finds (box, ink share, components, share of specks, components per
capital height squared, and whether the rule takes it). --median: a photocopy as it is and under
the 3 × 3 median, the 5 × 5 one and the 3 × 3 one twice (OpenCV's `medianBlur`). OpenCV stands in
for Leptonica here.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_accuracy import cer  # noqa: E402

ENV = dict(os.environ, OMP_THREAD_LIMIT="1")


def read(image, tmp, tag):
    path = os.path.join(tmp, tag + ".png")
    cv2.imwrite(path, image)
    text = subprocess.run(["tesseract", path, "stdout"], capture_output=True, text=True, env=ENV).stdout
    tsv = subprocess.run(["tesseract", path, "stdout", "tsv"], capture_output=True, text=True, env=ENV).stdout
    clear = 0
    for line in tsv.splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) > 11 and cols[11].strip() and float(cols[10]) >= 60:
            clear += 1
    return text, clear


def truth_of(page):
    return json.load(open(page.rsplit(".", 1)[0] + ".truth.json"))


def variants(page, tmp):
    ref = " ".join(truth_of(page)["lines"])
    gray = cv2.imread(page, cv2.IMREAD_GRAYSCALE)
    ink = (gray < 128).astype(np.uint8)
    paper = lambda m: np.where(m > 0, 0, 255).astype(np.uint8)
    up = cv2.resize(ink, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    images = {"raw": gray, "dil2": paper(cv2.dilate(ink, np.ones((2, 2), np.uint8))),
              "up2dil3": paper(cv2.dilate(up, np.ones((3, 3), np.uint8))),
              "dil2x1": paper(cv2.dilate(ink, np.ones((2, 1), np.uint8)))}
    tag = os.path.basename(page)
    readings = {k: read(im, tmp, f"{tag}-{k}") for k, im in images.items()}
    out = {k: cer(text, ref) for k, (text, _) in readings.items()}
    out["picked"] = out["dil2"] if readings["dil2"][1] > readings["raw"][1] else out["raw"]
    return out


def medians(page, tmp):
    ref = " ".join(truth_of(page)["lines"])
    gray = cv2.imread(page, cv2.IMREAD_GRAYSCALE)
    images = {"as-is": gray, "3x3": cv2.medianBlur(gray, 3), "5x5": cv2.medianBlur(gray, 5),
              "3x3-twice": cv2.medianBlur(cv2.medianBlur(gray, 3), 3)}
    tag = os.path.basename(page)
    return {k: cer(read(im, tmp, f"{tag}-{k}")[0], ref) for k, im in images.items()}


def dithers(page):
    """The pale dither regions of the speck rule (`Preprocessor.lightDithers`)."""
    gray = cv2.imread(page, cv2.IMREAD_GRAYSCALE)
    ink = (gray < 128).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_WIDTH]
    letters = np.sort(h[(h >= 6) & (h <= 300) & (w >= 2) & (w <= h * 3)])
    cap = float(letters[len(letters) * 3 // 4]) if len(letters) >= 20 else 12.0
    limit = max(2, cap / 3)
    specks = np.zeros_like(ink)
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        if bw <= limit and bh <= limit:
            specks[y:y + bh, x:x + bw] |= (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
    k, f = max(3, round(0.75 * cap)), max(9, round(1.5 * cap))
    opened = cv2.morphologyEx(cv2.morphologyEx(specks, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)),
                              cv2.MORPH_OPEN, np.ones((f, f), np.uint8))
    m, _, boxes, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    found = []
    for j in range(1, m):
        x, y, bw, bh, _ = boxes[j]
        if bw < 3 * cap or bh < 3 * cap:
            continue
        region = ink[y:y + bh, x:x + bw]
        rn, _, rs, _ = cv2.connectedComponentsWithStats(region, connectivity=8)
        comps = rn - 1
        small = sum(1 for i in range(1, rn) if rs[i, 2] <= limit and rs[i, 3] <= limit)
        share, density = region.sum() / (bw * bh), comps / (bw * bh / cap / cap)
        taken = 0.02 <= share <= 0.8 and small >= 0.8 * comps and density >= 3
        found.append(f"({x},{y},{bw},{bh}) ink {share:.3f} comps {comps} specks {small / max(1, comps):.2f} "
                     f"per cap² {density:.2f} {'painted' if taken else 'left'}")
    return cap, found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--light", action="store_true", help="only pages in a light face")
    ap.add_argument("--dithers", action="store_true", help="list pale dither regions instead")
    ap.add_argument("--median", action="store_true", help="median filters on photocopies instead")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    pages = [p for p in a.pages if not a.light or "Light" in truth_of(p).get("font", "")]
    if a.dithers:
        for p in pages:
            cap, found = dithers(p)
            if found:
                print(f"{os.path.basename(p)} cap {cap:g}: " + "; ".join(found))
        return
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as ex:
        rows = list(ex.map(lambda p: (medians if a.median else variants)(p, tmp), pages))
    names = list(rows[0]) if a.median else ["raw", "dil2", "picked", "up2dil3", "dil2x1"]
    for p, r in zip(pages, rows):
        print(f"{os.path.basename(p)[:44]:44s} " + " ".join(f"{k} {r[k]:.3f}" for k in names))
    print(f"{len(rows)} pages, mean CER: " + ", ".join(f"{k} {sum(r[k] for r in rows) / len(rows):.3f}" for k in names))


if __name__ == "__main__":
    main()
