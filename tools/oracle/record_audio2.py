"""Record real MindSpore 2.10's remaining ``dataset.audio`` transforms into tests/fixtures/oracle/audio2.npz.

Run with the oracle interpreter (see README.md). As record_audio.py: each case is a constructor expression over
``A`` (the audio module, ``np`` = numpy) called eagerly on one of the fixed inputs below."""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.audio as A  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "audio2.npz")


def inputs():
    rng = np.random.default_rng(31)
    t = np.arange(800, dtype=np.float64) / 8000.0
    tone = 0.5 * np.sin(2 * np.pi * 440.0 * t) + 0.2 * np.sin(2 * np.pi * 660.0 * t)
    return {
        "wave": (rng.standard_normal(300) * 0.4).astype(np.float32),
        "wave2": (rng.standard_normal((2, 150)) * 0.3).astype(np.float32),
        "tone": tone.astype(np.float32),
        "tone2": np.stack([tone, tone[::-1]]).astype(np.float32),
        "cspec": rng.standard_normal((9, 6, 2)).astype(np.float32),       # (freq, time, re/im), n_fft 16
        "cspec2": rng.standard_normal((2, 9, 6, 2)).astype(np.float32),
        "mag": (rng.random((9, 12)) * 2).astype(np.float32),            # |STFT|**2, n_fft 16
    }


CASES = [
    ("A.Overdrive()", "wave"), ("A.Overdrive(10.0, 5.0)", "wave2"), ("A.Overdrive(50.0, 80.0)", "wave"),
    ("A.Resample(16000, 8000)", "wave"), ("A.Resample(8000, 12000)", "wave2"),
    ("A.Resample(44100, 16000, lowpass_filter_width=4, rolloff=0.9)", "wave"),
    ("A.Resample(8000, 6000, A.ResampleMethod.KAISER_WINDOW)", "wave"),
    ("A.Resample(8000, 6000, A.ResampleMethod.KAISER_WINDOW, 8, 0.95, 10.0)", "wave"),
    ("A.Resample(8000, 8000)", "wave"),
    ("A.InverseSpectrogram(n_fft=16)", "cspec"),
    ("A.InverseSpectrogram(length=20, n_fft=16, hop_length=4)", "cspec2"),
    ("A.InverseSpectrogram(n_fft=16, win_length=12, hop_length=5, window=A.WindowType.HAMMING, normalized=True)",
     "cspec"),
    ("A.InverseSpectrogram(length=30, n_fft=16, hop_length=4, pad=2)", "cspec"),
    ("A.InverseSpectrogram(n_fft=16, hop_length=4, center=False)", "cspec"),
    ("A.PhaseVocoder(1.3, np.linspace(0, np.pi * 8, 9, dtype=np.float32)[:, None])", "cspec"),
    ("A.PhaseVocoder(0.7, np.linspace(0, np.pi * 4, 9, dtype=np.float32)[:, None])", "cspec2"),
    ("A.TimeStretch(n_freq=9, fixed_rate=1.5)", "cspec"),
    ("A.TimeStretch(hop_length=4, n_freq=9, fixed_rate=0.8)", "cspec2"),
    ("A.TimeStretch(n_freq=9)", "cspec"),
    ("A.GriffinLim(n_fft=16, n_iter=4, rand_init=False)", "mag"),
    ("A.GriffinLim(n_fft=16, n_iter=3, hop_length=4, momentum=0.0, length=44, rand_init=False)", "mag"),
    ("A.GriffinLim(n_fft=16, n_iter=3, momentum=0.5, length=90, rand_init=False)", "mag"),
    ("A.GriffinLim(n_fft=16, n_iter=2, win_length=12, power=1.0, window_type=A.WindowType.HAMMING, "
     "rand_init=False)", "mag"),
    ("A.DetectPitchFrequency(8000)", "tone"),
    ("A.DetectPitchFrequency(8000, frame_time=0.02, win_length=5, freq_low=100, freq_high=2000)", "tone2"),
    ("A.SlidingWindowCmn(cmn_window=20, min_cmn_window=5)", "mag"),
    ("A.SlidingWindowCmn(cmn_window=8, min_cmn_window=3, center=True, norm_vars=True)", "mag"),
    ("A.SlidingWindowCmn(cmn_window=6, min_cmn_window=2, norm_vars=True)", "cspec"),
    ("A.Flanger(8000)", "wave2"),
    ("A.Flanger(8000, delay=2.0, depth=3.0, regen=20.0, width=50.0, speed=2.0, phase=60.0, "
     "modulation=A.Modulation.TRIANGULAR, interpolation=A.Interpolation.QUADRATIC)", "wave2"),
    ("A.Flanger(16000, regen=-30.0)", "tone2"),
    ("A.Dither()", "wave"), ("A.Dither(A.DensityFunction.RPDF)", "wave"),
    ("A.Dither(A.DensityFunction.GPDF, True)", "wave2"),
]


def run_case(k, path):
    """One case in this (fresh) process: MindSpore's InverseSpectrogram/GriffinLim results change after other
    audio operations ran in the same process, so every case gets its own interpreter."""
    expr, key = CASES[k]
    data = inputs()
    try:
        out = eval(expr, {"A": A, "np": np})(data[key])  # noqa: S307 - the fixed expressions above
        again = eval(expr, {"A": A, "np": np})(data[key])  # noqa: S307
    except Exception as e:  # noqa: BLE001
        print("ERR", expr, type(e).__name__, str(e)[:200])
        np.savez(path, error=np.array(type(e).__name__))
        return
    np.savez(path, out=np.asarray(out), repeatable=np.array(np.array_equal(np.asarray(out), np.asarray(again))))


def main():
    data = inputs()
    tmp = tempfile.mkdtemp()
    with FixtureWriter(OUT) as w:
        w.add("inputs", inputs=data, name="inputs")
        for k, (expr, key) in enumerate(CASES):
            path = os.path.join(tmp, f"{k}.npz")
            subprocess.run([sys.executable, os.path.abspath(__file__), str(k), path], check=True)
            res = np.load(path)
            if "error" in res.files:
                w.add(f"case{k:02d}", name="audio", expr=expr, input=key, error=str(res["error"]))
            else:
                w.add(f"case{k:02d}", outputs=[res["out"]], name="audio", expr=expr, input=key,
                      repeatable=bool(res["repeatable"]))
    print("wrote", OUT)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        run_case(int(sys.argv[1]), sys.argv[2])
    else:
        main()
