"""More of ``mindspore.dataset.audio`` (torchaudio's definitions, computed with NumPy in float64 and returned as
float32): Overdrive, Resample, InverseSpectrogram, PhaseVocoder, TimeStretch, GriffinLim, DetectPitchFrequency,
Dither and SlidingWindowCmn."""
from __future__ import annotations

import math

import numpy as np

from ..transforms._base import TensorOperation
from ._checks import real_waveform as _wave
from ._filters import DensityFunction, ResampleMethod
from ._spectral import BorderType, WindowType, _check_int, _stft, _window

__all__ = ["Overdrive", "Resample", "InverseSpectrogram", "PhaseVocoder", "TimeStretch",
           "GriffinLim", "DetectPitchFrequency", "Dither", "SlidingWindowCmn"]


def _complex_in(op, x):
    x = np.asarray(x)
    if x.ndim < 3 or x.shape[-1] != 2:
        raise RuntimeError(f"{op}: the input should be a complex spectrogram of shape (..., freq, time, 2), but "
                           f"got shape {x.shape}")
    x = x.astype(np.float64)
    return x[..., 0] + 1j * x[..., 1]


def _complex_out(z):
    return np.stack([z.real, z.imag], axis=-1).astype(np.float32)


class Overdrive(TensorOperation):
    """Overdrive effect: soft clipping with ``gain`` dB of drive and ``color`` (even harmonics), then a DC-blocking
    filter (torchaudio's ``overdrive``). Args: gain (float, 0-100, default 20), color (float, 0-100, default 20)."""

    def __init__(self, gain: float = 20.0, color: float = 20.0):
        for name, v in (("gain", gain), ("color", color)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100:
                raise ValueError(f"Overdrive: {name} must be a number in [0, 100], but got {v!r}")
        self.gain, self.color = float(gain), float(color)

    def _apply(self, rng, x):
        x = _wave("Overdrive", x)
        temp = x * math.exp(self.gain * math.log(10) / 20) + self.color / 200
        temp = np.where(temp < -1, -2.0 / 3, np.where(temp > 1, 2.0 / 3, temp - temp ** 3 / 3))
        out = np.empty_like(x)
        last_in = np.zeros(x.shape[:-1])
        last_out = np.zeros(x.shape[:-1])
        for i in range(x.shape[-1]):   # the DC blocker is recursive over time
            last_out = temp[..., i] - last_in + 0.995 * last_out
            last_in = temp[..., i]
            out[..., i] = x[..., i] * 0.5 + last_out * 0.75
        return np.clip(out, -1, 1).astype(np.float32)


class Resample(TensorOperation):
    """Resample a waveform from ``orig_freq`` to ``new_freq`` with a windowed-sinc filter (torchaudio's).

    Args: orig_freq, new_freq (float), resample_method (ResampleMethod: SINC_INTERPOLATION = Hann window,
    KAISER_WINDOW), lowpass_filter_width (int, default 6), rolloff (float, default 0.99), beta (float, Kaiser
    shape, default 14.769656459379492)."""

    def __init__(self, orig_freq: float = 16000, new_freq: float = 16000,
                 resample_method: ResampleMethod = ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width: int = 6,
                 rolloff: float = 0.99, beta: float | None = None):
        for name, v in (("orig_freq", orig_freq), ("new_freq", new_freq)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
                raise ValueError(f"Resample: {name} must be a positive number, but got {v!r}")
        self.orig_freq, self.new_freq = orig_freq, new_freq
        self.resample_method = ResampleMethod(resample_method)
        self.lowpass_filter_width = _check_int("Resample", "lowpass_filter_width", lowpass_filter_width)
        if not 0 < rolloff <= 1:
            raise ValueError(f"Resample: rolloff must be in (0, 1], but got {rolloff!r}")
        self.rolloff = float(rolloff)
        self.beta = 14.769656459379492 if beta is None else float(beta)

    def _apply(self, rng, x):
        x = _wave("Resample", x)
        if int(self.orig_freq) == int(self.new_freq):
            return x.astype(np.float32)
        kaiser = None if self.resample_method == ResampleMethod.SINC_INTERPOLATION else self.beta
        rows = x.reshape(-1, x.shape[-1])
        out = sinc_resample(rows, int(self.orig_freq), int(self.new_freq), self.lowpass_filter_width, self.rolloff,
                            kaiser)
        return out.reshape(x.shape[:-1] + (-1,)).astype(np.float32)


def sinc_resample(x: np.ndarray, orig_freq: int, new_freq: int, width_f: int = 6, rolloff: float = 0.99,
                  kaiser_beta: float | None = None) -> np.ndarray:
    """torchaudio's windowed-sinc resampling of (rows, time): a Hann window, or a Kaiser window of
    ``kaiser_beta``. Each output sample is evaluated at the input taps it uses only, so coprime rates such as
    17959 -> 16000 need no orig x new polyphase kernel. It filters even when the rates are equal (PitchShift does;
    ``Resample`` returns its input then)."""
    g = math.gcd(orig_freq, new_freq)
    orig, new = orig_freq // g, new_freq // g
    base = min(orig, new) * rolloff
    width = math.ceil(width_f * orig / base)
    n_out = math.ceil(new * x.shape[-1] / orig)
    padded = np.pad(x, [(0, 0), (width, width + orig)])
    j = np.arange(n_out)
    frame, phase = j // new, j % new
    # taps with |t| >= width_f have a zero window: only 2 * width + 2 around the output's centre can contribute
    k = ((phase * orig) // new)[:, None] + np.arange(2 * width + 2)[None, :]
    valid = k < 2 * width + orig
    k = np.where(valid, k, 0)
    t = np.clip(((k - width) / orig - phase[:, None] / new) * base, -width_f, width_f)
    if kaiser_beta is None:
        window = np.cos(t * math.pi / width_f / 2) ** 2
    else:
        window = np.i0(kaiser_beta * np.sqrt(1 - (t / width_f) ** 2)) / np.i0(kaiser_beta)
    t = t * math.pi
    with np.errstate(invalid="ignore", divide="ignore"):
        kernel = np.where(t == 0, 1.0, np.sin(t) / t) * window * (base / orig) * valid
    return (padded[:, frame[:, None] * orig + k] * kernel).sum(axis=-1)


def _istft(spec, n_fft, hop, win_length, window, center, length, onesided=True, normalized=False):
    """torch.istft of a complex (..., freq, frames) array."""
    w = _window(WindowType(window), win_length)
    left = (n_fft - win_length) // 2
    w = np.pad(w, (left, n_fft - win_length - left))
    if normalized:
        spec = spec * np.sqrt((w ** 2).sum())
    frames = np.fft.irfft(spec, n=n_fft, axis=-2) if onesided else np.fft.ifft(spec, n=n_fft, axis=-2).real
    frames = np.swapaxes(frames, -1, -2) * w          # (..., frames, n_fft)
    n = frames.shape[-2]
    total = n_fft + hop * (n - 1)
    y = np.zeros(frames.shape[:-2] + (total,))
    env = np.zeros(total)
    for i in range(n):
        y[..., i * hop:i * hop + n_fft] += frames[..., i, :]
        env[i * hop:i * hop + n_fft] += w ** 2
    start = n_fft // 2 if center else 0
    end = total - n_fft // 2 if center else total - n_fft   # MindSpore drops the last n_fft when not centred
    if length is not None:
        end = start + length
    y, env = y[..., start:min(end, total)], env[start:min(end, total)]
    y = y / np.where(env > 1e-11, env, 1.0)
    if length is not None and y.shape[-1] < length:
        y = np.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, length - y.shape[-1])])
    return y


