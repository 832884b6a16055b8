"""``Flanger`` of ``mindspore.dataset.audio`` (torchaudio's ``flanger``, computed with NumPy) and its
``Modulation`` shapes."""
from __future__ import annotations

import enum
import math

import numpy as np

from ..transforms._base import TensorOperation
from ._filters import Interpolation

__all__ = ["Modulation", "Flanger"]


class Modulation(str, enum.Enum):
    """Shape of the flanger's delay modulation: SINUSOIDAL or TRIANGULAR."""
    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


def _wave_table(triangular, size, low, high, phase):
    """One period of the low-frequency oscillator, ``size`` float32 points in [low, high]."""
    return oscillator(triangular, size, low, high, phase).astype(np.float32)


def oscillator(triangular: bool, size: int, low: float, high: float, phase: float) -> np.ndarray:
    """One period of a triangle or sine low-frequency oscillator, ``size`` float64 points in [low, high], starting
    ``phase`` radians in (SoX's wave table, shared by the flanger and the phaser)."""
    offset = int(phase / math.pi / 2 * size + 0.5)
    point = (np.arange(size) + offset) % size
    if triangular:
        d = point.astype(np.float64) * 2 / size
        quarter = (4 * point) // size
        d = np.select([quarter == 0, quarter == 1, quarter == 2, quarter == 3],
                      [d + 0.5, 1.5 - d, 1.5 - d, d - 1.5], d)
    else:
        d = (np.sin(point.astype(np.float64) / size * 2 * math.pi) + 1) / 2
    return d * (high - low) + low


class Flanger(TensorOperation):
    """Flanger effect on a waveform (..., channel, time), at most 4 channels.

    Args: sample_rate (int), delay (ms, 0-30), depth (ms, 0-10), regen (%, -95-95), width (%, 0-100),
    speed (Hz, 0.1-10), phase (%, 0-100), modulation (Modulation), interpolation (Interpolation)."""

    def __init__(self, sample_rate: int, delay: float = 0.0, depth: float = 2.0, regen: float = 0.0,
                 width: float = 71.0, speed: float = 0.5, phase: float = 25.0,
                 modulation: Modulation = Modulation.SINUSOIDAL, interpolation: Interpolation = Interpolation.LINEAR):
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or sample_rate == 0:
            raise ValueError(f"Flanger: sample_rate must be a non-zero int, but got {sample_rate!r}")
        for name, v, lo, hi in (("delay", delay, 0, 30), ("depth", depth, 0, 10), ("regen", regen, -95, 95),
                                ("width", width, 0, 100), ("speed", speed, 0.1, 10), ("phase", phase, 0, 100)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
                raise ValueError(f"Flanger: {name} must be a number in [{lo}, {hi}], but got {v!r}")
        self.sample_rate, self.delay, self.depth, self.regen = sample_rate, float(delay), float(depth), float(regen)
        self.width, self.speed, self.phase = float(width), float(speed), float(phase)
        self.modulation, self.interpolation = Modulation(modulation), Interpolation(interpolation)

    def _apply(self, rng, x):
        x = np.asarray(x)
        if x.ndim < 2 or x.shape[-2] > 4:
            raise RuntimeError(f"Flanger: the input should be <..., channel, time> with at most 4 channels, but got "
                               f"shape {x.shape}")
        shape = x.shape
        w = x.astype(np.float64).reshape((-1,) + shape[-2:])
        sr = self.sample_rate
        feedback = self.regen / 100
        delay_gain = self.width / 100
        in_gain = 1.0 / (1 + delay_gain)
        delay_gain = delay_gain / (1 + delay_gain) * (1 - abs(feedback))
        delay_min, delay_depth = self.delay / 1000, self.depth / 1000
        buf_len = int((delay_min + delay_depth) * sr + 0.5) + 2
        channels = w.shape[1]
        bufs = np.zeros((w.shape[0], channels, buf_len))
        last = np.zeros((w.shape[0], channels))
        lfo_len = int(sr / self.speed)
        lfo = _wave_table(self.modulation == Modulation.TRIANGULAR, lfo_len, float(math.floor(delay_min * sr + 0.5)),
                          float(buf_len - 2.0), 3 * math.pi / 2).astype(np.float64)
        ch_phase = (np.arange(channels) * lfo_len * (self.phase / 100) + 0.5).astype(np.int64)
        out = np.zeros_like(w)
        pos = lfo_pos = 0
        idx = np.arange(channels)
        for i in range(w.shape[-1]):   # the delay line is recursive over time
            pos = (pos + buf_len - 1) % buf_len
            d = lfo[(lfo_pos + ch_phase) % lfo_len]
            frac, k = d - np.floor(d), np.floor(d).astype(np.int64)
            bufs[:, :, pos] = w[:, :, i] + last * feedback
            d0 = bufs[:, idx, (pos + k) % buf_len]
            d1 = bufs[:, idx, (pos + k + 1) % buf_len]
            if self.interpolation == Interpolation.LINEAR:
                delayed = d0 + (d1 - d0) * frac
            else:
                d2 = bufs[:, idx, (pos + k + 2) % buf_len] - d0
                d1 = d1 - d0
                a, b = d2 * 0.5 - d1, d1 * 2 - d2 * 0.5
                delayed = d0 + (a * frac + b) * frac
            last = delayed
            out[:, :, i] = w[:, :, i] * in_gain + delayed * delay_gain
            lfo_pos = (lfo_pos + 1) % lfo_len
        return np.clip(out, -1, 1).reshape(shape).astype(np.float32)
