"""Writes Tests/Fixtures/mfcc/*.npy and manifest.json (see scripts/make-mfcc-fixtures).

Every matrix is frames x coefficients, float32, computed by the reference library from the
16-bit samples of a TestAudio clip. Kaldi and python_speech_features see the samples on the
int16 scale (as Kaldi reads WAV files and as scipy.io.wavfile hands them to psf); librosa sees
them divided by 32768.
"""
import json
import os
import sys
import wave

import kaldi_native_fbank as knf
import librosa
import numpy as np
import python_speech_features as psf

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "mfcc")
CLIPS = ["speech_us_male.wav", "speech_gb_female.wav", "noisy_pink_snr10.wav", "silence_6s.wav"]

# Parameter sets: the names and values are what the Swift tests pass to the engine.
KALDI = {
    "A": {},
    "B": {"num_bins": 40, "num_ceps": 20, "low_freq": 60.0, "high_freq": -400.0, "window": "hamming",
          "use_energy": False},
}
LIBROSA = {
    "A": {"n_mfcc": 13, "n_fft": 512, "hop_length": 160, "win_length": 400, "n_mels": 40, "fmin": 20.0,
          "fmax": 7600.0, "htk": True, "lifter": 22},
    "B": {},
}
PSF = {
    "A": {},
    "B": {"nfilt": 40, "numcep": 20, "lowfreq": 100, "highfreq": 7000, "preemph": 0.95, "appendEnergy": False},
}