class InverseSpectrogram(TensorOperation):
    """The waveform of a complex spectrogram (..., freq, time, 2) by inverse STFT with overlap-add (torchaudio's
    ``InverseSpectrogram``); the arguments are those of the ``Spectrogram`` that made it."""

    def __init__(self, length: int | None = None, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, pad: int = 0, window: WindowType = WindowType.HANN,
                 normalized: bool = False, center: bool = True, pad_mode: BorderType = BorderType.REFLECT,
                 onesided: bool = True):
        self.length = None if length is None else _check_int("InverseSpectrogram", "length", length, 0)
        self.n_fft = _check_int("InverseSpectrogram", "n_fft", n_fft)
        self.win_length = self.n_fft if win_length is None else _check_int("InverseSpectrogram", "win_length",
                                                                           win_length)
        self.hop_length = self.win_length // 2 if hop_length is None else \
            _check_int("InverseSpectrogram", "hop_length", hop_length)
        self.pad = _check_int("InverseSpectrogram", "pad", pad, 0)
        self.window, self.normalized, self.center = WindowType(window), bool(normalized), bool(center)
        self.pad_mode, self.onesided = BorderType(pad_mode), bool(onesided)

    def _apply(self, rng, x):
        spec = _complex_in("InverseSpectrogram", x)
        length = None if self.length is None else self.length + 2 * self.pad
        y = _istft(spec, self.n_fft, self.hop_length, self.win_length, self.window, self.center, length,
                   self.onesided, self.normalized)
        if self.pad:
            y = y[..., self.pad:-self.pad]
        return y.astype(np.float32)


