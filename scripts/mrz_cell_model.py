"""Trains the MRZ reader's learned cell classifier (see scripts/make-mrz-cell-model).

dump  BINARY OUT.npz DIR...  reads every page of each corpus dir (and real specimen dir) with
      `kordant ocr --mrz-cells`; the cells of pages whose zone is found with the truth's shape and
      at most MAX_WRONG wrong characters (so cells line up with the truth) are kept with the
      printed character as label. Refuses the test split.
eval  WEIGHTS.swift NPZ       cell accuracy of the committed network and of the templates.
train OUT.swift NPZ...       trains a one-hidden-layer network on the dumped cells (with
      augmentation: shifts, stroke weight, blur, noise, contrast) and writes its weights, int8 per
      output row with a scale, as Swift source.
"""
import base64
import glob
import os
import sys

import numpy as np

from mrz_confusion import aligned_pages, pages

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
W, H = 32, 48
HIDDEN = 160


def dump(binary, dest, dirs):
    # The corpus dirs' pages (refusing the test split), and a real specimen dir's (its truth.json).
    todo = [p for d in dirs for p in (pages(d, "/nonexistent") if glob.glob(os.path.join(d, "*.truth.json"))
                                      else pages("/nonexistent", d))]
    xs, ys, page_ids, templ = [], [], [], []
    used = 0
    print(f"  reading {len(todo)} pages", file=sys.stderr)
    for image, truth, grid in aligned_pages(binary, todo):
        used += 1
        for row, printed in zip(grid, truth):
            for cell, c in zip(row, printed):
                xs.append(np.frombuffer(base64.b64decode(cell["ink"]), np.uint8))
                ys.append(ALPHABET.index(c))
                page_ids.append(image)
                templ.append(ALPHABET.index(cell["templates"][0]) if cell["templates"] else -1)
    np.savez_compressed(dest, x=np.stack(xs), y=np.array(ys, np.int16), page=np.array(page_ids), templ=np.array(templ, np.int16))
    print(f"mrz_cell_model: {used} of {len(todo)} pages, {len(ys)} cells -> {dest}", file=sys.stderr)


# ------------------------------------------------------------------------------------------------

