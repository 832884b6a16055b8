"""Spectrogram family of ``mindspore.dataset.audio`` (torchaudio's definitions, computed with NumPy):
Spectrogram, MelScale, MelSpectrogram, AmplitudeToDB, DBToAmplitude, MFCC and the filter-bank helpers."""
from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation

__all__ = ["WindowType", "BorderType", "NormType", "NormMode", "MelType", "ScaleType", "Spectrogram", "MelScale",
           "MelSpectrogram", "AmplitudeToDB", "DBToAmplitude", "MFCC", "melscale_fbanks", "linear_fbanks",
           "create_dct"]


class WindowType(str, enum.Enum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class BorderType(str, enum.Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class NormType(str, enum.Enum):
    SLANEY = "slaney"
    NONE = "none"


class NormMode(str, enum.Enum):
    ORTHO = "ortho"
    NONE = "none"


class MelType(str, enum.Enum):
    HTK = "htk"
    SLANEY = "slaney"


class ScaleType(str, enum.Enum):
    POWER = "power"
    MAGNITUDE = "magnitude"


def _window(kind, n):
    """Periodic windows of length ``n`` (torch's *_window(n, periodic=True))."""
    k = np.arange(n, dtype=np.float64)
    if n == 1:
        return np.ones(1)
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * math.pi * k / n)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * math.pi * k / n)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(2 * math.pi * k / n) + 0.08 * np.cos(4 * math.pi * k / n)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * k / n - 1)
    if kind == WindowType.KAISER:
        return np.i0(12.0 * np.sqrt(np.clip(1 - (2 * k / n - 1) ** 2, 0, None))) / np.i0(12.0)
    raise ValueError(f"unknown window {kind!r}")


_PAD = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge", BorderType.REFLECT: "reflect",
        BorderType.SYMMETRIC: "symmetric"}


def _stft(x, n_fft, win_length, hop, pad, window, normalized, center, pad_mode, onesided):
    x = np.asarray(x, np.float64)
    if pad:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)])
    w = _window(WindowType(window), win_length)
    left = (n_fft - win_length) // 2
    w = np.pad(w, (left, n_fft - win_length - left))
    if center:
        # _PAD holds NumPy's mode names (str, not the stubs' Literal)
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=_PAD[BorderType(pad_mode)])  # type: ignore[call-overload]
    if x.shape[-1] < n_fft:
        raise RuntimeError(f"Spectrogram: the (padded) waveform has {x.shape[-1]} samples, fewer than n_fft {n_fft}")
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft, axis=-1)[..., ::hop, :]
    spec = np.fft.rfft(frames * w, axis=-1) if onesided else np.fft.fft(frames * w, axis=-1)
    if normalized:
        spec = spec / np.sqrt((w ** 2).sum())
    return np.swapaxes(spec, -1, -2)   # (..., freq, time)


def _check_int(op, name, v, low=1):
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ValueError(f"{op}: {name} must be an int >= {low}, but got {v!r}")
    return v


class Spectrogram(TensorOperation):
    """|STFT|**power of a waveform (..., time) -> (..., n_fft // 2 + 1, frames), float32; ``power=None`` keeps
    the complex values as a trailing (real, imag) axis."""

    def __init__(self, n_fft: int = 400, win_length: int | None = None, hop_length: int | None = None, pad: int = 0,
                 window: WindowType = WindowType.HANN, power: float = 2.0, normalized: bool = False,
                 center: bool = True, pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True):
        self.n_fft = _check_int("Spectrogram", "n_fft", n_fft)
        self.win_length = self.n_fft if win_length is None else _check_int("Spectrogram", "win_length", win_length)
        if self.win_length > self.n_fft:
            raise ValueError(f"Spectrogram: win_length {win_length} must not exceed n_fft {n_fft}")
        self.hop_length = self.win_length // 2 if hop_length is None else _check_int("Spectrogram", "hop_length",
                                                                                   hop_length)
        self.pad = _check_int("Spectrogram", "pad", pad, 0)
        self.window, self.power, self.normalized = WindowType(window), power, bool(normalized)
        self.center, self.pad_mode, self.onesided = bool(center), BorderType(pad_mode), bool(onesided)

    def _spec(self, x):
        spec = _stft(x, self.n_fft, self.win_length, self.hop_length, self.pad, self.window, self.normalized,
                     self.center, self.pad_mode, self.onesided)
        if self.power is None:
            return np.stack([spec.real, spec.imag], axis=-1).astype(np.float32)
        return (np.abs(spec) ** self.power).astype(np.float32)

    def _apply(self, rng, x):
        return self._spec(x)


def _hz_to_mel(f, mel_type):
    f = np.asarray(f, np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 2595.0 * np.log10(1.0 + f / 700.0)
    f_sp, min_log_hz, min_log_mel, logstep = 200.0 / 3, 1000.0, 15.0, math.log(6.4) / 27.0
    mel = f / f_sp
    return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep, mel)


def _mel_to_hz(m, mel_type):
    m = np.asarray(m, np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    f_sp, min_log_hz, min_log_mel, logstep = 200.0 / 3, 1000.0, 15.0, math.log(6.4) / 27.0
    return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)


def _triangles(all_freqs, f_pts):
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def melscale_fbanks(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                    norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK) -> np.ndarray:
    """Triangular mel filters, (n_freqs, n_mels) float32 (torchaudio's melscale_fbanks)."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    fb = _triangles(all_freqs, f_pts)
    if NormType(norm) == NormType.SLANEY:
        fb *= (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels]))[None, :]
    return fb.astype(np.float32)


def linear_fbanks(n_freqs: int, f_min: float, f_max: float, n_filter: int, sample_rate: int) -> np.ndarray:
    """Triangular filters evenly spaced in Hz, (n_freqs, n_filter) float32."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    return _triangles(all_freqs, np.linspace(f_min, f_max, n_filter + 2)).astype(np.float32)


