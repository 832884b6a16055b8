"""``InverseMelScale`` of ``mindspore.dataset.audio``: a linear spectrogram whose mel projection matches the input,
found by gradient descent from a random start as MindSpore 2.10's kernel does (computed with NumPy)."""
from __future__ import annotations

import numpy as np

from ..transforms._base import TensorOperation
from ._checks import FLOAT_MAX, check_int32, check_value, type_check
from ._spectral import MelType, NormType, melscale_fbanks

__all__ = ["InverseMelScale"]


class InverseMelScale(TensorOperation):
    """Solve for a linear spectrogram (..., n_stft, time) from a mel spectrogram (..., n_mels, time); a 2-D input
    gives (1, n_stft, time), as in MindSpore.

    The start is uniform in [0, 1) (drawn from the pipeline's seed), then ``max_iter`` steps of gradient descent on
    the mean squared mel error, stopping when the loss falls under ``tolerance_loss`` or changes by less than
    ``tolerance_change``; negatives are clamped to 0. MindSpore's SGD restarts its momentum buffer at every step, so
    ``sgd_momentum`` has no effect there and none here. Frequency bins no mel filter covers keep their start value.
    """

    random = True

    def __init__(self, n_stft: int, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0,
                 f_max: float | None = None, max_iter: int = 100000, tolerance_loss: float = 1e-5,
                 tolerance_change: float = 1e-8, sgdargs: dict | None = None, norm: NormType = NormType.NONE,
                 mel_type: MelType = MelType.HTK):
        check_int32(n_mels, "n_mels", 1)
        check_int32(sample_rate, "sample_rate", 1)
        type_check(f_min, (int, float), "f_min")
        check_value(f_min, -FLOAT_MAX, FLOAT_MAX, "f_min")
        if f_max is not None:
            type_check(f_max, (int, float), "f_max")
            check_value(f_max, 0, FLOAT_MAX, "f_max", left_open=True)
            if f_min >= f_max:
                raise ValueError("MelScale: f_max should be greater than f_min.")
        elif f_min >= sample_rate // 2:
            raise ValueError("MelScale: sample_rate // 2 should be greater than f_min when f_max is set to None.")
        check_int32(n_stft, "n_stft", 1)
        type_check(norm, (NormType,), "norm")
        type_check(mel_type, (MelType,), "mel_type")
        check_int32(max_iter, "max_iter", 1)
        for name, v in (("tolerance_loss", tolerance_loss), ("tolerance_change", tolerance_change)):
            type_check(v, (int, float), name)
            check_value(v, 0, FLOAT_MAX, name, left_open=True)
        sgdargs = {"sgd_lr": 0.1, "sgd_momentum": 0.9} if sgdargs is None else sgdargs
        for name in ("sgd_lr", "sgd_momentum"):
            type_check(sgdargs[name], (int, float), name)
            check_value(sgdargs[name], 0, FLOAT_MAX, name)
        self.n_stft, self.n_mels, self.sample_rate = n_stft, n_mels, sample_rate
        self.f_min, self.f_max = float(f_min), float(sample_rate // 2 if f_max is None else f_max)
        self.max_iter, self.tolerance_loss, self.tolerance_change = max_iter, float(tolerance_loss), \
            float(tolerance_change)
        self.sgdargs, self.norm, self.mel_type = sgdargs, norm, mel_type
        # (n_stft, n_mels)
        self.fb = melscale_fbanks(n_stft, self.f_min, self.f_max, n_mels, sample_rate, norm, mel_type)

    def _apply(self, rng, x):
        x = np.asarray(x)
        if x.ndim < 2 or x.dtype.kind not in "fiu":
            raise RuntimeError(f"InverseMelScale: the input should be a real mel spectrogram <..., freq, time>, but "
                               f"got {x.dtype} of shape {x.shape}")
        if x.shape[-2] != self.n_mels:
            raise RuntimeError(f"InverseMelScale: n_mels must be equal to the penultimate dimension of input: "
                               f"{self.n_mels} != {x.shape[-2]}")
        dtype = np.float64 if x.dtype == np.float64 else np.float32
        # MindSpore iterates in float32 unless the input is float64; where the loss stops changing depends on it
        mel = np.swapaxes(x.astype(dtype).reshape((-1,) + x.shape[-2:]), -1, -2)   # (n, time, n_mels)
        fb = self.fb.astype(dtype)
        time = mel.shape[1]
        lr = dtype(self.sgdargs["sgd_lr"])
        out = np.empty((mel.shape[0], time, self.n_stft), dtype)
        for c in range(mel.shape[0]):   # MindSpore stops each channel on its own loss
            spec = rng.random((time, self.n_stft)).astype(dtype)
            loss = np.inf
            for _ in range(self.max_iter):
                diff = mel[c] - spec @ fb
                new_loss = (diff ** 2).mean(dtype=dtype)
                if new_loss < self.tolerance_loss or abs(loss - new_loss) < self.tolerance_change:
                    break
                loss = new_loss
                spec = spec + lr * (diff @ fb.T) / dtype(time)
            out[c] = np.maximum(spec, 0)
        out = np.swapaxes(out, -1, -2)
        # as MindSpore: a single (n_mels, time) spectrogram comes back as (1, n_stft, time)
        return out.reshape(x.shape[:-2] + out.shape[-2:] if x.ndim > 2 else out.shape)
