"""Pixel-value transforms on uint8 RGB images, following OpenCV (what MindSpore's CPU kernels call): flips,
invert, posterize, solarize, equalize, auto-contrast, brightness / contrast / saturation / gamma / sharpness,
colour conversion. Each works on one image (H, W[, C]) and, where marked ``batchable``, on a stack."""
from __future__ import annotations

import enum
import numbers
from collections.abc import Sequence

import numpy as np

from ..transforms._base import TensorOperation, check_rank

__all__ = ["HorizontalFlip", "VerticalFlip", "Invert", "Posterize", "Solarize", "Equalize", "AutoContrast",
           "AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustGamma", "AdjustSharpness",
           "ConvertColor", "ConvertMode", "rgb_to_gray", "blend"]


def _factor(op, name, value, low=0.0, high=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{op}: {name} must be a number, but got {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{op}: {name} must be in [{low}, {high if high is not None else 'inf'}], got {value}")
    return float(value)


def _rgb(op, img):
    if img.ndim != 3 or img.shape[-1] != 3:
        raise RuntimeError(f"{op}: the input image should be in shape of <H, W, 3> (RGB), but got shape "
                           f"{tuple(img.shape)}")
    return img


def _uint8(op, img):
    if img.dtype != np.uint8:
        raise RuntimeError(f"{op}: the input image should be uint8, but got {img.dtype}")
    return img


def rgb_to_gray(img: np.ndarray) -> np.ndarray:
    """OpenCV's RGB2GRAY for uint8: (R*4899 + G*9617 + B*1868 + 8192) >> 14; float images: 0.299/0.587/0.114."""
    if img.dtype == np.uint8:
        x = img.astype(np.int32)
        return ((x[..., 0] * 4899 + x[..., 1] * 9617 + x[..., 2] * 1868 + 8192) >> 14).astype(np.uint8)
    return (img[..., 0] * np.float32(0.299) + img[..., 1] * np.float32(0.587) +
            img[..., 2] * np.float32(0.114)).astype(img.dtype)


def blend(a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """OpenCV addWeighted(a, alpha, b, 1 - alpha, 0): float math, rounded and saturated for uint8."""
    out = a.astype(np.float32) * np.float32(alpha) + b.astype(np.float32) * np.float32(1.0 - alpha)
    if a.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(a.dtype)


class HorizontalFlip(TensorOperation):
    """Mirror the image left-right."""
    batchable = True

    def _apply_batch(self, rng, x):
        check_rank("HorizontalFlip", x, (2, 3), "<H, W> or <H, W, C>", batched=True)
        return np.ascontiguousarray(x[:, :, ::-1])


class VerticalFlip(TensorOperation):
    """Flip the image upside down."""
    batchable = True

    def _apply_batch(self, rng, x):
        check_rank("VerticalFlip", x, (2, 3), "<H, W> or <H, W, C>", batched=True)
        return np.ascontiguousarray(x[:, ::-1])


class Invert(TensorOperation):
    """255 - pixel, for uint8 RGB images."""
    batchable = True

    def _apply_batch(self, rng, x):
        return (255 - _uint8("Invert", x)).astype(np.uint8)


class Posterize(TensorOperation):
    """Keep the ``bits`` high bits of each channel. Args: bits (int in [0, 8])."""
    batchable = True

    def __init__(self, bits: int) -> None:
        if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 8:
            raise ValueError(f"Posterize: bits must be an int in [0, 8], but got {bits!r}")
        self.bits = bits

    def _apply_batch(self, rng, x):
        mask = np.uint8((0xFF << (8 - self.bits)) & 0xFF)
        return _uint8("Posterize", x) & mask


def _threshold(op, threshold):
    if isinstance(threshold, numbers.Real) and not isinstance(threshold, bool):
        threshold = (threshold, 255)
    if not isinstance(threshold, (tuple, list)) or len(threshold) not in (1, 2) or \
            not all(isinstance(t, numbers.Real) and 0 <= float(t) <= 255 for t in threshold):
        raise ValueError(f"{op}: threshold must be a number or (min, max) in [0, 255], but got {threshold!r}")
    lo, hi = (threshold[0], 255) if len(threshold) == 1 else threshold
    if lo > hi:
        raise ValueError(f"{op}: threshold min {lo} is greater than max {hi}")
    return float(lo), float(hi)


class Solarize(TensorOperation):
    """Invert the pixels within [min, max] of ``threshold`` (a number t means [t, 255])."""
    batchable = True

    def __init__(self, threshold: float | Sequence[float]) -> None:
        self.threshold = _threshold("Solarize", threshold)

    def _apply_batch(self, rng, x):
        lo, hi = self.threshold
        inside = (x >= lo) & (x <= hi)
        return np.where(inside, 255 - x, x).astype(x.dtype)


def _equalize_channel(c):
    hist = np.bincount(c.reshape(-1), minlength=256)
    nz = np.flatnonzero(hist)
    if len(nz) == 0 or hist[nz[0]] == c.size:
        return np.full_like(c, nz[0] if len(nz) else 0)
    first = nz[0]
    scale = np.float32(255.0) / np.float32(c.size - hist[first])
    cum = np.cumsum(hist).astype(np.int64) - hist[first]
    lut = np.clip(np.rint(cum.astype(np.float32) * scale), 0, 255).astype(np.uint8)
    lut[:first + 1] = 0
    return lut[c]


class Equalize(TensorOperation):
    """Histogram equalisation of each channel (OpenCV equalizeHist)."""

    def _apply(self, rng, x):
        _uint8("Equalize", x)
        if x.ndim == 2:
            return _equalize_channel(x)
        return np.stack([_equalize_channel(x[..., k]) for k in range(x.shape[-1])], axis=-1)


class AutoContrast(TensorOperation):
    """Stretch each channel to [0, 255] after cutting ``cutoff`` percent of the darkest and lightest pixels.

    Args: cutoff (float in [0, 50)), ignore (int or list of int): pixel values left out of the histogram."""

    def __init__(self, cutoff: float = 0.0, ignore: int | Sequence[int] | None = None) -> None:
        self.cutoff = _factor("AutoContrast", "cutoff", cutoff, 0.0, 50.0)
        if self.cutoff >= 50:
            raise ValueError(f"AutoContrast: cutoff must be in [0, 50), but got {cutoff}")
        if ignore is None:
            ignore = []
        elif isinstance(ignore, int):
            ignore = [ignore]
        if not all(isinstance(v, int) and 0 <= v <= 255 for v in ignore):
            raise ValueError(f"AutoContrast: ignore must be ints in [0, 255], but got {ignore!r}")
        self.ignore = list(ignore)

    def _channel(self, c):
        hist = np.bincount(c.reshape(-1), minlength=256).astype(np.int64)
        hist[self.ignore] = 0
        if self.cutoff:
            n = int(hist.sum())
            cut = int(n * self.cutoff / 100.0)
            lo_cut = cut
            for i in range(256):
                take = min(lo_cut, hist[i])
                hist[i] -= take
                lo_cut -= take
                if lo_cut <= 0:
                    break
            hi_cut = cut
            for i in range(255, -1, -1):
                take = min(hi_cut, hist[i])
                hist[i] -= take
                hi_cut -= take
                if hi_cut <= 0:
                    break
        nz = np.flatnonzero(hist)
        if len(nz) == 0 or nz[-1] <= nz[0]:
            return c
        lo, hi = nz[0], nz[-1]
        scale = np.float32(255.0) / np.float32(hi - lo)     # float32 and truncation, as MindSpore's kernel
        offset = np.float32(-lo) * scale
        lut = np.clip((np.arange(256, dtype=np.float32) * scale + offset).astype(np.int32), 0, 255).astype(np.uint8)
        return lut[c]

    def _apply(self, rng, x):
        _uint8("AutoContrast", x)
        if x.ndim == 2:
            return self._channel(x)
        return np.stack([self._channel(x[..., k]) for k in range(x.shape[-1])], axis=-1)


class AdjustBrightness(TensorOperation):
    """Multiply pixels by ``brightness_factor`` (>= 0), rounded and saturated."""
    batchable = True

    def __init__(self, brightness_factor: float) -> None:
        self.brightness_factor = _factor("AdjustBrightness", "brightness_factor", brightness_factor)

    def _apply_batch(self, rng, x):
        zero = np.zeros_like(x)
        return blend(x, zero, self.brightness_factor)


class AdjustContrast(TensorOperation):
    """Blend with the mean grey level of the image: ``factor * img + (1 - factor) * mean(gray)``."""

    def __init__(self, contrast_factor: float) -> None:
        self.contrast_factor = _factor("AdjustContrast", "contrast_factor", contrast_factor)

    def _apply(self, rng, x):
        gray = rgb_to_gray(_rgb("AdjustContrast", x))
        mean = np.full_like(x, np.uint8(np.clip(np.rint(gray.mean()), 0, 255)) if x.dtype == np.uint8 else
                            gray.mean())
        return blend(x, mean, self.contrast_factor)


class AdjustSaturation(TensorOperation):
    """Blend with the grey version of the image: ``factor * img + (1 - factor) * gray``."""
    batchable = True

    def __init__(self, saturation_factor: float) -> None:
        self.saturation_factor = _factor("AdjustSaturation", "saturation_factor", saturation_factor)

    def _apply_batch(self, rng, x):
        if x.ndim != 4 or x.shape[-1] != 3:
            raise RuntimeError(f"AdjustSaturation: the input image should be in shape of <H, W, 3> (RGB), but "
                               f"got shape {tuple(x.shape[1:])}")
        gray = rgb_to_gray(x)
        return blend(x, np.repeat(gray[..., None], 3, axis=-1), self.saturation_factor)


class AdjustGamma(TensorOperation):
    """``gain * (img / 255) ** gamma * 255`` for uint8 (a lookup table), ``gain * img ** gamma`` for floats."""
    batchable = True

    def __init__(self, gamma: float, gain: float = 1.0) -> None:
        self.gamma = _factor("AdjustGamma", "gamma", gamma)
        self.gain = _factor("AdjustGamma", "gain", gain, low=-np.inf)

    def _apply_batch(self, rng, x):
        if x.dtype == np.uint8:
            # torchvision's rule, which MindSpore follows: clamp to [0, 1], then scale by 256 - 1e-3 and floor
            unit = np.clip(self.gain * np.power(np.arange(256, dtype=np.float32) / np.float32(255), self.gamma), 0, 1)
            return np.floor(unit * np.float32(255 + 1 - 1e-3)).astype(np.uint8)[x]
        return (self.gain * np.power(x, self.gamma)).astype(x.dtype)


class AdjustSharpness(TensorOperation):
    """Blend with a smoothed copy (kernel [[1,1,1],[1,5,1],[1,1,1]] / 13, edges kept): factor 0 blurs, 1 keeps,
    above 1 sharpens."""

    def __init__(self, sharpness_factor: float) -> None:
        self.sharpness_factor = _factor("AdjustSharpness", "sharpness_factor", sharpness_factor)

    def _apply(self, rng, x):
        img = x.astype(np.float32)
        h, w = x.shape[:2]
        smooth = img.copy()
        if h > 2 and w > 2:
            acc = np.zeros_like(img[1:-1, 1:-1])
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    acc += img[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] * (5.0 if dy == dx == 0 else 1.0)
            inner = acc / np.float32(13.0)
            smooth[1:-1, 1:-1] = np.clip(np.rint(inner), 0, 255) if x.dtype == np.uint8 else inner
        return blend(x, smooth.astype(x.dtype), self.sharpness_factor)


class ConvertMode(enum.IntEnum):
    """Colour conversions of ``ConvertColor`` (OpenCV's codes)."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def _convert(mode, x):
    m = ConvertMode(mode)
    name = m.name
    if m in (ConvertMode.COLOR_BGR2GRAY, ConvertMode.COLOR_RGB2GRAY, ConvertMode.COLOR_BGRA2GRAY,
             ConvertMode.COLOR_RGBA2GRAY):
        src = x[..., :3]
        if m in (ConvertMode.COLOR_BGR2GRAY, ConvertMode.COLOR_BGRA2GRAY):
            src = src[..., ::-1]
        return rgb_to_gray(src)
    if m == ConvertMode.COLOR_GRAY2RGB:
        return np.repeat(x[..., None] if x.ndim == 2 else x, 3, axis=-1)
    if m == ConvertMode.COLOR_GRAY2RGBA:
        g = x if x.ndim == 2 else x[..., 0]
        return np.stack([g, g, g, np.full_like(g, 255 if x.dtype == np.uint8 else 1)], axis=-1)
    alpha = np.full(x.shape[:-1] + (1,), 255 if x.dtype == np.uint8 else 1, x.dtype)
    if m == ConvertMode.COLOR_RGB2RGBA:           # also BGR2BGRA: append alpha
        return np.concatenate([x[..., :3], alpha], axis=-1)
    if m == ConvertMode.COLOR_RGBA2RGB:           # also BGRA2BGR: drop alpha
        return np.ascontiguousarray(x[..., :3])
    if m == ConvertMode.COLOR_RGB2BGRA:           # swap and append alpha
        return np.concatenate([x[..., 2::-1], alpha], axis=-1)
    if m == ConvertMode.COLOR_RGBA2BGR:           # swap and drop alpha
        return np.ascontiguousarray(x[..., 2::-1])
    if m == ConvertMode.COLOR_RGB2BGR:
        return np.ascontiguousarray(x[..., ::-1])
    if m == ConvertMode.COLOR_RGBA2BGRA:
        return np.concatenate([x[..., 2::-1], x[..., 3:4]], axis=-1)
    raise ValueError(f"ConvertColor: unsupported mode {name}")


class ConvertColor(TensorOperation):
    """Convert between RGB / BGR / RGBA / BGRA / gray (OpenCV cvtColor codes). Args: convert_mode (ConvertMode)."""

    def __init__(self, convert_mode: ConvertMode) -> None:
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"ConvertColor: convert_mode must be a ConvertMode, but got {convert_mode!r}")
        self.convert_mode = convert_mode

    def _apply(self, rng, x):
        channels = 1 if x.ndim == 2 else x.shape[-1]
        need = 1 if "GRAY2" in self.convert_mode.name else (4 if self.convert_mode.name.split("2")[0][-1] == "A"
                                                             else 3)
        if channels != need:
            raise RuntimeError(f"ConvertColor: {self.convert_mode.name} needs an image with {need} channel(s), "
                               f"but got shape {tuple(x.shape)}")
        return _convert(self.convert_mode, x)
