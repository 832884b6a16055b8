"""``PitchShift`` of ``mindspore.dataset.audio`` (torchaudio's ``pitch_shift``: a phase-vocoder time stretch, then
resampling back to the original length), computed with NumPy from the STFT / phase vocoder / resampler here."""
from __future__ import annotations

import math

import numpy as np

from ..transforms._base import TensorOperation
from ._checks import INT32_MAX, check_int32, type_check, waveform
from ._more2 import _istft, _phase_vocoder, sinc_resample
from ._spectral import BorderType, WindowType, _stft

__all__ = ["PitchShift"]


class PitchShift(TensorOperation):
    """Shift the pitch of a waveform (..., time) by ``n_steps`` of ``1 / bins_per_octave`` octave, keeping its length.

    Args: sample_rate (int), n_steps (int), bins_per_octave (int != 0, default 12), n_fft (default 512),
    win_length (default n_fft), hop_length (default win_length // 4), window (WindowType, default HANN).
    """

    def __init__(self, sample_rate: int, n_steps: int, bins_per_octave: int = 12, n_fft: int = 512,
                 win_length: int | None = None, hop_length: int | None = None,
                 window: WindowType = WindowType.HANN):
        check_int32(sample_rate, "sample_rate", 0)
        check_int32(n_steps, "n_steps")
        # MindSpore's check_int32_not_zero pads the name with a space, hence the double space in its TypeError
        type_check(bins_per_octave, (int,), "bins_per_octave ")
        if not -INT32_MAX - 1 <= bins_per_octave <= INT32_MAX or bins_per_octave == 0:
            raise ValueError("Input bins_per_octave is not within the required interval of [-2147483648, 0) and "
                             "(0, 2147483647].")
        check_int32(n_fft, "n_fft", 1)
        type_check(window, (WindowType,), "window")
        if win_length is not None:
            check_int32(win_length, "win_length", 1)
            if win_length > n_fft:
                raise ValueError(f"Input win_length should be no more than n_fft, but got win_length: {win_length} "
                                 f"and n_fft: {n_fft}.")
        if hop_length is not None:
            check_int32(hop_length, "hop_length", 1)
        self.sample_rate, self.n_steps, self.bins_per_octave, self.n_fft = sample_rate, n_steps, bins_per_octave, n_fft
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 4 if hop_length is None else hop_length
        self.window = window

    def _apply(self, rng, x):
        w, dtype = waveform("PitchShift", x)
        shape = w.shape
        length = shape[-1]
        if length <= self.n_fft // 2:
            raise RuntimeError(f"PitchShift: the waveform has {length} samples; reflect padding by n_fft // 2 = "
                               f"{self.n_fft // 2} needs more")
        rate = 2.0 ** (-float(self.n_steps) / self.bins_per_octave)
        spec = _stft(w.reshape(-1, length), self.n_fft, self.win_length, self.hop_length, 0, self.window, False,
                     True, BorderType.REFLECT, True)
        advance = np.linspace(0, math.pi * self.hop_length, spec.shape[-2])[:, None]
        stretched = _istft(_phase_vocoder(spec, rate, advance), self.n_fft, self.hop_length, self.win_length,
                           self.window, True, int(round(length / rate)))
        shifted = sinc_resample(stretched, int(self.sample_rate / rate), self.sample_rate)
        if shifted.shape[-1] >= length:
            shifted = shifted[..., :length]
        else:
            shifted = np.pad(shifted, [(0, 0), (0, length - shifted.shape[-1])])
        return shifted.reshape(shape).astype(dtype)