def _phase_vocoder(z, rate, phase_advance):
    if rate == 1.0:
        return z
    steps = np.arange(0, z.shape[-1], rate, dtype=np.float32).astype(np.float64)
    alphas = steps % 1.0
    phase_0 = np.angle(z[..., :1])
    z = np.pad(z, [(0, 0)] * (z.ndim - 1) + [(0, 2)])
    z0, z1 = z[..., steps.astype(np.int64)], z[..., steps.astype(np.int64) + 1]
    phase = np.angle(z1) - np.angle(z0) - phase_advance
    turns = phase / (2 * math.pi)
    # C's round(): halves away from zero (MindSpore's kernel), not NumPy's halves-to-even; exact halves happen
    # (e.g. the Nyquist bin of a real signal)
    phase = phase - 2 * math.pi * (np.sign(turns) * np.floor(np.abs(turns) + 0.5))
    phase = np.concatenate([phase_0, (phase + phase_advance)[..., :-1]], axis=-1)
    mag = alphas * np.abs(z1) + (1 - alphas) * np.abs(z0)
    return mag * np.exp(1j * np.cumsum(phase, axis=-1))


class PhaseVocoder(TensorOperation):
    """Speed a complex spectrogram (..., freq, time, 2) up by ``rate`` without changing its pitch.
    Args: rate (float > 0), phase_advance (array (freq, 1): expected phase advance per bin and hop)."""

    def __init__(self, rate: float, phase_advance: np.ndarray):
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or rate <= 0:
            raise ValueError(f"PhaseVocoder: rate must be a positive number, but got {rate!r}")
        self.rate = float(rate)
        self.phase_advance = np.asarray(phase_advance, np.float64)

    def _apply(self, rng, x):
        z = _complex_in("PhaseVocoder", x)
        if self.phase_advance.shape != (z.shape[-2], 1):
            raise RuntimeError(f"PhaseVocoder: phase_advance must have shape ({z.shape[-2]}, 1) for {z.shape[-2]} "
                               f"frequency bins, but got {self.phase_advance.shape}")
        return _complex_out(_phase_vocoder(z, self.rate, self.phase_advance))


class TimeStretch(TensorOperation):
    """Stretch a complex spectrogram (..., freq, time, 2) in time by ``fixed_rate`` (phase vocoder; hop default
    ``n_fft // 2`` with ``n_fft = 2 * (n_freq - 1)``). Without ``fixed_rate`` the rate is 1 and, as in MindSpore,
    a leading axis is added."""

    def __init__(self, hop_length: int | None = None, n_freq: int = 201, fixed_rate: float | None = None):
        self.n_freq = _check_int("TimeStretch", "n_freq", n_freq)
        self.hop_length = (self.n_freq - 1) if hop_length is None else _check_int("TimeStretch", "hop_length",
                                                                                  hop_length)
        if fixed_rate is not None and (isinstance(fixed_rate, bool) or fixed_rate <= 0):
            raise ValueError(f"TimeStretch: fixed_rate must be a positive number, but got {fixed_rate!r}")
        self.fixed_rate = fixed_rate

    def _apply(self, rng, x):
        z = _complex_in("TimeStretch", x)
        if z.shape[-2] != self.n_freq:
            raise RuntimeError(f"TimeStretch: the input has {z.shape[-2]} frequency bins, n_freq is {self.n_freq}")
        if self.fixed_rate is None:
            return _complex_out(z[None])
        advance = np.linspace(0, math.pi * self.hop_length, self.n_freq)[:, None]
        return _complex_out(_phase_vocoder(z, float(self.fixed_rate), advance))


