"""IIR filters and spectrogram masks of ``mindspore.dataset.audio``: the biquad family (torchaudio's
coefficients), LFilter / Filtfilt (``scipy.signal.lfilter``), LFCC, SpectralCentroid, Contrast and the time /
frequency masks."""
from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import signal

from ..transforms._base import TensorOperation
from ._spectral import AmplitudeToDB, NormMode, ScaleType, Spectrogram, WindowType, create_dct, linear_fbanks

__all__ = ["LFilter", "Filtfilt", "Biquad", "LowpassBiquad", "HighpassBiquad", "BandpassBiquad",
           "BandrejectBiquad", "AllpassBiquad", "BandBiquad", "BassBiquad", "TrebleBiquad", "EqualizerBiquad",
           "DeemphBiquad", "RiaaBiquad", "LFCC", "SpectralCentroid", "Contrast", "MaskAlongAxis",
           "MaskAlongAxisIID", "TimeMasking", "FrequencyMasking", "DensityFunction", "Interpolation",
           "ResampleMethod"]


class DensityFunction(str, enum.Enum):
    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class Interpolation(str, enum.Enum):
    LINEAR = "linear"
    QUADRATIC = "quadratic"


class ResampleMethod(str, enum.Enum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


def _lfilter(x, a, b, clamp):
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    if a.shape != b.shape or a.ndim != 1 or a[0] == 0:
        raise ValueError(f"LFilter: a_coeffs and b_coeffs must be 1-D of one length with a_coeffs[0] != 0, but got "
                         f"{a.tolist()} and {b.tolist()}")
    y = signal.lfilter(b / a[0], a / a[0], np.asarray(x, np.float64), axis=-1)
    return np.clip(y, -1, 1) if clamp else y


class LFilter(TensorOperation):
    """IIR filter ``a[0] y[n] = sum b[k] x[n-k] - sum_{k>0} a[k] y[n-k]`` along time, clipped to [-1, 1]."""

    def __init__(self, a_coeffs: Sequence[float], b_coeffs: Sequence[float], clamp: bool = True) -> None:
        self.a_coeffs, self.b_coeffs, self.clamp = list(a_coeffs), list(b_coeffs), bool(clamp)
        _lfilter(np.zeros(1), self.a_coeffs, self.b_coeffs, False)

    def _apply(self, rng, x):
        return _lfilter(x, self.a_coeffs, self.b_coeffs, self.clamp).astype(np.float32)


class Filtfilt(LFilter):
    """LFilter forwards then backwards (zero phase); only the backward pass is clipped."""

    def _apply(self, rng, x):
        forward = _lfilter(x, self.a_coeffs, self.b_coeffs, False)
        back = _lfilter(forward[..., ::-1], self.a_coeffs, self.b_coeffs, self.clamp)[..., ::-1]
        return np.ascontiguousarray(back).astype(np.float32)


class Biquad(TensorOperation):
    """Second-order IIR filter with coefficients (b0, b1, b2, a0, a1, a2)."""

    def __init__(self, b0: float, b1: float, b2: float, a0: float, a1: float, a2: float) -> None:
        if a0 == 0:
            raise ValueError("Biquad: a0 must not be 0")
        self.b, self.a = [float(b0), float(b1), float(b2)], [float(a0), float(a1), float(a2)]

    def _apply(self, rng, x):
        return _lfilter(x, self.a, self.b, True).astype(np.float32)


def _w0_alpha(op, sample_rate, freq, q):
    if sample_rate == 0:
        raise ValueError(f"{op}: sample_rate must not be 0")
    if not 0 < q <= 1:
        raise ValueError(f"{op}: Q must be in (0, 1], but got {q}")
    w0 = 2 * math.pi * freq / sample_rate
    return w0, math.sin(w0) / 2 / q


class LowpassBiquad(Biquad):
    def __init__(self, sample_rate: int, cutoff_freq: float, Q: float = 0.707) -> None:  # noqa: N803 - MindSpore's name
        w0, alpha = _w0_alpha("LowpassBiquad", sample_rate, cutoff_freq, Q)
        c = math.cos(w0)
        super().__init__((1 - c) / 2, 1 - c, (1 - c) / 2, 1 + alpha, -2 * c, 1 - alpha)


class HighpassBiquad(Biquad):
    def __init__(self, sample_rate: int, cutoff_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        w0, alpha = _w0_alpha("HighpassBiquad", sample_rate, cutoff_freq, Q)
        c = math.cos(w0)
        super().__init__((1 + c) / 2, -1 - c, (1 + c) / 2, 1 + alpha, -2 * c, 1 - alpha)


class BandpassBiquad(Biquad):
    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707,  # noqa: N803
                 const_skirt_gain: bool = False) -> None:
        w0, alpha = _w0_alpha("BandpassBiquad", sample_rate, central_freq, Q)
        temp = math.sin(w0) / 2 if const_skirt_gain else alpha
        super().__init__(temp, 0.0, -temp, 1 + alpha, -2 * math.cos(w0), 1 - alpha)


class BandrejectBiquad(Biquad):
    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        w0, alpha = _w0_alpha("BandrejectBiquad", sample_rate, central_freq, Q)
        c = math.cos(w0)
        super().__init__(1.0, -2 * c, 1.0, 1 + alpha, -2 * c, 1 - alpha)


class AllpassBiquad(Biquad):
    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        w0, alpha = _w0_alpha("AllpassBiquad", sample_rate, central_freq, Q)
        c = math.cos(w0)
        super().__init__(1 - alpha, -2 * c, 1 + alpha, 1 + alpha, -2 * c, 1 - alpha)


class BandBiquad(Biquad):
    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707,  # noqa: N803
                 noise: bool = False) -> None:
        w0, _ = _w0_alpha("BandBiquad", sample_rate, central_freq, Q)
        bw_hz = central_freq / Q
        a2 = math.exp(-2 * math.pi * bw_hz / sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if noise:
            b0 *= math.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        super().__init__(b0, 0.0, 0.0, 1.0, a1, a2)


def _shelf(op, sample_rate, gain, freq, q, treble):
    w0, alpha = _w0_alpha(op, sample_rate, freq, q)
    big_a = math.exp(gain / 40 * math.log(10))
    t1, t2, t3 = 2 * math.sqrt(big_a) * alpha, (big_a - 1) * math.cos(w0), (big_a + 1) * math.cos(w0)
    if treble:
        return (big_a * ((big_a + 1) + t2 + t1), -2 * big_a * ((big_a - 1) + t3), big_a * ((big_a + 1) + t2 - t1),
                (big_a + 1) - t2 + t1, 2 * ((big_a - 1) - t3), (big_a + 1) - t2 - t1)
    return (big_a * ((big_a + 1) - t2 + t1), 2 * big_a * ((big_a - 1) - t3), big_a * ((big_a + 1) - t2 - t1),
            (big_a + 1) + t2 + t1, -2 * ((big_a - 1) + t3), (big_a + 1) + t2 - t1)


class BassBiquad(Biquad):
    def __init__(self, sample_rate: int, gain: float, central_freq: float = 100.0,
                 Q: float = 0.707) -> None:  # noqa: N803
        super().__init__(*_shelf("BassBiquad", sample_rate, gain, central_freq, Q, False))


class TrebleBiquad(Biquad):
    def __init__(self, sample_rate: int, gain: float, central_freq: float = 3000,
                 Q: float = 0.707) -> None:  # noqa: N803
        super().__init__(*_shelf("TrebleBiquad", sample_rate, gain, central_freq, Q, True))


class EqualizerBiquad(Biquad):
    def __init__(self, sample_rate: int, center_freq: float, gain: float, Q: float = 0.707) -> None:  # noqa: N803
        w0, alpha = _w0_alpha("EqualizerBiquad", sample_rate, center_freq, Q)
        big_a = math.exp(gain / 40 * math.log(10))
        c = math.cos(w0)
        super().__init__(1 + alpha * big_a, -2 * c, 1 - alpha * big_a, 1 + alpha / big_a, -2 * c,
                         1 - alpha / big_a)


class DeemphBiquad(Biquad):
    """CD de-emphasis (44100 or 48000 Hz)."""

    def __init__(self, sample_rate: int) -> None:
        table = {44100: (5283.0, 0.4845, -9.477), 48000: (5356.0, 0.479, -9.62)}
        if sample_rate not in table:
            raise ValueError(f"DeemphBiquad: sample_rate must be 44100 or 48000, but got {sample_rate}")
        freq, slope, gain = table[sample_rate]
        w0 = 2 * math.pi * freq / sample_rate
        big_a = math.exp(gain / 40 * math.log(10))
        alpha = math.sin(w0) / 2 * math.sqrt((big_a + 1 / big_a) * (1 / slope - 1) + 2)
        t1, t2, t3 = 2 * math.sqrt(big_a) * alpha, (big_a - 1) * math.cos(w0), (big_a + 1) * math.cos(w0)
        super().__init__(big_a * ((big_a + 1) + t2 + t1), -2 * big_a * ((big_a - 1) + t3),
                         big_a * ((big_a + 1) + t2 - t1), (big_a + 1) - t2 + t1, 2 * ((big_a - 1) - t3),
                         (big_a + 1) - t2 - t1)


class RiaaBiquad(Biquad):
    """RIAA vinyl playback equalisation (44100, 48000, 88200 or 96000 Hz), unit gain at 1 kHz."""

    _TABLE = {44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
              48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
              88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
              96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946))}

    def __init__(self, sample_rate: int) -> None:
        if sample_rate not in self._TABLE:
            raise ValueError(f"RiaaBiquad: sample_rate must be one of {sorted(self._TABLE)}, but got {sample_rate}")
        zeros, poles = self._TABLE[sample_rate]
        b = [1.0, -(zeros[0] + zeros[1]), zeros[0] * zeros[1]]
        a = [1.0, -(poles[0] + poles[1]), poles[0] * poles[1]]
        y = 2 * math.pi * 1000 / sample_rate
        b_re, a_re = b[0] + b[1] * math.cos(-y) + b[2] * math.cos(-2 * y), a[0] + a[1] * math.cos(-y) + \
            a[2] * math.cos(-2 * y)
        b_im, a_im = b[1] * math.sin(-y) + b[2] * math.sin(-2 * y), a[1] * math.sin(-y) + a[2] * math.sin(-2 * y)
        g = 1 / math.sqrt((b_re ** 2 + b_im ** 2) / (a_re ** 2 + a_im ** 2))
        super().__init__(b[0] * g, b[1] * g, b[2] * g, *a)


