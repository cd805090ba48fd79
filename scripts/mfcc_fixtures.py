"""Writes Tests/Fixtures/mfcc/*.npy and manifest.json (see scripts/make-mfcc-fixtures).

Every matrix is frames x coefficients, float32, computed by the reference library from the
16-bit samples of a TestAudio clip. Kaldi and python_speech_features see the samples on the
int16 scale (as Kaldi reads WAV files and as scipy.io.wavfile hands them to psf); librosa sees
them divided by 32768.
"""
import json
import os
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


if __name__ == "__main__":
    main()