class GriffinLim(TensorOperation):
    """A waveform whose STFT magnitude matches ``specgram`` (..., freq, time) (|STFT|**power), by the fast
    Griffin-Lim iteration with ``momentum`` (torchaudio's). ``rand_init`` starts from random phases (else 0)."""

    def __init__(self, n_fft: int = 400, n_iter: int = 32, win_length: int | None = None, hop_length: int | None = None,
                 window_type: WindowType = WindowType.HANN, power: float = 2.0, momentum: float = 0.99,
                 length: int | None = None, rand_init: bool = True):
        self.n_fft = _check_int("GriffinLim", "n_fft", n_fft)
        self.n_iter = _check_int("GriffinLim", "n_iter", n_iter)
        self.win_length = self.n_fft if win_length is None else _check_int("GriffinLim", "win_length", win_length)
        self.hop_length = self.win_length // 2 if hop_length is None else \
            _check_int("GriffinLim", "hop_length", hop_length)
        if isinstance(power, bool) or not isinstance(power, (int, float)) or power <= 0:
            raise ValueError(f"GriffinLim: power must be a positive number, but got {power!r}")
        if not 0 <= momentum:
            raise ValueError(f"GriffinLim: momentum must be non-negative, but got {momentum!r}")
        self.window_type, self.power, self.momentum = WindowType(window_type), float(power), float(momentum)
        self.length = None if length is None else _check_int("GriffinLim", "length", length, 0)
        self.rand_init = bool(rand_init)
        self.random = self.rand_init

    def _apply(self, rng, x):
        spec = np.asarray(x, np.float64)
        if spec.ndim < 2 or spec.shape[-2] != self.n_fft // 2 + 1:
            raise RuntimeError(f"GriffinLim: expected a spectrogram of shape (..., {self.n_fft // 2 + 1}, time) for "
                               f"n_fft {self.n_fft}, but got {spec.shape}")
        mag = spec ** (1.0 / self.power)
        angles = rng.random(mag.shape) + 1j * rng.random(mag.shape) if self.rand_init else \
            np.ones(mag.shape, np.complex128)
        args = (self.n_fft, self.hop_length, self.win_length, self.window_type, True, self.length)
        tprev = 0.0
        # MindSpore applies momentum / (1 + momentum) twice over (torchaudio once): its weight on the previous
        # rebuilt spectrogram is momentum / (1 + 2 * momentum); measured against MindSpore 2.10
        weight = self.momentum / (1 + 2 * self.momentum)
        for _ in range(self.n_iter):
            inverse = _istft(mag * angles, *args)
            rebuilt = _stft(inverse, self.n_fft, self.win_length, self.hop_length, 0, self.window_type, False,
                            True, BorderType.REFLECT, True)
            if rebuilt.shape != mag.shape:
                raise RuntimeError(f"GriffinLim: length {self.length} gives {rebuilt.shape[-1]} STFT frames, but the "
                                   f"spectrogram has {mag.shape[-1]}")
            angles = rebuilt - tprev * weight if self.momentum else rebuilt
            angles = angles / (np.abs(angles) + 1e-16)
            tprev = rebuilt
        return _istft(mag * angles, *args).astype(np.float32)


