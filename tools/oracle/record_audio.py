"""Record real MindSpore 2.10's ``dataset.audio`` transforms into tests/fixtures/oracle/audio.npz.

Run with the oracle interpreter (see README.md). Each case is a constructor expression over ``A`` (the audio
module) called eagerly on a small float32 waveform, spectrogram or complex array from a fixed seed (a function
call expression such as ``A.create_dct(...)`` is recorded as is); the test evaluates the same expression.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.audio as A  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "audio.npz")


def inputs():
    rng = np.random.default_rng(30)
    return {
        "wave": (rng.standard_normal(600) * 0.4).astype(np.float32),
        "wave2": (rng.standard_normal((2, 300)) * 0.3).astype(np.float32),
        "spec": (rng.random((201, 7)) * 10).astype(np.float32),
        "small_spec": (rng.random((2, 9, 11)) * 3).astype(np.float32),
        "cplx": rng.standard_normal((5, 4, 2)).astype(np.float32),
        "codes": rng.integers(0, 256, 50).astype(np.int32),
        "db": (rng.standard_normal((4, 6)) * 20).astype(np.float32),
    }


MEL = ("{{'n_fft': 64, 'n_mels': {n_mels}, 'f_max': 4000.0, 'win_length': 64, 'hop_length': {hop}, "
       "'f_min': 0.0, 'pad': 0, 'window': A.WindowType.HANN, 'power': 2.0, 'normalized': False, 'center': True, "
       "'pad_mode': A.BorderType.REFLECT, 'onesided': True, 'norm': A.NormType.NONE, 'mel_scale': A.MelType.HTK, "
       "'sample_rate': 8000}}")

SPEC = ("{{'n_fft': {n_fft}, 'win_length': {n_fft}, 'hop_length': 16, 'pad': 0, 'window': A.WindowType.HANN, "
        "'power': 2.0, 'normalized': False, 'center': True, 'pad_mode': A.BorderType.REFLECT, 'onesided': True}}")

CASES = [
    ("A.Spectrogram(n_fft=64)", "wave"),
    ("A.Spectrogram(n_fft=64, win_length=48, hop_length=20, pad=3, window=A.WindowType.HAMMING, power=1.0, "
     "normalized=True)", "wave"),
    ("A.Spectrogram(n_fft=32, window=A.WindowType.BLACKMAN, center=False)", "wave2"),
    ("A.Spectrogram(n_fft=32, window=A.WindowType.BARTLETT, pad_mode=A.BorderType.CONSTANT)", "wave"),
    ("A.Spectrogram(n_fft=32, window=A.WindowType.KAISER)", "wave"),
    ("A.MelScale(n_mels=16, sample_rate=8000, n_stft=201)", "spec"),
    ("A.MelScale(n_mels=12, sample_rate=16000, f_min=50.0, f_max=6000.0, n_stft=201, norm=A.NormType.SLANEY, "
     "mel_type=A.MelType.SLANEY)", "spec"),
    ("A.MelSpectrogram(sample_rate=8000, n_fft=64, n_mels=10)", "wave"),
    ("A.AmplitudeToDB()", "spec"),
    ("A.AmplitudeToDB(stype=A.ScaleType.MAGNITUDE, ref_value=2.0, top_db=30.0)", "small_spec"),
    ("A.DBToAmplitude(0.5, 0.5)", "db"),
    # MindSpore's MFCC needs every MelSpectrogram argument in melkwargs
    ("A.MFCC(sample_rate=8000, n_mfcc=8, melkwargs=" + MEL.format(n_mels=12, hop=32) + ")", "wave2"),
    ("A.MFCC(sample_rate=8000, n_mfcc=6, log_mels=True, norm=A.NormMode.NONE, melkwargs="
     + MEL.format(n_mels=10, hop=16) + ")", "wave2"),
    ("A.MuLawEncoding()", "wave"),
    ("A.MuLawDecoding(128)", "codes"),
    ("A.Gain(3.0)", "wave"),
    ("A.Vol(0.5)", "wave"), ("A.Vol(6.0, A.GainType.DB)", "wave"), ("A.Vol(2.0, A.GainType.POWER)", "wave"),
    ("A.DCShift(0.3)", "wave"), ("A.DCShift(0.5, 0.05)", "wave"), ("A.DCShift(-0.5, 0.05)", "wave"),
    ("A.ComputeDeltas()", "small_spec"), ("A.ComputeDeltas(7, A.BorderType.REFLECT)", "small_spec"),
    ("A.Angle()", "cplx"), ("A.ComplexNorm(2.0)", "cplx"), ("A.Magphase(1.5)", "cplx"),
    ("A.Fade(100, 50, A.FadeShape.LINEAR)", "wave"), ("A.Fade(80, 60, A.FadeShape.LOGARITHMIC)", "wave"),
    ("A.Fade(80, 60, A.FadeShape.QUARTER_SINE)", "wave"),
    ("A.Fade(80, 60, A.FadeShape.HALF_SINE)", "wave"),
    ("A.LFilter([1.0, -0.5, 0.2], [0.3, 0.2, 0.1])", "wave"),
    ("A.LFilter([1.0, -0.9], [0.5, 0.5], clamp=False)", "wave2"),
    ("A.Filtfilt([1.0, -0.5, 0.2], [0.3, 0.2, 0.1])", "wave"),
    ("A.Biquad(0.4, 0.2, 0.1, 1.0, -0.3, 0.1)", "wave"),
    ("A.LowpassBiquad(8000, 1000.0)", "wave"), ("A.HighpassBiquad(8000, 1500.0, 0.5)", "wave"),
    ("A.BandpassBiquad(8000, 1200.0)", "wave"), ("A.BandpassBiquad(8000, 1200.0, 0.6, True)", "wave"),
    ("A.BandrejectBiquad(8000, 900.0)", "wave"), ("A.AllpassBiquad(8000, 700.0)", "wave"),
    ("A.BandBiquad(8000, 800.0)", "wave"), ("A.BandBiquad(8000, 800.0, 0.7, True)", "wave"),
    ("A.BassBiquad(8000, 6.0)", "wave"), ("A.TrebleBiquad(8000, -4.0)", "wave"),
    ("A.EqualizerBiquad(8000, 1000.0, 5.0)", "wave"), ("A.DeemphBiquad(44100)", "wave"),
    ("A.RiaaBiquad(48000)", "wave"),
    # MindSpore's LFCC needs every Spectrogram argument in speckwargs
    ("A.LFCC(sample_rate=8000, n_filter=16, n_lfcc=8, speckwargs=" + SPEC.format(n_fft=64) + ")", "wave2"),
    ("A.LFCC(sample_rate=8000, n_filter=12, n_lfcc=6, log_lf=True, speckwargs=" + SPEC.format(n_fft=32) + ")",
     "wave2"),
    ("A.SpectralCentroid(8000, n_fft=64)", "wave"),
    ("A.Contrast(40.0)", "wave"),
    ("A.MaskAlongAxis(2, 3, 7.5, 2)", "small_spec"), ("A.MaskAlongAxis(1, 4, -1.0, 1)", "small_spec"),
    ("A.create_dct(8, 12)", None), ("A.create_dct(5, 10, A.NormMode.ORTHO)", None),
    ("A.melscale_fbanks(33, 0.0, 4000.0, 10, 8000)", None),
    ("A.melscale_fbanks(20, 100.0, 3000.0, 6, 8000, A.NormType.SLANEY, A.MelType.SLANEY)", None),
    ("A.linear_fbanks(33, 0.0, 4000.0, 10, 8000)", None),
]


def main():
    data = inputs()
    with FixtureWriter(OUT) as w:
        w.add("inputs", inputs=data, name="inputs")
        for k, (expr, key) in enumerate(CASES):
            try:
                value = eval(expr, {"A": A})  # noqa: S307 - the fixed expressions above
                out = value(data[key]) if key is not None else value
            except Exception as e:  # noqa: BLE001
                w.add(f"case{k:02d}", name="audio", expr=expr, input=key, error=type(e).__name__)
                continue
            outs = list(out) if isinstance(out, tuple) else [out]
            w.add(f"case{k:02d}", outputs=outs, name="audio", expr=expr, input=key)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
