"""``Phaser`` of ``mindspore.dataset.audio`` (SoX's phaser as torchaudio defines it, computed with NumPy)."""
from __future__ import annotations

import math

import numpy as np

from ..transforms._base import TensorOperation
from ._checks import check_int32, check_value, type_check, waveform
from ._flanger import oscillator

__all__ = ["Phaser"]


def _int_wave_table(sinusoidal: bool, size: int, low: float, high: float, phase: float) -> np.ndarray:
    """One period of the modulation, ``size`` integer delays in [low, high] rounded half away from zero."""
    d = oscillator(not sinusoidal, size, low, high, phase)
    return np.trunc(np.where(d < 0, d - 0.5, d + 0.5)).astype(np.int64)


class Phaser(TensorOperation):
    """Phasing effect on a waveform (..., time): the input through a modulated, decaying delay line.

    Args: sample_rate (int), gain_in (0-1, default 0.4), gain_out (0-1e9, default 0.74), delay_ms (0-5, default 3),
    decay (0-0.99, default 0.4), mod_speed (Hz, 0.1-2, default 0.5), sinusoidal (bool: sine or triangle wave).

    >>> import numpy as np
    >>> Phaser(8000)(np.zeros(4, np.float32)).tolist()
    [0.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, sample_rate: int, gain_in: float = 0.4, gain_out: float = 0.74, delay_ms: float = 3.0,
                 decay: float = 0.4, mod_speed: float = 0.5, sinusoidal: bool = True):
        check_int32(sample_rate, "sample_rate")
        for name, v, lo, hi in (("gain_in", gain_in, 0, 1), ("gain_out", gain_out, 0, 1e9),
                                ("delay_ms", delay_ms, 0, 5.0), ("decay", decay, 0, 0.99),
                                ("mod_speed", mod_speed, 0.1, 2)):
            type_check(v, (float, int), name)
            check_value(v, lo, hi, name)
        type_check(sinusoidal, (bool,), "sinusoidal")
        self.sample_rate, self.gain_in, self.gain_out = sample_rate, float(gain_in), float(gain_out)
        self.delay_ms, self.decay, self.mod_speed, self.sinusoidal = float(delay_ms), float(decay), float(mod_speed), \
            sinusoidal

    def _apply(self, rng, x):
        w, dtype = waveform("Phaser", x)
        shape = w.shape
        w = w.reshape(-1, shape[-1]) * self.gain_in
        buf_len = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        mod_len = int(self.sample_rate / self.mod_speed + 0.5)
        if buf_len <= 0 or mod_len <= 0:
            # MindSpore's kernel divides by these lengths (and dies of SIGFPE); say why instead
            raise RuntimeError(f"Phaser: delay_ms {self.delay_ms} and sample_rate {self.sample_rate} give a delay "
                               f"line of {buf_len} samples and mod_speed a modulation period of {mod_len} samples; "
                               f"both must be at least 1")
        table = _int_wave_table(self.sinusoidal, mod_len, 1.0, float(buf_len), math.pi / 2)
        buf = np.zeros((w.shape[0], buf_len))
        out = np.empty_like(w)
        delay_pos = mod_pos = 0
        for i in range(w.shape[1]):   # the delay line feeds back, sample by sample
            tap = buf[:, (delay_pos + table[mod_pos]) % buf_len]
            mod_pos = (mod_pos + 1) % mod_len
            delay_pos = (delay_pos + 1) % buf_len
            out[:, i] = w[:, i] + tap
            buf[:, delay_pos] = out[:, i] * self.decay
        return np.clip(out * self.gain_out, -1, 1).reshape(shape).astype(dtype)
