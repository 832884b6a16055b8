"""Record real MindSpore 2.10's Phaser, PitchShift and InverseMelScale (``dataset.audio``) into
tests/fixtures/oracle/audio_more2.npz.

Run with the oracle interpreter (see README.md). Each case is a constructor expression over ``A`` (the audio
module) called eagerly on one of the fixed inputs below; a constructor that raises records its error type and
message, a call that raises records its error type."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.audio as A  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "audio_more2.npz")


def inputs():
    rng = np.random.default_rng(47)
    t = np.arange(3000, dtype=np.float64) / 8000.0
    tone = 0.5 * np.sin(2 * np.pi * 440.0 * t) + 0.2 * np.sin(2 * np.pi * 1250.0 * t)
    return {
        "wave": (rng.standard_normal(400) * 0.3).astype(np.float32),
        "wave2": (rng.standard_normal((2, 300)) * 0.4).astype(np.float32),
        "wave64": (rng.standard_normal(250) * 0.3).astype(np.float64),
        "loud": (rng.standard_normal(300) * 1.5).astype(np.float32),
        "tone": tone[:600].astype(np.float32),
        "tone2": np.stack([tone[:500], tone[100:600]]).astype(np.float32),
        # mel spectrograms (16 mels of 33 STFT bins at 8 kHz) of random power spectrograms, for InverseMelScale
        "mel": A.MelScale(16, 8000, n_stft=33)((rng.random((33, 6)) * 2).astype(np.float32)),
        "mel3": A.MelScale(16, 8000, n_stft=33)((rng.random((2, 33, 5)) * 2).astype(np.float32)),
        "mel64": A.MelScale(8, 8000, n_stft=17)((rng.random((17, 4)) * 2).astype(np.float64)),
    }


CASES = [
    # Phaser: sample rates, parameters, 1-D / 2-D / float64, clipping
    ("A.Phaser(8000)", "wave"), ("A.Phaser(8000)", "wave2"), ("A.Phaser(16000)", "wave64"),
    ("A.Phaser(44100, gain_in=0.9, gain_out=0.5, delay_ms=5.0, decay=0.7, mod_speed=2.0)", "wave"),
    ("A.Phaser(22050, delay_ms=1.0, decay=0.99, mod_speed=0.1, sinusoidal=False)", "wave2"),
    ("A.Phaser(8000, 0.6, 0.9, 2.5, 0.2, 1.5, False)", "tone"),
    ("A.Phaser(8000, gain_out=5.0)", "loud"), ("A.Phaser(48000, gain_in=0.0)", "wave"),
    ("A.Phaser(1000, delay_ms=4.0, sinusoidal=False)", "tone2"),
    ("A.Phaser(8000.0)", "wave"), ("A.Phaser(8000, gain_in=1.5)", "wave"), ("A.Phaser(8000, gain_out=-1.0)", "wave"),
    ("A.Phaser(8000, delay_ms=6.0)", "wave"), ("A.Phaser(8000, decay=1.0)", "wave"),
    ("A.Phaser(8000, mod_speed=0.05)", "wave"), ("A.Phaser(8000, sinusoidal=1)", "wave"),
    ("A.Phaser(8000, gain_in='0.4')", "wave"), ("A.Phaser(True)", "wave"),
    # PitchShift
    ("A.PitchShift(8000, 2, n_fft=64)", "wave"), ("A.PitchShift(8000, -3, n_fft=64)", "tone"),
    ("A.PitchShift(16000, 4, bins_per_octave=24, n_fft=128, win_length=96, hop_length=20)", "tone2"),
    ("A.PitchShift(8000, 5, n_fft=32, window=A.WindowType.HAMMING)", "wave2"),
    ("A.PitchShift(8000, 0, n_fft=64)", "wave64"), ("A.PitchShift(22050, -7, n_fft=64, hop_length=8)", "wave"),
    ("A.PitchShift(8000, 1, n_fft=64, window=A.WindowType.BLACKMAN)", "tone"),
    ("A.PitchShift(8000, 12, n_fft=64, window=A.WindowType.BARTLETT)", "tone"),
    ("A.PitchShift(8000, 2, n_fft=64, win_length=80)", "wave"), ("A.PitchShift(8000, 2, bins_per_octave=0)", "wave"),
    ("A.PitchShift(8000, 2, n_fft=0)", "wave"), ("A.PitchShift(-1, 2)", "wave"), ("A.PitchShift(8000, 2.0)", "wave"),
    ("A.PitchShift(8000, 2, window='hann')", "wave"), ("A.PitchShift(8000, 2, hop_length=0)", "wave"),
    # InverseMelScale: random start, so the tests compare it loosely (shape, dtype, how well it inverts)
    ("A.InverseMelScale(33, n_mels=16, sample_rate=8000)", "mel"),
    ("A.InverseMelScale(33, 16, 8000, max_iter=200)", "mel3"),
    ("A.InverseMelScale(17, 8, 8000)", "mel64"),
    ("A.InverseMelScale(33, 16, 8000, f_min=100.0, f_max=3500.0, tolerance_loss=1e-3, "
     "sgdargs={'sgd_lr': 0.05, 'sgd_momentum': 0.5}, norm=A.NormType.SLANEY, mel_type=A.MelType.SLANEY)", "mel"),
    ("A.InverseMelScale(33, n_mels=16, sample_rate=8000)", "mel64"),
    ("A.InverseMelScale(0)", "mel"), ("A.InverseMelScale(33, f_min=9000.0)", "mel"),
    ("A.InverseMelScale(33, f_min=500.0, f_max=100.0)", "mel"), ("A.InverseMelScale(33, max_iter=0)", "mel"),
    ("A.InverseMelScale(33, tolerance_loss=0)", "mel"), ("A.InverseMelScale(33, norm='slaney')", "mel"),
    ("A.InverseMelScale(33, sgdargs={'sgd_lr': -1.0, 'sgd_momentum': 0.9})", "mel"),
    ("A.InverseMelScale(33.0)", "mel"),
]


def main():
    data = inputs()
    with FixtureWriter(OUT) as w:
        w.add("inputs", inputs=data, name="inputs")
        for k, (expr, key) in enumerate(CASES):
            meta = {"name": "audio", "expr": expr, "input": key}
            try:
                op = eval(expr, {"A": A})  # noqa: S307 - the fixed expressions above
            except Exception as e:  # noqa: BLE001
                w.add(f"case{k:02d}", error=type(e).__name__, stage="init", message=str(e), **meta)
                continue
            try:
                out = op(data[key])
            except Exception as e:  # noqa: BLE001
                print("ERR", expr, type(e).__name__, str(e)[:200])
                w.add(f"case{k:02d}", error=type(e).__name__, stage="call", **meta)
                continue
            w.add(f"case{k:02d}", outputs=[np.asarray(out)], **meta)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
