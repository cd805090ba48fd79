"""Side-by-side timing of the Kordant Engine (ordo-one/benchmark, release build) and its peers.

Each row reports the median wall time of the same work, throughput as × real time, and the
ratio engine/peer (> 1 means the engine is faster). Everything runs in this one invocation so
the ratios share the machine's state.
"""
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
WAV = os.environ.get("KORDANT_BENCH_WAV", "/tmp/kordant-bench-44k1-stereo-600s.wav")
HOUR = 3600.0


def swift_medians(filter_regex):
    """Runs the Swift benchmarks matching the regex; returns {name: median wall ms}."""
    env = dict(os.environ, KORDANT_BENCH_WAV=WAV)
    out = subprocess.run(
        ["swift", "package", "--allow-writing-to-package-directory", "benchmark", "--no-progress",
         "--filter", filter_regex],
        cwd=HERE, env=env, check=True, capture_output=True, text=True).stdout
    results, current = {}, None
    for line in out.splitlines():
        if line and not line.startswith(("│", "╒", "╞", "├", "╘", "=", " ")) and "Time" not in line:
            current = line.strip()
        m = re.match(r"│ Time \(wall clock\) \((ms|us|μs|s)\) \*?\s*│([^│]+)│([^│]+)│([^│]+)│", line)
        if m and current:
            scale = {"ms": 1.0, "us": 1e-3, "μs": 1e-3, "s": 1e3}[m.group(1)]
            results[current] = float(m.group(4).strip().replace(",", "")) * scale
    return results


def median_ms(fn, repeat=15):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def row(work, audio_seconds, engine_ms, peer_name, peer_ms):
    print(f"| {work} | {engine_ms:,.1f} ms ({audio_seconds / (engine_ms / 1000):,.0f}×) | {peer_name} | "
          f"{peer_ms:,.1f} ms ({audio_seconds / (peer_ms / 1000):,.0f}×) | **{peer_ms / engine_ms:.2f}×** |")