def read_int16(path):
    with wave.open(path, "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1 and w.getframerate() == 16000
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")


def kaldi(x16, p):
    o = knf.MfccOptions()
    o.frame_opts.dither = 0.0
    o.frame_opts.samp_freq = 16000
    if "window" in p:
        o.frame_opts.window_type = p["window"]
    for k in ["num_bins", "low_freq", "high_freq"]:
        if k in p:
            setattr(o.mel_opts, k, p[k])
    for k in ["num_ceps", "use_energy"]:
        if k in p:
            setattr(o, k, p[k])
    m = knf.OnlineMfcc(o)
    m.accept_waveform(16000, x16.astype(np.float32).tolist())
    m.input_finished()
    return np.array([m.get_frame(i) for i in range(m.num_frames_ready)], dtype=np.float32)


def rosa(x16, p):
    y = x16.astype(np.float32) / 32768
    return librosa.feature.mfcc(y=y, sr=16000, **p).T.astype(np.float32)


def pyspeech(x16, p):
    return psf.mfcc(x16.astype(np.float64), samplerate=16000, **p).astype(np.float32)


def kaldi_deltas(feats, order=2, window=2):
    """Kaldi's DeltaFeatures (feat/feature-functions.cc): each order's filter is the previous one
    convolved with [-N..N]/(2·Σn²), applied to the original features with edge frames repeated."""
    scales = [np.array([1.0])]
    base = np.arange(-window, window + 1, dtype=np.float64) / (2 * sum(n * n for n in range(1, window + 1)))
    for _ in range(order):
        scales.append(np.convolve(scales[-1], base))
    T = len(feats)
    out = [feats.astype(np.float64)]
    for s in scales[1:]:
        half = (len(s) - 1) // 2
        acc = np.zeros_like(feats, dtype=np.float64)
        for j, c in enumerate(s):
            idx = np.clip(np.arange(T) + j - half, 0, T - 1)
            acc += c * feats[idx]
        out.append(acc)
    return np.concatenate(out, axis=1).astype(np.float32)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    entries = []

    def save(name, matrix, **meta):
        np.save(os.path.join(OUT, name), np.ascontiguousarray(matrix, dtype=np.float32))
        entries.append({"file": name, "frames": int(matrix.shape[0]), "coefficients": int(matrix.shape[1]), **meta})

    for clip in CLIPS:
        x16 = read_int16(os.path.join(ROOT, "TestAudio", clip))
        stem = clip[:-4]
        for set_name, p in KALDI.items():
            save(f"{stem}.kaldi.{set_name}.npy", kaldi(x16, p), clip=clip, profile="kaldi", set=set_name, params=p,
                 reference=f"kaldi-native-fbank {knf.__version__ if hasattr(knf, '__version__') else '1.23.0'} OnlineMfcc, dither 0")
        for set_name, p in LIBROSA.items():
            save(f"{stem}.librosa.{set_name}.npy", rosa(x16, p), clip=clip, profile="librosa", set=set_name, params=p,
                 reference=f"librosa {librosa.__version__} feature.mfcc")
        for set_name, p in PSF.items():
            save(f"{stem}.psf.{set_name}.npy", pyspeech(x16, p), clip=clip, profile="psf", set=set_name, params=p,
                 reference="python_speech_features 0.6 mfcc")
        if clip != "silence_6s.wav":
            km = kaldi(x16, KALDI["A"])
            save(f"{stem}.kaldi-deltas.A.npy", kaldi_deltas(km), clip=clip, profile="kaldi", set="A",
                 params={"deltas": "kaldi", "order": 2, "window": 2},
                 reference="numpy transcription of Kaldi DeltaFeatures over kaldi-native-fbank MFCC")
            save(f"{stem}.psf-delta.A.npy", psf.delta(km.astype(np.float64), 2).astype(np.float32), clip=clip,
                 profile="kaldi", set="A", params={"deltas": "psf", "N": 2},
                 reference="python_speech_features.delta(N=2) over kaldi-native-fbank MFCC (= Kaldi first order)")
            lm = librosa.feature.mfcc(y=x16.astype(np.float32) / 32768, sr=16000, **LIBROSA["A"])
            for order in (1, 2):
                save(f"{stem}.librosa-delta{order}.A.npy", librosa.feature.delta(lm, order=order).T, clip=clip,
                     profile="librosa", set="A", params={"deltas": "librosa", "order": order, "width": 9},
                     reference=f"librosa {librosa.__version__} feature.delta")
    with open(os.path.join(OUT, "manifest.json"), "w") as fh:
        json.dump({"generator": "scripts/make-mfcc-fixtures", "kaldi": KALDI, "librosa": LIBROSA, "psf": PSF,
                   "fixtures": entries}, fh, indent=1)
        fh.write("\n")


# ---- the parameter grid (scripts/make-mfcc-fixtures --grid) ------------------------------------
# A 1.5 s clip (0.2 s of digital silence, then speech) through each library over settings that
# together cover every parameter `kordant features` exposes, not only the defaults. Each entry
# names the library call's own parameters and the `kordant features` arguments that mean the same.
GRID_OUT = os.path.join(ROOT, "Tests", "Fixtures", "mfcc-grid")
GRID_CLIP = ("speech_us_male.wav", 6400, 24000)   # source, first sample, samples

KALDI_GRID = {
    "defaults": ({}, []),
    "bins-ceps-range-lifter0-hamming": (
        {"num_bins": 40, "num_ceps": 20, "low_freq": 60.0, "high_freq": -400.0, "cepstral_lifter": 0.0, "window_type": "hamming"},
        ["--num-mel-bins=40", "--num-ceps=20", "--low-freq=60", "--high-freq=-400", "--cepstral-lifter=0", "--window-type=hamming"]),
    "no-snip-edges-windowed-energy": (
        {"snip_edges": False, "raw_energy": False},
        ["--snip-edges=false", "--raw-energy=false"]),
    "no-energy-20ms-12.5ms-hanning": (
        {"use_energy": False, "frame_length_ms": 20.0, "frame_shift_ms": 12.5, "window_type": "hanning", "high_freq": 7000.0,
         "cepstral_lifter": 30.0},
        ["--use-energy=false", "--frame-length=20", "--frame-shift=12.5", "--window-type=hanning", "--high-freq=7000",
         "--cepstral-lifter=30"]),
    "energy-floor-no-snip-32ms-no-dc-preemph0.9": (
        {"energy_floor": 1.0, "snip_edges": False, "frame_length_ms": 32.0, "frame_shift_ms": 8.0, "remove_dc_offset": False,
         "preemph_coeff": 0.9},
        ["--energy-floor=1", "--snip-edges=false", "--frame-length=32", "--frame-shift=8", "--remove-dc-offset=false",
         "--preemphasis-coefficient=0.9"]),
    "float-input-rectangular-30bins": (
        {"input_scale": "float", "window_type": "rectangular", "num_bins": 30, "high_freq": 6000.0, "energy_floor": 0.5},
        ["--input-scale=float", "--window-type=rectangular", "--num-mel-bins=30", "--high-freq=6000", "--energy-floor=0.5"]),
}
LIBROSA_GRID = {
    "defaults": ({}, ["--profile=librosa"]),
    "speech-htk-lifter22": (
        {"n_mfcc": 13, "n_fft": 512, "hop_length": 160, "win_length": 400, "n_mels": 40, "fmin": 20.0, "fmax": 7600.0,
         "htk": True, "lifter": 22},
        ["--n-mfcc=13", "--n-fft=512", "--hop-length=160", "--win-length=400", "--n-mels=40", "--fmin=20", "--fmax=7600",
         "--htk", "--lifter=22"]),
    "no-center-dct-norm-none": (
        {"center": False, "n_fft": 1024, "hop_length": 256, "n_mels": 64, "norm": None},
        ["--no-center", "--n-fft=1024", "--hop-length=256", "--n-mels=64", "--norm=none"]),
    "mel-norm-none-30mfcc-lifter10": (
        {"mel_norm": None, "n_mfcc": 30, "n_mels": 80, "fmax": 6000.0, "lifter": 10, "n_fft": 800, "hop_length": 200},
        ["--mel-norm=none", "--n-mfcc=30", "--n-mels=80", "--fmax=6000", "--lifter=10", "--n-fft=800", "--hop-length=200"]),
    "int16-input-short-window": (
        {"input_scale": "int16", "n_fft": 512, "win_length": 320, "hop_length": 80, "n_mels": 32, "n_mfcc": 16, "fmin": 100.0},
        ["--input-scale=int16", "--n-fft=512", "--win-length=320", "--hop-length=80", "--n-mels=32", "--n-mfcc=16", "--fmin=100"]),
}
PSF_GRID = {
    "defaults": ({}, ["--profile=psf"]),
    "float-input": ({"input_scale": "float"}, ["--profile=psf", "--input-scale=float"]),
    "filters-range-no-energy": (
        {"nfilt": 40, "numcep": 20, "lowfreq": 100, "highfreq": 7000, "preemph": 0.95, "appendEnergy": False},
        ["--nfilt=40", "--numcep=20", "--lowfreq=100", "--highfreq=7000", "--preemph=0.95", "--append-energy=false"]),
    "32ms-16ms-nfft1024-no-lifter": (
        {"winlen": 0.032, "winstep": 0.016, "nfft": 1024, "ceplifter": 0, "preemph": 0},
        ["--winlen=0.032", "--winstep=0.016", "--nfft=1024", "--ceplifter=0", "--preemph=0"]),
}


def kaldi_grid(x16, p):
    o = knf.MfccOptions()
    o.frame_opts.dither = 0.0
    o.frame_opts.samp_freq = 16000
    for k in ["frame_length_ms", "frame_shift_ms", "window_type", "snip_edges", "remove_dc_offset", "preemph_coeff"]:
        if k in p:
            setattr(o.frame_opts, k, p[k])
    for k in ["num_bins", "low_freq", "high_freq"]:
        if k in p:
            setattr(o.mel_opts, k, p[k])
    for k in ["num_ceps", "use_energy", "raw_energy", "energy_floor", "cepstral_lifter"]:
        if k in p:
            setattr(o, k, p[k])
    x = x16.astype(np.float32) / (32768 if p.get("input_scale") == "float" else 1)
    m = knf.OnlineMfcc(o)
    m.accept_waveform(16000, x.tolist())
    m.input_finished()
    return np.array([m.get_frame(i) for i in range(m.num_frames_ready)], dtype=np.float32)


def rosa_grid(x16, p):
    p = dict(p)
    y = x16.astype(np.float32) / (1 if p.pop("input_scale", "float") == "int16" else 32768)
    if "mel_norm" in p:
        # The mel filters' norm is not an argument of feature.mfcc (its `norm` is the DCT's):
        # users pass it through melspectrogram and hand mfcc the log-power mel spectrogram.
        mel_norm = p.pop("mel_norm")
        n_mfcc, lifter = p.pop("n_mfcc", 20), p.pop("lifter", 0)
        S = librosa.power_to_db(librosa.feature.melspectrogram(y=y, sr=16000, norm=mel_norm, **p))
        return librosa.feature.mfcc(S=S, n_mfcc=n_mfcc, lifter=lifter).T.astype(np.float32)
    return librosa.feature.mfcc(y=y, sr=16000, **p).T.astype(np.float32)


def psf_grid(x16, p):
    p = dict(p)
    x = x16.astype(np.float64) / (32768 if p.pop("input_scale", "int16") == "float" else 1)
    return psf.mfcc(x, samplerate=16000, **p).astype(np.float32)


def make_grid():
    os.makedirs(GRID_OUT, exist_ok=True)
    for f in os.listdir(GRID_OUT):
        os.remove(os.path.join(GRID_OUT, f))
    source, first, count = GRID_CLIP
    x16 = read_int16(os.path.join(ROOT, "TestAudio", source))[first:first + count]
    with wave.open(os.path.join(GRID_OUT, "clip.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(x16.astype("<i2").tobytes())
    entries = []
    for library, grid, run, reference in [
            ("kaldi", KALDI_GRID, kaldi_grid, "kaldi-native-fbank %s OnlineMfcc, dither 0" % getattr(knf, "__version__", "1.23.0")),
            ("librosa", LIBROSA_GRID, rosa_grid, "librosa %s feature.mfcc" % librosa.__version__),
            ("psf", PSF_GRID, psf_grid, "python_speech_features 0.6 mfcc")]:
        for name, (params, cli) in grid.items():
            m = run(x16, params)
            file = f"{library}.{name}.npy"
            np.save(os.path.join(GRID_OUT, file), np.ascontiguousarray(m, dtype=np.float32))
            entries.append({"file": file, "profile": library, "name": name, "frames": int(m.shape[0]),
                            "coefficients": int(m.shape[1]), "params": params, "cli": cli, "reference": reference})
    with open(os.path.join(GRID_OUT, "manifest.json"), "w") as fh:
        json.dump({"generator": "scripts/make-mfcc-fixtures --grid",
                   "clip": {"file": "clip.wav", "source": source, "first_sample": first, "samples": count},
                   "fixtures": entries}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    make_grid() if "--grid" in sys.argv[1:] else main()