def create_dct(n_mfcc: int, n_mels: int, norm: NormMode = NormMode.NONE) -> np.ndarray:
    """DCT-II matrix (n_mels, n_mfcc) float32; ``NormMode.ORTHO`` makes it orthonormal."""
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) == NormMode.NONE:
        dct *= 2.0
    else:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    return dct.T.astype(np.float32)


class MelScale(TensorOperation):
    """A spectrogram (..., n_stft, time) -> (..., n_mels, time) through ``melscale_fbanks``."""

    def __init__(self, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0, f_max: float | None = None,
                 n_stft: int = 201, norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK):
        self.n_mels, self.sample_rate = _check_int("MelScale", "n_mels", n_mels), sample_rate
        self.f_min, self.f_max = float(f_min), float(sample_rate // 2 if f_max is None else f_max)
        if self.f_min > self.f_max:
            raise ValueError(f"MelScale: f_min {f_min} must not exceed f_max {self.f_max}")
        self.fb = melscale_fbanks(n_stft, self.f_min, self.f_max, n_mels, sample_rate, norm, mel_type)

    def _apply(self, rng, x):
        if x.shape[-2] != self.fb.shape[0]:
            raise RuntimeError(f"MelScale: the spectrogram has {x.shape[-2]} frequency bins, but n_stft is "
                               f"{self.fb.shape[0]}")
        return np.swapaxes(np.swapaxes(x, -1, -2).astype(np.float32) @ self.fb, -1, -2)


class MelSpectrogram(TensorOperation):
    """Spectrogram then MelScale: a waveform (..., time) -> (..., n_mels, frames)."""

    def __init__(self, sample_rate: int = 16000, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, f_min: float = 0.0, f_max: float | None = None, pad: int = 0,
                 n_mels: int = 128, window: WindowType = WindowType.HANN, power: float = 2.0, normalized: bool = False,
                 center: bool = True, pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True,
                 norm: NormType = NormType.NONE, mel_scale: MelType = MelType.HTK):
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized, center,
                                       pad_mode, onesided)
        self.mel_scale = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def _apply(self, rng, x):
        return self.mel_scale._apply(rng, self.spectrogram._spec(x))


class AmplitudeToDB(TensorOperation):
    """Power (or magnitude) to decibels: ``10 log10(max(x, amin)) - 10 log10(max(amin, ref))`` (20 for
    magnitude), floored at ``max - top_db``."""

    def __init__(self, stype: ScaleType = ScaleType.POWER, ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = 80.0):
        self.stype = ScaleType(stype)
        if ref_value <= 0 or amin <= 0 or (top_db is not None and top_db < 0):
            raise ValueError("AmplitudeToDB: ref_value and amin must be positive and top_db non-negative")
        self.ref_value, self.amin, self.top_db = float(ref_value), float(amin), top_db

    def _apply(self, rng, x):
        mult = 10.0 if self.stype == ScaleType.POWER else 20.0
        xf = np.asarray(x, np.float64)
        db = mult * np.log10(np.maximum(xf, self.amin)) - mult * math.log10(max(self.amin, self.ref_value))
        if self.top_db is not None:
            db = np.maximum(db, db.max() - self.top_db) if db.size else db
        return db.astype(np.float32)


class DBToAmplitude(TensorOperation):
    """Decibels back to power / amplitude: ``ref * (10 ** (x / 10)) ** power``."""

    def __init__(self, ref: float, power: float):
        self.ref, self.power = float(ref), float(power)

    def _apply(self, rng, x):
        return (self.ref * np.power(np.power(10.0, 0.1 * np.asarray(x, np.float64)), self.power)).astype(np.float32)


class MFCC(TensorOperation):
    """Mel-frequency cepstral coefficients: MelSpectrogram, log (``log_mels``) or AmplitudeToDB, then a DCT-II.
    Args: sample_rate, n_mfcc, dct_type (2 only), norm (NormMode), log_mels (bool), melkwargs (dict for
    MelSpectrogram)."""

    def __init__(self, sample_rate: int = 16000, n_mfcc: int = 40, dct_type: int = 2, norm: NormMode = NormMode.ORTHO,
                 log_mels: bool = False, melkwargs: dict[str, Any] | None = None):
        if dct_type != 2:
            raise ValueError(f"MFCC: only dct_type 2 is supported, but got {dct_type!r}")
        kwargs = dict(melkwargs or {})
        kwargs.setdefault("sample_rate", sample_rate)
        self.mel = MelSpectrogram(**kwargs)
        n_mels = self.mel.mel_scale.n_mels
        if n_mfcc > n_mels:
            raise ValueError(f"MFCC: n_mfcc {n_mfcc} must not exceed n_mels {n_mels}")
        self.dct = create_dct(n_mfcc, n_mels, norm)
        self.log_mels = bool(log_mels)
        self.to_db = AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10, 80.0)

    def _apply(self, rng, x):
        mel = self.mel._apply(rng, x).astype(np.float64)
        mel = np.log(mel + 1e-6) if self.log_mels else self.to_db._apply(rng, mel).astype(np.float64)
        return np.swapaxes(np.swapaxes(mel, -1, -2) @ self.dct.astype(np.float64), -1, -2).astype(np.float32)
