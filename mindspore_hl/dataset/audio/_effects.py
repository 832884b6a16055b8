"""Waveform effects and complex helpers of ``mindspore.dataset.audio`` (torchaudio's definitions, NumPy)."""
from __future__ import annotations

import enum
import math

import numpy as np

from ..transforms._base import TensorOperation
from ._spectral import _PAD, BorderType, _check_int

__all__ = ["MuLawEncoding", "MuLawDecoding", "Gain", "Vol", "GainType", "DCShift", "ComputeDeltas", "Angle",
           "ComplexNorm", "Magphase", "Fade", "FadeShape"]


class GainType(str, enum.Enum):
    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class FadeShape(str, enum.Enum):
    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


def _f32(x):
    return np.asarray(x, np.float64)


class MuLawEncoding(TensorOperation):
    """mu-law companding of a waveform in [-1, 1] to ints in [0, quantization_channels)."""

    def __init__(self, quantization_channels: int = 256):
        self.quantization_channels = _check_int("MuLawEncoding", "quantization_channels", quantization_channels)

    def _apply(self, rng, x):
        mu = self.quantization_channels - 1.0
        xf = _f32(x)
        x_mu = np.sign(xf) * np.log1p(mu * np.abs(xf)) / math.log1p(mu)
        return ((x_mu + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(TensorOperation):
    """Inverse of MuLawEncoding: ints in [0, quantization_channels) to a waveform in [-1, 1] (float32)."""

    def __init__(self, quantization_channels: int = 256):
        self.quantization_channels = _check_int("MuLawDecoding", "quantization_channels", quantization_channels)

    def _apply(self, rng, x):
        mu = self.quantization_channels - 1.0
        xf = _f32(x) / mu * 2 - 1.0
        return (np.sign(xf) * (np.exp(np.abs(xf) * math.log1p(mu)) - 1.0) / mu).astype(np.float32)


class Gain(TensorOperation):
    """Amplify by ``gain_db`` decibels."""

    def __init__(self, gain_db: float = 1.0):
        self.gain_db = float(gain_db)

    def _apply(self, rng, x):
        return (_f32(x) * 10 ** (self.gain_db / 20)).astype(np.float32)


class Vol(TensorOperation):
    """Scale the volume (``gain`` as an amplitude ratio, a power ratio or decibels), clipped to [-1, 1]."""

    def __init__(self, gain: float, gain_type: GainType = GainType.AMPLITUDE):
        self.gain, self.gain_type = float(gain), GainType(gain_type)
        if self.gain_type != GainType.DB and self.gain < 0:
            raise ValueError(f"Vol: gain must be non-negative for {self.gain_type.value}, but got {gain}")
        if self.gain_type == GainType.POWER and self.gain == 0:
            raise ValueError("Vol: a power gain must be positive")

    def _apply(self, rng, x):
        xf = _f32(x)
        if self.gain_type == GainType.AMPLITUDE:
            y = xf * self.gain
        elif self.gain_type == GainType.DB:
            y = xf * 10 ** (self.gain / 20)
        else:
            y = xf * 10 ** (10 * math.log10(self.gain) / 20)
        return np.clip(y, -1, 1).astype(np.float32)


class DCShift(TensorOperation):
    """Add ``shift`` (in [-2, 2]); with ``limiter_gain``, peaks are compressed instead of clipped."""

    def __init__(self, shift: float, limiter_gain: float | None = None):
        if not -2 <= shift <= 2:
            raise ValueError(f"DCShift: shift must be in [-2, 2], but got {shift}")
        self.shift, self.limiter_gain = float(shift), None if limiter_gain is None else float(limiter_gain)

    def _apply(self, rng, x):
        xf = _f32(x)
        s, g = self.shift, self.limiter_gain
        if g is None or s == 0:
            return np.clip(xf + s, -1, 1).astype(np.float32)
        thr = 1.0 - (abs(s) - g)
        out = np.empty_like(xf)
        mask = xf > thr if s > 0 else xf < -thr
        if s > 0:
            temp = (xf[mask] - thr) * g / (1 - thr)
            out[mask] = np.minimum(temp + thr + s, thr)
        else:
            # MindSpore's kernel uses the positive-shift formula here too (torchaudio would take
            # ``temp - thr + s`` clamped below at -thr); checked against MindSpore 2.10.
            temp = (xf[mask] + thr) * g / (1 - thr)
            out[mask] = np.minimum(temp + thr + s, thr)
        out[~mask] = np.clip(xf[~mask] + s, -1, 1)
        return out.astype(np.float32)


class ComputeDeltas(TensorOperation):
    """Delta coefficients along the last (time) axis: ``sum_n n (x[t+n] - x[t-n]) / (2 sum_n n^2)``."""

    def __init__(self, win_length: int = 5, pad_mode: BorderType = BorderType.EDGE):
        self.win_length = _check_int("ComputeDeltas", "win_length", win_length, 3)
        self.pad_mode = BorderType(pad_mode)

    def _apply(self, rng, x):
        xf = _f32(x)
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3
        padded = np.pad(xf, [(0, 0)] * (xf.ndim - 1) + [(n, n)], mode=_PAD[self.pad_mode])  # type: ignore[call-overload]
        t = xf.shape[-1]
        out = sum(k * padded[..., n + k:n + k + t] for k in range(-n, n + 1))
        return (out / denom).astype(np.float32)


def _complex(op, x):
    xf = _f32(x)
    if xf.shape[-1:] != (2,):
        raise RuntimeError(f"{op}: the input must end in a (real, imag) axis of size 2, but got shape {xf.shape}")
    return xf[..., 0], xf[..., 1]


class Angle(TensorOperation):
    """Phase angle of complex input (..., 2)."""

    def _apply(self, rng, x):
        re, im = _complex("Angle", x)
        return np.arctan2(im, re).astype(np.float32)


class ComplexNorm(TensorOperation):
    """|z| ** power of complex input (..., 2)."""

    def __init__(self, power: float = 1.0):
        self.power = float(power)

    def _apply(self, rng, x):
        re, im = _complex("ComplexNorm", x)
        return np.power(re * re + im * im, self.power / 2).astype(np.float32)


class Magphase(TensorOperation):
    """(|z| ** power, angle) of complex input (..., 2)."""

    def __init__(self, power: float = 1.0):
        self.power = float(power)

    def _apply(self, rng, x):
        re, im = _complex("Magphase", x)
        return (np.power(re * re + im * im, self.power / 2).astype(np.float32),
                np.arctan2(im, re).astype(np.float32))


class Fade(TensorOperation):
    """Fade in over ``fade_in_len`` samples and out over ``fade_out_len``, with the given curve."""

    def __init__(self, fade_in_len: int = 0, fade_out_len: int = 0, fade_shape: FadeShape = FadeShape.LINEAR):
        self.fade_in_len = _check_int("Fade", "fade_in_len", fade_in_len, 0)
        self.fade_out_len = _check_int("Fade", "fade_out_len", fade_out_len, 0)
        self.fade_shape = FadeShape(fade_shape)
        if self.fade_shape == FadeShape.EXPONENTIAL:
            # MindSpore's exponential curve is not torchaudio's 2 ** ((t - 1) * 5) and is not reproduced here
            raise ValueError("Fade: FadeShape.EXPONENTIAL is not supported by mindspore_hl; use LINEAR, "
                             "LOGARITHMIC, QUARTER_SINE or HALF_SINE")

    def _curve(self, n, fade_in):
        f = np.linspace(0, 1, n)
        s = self.fade_shape
        if s == FadeShape.LINEAR:
            return f if fade_in else 1 - f
        if s == FadeShape.LOGARITHMIC:
            return np.log10(0.1 + f) + 1 if fade_in else np.log10(1.1 - f) + 1
        if s == FadeShape.QUARTER_SINE:
            return np.sin(f * math.pi / 2) if fade_in else np.sin(f * math.pi / 2 + math.pi / 2)
        return np.sin(f * math.pi - math.pi / 2) / 2 + 0.5 if fade_in else np.sin(f * math.pi + math.pi / 2) / 2 + 0.5

    def _apply(self, rng, x):
        xf = _f32(x)
        t = xf.shape[-1]
        if self.fade_in_len > t or self.fade_out_len > t:
            raise RuntimeError(f"Fade: fade lengths ({self.fade_in_len}, {self.fade_out_len}) exceed the waveform "
                               f"length {t}")
        gain = np.ones(t)
        gain[:self.fade_in_len] *= self._curve(self.fade_in_len, True)
        if self.fade_out_len:
            gain[t - self.fade_out_len:] *= self._curve(self.fade_out_len, False)
        return (xf * gain).astype(np.float32)