def levels():
    ours = swift_medians("levels.*")
    x = (np.random.default_rng(1).standard_normal(int(HOUR * 16000)) * 0.1).astype(np.float32)
    frames = x[: len(x) // 800 * 800].reshape(-1, 800)

    def rms_only():
        return 10 * np.log10(np.einsum("ij,ij->i", frames, frames) / 800 + 1e-30)

    def rms_and_peak():
        return rms_only(), 20 * np.log10(np.abs(frames).max(axis=1) + 1e-30)

    def whole_stats():
        return x.mean(dtype=np.float64), np.dot(x, x), x.max(), x.min(), np.count_nonzero(np.abs(x) >= 0.999)

    meter = ours["levels.meter 1h 16k (50 ms windows)"]
    row("levels: 50 ms avg+peak, 1 h 16 kHz", HOUR, meter, "numpy einsum RMS only", median_ms(rms_only))
    row("levels: 50 ms avg+peak, 1 h 16 kHz", HOUR, meter, "numpy RMS + peak", median_ms(rms_and_peak))
    row("levels: whole-file stats, 1 h 16 kHz", HOUR, ours["levels.statistics 1h 16k"], "numpy mean/dot/max/min/clip",
        median_ms(whole_stats))


def convert():
    import soundfile
    import soxr
    ours = swift_medians("convert.*")

    def peer():
        data, rate = soundfile.read(WAV, dtype="float32")
        mono = data.mean(axis=1, dtype=np.float32)
        return soxr.resample(mono, rate, 16000, quality="HQ")

    seconds = soundfile.info(WAV).duration
    row("decode+downmix+resample 44.1k stereo WAV → 16k mono, 10 min", seconds,
        ours["convert.load 10min 44k1 stereo -> 16k mono"], "soundfile + python-soxr HQ", median_ms(peer, 9))


def mfcc():
    import kaldi_native_fbank as knf
    import librosa
    import python_speech_features as psf
    ours = swift_medians("mfcc.*")
    seconds = 600.0
    rng = np.random.default_rng(3)
    y = (rng.standard_normal(int(seconds * 16000)) * 0.1).astype(np.float32)
    y16 = y * 32768

    def kaldi():
        o = knf.MfccOptions()
        o.frame_opts.dither = 0.0
        m = knf.OnlineMfcc(o)
        m.accept_waveform(16000, y16)
        m.input_finished()
        return [m.get_frame(i) for i in range(m.num_frames_ready)]

    def rosa_speech():
        return librosa.feature.mfcc(y=y, sr=16000, n_mfcc=13, n_fft=512, hop_length=160, win_length=400, n_mels=40)

    def rosa_default():
        return librosa.feature.mfcc(y=y, sr=16000)

    def pyspeech():
        return psf.mfcc(y16, samplerate=16000)

    row("MFCC kaldi profile (Kaldi defaults, dither 0), 10 min", seconds, ours["mfcc.kaldi 10min 16k"],
        "kaldi-native-fbank OnlineMfcc", median_ms(kaldi, 3))
    row("MFCC kaldi profile, 10 min", seconds, ours["mfcc.kaldi 10min 16k"],
        "librosa speech config (512/160/400, 40 mels, 13)", median_ms(rosa_speech, 5))
    row("MFCC librosa profile, speech config, 10 min", seconds, ours["mfcc.librosa-speech 10min 16k"],
        "librosa speech config (512/160/400, 40 mels, 13)", median_ms(rosa_speech, 5))
    row("MFCC librosa profile, defaults, 10 min", seconds, ours["mfcc.librosa-default 10min 16k"],
        "librosa.feature.mfcc defaults", median_ms(rosa_default, 5))
    row("MFCC psf profile, defaults, 10 min", seconds, ours["mfcc.psf 10min 16k"],
        "python_speech_features.mfcc defaults", median_ms(pyspeech, 3))


def ocr():
    """Pages per second over TestDocuments' document pages, with CER against the ground truth.
    Every side runs Tesseract with OMP_THREAD_LIMIT=1 (without it Debian's build is 5–7× slower)."""
    import glob
    import json
    import threading
    from concurrent.futures import ThreadPoolExecutor
    root = os.path.join(HERE, "..")
    manifest = json.load(open(os.path.join(root, "TestDocuments", "manifest.json")))
    pages = [e for e in manifest["images"] if e["kind"] in ("deed", "id", "optout")]
    paths = [os.path.join(root, "TestDocuments", e["file"]) for e in pages]
    truth = {e["file"]: " ".join(" ".join(json.load(open(os.path.join(root, "TestDocuments", e["document"] + ".truth.json")))["lines"]).split())
             for e in pages}
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    subprocess.run(["swift", "build", "-c", "release", "--product", "kordant"], cwd=root, check=True, capture_output=True)
    kordant = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, check=True,
                                          capture_output=True, text=True).stdout.strip(), "kordant")

    def lev(a, b):
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
            prev = cur
        return prev[-1]

    def cer(texts):
        return sum(lev(" ".join(t.split()), truth[e["file"]]) / len(truth[e["file"]]) for t, e in zip(texts, pages)) / len(pages)

    def timed(fn):
        t = time.perf_counter()
        texts = fn()
        return time.perf_counter() - t, texts

    def engine(jobs):
        out = subprocess.run([kordant, "ocr", "--jobs", str(jobs)] + paths, env=env, capture_output=True, text=True).stdout
        return [json.loads(l)["pages"][0]["text"] for l in out.splitlines()]

    def cli_one(p):
        return subprocess.run(["tesseract", p, "stdout"], env=env, capture_output=True, text=True).stdout

    def cli_sequential():
        return [cli_one(p) for p in paths]

    def cli_parallel():
        with ThreadPoolExecutor(2) as ex:
            return list(ex.map(cli_one, paths))

    def tesserocr_threads():
        import tesserocr
        from PIL import Image
        local = threading.local()
        tessdata = "/usr/share/tesseract-ocr/5/tessdata"

        def run(p):
            if not hasattr(local, "api"):
                local.api = tesserocr.PyTessBaseAPI(path=tessdata)
            local.api.SetImage(Image.open(p))
            return local.api.GetUTF8Text()
        with ThreadPoolExecutor(2) as ex:
            return list(ex.map(run, paths))

    def tesserocr_system():
        # Same two-thread, handle-per-thread loop, in the venv whose tesserocr links Debian's library.
        script = (
            "import json,sys,threading,tesserocr\n"
            "from concurrent.futures import ThreadPoolExecutor\n"
            "from PIL import Image\n"
            "local=threading.local()\n"
            "def run(p):\n"
            "    if not hasattr(local,'api'): local.api=tesserocr.PyTessBaseAPI(path='/usr/share/tesseract-ocr/5/tessdata')\n"
            "    local.api.SetImage(Image.open(p)); return local.api.GetUTF8Text()\n"
            "with ThreadPoolExecutor(2) as ex: print(json.dumps(list(ex.map(run, sys.argv[1:]))))\n")
        py = os.path.join(HERE, ".venv-tesserocr-system", "bin", "python")
        return json.loads(subprocess.run([py, "-c", script] + paths, env=env, capture_output=True, text=True, check=True).stdout)

    rows = [("kordant ocr --jobs 2 (preprocessing on)", lambda: engine(2)),
            ("kordant ocr --jobs 1", lambda: engine(1)),
            ("tesseract CLI, once per page, sequential", cli_sequential),
            ("tesseract CLI, once per page, 2 at a time", cli_parallel),
            ("tesserocr wheel (bundles Tesseract 5.5.4), one handle per thread, 2 threads", tesserocr_threads),
            ("tesserocr on Debian's libtesseract 5.3.0, one handle per thread, 2 threads", tesserocr_system)]
    results = {}
    for name, fn in rows:
        fn() if name.startswith("tesserocr") else None   # warm-up: handle init outside the measured region is not fair either; first run only loads
        best = None
        for _ in range(2):
            t, texts = timed(fn)
            best = (t, texts) if best is None or t < best[0] else best
        results[name] = (len(paths) / best[0], cer(best[1]))
    base = results["kordant ocr --jobs 2 (preprocessing on)"][0]
    print(f"\n{len(paths)} pages (TestDocuments deeds, IDs, opt-out forms; clean and degraded), best of 2 runs\n")
    print("| pipeline | pages/s | CER | engine --jobs 2 speed-up |")
    print("|---|---|---|---|")
    for name, (pps, c) in results.items():
        print(f"| {name} | {pps:.2f} | {c:.4f} | **{base / pps:.2f}×** |")


GROUPS = {"levels": levels, "convert": convert, "mfcc": mfcc, "ocr": ocr}

if __name__ == "__main__":
    chosen = sys.argv[1:] or list(GROUPS)
    print(f"machine: {os.cpu_count()} cores, {subprocess.run(['uname', '-srm'], capture_output=True, text=True).stdout.strip()}")
    print("| work | engine (median, × real time) | peer | peer (median, × real time) | engine speed-up |")
    print("|---|---|---|---|---|")
    for g in chosen:
        GROUPS[g]()
