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
    kordant = release_kordant()

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

    def engine(jobs, raw=False):
        out = subprocess.run([kordant, "ocr", "--jobs", str(jobs)] + (["--raw"] if raw else []) + paths, env=env,
                             capture_output=True, text=True).stdout
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
            ("kordant ocr --jobs 2 --raw (no preprocessing: the image as tesserocr gets it)", lambda: engine(2, raw=True)),
            ("tesseract CLI, once per page, sequential", cli_sequential),
            ("tesseract CLI, once per page, 2 at a time", cli_parallel),
            ("tesserocr wheel (bundles Tesseract 5.5.4), one handle per thread, 2 threads", tesserocr_threads),
            ("tesserocr on Debian's libtesseract 5.3.0, one handle per thread, 2 threads", tesserocr_system)]
    # Rounds interleave the pipelines (every row once per round, best of the rounds kept): on a
    # shared machine the load moves within minutes, and rows run back to back in blocks gave
    # ratios that moved by 30 % between two runs of the same binaries.
    rounds = int(os.environ.get("KORDANT_OCR_ROUNDS", "3"))
    for name, fn in rows:
        fn() if name.startswith("tesserocr") else None   # warm-up: the first run only loads
    best = {}
    for _ in range(rounds):
        for name, fn in rows:
            t, texts = timed(fn)
            if name not in best or t < best[name][0]:
                best[name] = (t, texts)
    results = {name: (len(paths) / t, cer(texts)) for name, (t, texts) in best.items()}
    base = results["kordant ocr --jobs 2 (preprocessing on)"][0]
    print(f"\n{len(paths)} pages (TestDocuments deeds, IDs, opt-out forms; clean and degraded), best of {rounds} interleaved rounds\n")
    print("| pipeline | pages/s | CER | engine --jobs 2 speed-up |")
    print("|---|---|---|---|")
    for name, (pps, c) in results.items():
        print(f"| {name} | {pps:.2f} | {c:.4f} | **{base / pps:.2f}×** |")


def release_kordant():
    """The release binary: $KORDANT_ENGINE when set (a binary built elsewhere, e.g. another
    scratch path or an older commit), else this package's, built here."""
    root = os.path.join(HERE, "..")
    if os.environ.get("KORDANT_ENGINE"):
        # A binary outside the checkout does not find the checkout's encoder weights by itself.
        weights = os.path.abspath(os.path.join(root, "models", "voice-encoder-ge2e.bin"))
        if os.path.exists(weights):
            os.environ.setdefault("KORDANT_VOICE_ENCODER", weights)
        return os.path.abspath(os.environ["KORDANT_ENGINE"])
    subprocess.run(["swift", "build", "-c", "release", "--product", "kordant"], cwd=root, check=True, capture_output=True)
    return os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, check=True,
                                       capture_output=True, text=True).stdout.strip(), "kordant")


_RESEMBLYZER = None