class DetectPitchFrequency(TensorOperation):
    """Pitch (Hz) per frame of ``frame_time`` seconds, from normalized cross-correlation and median smoothing
    over ``win_length`` frames (torchaudio's ``detect_pitch_frequency``); output (..., frames), float32."""

    def __init__(self, sample_rate: int, frame_time: float = 0.01, win_length: int = 30, freq_low: int = 85,
                 freq_high: int = 3400):
        self.sample_rate = _check_int("DetectPitchFrequency", "sample_rate", sample_rate)
        if not frame_time > 0:
            raise ValueError(f"DetectPitchFrequency: frame_time must be positive, but got {frame_time!r}")
        self.frame_time = float(frame_time)
        self.win_length = _check_int("DetectPitchFrequency", "win_length", win_length)
        if not 0 < freq_low <= freq_high:
            raise ValueError(f"DetectPitchFrequency: need 0 < freq_low <= freq_high, got {freq_low}, {freq_high}")
        self.freq_low, self.freq_high = freq_low, freq_high

    def _apply(self, rng, x):
        x = _wave("DetectPitchFrequency", x)
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        eps = 1e-9
        lags = int(math.ceil(self.sample_rate / self.freq_low))
        frame = int(math.ceil(self.sample_rate * self.frame_time))
        n_frames = int(math.ceil(shape[-1] / frame))
        x = np.pad(x, [(0, 0), (0, lags + n_frames * frame - shape[-1])])
        nccf = np.empty((x.shape[0], n_frames, lags))
        for lag in range(1, lags + 1):
            s1 = x[:, :-lag][:, :n_frames * frame].reshape(x.shape[0], n_frames, frame)
            s2 = x[:, lag:][:, :n_frames * frame].reshape(x.shape[0], n_frames, frame)
            nccf[..., lag - 1] = (s1 * s2).sum(-1) / (eps + np.linalg.norm(s1, axis=-1)) ** 2 / \
                (eps + np.linalg.norm(s2, axis=-1)) ** 2
        lag_min = int(math.ceil(self.sample_rate / self.freq_high))
        best_i, best_v = nccf[..., lag_min:].argmax(-1), nccf[..., lag_min:].max(-1)
        half = nccf[..., lag_min:lags // 2]
        if half.shape[-1] == 0:
            raise RuntimeError(f"DetectPitchFrequency: freq_high {self.freq_high} leaves no lag below half the "
                               f"largest lag {lags}")
        half_i, half_v = half.argmax(-1), half.max(-1)
        idx = np.where(half_v > 0.99 * best_v, half_i, best_i) + lag_min + 1
        pad = (self.win_length - 1) // 2
        if idx.shape[-1] < self.win_length - pad:
            raise RuntimeError(f"DetectPitchFrequency: {idx.shape[-1]} frames are too few for win_length "
                               f"{self.win_length}")
        idx = np.concatenate([np.repeat(idx[:, :1], pad, axis=-1), idx], axis=-1).astype(np.float64)
        windows = np.lib.stride_tricks.sliding_window_view(idx, self.win_length, axis=-1)
        med = np.sort(windows, axis=-1)[..., (self.win_length - 1) // 2]   # torch.median: the lower middle
        freq = self.sample_rate / (eps + med.astype(np.float32))
        return freq.reshape(shape[:-1] + freq.shape[-1:]).astype(np.float32)


class Dither(TensorOperation):
    """Quantise to 16 bits with dither noise (torchaudio's ``dither``): TPDF adds a Bartlett (triangular) ramp
    over time, RPDF and GPDF a random offset drawn from the signal; ``noise_shaping`` feeds each sample's
    quantisation error into the next."""

    def __init__(self, density_function: DensityFunction = DensityFunction.TPDF, noise_shaping: bool = False):
        self.density_function = DensityFunction(density_function)
        if not isinstance(noise_shaping, bool):
            raise TypeError(f"Dither: noise_shaping must be a bool, but got {noise_shaping!r}")
        self.noise_shaping = noise_shaping
        self.random = self.density_function != DensityFunction.TPDF

    def _apply(self, rng, x):
        x = _wave("Dither", x)
        shape = x.shape
        w = x.reshape(-1, shape[-1])
        channels, times = w.shape[0] - 1, w.shape[-1] - 1
        scaled = w * (2 ** 15 - 2)

        def pick():
            return w[rng.integers(channels) if channels > 0 else 0, rng.integers(times) if times > 0 else 0]

        if self.density_function == DensityFunction.RPDF:
            noisy = scaled + (pick() - 0.5)
        elif self.density_function == DensityFunction.GPDF:
            noisy = scaled + sum(pick() for _ in range(7))
        else:
            n = times + 1
            k = np.arange(n, dtype=np.float64)
            ramp = 1 - np.abs(2 * k / n - 1) if n > 1 else np.ones(1)
            noisy = scaled + ramp
        out = np.round(noisy) / 2 ** 15
        if self.noise_shaping:
            err = out - w
            out = out + np.concatenate([np.zeros((w.shape[0], 1)), err[:, :-1]], axis=1)
        return out.reshape(shape).astype(np.float32)


def _sliding_cmn(x, cmn_window, min_cmn_window, center, norm_vars):
    """Kaldi's sliding-window CMN over frames of x (C, T, F), as torchaudio's ``sliding_window_cmn``."""
    channels, frames, feats = x.shape
    out = np.zeros_like(x)
    cur_sum = np.zeros((channels, feats))
    cur_sq = np.zeros((channels, feats))
    last_start = last_end = -1
    for t in range(frames):
        if center:
            start = t - cmn_window // 2
            end = start + cmn_window
        else:
            start, end = t - cmn_window, t + 1
        if start < 0:
            end -= start
            start = 0
        if not center and end > t:
            end = max(t + 1, min_cmn_window)
        if end > frames:
            start = max(start - (end - frames), 0)
            end = frames
        if last_start == -1:
            # the first window is summed over frames [start, end - start) (torchaudio's slice, kept for equality)
            part = x[:, start:end - start, :]
            cur_sum += part.sum(1)
            if norm_vars:
                cur_sq += (part ** 2).sum(1)
        else:
            if start > last_start:
                cur_sum -= x[:, last_start, :]
                if norm_vars:
                    cur_sq -= x[:, last_start, :] ** 2
            if end > last_end:
                cur_sum += x[:, last_end, :]
                if norm_vars:
                    cur_sq += x[:, last_end, :] ** 2
        n = end - start
        last_start, last_end = start, end
        out[:, t, :] = x[:, t, :] - cur_sum / n
        if norm_vars:
            if n == 1:
                out[:, t, :] = 0.0
            else:
                var = cur_sq / n - cur_sum ** 2 / n ** 2
                with np.errstate(divide="ignore", invalid="ignore"):
                    out[:, t, :] *= var ** -0.5
    return out


class SlidingWindowCmn(TensorOperation):
    """Sliding-window cepstral mean (and, with ``norm_vars``, variance) normalisation of features
    (..., time, feature) over windows of ``cmn_window`` frames (the second-last axis, as MindSpore and torchaudio
    read it; Kaldi's algorithm)."""

    def __init__(self, cmn_window: int = 600, min_cmn_window: int = 100, center: bool = False, norm_vars: bool = False):
        self.cmn_window = _check_int("SlidingWindowCmn", "cmn_window", cmn_window, 0)
        self.min_cmn_window = _check_int("SlidingWindowCmn", "min_cmn_window", min_cmn_window, 0)
        for name, v in (("center", center), ("norm_vars", norm_vars)):
            if not isinstance(v, bool):
                raise TypeError(f"SlidingWindowCmn: {name} must be a bool, but got {v!r}")
        self.center, self.norm_vars = center, norm_vars

    def _apply(self, rng, x):
        x = np.asarray(x)
        if x.ndim < 2:
            raise RuntimeError(f"SlidingWindowCmn: the input should be <..., time, feature>, but got shape {x.shape}")
        spec = x.astype(np.float64).reshape((-1,) + x.shape[-2:])
        out = _sliding_cmn(spec, self.cmn_window, self.min_cmn_window, self.center, self.norm_vars)
        return out.reshape(x.shape).astype(np.float32)