def pool2(x):
    """(n, H, W) -> (n, H/2 * W/2), 2 x 2 means, as MRZCellFeatures.pooled."""
    n = x.shape[0]
    return x.reshape(n, H // 2, 2, W // 2, 2).mean(axis=(2, 4)).reshape(n, -1)


def augment(x, rng):
    """x: (n, H, W) ink in 0..1. Shifts, stroke weight, blur, speckle, contrast."""
    n = x.shape[0]
    out = np.empty_like(x)
    pad = np.pad(x, ((0, 0), (3, 3), (3, 3)))
    dy = rng.integers(-3, 4, n)
    dx = rng.integers(-2, 3, n)
    for i in range(n):
        out[i] = pad[i, 3 + dy[i]:3 + dy[i] + H, 3 + dx[i]:3 + dx[i] + W]
    # stroke weight: a 2 x 2 max (bolder) or min (thinner) on a third of the cells each
    k = rng.random(n)
    fat = k < 0.2
    thin = (k >= 0.2) & (k < 0.4)
    if fat.any():
        a = out[fat]
        b = np.maximum(np.maximum(a, np.roll(a, 1, 1)), np.maximum(np.roll(a, 1, 2), np.roll(np.roll(a, 1, 1), 1, 2)))
        out[fat] = b
    if thin.any():
        a = out[thin]
        b = np.minimum(np.minimum(a, np.roll(a, 1, 1)), np.minimum(np.roll(a, 1, 2), np.roll(np.roll(a, 1, 1), 1, 2)))
        out[thin] = b
    # blur on some: a 3-tap box along both axes
    bl = rng.random(n) < 0.25
    if bl.any():
        a = out[bl]
        a = (np.roll(a, 1, 1) + a + np.roll(a, -1, 1)) / 3
        a = (np.roll(a, 1, 2) + a + np.roll(a, -1, 2)) / 3
        out[bl] = a
    # contrast and paper: ink darker or paler, paper speckle
    gain = rng.uniform(0.6, 1.2, (n, 1, 1))
    off = rng.uniform(-0.1, 0.15, (n, 1, 1))
    out = out * gain + off * (1 - out)
    out += rng.normal(0, 1, (n, 1, 1)) * 0.05 * rng.standard_normal(out.shape)
    return np.clip(out, 0, 1).astype(np.float32)


def train(dest, npzs, epochs=30, seed=0):
    xs, ys, pg = [], [], []
    for f in npzs:
        d = np.load(f)
        xs.append(d["x"]); ys.append(d["y"]); pg.append(d["page"])
    x = np.concatenate(xs).reshape(-1, H, W).astype(np.float32) / 255
    y = np.concatenate(ys).astype(np.int64)
    pages_all = np.concatenate(pg)
    rng = np.random.default_rng(seed)
    # hold out a tenth of the pages (whole pages) to see how well it generalises
    uniq = np.unique(pages_all)
    held = set(rng.choice(uniq, max(1, len(uniq) // 10), replace=False))
    hold = np.array([p in held for p in pages_all])
    xt, yt = x[~hold], y[~hold]
    xv, yv = pool2(x[hold]), y[hold]
    print(f"train {len(yt)} cells, held out {len(yv)} cells of {len(held)} pages", file=sys.stderr)
    # class balance: the filler dominates; weight classes by 1/sqrt(frequency)
    freq = np.bincount(yt, minlength=37).astype(np.float64) + 1
    cw = (freq.sum() / freq) ** 0.5
    cw = (cw / (cw * freq).sum() * freq.sum()).astype(np.float32)
    D = (H // 2) * (W // 2)
    W1 = (rng.standard_normal((D, HIDDEN)) * np.sqrt(2 / D)).astype(np.float32)
    b1 = np.zeros(HIDDEN, np.float32)
    W2 = (rng.standard_normal((HIDDEN, 37)) * np.sqrt(1 / HIDDEN)).astype(np.float32)
    b2 = np.zeros(37, np.float32)
    params = [W1, b1, W2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, beta1, beta2, step, batch, wd = 2e-3, 0.9, 0.999, 0, 256, 1e-4

    def forward(inp):
        h = np.maximum(inp @ W1 + b1, 0)
        return h, h @ W2 + b2

    def evaluate():
        _, z = forward(xv)
        return float((z.argmax(1) == yv).mean())

    for ep in range(epochs):
        order = rng.permutation(len(yt))
        xa = pool2(augment(xt[order], rng))
        ya = yt[order]
        loss_sum = 0.0
        if ep == int(epochs * 0.6) or ep == int(epochs * 0.85):
            lr *= 0.3
        for s in range(0, len(ya), batch):
            xb, yb = xa[s:s + batch], ya[s:s + batch]
            h, z = forward(xb)
            z = z - z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            wb = cw[yb]
            loss_sum += float(-(np.log(p[np.arange(len(yb)), yb] + 1e-12) * wb).sum())
            g = p
            g[np.arange(len(yb)), yb] -= 1
            g *= (wb / wb.sum())[:, None]
            gW2 = h.T @ g + wd * W2
            gb2 = g.sum(0)
            gh = g @ W2.T
            gh[h <= 0] = 0
            gW1 = xb.T @ gh + wd * W1
            gb1 = gh.sum(0)
            step += 1
            for i, (pp, gg) in enumerate(zip(params, [gW1, gb1, gW2, gb2])):
                m[i] = beta1 * m[i] + (1 - beta1) * gg
                v[i] = beta2 * v[i] + (1 - beta2) * gg * gg
                mh = m[i] / (1 - beta1 ** step)
                vh = v[i] / (1 - beta2 ** step)
                pp -= lr * mh / (np.sqrt(vh) + 1e-8)
        print(f"  epoch {ep + 1}: loss {loss_sum / len(ya):.4f}, held-out accuracy {evaluate():.4f}", file=sys.stderr)
    acc = evaluate()
    write_swift(dest, W1, b1, W2, b2, len(yt), len(uniq) - len(held), acc)


def quantise(w):
    """Columns of w (inputs x outputs) as int8 with one scale per output."""
    scale = np.abs(w).max(0) / 127 + 1e-12
    return np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale.astype(np.float32)


def write_swift(dest, W1, b1, W2, b2, cells, pages_used, acc):
    q1, s1 = quantise(W1)
    q2, s2 = quantise(W2)
    blob = (q1.T.astype(np.int8).tobytes() + s1.tobytes() + b1.astype(np.float32).tobytes()
            + q2.T.astype(np.int8).tobytes() + s2.tobytes() + b2.astype(np.float32).tobytes())
    b64 = base64.b64encode(blob).decode()
    rows = [b64[i:i + 100] for i in range(0, len(b64), 100)]
    with open(dest, "w") as f:
        f.write("// Generated by scripts/make-mrz-cell-model. Do not edit.\n")
        f.write(f"// {cells} cells of {pages_used} generated dev-split pages; held-out cell accuracy {acc:.4f}.\n")
        f.write("// Layout: W1 int8 [hidden][inputs], its scales [hidden] f32, b1 [hidden] f32,\n")
        f.write("// W2 int8 [37][hidden], its scales [37] f32, b2 [37] f32; little-endian.\n")
        f.write("enum MRZCellModelWeights {\n")
        f.write(f"    static let inputs = {W1.shape[0]}\n    static let hidden = {W1.shape[1]}\n")
        f.write(f'    static let source = "{cells} cells of {pages_used} generated dev-split pages"\n')
        f.write('    static let base64 = """\n')
        f.write("\n".join(rows) + "\n")
        f.write('"""\n}\n')
    print(f"mrz_cell_model: held-out accuracy {acc:.4f} -> {dest}", file=sys.stderr)


def load_swift(path):
    """The weights as the engine decodes them (int8 times the per-row scale)."""
    import re
    src = open(path).read()
    inputs = int(re.search(r"inputs = (\d+)", src).group(1))
    hidden = int(re.search(r"hidden = (\d+)", src).group(1))
    blob = base64.b64decode("".join(src.split('"""')[1].split()))
    parts, o = [], 0
    for n, dt in [(hidden * inputs, np.int8), (hidden, np.float32), (hidden, np.float32),
                  (37 * hidden, np.int8), (37, np.float32), (37, np.float32)]:
        size = n * np.dtype(dt).itemsize
        parts.append(np.frombuffer(blob[o:o + size], dt))
        o += size
    q1, s1, b1, q2, s2, b2 = parts
    return q1.reshape(hidden, inputs) * s1[:, None], b1, q2.reshape(37, hidden) * s2[:, None], b2


def log_probabilities(weights, ink):
    """The network of a weights file on cells' ink ((n, 32 * 48) bytes, as `--mrz-cells` gives
    them): (n, 37) log-probabilities, as MRZCellClassifier computes them."""
    W1, b1, W2, b2 = load_swift(weights)
    z = np.maximum(pool2(ink.reshape(-1, H, W).astype(np.float32) / 255) @ W1.T + b1, 0) @ W2.T + b2
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def evaluate_dump(weights, npz):
    """Cell accuracy of the committed network and of the templates' best match, per capture."""
    d = np.load(npz)
    y, templ, page = d["y"], d["templ"], d["page"]
    pred = log_probabilities(weights, d["x"]).argmax(1)
    print(f"all: network {(pred == y).mean():.4f}, templates {(templ == y).mean():.4f}, {len(y)} cells")
    captures = np.array([os.path.basename(p).rsplit(".", 1)[0].split("-")[-1] for p in page])
    for c in sorted(set(captures)):
        m = captures == c
        print(f"  {c:12s} network {(pred[m] == y[m]).mean():.4f}, templates {(templ[m] == y[m]).mean():.4f}, {m.sum()} cells")


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "eval":
        evaluate_dump(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "train":
        train(sys.argv[2], sys.argv[3:], epochs=int(os.environ.get("EPOCHS", "30")))
    else:
        sys.exit(__doc__)