def python_enroll_pipeline(path, embed=False):
    """The engine's batch enrollment step for one file, written the way a Python user would with
    librosa (which loads through soundfile and resamples with soxr): load as 16 kHz mono (soxr HQ),
    quality (peak, clipping, a 25 ms / 10 ms STFT for the 100–7000 Hz band level and spectral
    flatness, a local-minimum noise floor, energy + flatness speech decision, SNR), Kaldi-style MFCC
    (25 ms Povey-like window, pre-emphasis 0.97, 23 HTK mels from 20 Hz, 13 coefficients), and the
    mean and standard deviation of the MFCCs over speech frames: the same steps as the engine's.
    With `embed`, also the speaker embedding the engine's enrollment now computes: Resemblyzer's
    GE2E encoder on torch (CPU, one thread), loaded once per process."""
    global _RESEMBLYZER
    import json
    import librosa
    from scipy.ndimage import minimum_filter1d, uniform_filter1d
    try:
        y, _ = librosa.load(path, sr=16000, mono=True, res_type="soxr_hq")
    except Exception as e:
        return json.dumps({"file": path, "error": str(e)})
    if y.size == 0 or not np.all(np.isfinite(y)):
        return json.dumps({"file": path, "error": "empty or non-finite audio"})
    peak = float(np.max(np.abs(y)))
    clipped = float(np.mean(np.abs(y) >= 0.999))
    # VAD features from one STFT.
    S = np.abs(librosa.stft(y, n_fft=512, hop_length=160, win_length=400, window="hann", center=True)) ** 2
    freqs = librosa.fft_frequencies(sr=16000, n_fft=512)
    band = S[(freqs >= 100) & (freqs <= 7000)]
    level = 10 * np.log10(band.sum(axis=0) * 2 / (512 * 150) + 1e-12)
    flat_band = S[(freqs >= 250) & (freqs <= 4000)] + 1e-20
    flatness = np.exp(np.mean(np.log(flat_band), axis=0)) / np.mean(flat_band, axis=0)
    audible = level[level > -115]
    speech = np.zeros(level.shape, bool)
    if audible.size >= 3 and np.percentile(audible, 99) - np.percentile(audible, 10) >= 10:
        loud = np.percentile(audible, 99)
        floor = minimum_filter1d(uniform_filter1d(level, 5), size=201)
        noise = (level > -115) & (level < floor + 6)
        flat_limit = 0.6 * np.median(flatness[noise]) if noise.sum() >= 10 else -1
        speech = (level > np.maximum(floor + 10, loud - 45)) | ((flat_limit > 0) & (level > floor + 6) & (flatness < flat_limit))
        speech = uniform_filter1d(speech.astype(float), 15) > 0.2   # bridge short pauses, widen segments
    power = uniform_filter1d(y[: len(y) // 160 * 160].reshape(-1, 160) ** 2, 1, axis=1).mean(axis=1)
    n = min(len(power), len(speech))
    sp, ns = power[:n][speech[:n]], power[:n][~speech[:n]]
    snr = float(10 * np.log10(max(sp.mean() - ns.mean(), 1e-12) / max(ns.mean(), 1e-14))) if sp.size and ns.size else None
    # Kaldi-style MFCC.
    window = np.hanning(400) ** 0.85
    m = librosa.feature.mfcc(y=librosa.effects.preemphasis(y, coef=0.97), sr=16000, n_mfcc=13, n_fft=512, hop_length=160,
                             win_length=400, window=window, center=False, n_mels=23, htk=True, fmin=20, lifter=22)
    frames = min(m.shape[1], len(speech))
    sel = m[:, :frames][:, speech[:frames]]
    result = {"file": path, "duration_s": len(y) / 16000, "peak_db": 20 * np.log10(peak + 1e-12), "clipped": clipped,
              "speech_s": float(speech.sum()) / 100, "snr_db": snr,
              "mean": sel.mean(axis=1).tolist() if sel.size else [], "std": sel.std(axis=1).tolist() if sel.size else []}
    if embed:
        from resemblyzer import VoiceEncoder, preprocess_wav
        if _RESEMBLYZER is None:
            import torch
            torch.set_num_threads(1)
            _RESEMBLYZER = VoiceEncoder("cpu", verbose=False)
        wav = preprocess_wav(y, source_sr=16000)
        if wav.size >= 1600:
            result["embedding"] = _RESEMBLYZER.embed_utterance(wav).tolist()
    return json.dumps(result)


def speed_table(unit, count, rows):
    """Rows of (name, seconds); the first row is the engine the others are compared with."""
    print(f"| pipeline | wall time | {unit} | engine speed-up |")
    print("|---|---|---|---|")
    for name, t in rows:
        print(f"| {name} | {t * 1000:,.0f} ms | {count / t:,.2f} | **{t / rows[0][1]:.2f}×** |")


def batch():
    """Batch pipelines as users run them: `kordant batch enroll` over TestAudio against the same
    pipeline in Python, and `kordant batch ocr` over the TestDocuments pages against the tesseract CLI."""
    import glob
    import json
    import tempfile
    from concurrent.futures import ProcessPoolExecutor
    root = os.path.join(HERE, "..")
    kordant = release_kordant()
    audio_dir = os.path.join(root, "TestAudio")
    files = sorted(f for f in glob.glob(os.path.join(audio_dir, "*")) if not f.endswith(".json")) * 8
    out = os.path.join(tempfile.gettempdir(), "kordant-compare-batch.jsonl")
    # Every TestAudio file eight times, each copy its own one-sample enrollment (a batch of a few
    # hundred clips; the engine's process start-up, ~30 ms, is inside its time).
    enroll_manifest = os.path.join(tempfile.gettempdir(), "kordant-compare-enroll.jsonl")
    with open(enroll_manifest, "w") as f:
        f.writelines(json.dumps({"path": p, "group": f"{i}:{os.path.basename(p)}"}) + "\n" for i, p in enumerate(files))

    def best_of(fn, n=5):
        times = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    def engine(jobs):
        return lambda: subprocess.run([kordant, "batch", "enroll", enroll_manifest, "--out", out, "--jobs", str(jobs), "--quiet"],
                                      capture_output=True, check=False)

    def python_serial():
        return [python_enroll_pipeline(f) for f in files]

    python_serial()   # imports, numba compilation and caches: outside the measured runs
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(python_enroll_pipeline, files, chunksize=8))   # warm both workers
        py2 = best_of(lambda: list(pool.map(python_enroll_pipeline, files, chunksize=8)), 3)
    e1, e2 = best_of(engine(1)), best_of(engine(2))
    py1 = best_of(python_serial, 3)
    print(f"\nbatch enroll: {len(files)} items (TestAudio × 8), each a one-sample enrollment (decode, resample, quality, MFCC), best of 3–5\n")
    speed_table("items/s", len(files), [("kordant batch enroll --jobs 2", e2), ("kordant batch enroll --jobs 1", e1),
                                        ("Python librosa (soundfile + soxr) pipeline, 1 process", py1),
                                        ("Python librosa (soundfile + soxr) pipeline, 2 processes", py2)])
    print(f"\njobs 2 vs jobs 1: **{e1 / e2:.2f}×**")

    # The ceiling: what no implementation of this pipeline on these libraries can skip (decode,
    # resample, the Kaldi MFCC it reports; in-process, one thread, the 54 files once), spread over
    # 2 cores for the 8 copies, plus one process start-up. The quality check, resume keys and JSON
    # count as free here, so no engine can beat the Python pipeline by more than this.
    floor = swift_medians("batch.floor.*")
    startup = best_of(lambda: subprocess.run([kordant, "--version"], capture_output=True, check=True), 20)
    print(f"\nceiling (2 jobs, 432 clips = 8 × the 54 files; process start-up {startup * 1000:.0f} ms, best of 20 `kordant --version`):\n")
    print("| work no implementation can skip | one thread, 54 files | 432 clips on 2 cores + start-up | Python 1 process / that = highest reachable ratio |")
    print("|---|---|---|---|")
    for name in ("batch.floor decode TestAudio", "batch.floor decode+mfcc TestAudio"):
        wall = 8 * floor[name] / 1000 / 2 + startup
        print(f"| {name.split()[1]} | {floor[name]:.1f} ms | {wall * 1000:.0f} ms | **{py1 / wall:.1f}×** |")

    def python_decode():
        import librosa
        for f in files[: len(files) // 8]:
            try:
                librosa.load(f, sr=16000, mono=True, res_type="soxr_hq")
            except Exception:
                pass
    print(f"\nthe same decode in Python (librosa.load, soundfile + soxr HQ), 54 files, one process: "
          f"{best_of(python_decode, 5) * 1000:.1f} ms")

    # Batch OCR over the document pages.
    manifest = json.load(open(os.path.join(root, "TestDocuments", "manifest.json")))
    pages = [os.path.join(root, "TestDocuments", e["file"]) for e in manifest["images"] if e["kind"] in ("deed", "id", "optout")]
    listing = os.path.join(tempfile.gettempdir(), "kordant-compare-pages.jsonl")
    with open(listing, "w") as f:
        f.writelines(json.dumps({"path": p}) + "\n" for p in pages)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def batch_ocr(jobs):
        return lambda: subprocess.run([kordant, "batch", "ocr", listing, "--out", out, "--jobs", str(jobs), "--quiet"], env=env,
                                      capture_output=True, check=False)

    def cli():
        for p in pages:
            subprocess.run(["tesseract", p, "stdout"], env=env, capture_output=True)

    def cli2():
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(2) as ex:
            list(ex.map(lambda p: subprocess.run(["tesseract", p, "stdout"], env=env, capture_output=True), pages))

    o2, o1, c1, c2 = best_of(batch_ocr(2), 2), best_of(batch_ocr(1), 2), best_of(cli, 2), best_of(cli2, 2)
    print(f"\nbatch ocr: {len(pages)} TestDocuments pages, best of 2\n")
    speed_table("pages/s", len(pages), [("kordant batch ocr --jobs 2", o2), ("kordant batch ocr --jobs 1", o1),
                                        ("tesseract CLI once per page, sequential", c1), ("tesseract CLI once per page, 2 at a time", c2)])


def speech_file(seconds):
    """`seconds` of 16 kHz mono 16-bit speech: TestAudio's read-speech clips concatenated and
    repeated with sox (written once to /tmp, never committed)."""
    path = os.path.join("/tmp", f"kordant-bench-speech-{seconds}s.wav")
    if not os.path.exists(path):
        audio = os.path.join(HERE, "..", "TestAudio")
        clips = [os.path.join(audio, f + ".wav") for f in ("speech_us_male", "speech_gb_female", "speech_scot_male",
                                                           "speech_us_female", "enroll_gb_female_1", "enroll_scot_male_1",
                                                           "enroll_us_male_1")]
        base = path + ".base.wav"
        subprocess.run(["sox"] + clips + [base], check=True)
        subprocess.run(["sox", base, path + ".tmp.wav", "repeat", str(seconds // 55 + 1), "trim", "0", str(seconds)], check=True)
        os.rename(path + ".tmp.wav", path)
        os.unlink(base)
    return path


# The peers' whole scripts, run as a user runs them (interpreter start-up and imports included).
PEER_KALDI = """
import sys, numpy as np, soundfile as sf, kaldi_native_fbank as knf
y, sr = sf.read(sys.argv[1], dtype="float32")
o = knf.MfccOptions()
o.frame_opts.dither = 0.0
m = knf.OnlineMfcc(o)
m.accept_waveform(sr, y * 32768)
m.input_finished()
np.save(sys.argv[2], np.array([m.get_frame(i) for i in range(m.num_frames_ready)], dtype=np.float32))
"""
PEER_LIBROSA = """
import sys, numpy as np, librosa
y, sr = librosa.load(sys.argv[1], sr=16000)
np.save(sys.argv[2], librosa.feature.mfcc(y=y, sr=sr).T.astype(np.float32))
"""
PEER_LEVELS = """
import sys, numpy as np, soundfile as sf
x, sr = sf.read(sys.argv[1], dtype="float32")
w = int(round(sr * 0.05))
n = len(x) // w
frames = x[: n * w].reshape(n, w)
ms = list(np.einsum("ij,ij->i", frames, frames, dtype=np.float64) / w)
pk = list(np.abs(frames).max(axis=1))
if len(x) > n * w:
    tail = x[n * w:]
    ms.append(float(np.dot(tail, tail)) / len(tail)); pk.append(float(np.abs(tail).max()))
avg = np.clip(10 * np.log10(np.maximum(ms, 1e-16)), -160, 0)
peak = np.clip(20 * np.log10(np.maximum(pk, 1e-8)), -160, 0)
with open(sys.argv[2], "w") as f:
    f.write("".join('{"t":%s,"avg_db":%s,"peak_db":%s}\\n' % (round(i * w / sr, 3), round(a, 3), round(p, 3))
                    for i, (a, p) in enumerate(zip(avg.tolist(), peak.tolist()))))
    f.write('{"summary":{"rms_db":%s,"peak_db":%s}}\\n' % (round(10 * np.log10(np.dot(x, x) / len(x)), 3),
                                                          round(20 * np.log10(np.abs(x).max()), 3)))
"""
PEER_CONVERT = """
import sys, numpy as np, soundfile as sf, soxr
data, rate = sf.read(sys.argv[1], dtype="float32")
mono = data.mean(axis=1, dtype=np.float32) if data.ndim == 2 else data
sf.write(sys.argv[2], soxr.resample(mono, rate, 16000, quality="HQ"), 16000, subtype="PCM_16")
"""


def commands():
    """Whole commands as a user times them (`time kordant …`): process start to the output file on
    disk, against the peers' whole scripts, best of 3; peak memory (/usr/bin/time -f %M) of the audio
    commands on 10 min, 1 h and 2 h of speech; batch enrollment of 400 clips."""
    import json
    import tempfile
    kordant = release_kordant()
    py = sys.executable
    tmp = tempfile.gettempdir()
    hour = speech_file(3600)
    wav44 = os.path.join("/tmp", "kordant-bench-cmd-44k1-stereo-600s.wav")
    if not os.path.exists(wav44):
        subprocess.run(["sox", hour, "-r", "44100", "-c", "2", wav44 + ".tmp.wav", "trim", "0", "600"], check=True)
        os.rename(wav44 + ".tmp.wav", wav44)

    def best(cmd, n=3, stdout=None, ok=(0,)):
        times = []
        for _ in range(n):
            with open(stdout, "w") if stdout else open(os.devnull, "w") as out:
                t = time.perf_counter()
                r = subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL)
                times.append(time.perf_counter() - t)
                if r.returncode not in ok:
                    raise subprocess.CalledProcessError(r.returncode, cmd)
        return min(times)

    out_npy, peer_npy = os.path.join(tmp, "kordant-cmd-f.npy"), os.path.join(tmp, "kordant-cmd-peer.npy")
    rows = []
    e = best([kordant, "features", hour, "--profile", "kaldi", "--format", "npy", "--out", out_npy])
    p = best([py, "-c", PEER_KALDI, hour, peer_npy], 2)
    a, b = np.load(out_npy), np.load(peer_npy)
    agree = f"max |Δ| {np.abs(a[:, 1:] - b[:len(a), 1:]).max():.2g} (c1…c12)" if a.shape == b.shape else f"shapes {a.shape} vs {b.shape}"
    rows.append(("features --profile kaldi --format npy, 1 h 16 kHz", e, "soundfile + kaldi-native-fbank + np.save", p, agree))
    kaldi_whole = e
    e = best([kordant, "features", hour, "--profile", "librosa", "--format", "npy", "--out", out_npy])
    p = best([py, "-c", PEER_LIBROSA, hour, peer_npy], 2)
    a, b = np.load(out_npy), np.load(peer_npy)
    agree = f"max |Δ| {np.abs(a - b).max():.2g} (of {np.abs(b).max():.0f})" if a.shape == b.shape else f"shapes {a.shape} vs {b.shape}"
    rows.append(("features --profile librosa --format npy, 1 h 16 kHz", e, "librosa.load + feature.mfcc + np.save", p, agree))
    levels_out = os.path.join(tmp, "kordant-cmd-levels.jsonl")
    e = best([kordant, "levels", hour, "--json"], stdout=levels_out)
    p = best([py, "-c", PEER_LEVELS, hour, levels_out])
    rows.append(("levels --json > file, 1 h 16 kHz", e, "soundfile + numpy 50 ms RMS/peak + JSON lines", p, ""))
    conv_out = os.path.join(tmp, "kordant-cmd-conv.wav")
    e = best([kordant, "convert", wav44, conv_out])
    p = best([py, "-c", PEER_CONVERT, wav44, conv_out])
    rows.append(("convert 44.1 kHz stereo WAV → 16 kHz mono WAV, 10 min", e, "soundfile + python-soxr HQ + soundfile.write", p, ""))
    print("\nwhole commands (process start to output on disk), best of 3 (peers best of 2–3)\n")
    print("| command | engine | peer script | peer | engine speed-up | outputs |")
    print("|---|---|---|---|---|---|")
    for name, e, peer, p, agree in rows:
        print(f"| {name} | {e * 1000:,.0f} ms | {peer} | {p * 1000:,.0f} ms | **{p / e:.2f}×** | {agree} |")

    if os.environ.get("KORDANT_COMPARE_KERNEL"):
        # The in-process kernel on 10 min (ordo-one/benchmark): the whole command's speed as a
        # fraction of it (both per second of audio).
        kernel = swift_medians("mfcc.kaldi.*")["mfcc.kaldi 10min 16k"] / 1000 * 6
        print(f"\nfeatures kaldi whole command vs the in-process kernel: {kaldi_whole * 1000:.0f} ms per hour against "
              f"{kernel * 1000:.0f} ms per hour = **{kernel / kaldi_whole:.2f}** of kernel speed")

    print("\npeak memory (/usr/bin/time -f %M, MB) of each command on 16 kHz speech\n")
    lengths = (600, 3600, 7200)
    print("| command | " + " | ".join(f"{s // 60} min" for s in lengths) + " |")
    print("|---|" + "---|" * len(lengths))
    cmds = [("features --profile kaldi --format npy", ["features", "{in}", "--format", "npy", "--out", out_npy]),
            ("features --profile librosa --format npy", ["features", "{in}", "--profile", "librosa", "--format", "npy", "--out", out_npy]),
            ("features --format csv", ["features", "{in}", "--format", "csv", "--out", os.path.join(tmp, "kordant-cmd-f.csv")]),
            ("quality", ["quality", "{in}", "--json"]),
            ("enroll (one sample)", ["enroll", "{in}", "--json"]),
            ("levels --json", ["levels", "{in}", "--json"]),
            ("waveform --out x.json", ["waveform", "{in}", "--out", os.path.join(tmp, "kordant-cmd-w.json")]),
            ("convert", ["convert", "{in}", conv_out])]
    files = {s: speech_file(s) for s in lengths}
    for name, args in cmds:
        cells = []
        for s in lengths:
            r = subprocess.run(["/usr/bin/time", "-f", "%M", kordant] + [files[s] if a == "{in}" else a for a in args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            cells.append(f"{int(r.stderr.strip().splitlines()[-1]) / 1024:.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |")

    # Batch enrollment: 400 clips (TestAudio × 8, first 400), each a one-sample enrollment.
    import glob
    audio_dir = os.path.join(HERE, "..", "TestAudio")
    clips = (sorted(f for f in glob.glob(os.path.join(audio_dir, "*")) if not f.endswith(".json")) * 8)[:400]
    manifest = os.path.join(tmp, "kordant-cmd-enroll.jsonl")
    with open(manifest, "w") as f:
        f.writelines(json.dumps({"path": c, "group": f"{i}:{os.path.basename(c)}"}) + "\n" for i, c in enumerate(clips))
    enroll_out = os.path.join(tmp, "kordant-cmd-enroll-out.jsonl")
    # Exit 60: some items failed (TestAudio's malformed and too-short files): their lines are results.
    engine = {j: best([kordant, "batch", "enroll", manifest, "--out", enroll_out, "--jobs", str(j), "--quiet"], 5, ok=(0, 60))
              for j in (1, 2)}
    # A fast run of failures is no result: count what the last run enrolled.
    results = [json.loads(line) for line in open(enroll_out) if line.strip()]
    enrolled = sum(1 for r in results if "error" not in r)
    if enrolled < len(clips) * 3 // 4:
        sys.exit(f"compare: batch enroll enrolled only {enrolled} of {len(clips)} clips; first error: "
                 f"{next((r['error'] for r in results if 'error' in r), None)}")
    [python_enroll_pipeline(c, embed=True) for c in clips[:60]]   # imports, model and caches outside the measured run
    t = time.perf_counter()
    [python_enroll_pipeline(c) for c in clips]
    py1 = time.perf_counter() - t
    t = time.perf_counter()
    [python_enroll_pipeline(c, embed=True) for c in clips]
    py_embed = time.perf_counter() - t
    print(f"\nbatch enroll, {len(clips)} clips (TestAudio × 8), each a one-sample enrollment ({enrolled} enrolled, "
          f"{len(clips) - enrolled} of TestAudio's malformed or too-short files failed as they should)\n")
    speed_table("items/s", len(clips), [("kordant batch enroll --jobs 2", engine[2]), ("kordant batch enroll --jobs 1", engine[1]),
                                        ("Python librosa (soundfile + soxr) pipeline, 1 process", py1),
                                        ("the same + Resemblyzer embedding (torch, 1 thread): what the engine computes, 1 process",
                                         py_embed)])
    print(f"\njobs 2 vs jobs 1: **{engine[1] / engine[2]:.2f}×**")


SPEECH = os.path.join(HERE, "../../shared/data/speech")
# GE2E cost per partial window: 160 steps × 3 layers × 2·4H·(in + H) multiply-adds, H = 256.
GE2E_FLOP_PER_PARTIAL = 160 * 2 * 4 * 256 * ((40 + 256) + 2 * (256 + 256)) + 2 * 256 * 256
CORE_PEAK_GFLOPS = 2.45 * 32  # AVX2 + FMA: 2 FMA ports × 8 floats × 2 flops per cycle


def embed():
    """Speaker embeddings: the GE2E encoder in-process against Resemblyzer + torch (one thread
    each), and whole `kordant embed` runs against the whole Python script (imports included)."""
    import csv
    kordant = release_kordant()
    py = [sys.executable, os.path.join(HERE, "resemblyzer_embed.py")]
    if os.path.isdir(SPEECH):
        with open(os.path.join(SPEECH, "manifest.csv")) as f:
            rows = list(csv.DictReader(f))
        clips = [os.path.join(SPEECH, r["file"]) for r in rows][:100]
        long_clip = os.path.join(SPEECH, max(rows, key=lambda r: float(r["seconds"]))["file"])
    else:
        import glob
        clips = sorted(glob.glob(os.path.join(HERE, "../TestAudio/[es]*.wav")))
        long_clip = clips[0]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")

    def lines(cmd):
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
        return [__import__("json").loads(x) for x in out.splitlines()]

    # Encoder alone: the same preprocessed audio, median of 5 in-process runs per clip.
    sample = clips[:: max(1, len(clips) // 20)]
    ours = lines([kordant, "embed", "--encoder-repeat", "5", *sample])
    theirs = lines([*py, "--encoder-only", "5", *sample])
    sec = sum(o["seconds"] for o in ours)
    flop = sum(o["partials"] for o in ours) * GE2E_FLOP_PER_PARTIAL
    e_ms, p_ms = sum(o["median_ms"] for o in ours), sum(o["median_ms"] for o in theirs)
    row(f"GE2E encoder in-process, {len(sample)} clips ({flop / e_ms / 1e6:.1f} vs {flop / p_ms / 1e6:.1f} GFLOP/s;"
        f" core peak {CORE_PEAK_GFLOPS:.0f})", sec, e_ms, "resemblyzer + torch, 1 thread", p_ms)

    def timed(cmd, n=3):
        best = float("inf")
        for _ in range(n):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            best = min(best, time.perf_counter() - t)
        return best
    audio = sum(float(r["seconds"]) for r in rows[:100]) if os.path.isdir(SPEECH) else 1.0
    k1 = timed([kordant, "embed", "--json", "--jobs", "1", *clips])
    k2 = timed([kordant, "embed", "--json", "--jobs", "2", *clips])
    p1 = timed([*py, *clips], 2)
    row(f"whole `kordant embed --jobs 1`, {len(clips)} clips", audio, k1 * 1000, "resemblyzer_embed.py (imports included)", p1 * 1000)
    row(f"whole `kordant embed --jobs 2`, {len(clips)} clips (jobs 2 vs jobs 1: {k1 / k2:.2f}×)", audio, k2 * 1000, "`kordant embed --jobs 1`", k1 * 1000)
    one_k = timed([kordant, "embed", "--json", long_clip], 5)
    one_p = timed([*py, long_clip], 3)
    row(f"whole `kordant embed`, one {os.path.basename(long_clip)}", 15.0, one_k * 1000, "resemblyzer_embed.py", one_p * 1000)


GROUPS = {"levels": levels, "convert": convert, "mfcc": mfcc, "ocr": ocr, "batch": batch, "commands": commands, "embed": embed}

if __name__ == "__main__":
    chosen = sys.argv[1:] or list(GROUPS)
    print(f"machine: {os.cpu_count()} cores, {subprocess.run(['uname', '-srm'], capture_output=True, text=True).stdout.strip()}")
    print("| work | engine (median, × real time) | peer | peer (median, × real time) | engine speed-up |")
    print("|---|---|---|---|---|")
    for g in chosen:
        GROUPS[g]()