class LFCC(TensorOperation):
    """Linear-frequency cepstral coefficients: Spectrogram, linear filter bank, log or dB, DCT-II."""

    def __init__(self, sample_rate: int = 16000, n_filter: int = 128, n_lfcc: int = 40, f_min: float = 0.0,
                 f_max: float | None = None, dct_type: int = 2, norm: NormMode = NormMode.ORTHO, log_lf: bool = False,
                 speckwargs: dict[str, Any] | None = None) -> None:
        if dct_type != 2:
            raise ValueError(f"LFCC: only dct_type 2 is supported, but got {dct_type!r}")
        if n_lfcc > n_filter:
            raise ValueError(f"LFCC: n_lfcc {n_lfcc} must not exceed n_filter {n_filter}")
        self.spectrogram = Spectrogram(**dict(speckwargs or {}))
        f_max = float(sample_rate // 2 if f_max is None else f_max)
        self.fb = linear_fbanks(self.spectrogram.n_fft // 2 + 1, float(f_min), f_max, n_filter, sample_rate)
        self.dct = create_dct(n_lfcc, n_filter, norm)
        self.log_lf = bool(log_lf)
        self.to_db = AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10, 80.0)

    def _apply(self, rng, x):
        spec = self.spectrogram._spec(x).astype(np.float64)
        lin = np.swapaxes(np.swapaxes(spec, -1, -2) @ self.fb.astype(np.float64), -1, -2)
        lin = np.log(lin + 1e-6) if self.log_lf else self.to_db._apply(rng, lin).astype(np.float64)
        return np.swapaxes(np.swapaxes(lin, -1, -2) @ self.dct.astype(np.float64), -1, -2).astype(np.float32)


class SpectralCentroid(TensorOperation):
    """The magnitude-weighted mean frequency of each frame: (..., time) -> (..., 1, frames)."""

    def __init__(self, sample_rate: int, n_fft: int = 400, win_length: int | None = None, hop_length: int | None = None,
                 pad: int = 0, window: WindowType = WindowType.HANN) -> None:
        self.sample_rate = sample_rate
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, 1.0)

    def _apply(self, rng, x):
        spec = self.spectrogram._spec(x).astype(np.float64)
        freqs = np.linspace(0, self.sample_rate // 2, spec.shape[-2])[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (freqs * spec).sum(axis=-2, keepdims=True) / spec.sum(axis=-2, keepdims=True)
        return out.astype(np.float32)


class Contrast(TensorOperation):
    """Loudness contrast: ``sin(x pi/2 + c sin(x 2 pi))`` with ``c = enhancement_amount / 750``."""

    def __init__(self, enhancement_amount: float = 75.0) -> None:
        if not 0 <= enhancement_amount <= 100:
            raise ValueError(f"Contrast: enhancement_amount must be in [0, 100], got {enhancement_amount}")
        self.enhancement_amount = float(enhancement_amount)

    def _apply(self, rng, x):
        t = np.asarray(x, np.float64) * (math.pi / 2)
        return np.sin(t + self.enhancement_amount / 750.0 * np.sin(t * 4)).astype(np.float32)


class MaskAlongAxis(TensorOperation):
    """Set ``mask_width`` entries from ``mask_start`` along ``axis`` (1: frequency, 2: time) to ``mask_value``."""

    def __init__(self, mask_start: int, mask_width: int, mask_value: float, axis: int) -> None:
        if mask_start < 0 or mask_width < 1 or axis not in (1, 2):
            raise ValueError("MaskAlongAxis: mask_start must be >= 0, mask_width >= 1 and axis 1 or 2")
        self.mask_start, self.mask_width, self.mask_value, self.axis = mask_start, mask_width, mask_value, axis

    def _apply(self, rng, x):
        out = np.array(x, dtype=np.float32 if x.dtype.kind != "f" else x.dtype)
        ax = out.ndim - (3 - self.axis)
        if self.mask_start + self.mask_width > out.shape[ax]:
            raise RuntimeError(f"MaskAlongAxis: mask [{self.mask_start}, {self.mask_start + self.mask_width}) "
                               f"exceeds the axis length {out.shape[ax]}")
        index = [slice(None)] * out.ndim
        index[ax] = slice(self.mask_start, self.mask_start + self.mask_width)
        out[tuple(index)] = self.mask_value
        return out


class MaskAlongAxisIID(TensorOperation):
    """A random mask along ``axis``: width uniform in [0, mask_param], start uniform where it fits."""
    random = True

    def __init__(self, mask_param: int, mask_value: float, axis: int) -> None:
        if mask_param < 0 or axis not in (1, 2):
            raise ValueError("MaskAlongAxisIID: mask_param must be >= 0 and axis 1 or 2")
        self.mask_param, self.mask_value, self.axis = mask_param, mask_value, axis

    def _apply(self, rng, x):
        ax = x.ndim - (3 - self.axis)
        n = x.shape[ax]
        width = int(rng.integers(0, min(self.mask_param, n) + 1))
        start = int(rng.integers(0, n - width + 1))
        out = np.array(x, dtype=np.float32 if x.dtype.kind != "f" else x.dtype)
        index = [slice(None)] * out.ndim
        index[ax] = slice(start, start + width)
        out[tuple(index)] = self.mask_value
        return out


class _Masking(TensorOperation):
    random = True
    _axis = 2

    def __init__(self, iid_masks: bool = False, mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        if mask_param < 0 or mask_start < 0:
            raise ValueError(f"{type(self).__name__}: the mask parameter and mask_start must be non-negative")
        self.iid_masks, self.mask_param, self.mask_start, self.mask_value = bool(iid_masks), mask_param, \
            mask_start, mask_value

    def _apply(self, rng, x):
        if self.iid_masks:
            return MaskAlongAxisIID(self.mask_param, self.mask_value, self._axis)._apply(rng, x)
        ax = x.ndim - (3 - self._axis)
        width = int(rng.integers(0, self.mask_param + 1))
        width = min(width, x.shape[ax] - self.mask_start)
        if width <= 0:
            return x
        return MaskAlongAxis(self.mask_start, width, self.mask_value, self._axis)._apply(rng, x)


class TimeMasking(_Masking):
    """Mask a random number (up to ``time_mask_param``) of frames from ``mask_start`` (or anywhere, iid)."""
    _axis = 2

    def __init__(self, iid_masks: bool = False, time_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


class FrequencyMasking(_Masking):
    """Mask a random number (up to ``freq_mask_param``) of frequency bins from ``mask_start`` (or anywhere)."""
    _axis = 1

    def __init__(self, iid_masks: bool = False, freq_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)
