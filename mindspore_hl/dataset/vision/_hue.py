"""``AdjustHue``: shift the hue of uint8 RGB images the way MindSpore's CPU kernel does (OpenCV's 8-bit
RGB -> HSV_FULL conversion, a wrapping uint8 add on H, and HSV_FULL -> RGB back)."""
from __future__ import annotations

import numpy as np

from ..transforms._base import TensorOperation

__all__ = ["AdjustHue", "rgb_to_hsv_full", "hsv_full_to_rgb"]

_HSV_SHIFT = 12
_I = np.arange(1, 256, dtype=np.float64)
# OpenCV's division tables (saturate_cast<int> of a double rounds half to even, as np.rint)
_SDIV = np.concatenate([[0], np.rint((255 << _HSV_SHIFT) / _I)]).astype(np.int64)
_HDIV = np.concatenate([[0], np.rint((256 << _HSV_SHIFT) / (6.0 * _I))]).astype(np.int64)
# OpenCV's HSV -> RGB sector table: which of (v, p, q, t) goes to b, g, r
_SIMD_BLOCK = 32   # pixels per step of OpenCV's AVX2 HSV -> RGB kernel (4 vectors of 8 floats)
_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]], np.int64)


def rgb_to_hsv_full(img: np.ndarray) -> np.ndarray:
    """uint8 RGB (..., 3) -> uint8 HSV with H over the full [0, 255] range (OpenCV ``COLOR_RGB2HSV_FULL``)."""
    x = img.astype(np.int64)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(np.maximum(b, g), r)
    diff = v - np.minimum(np.minimum(b, g), r)
    half = 1 << (_HSV_SHIFT - 1)
    s = (diff * _SDIV[v] + half) >> _HSV_SHIFT
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * _HDIV[diff] + half) >> _HSV_SHIFT
    h = np.where(h < 0, h + 256, h)
    return np.stack([np.clip(h, 0, 255), s, v], axis=-1).astype(np.uint8)


def hsv_full_to_rgb(hsv: np.ndarray) -> np.ndarray:
    """uint8 HSV_FULL (H, W, 3) -> uint8 RGB, as OpenCV's ``COLOR_HSV2RGB_FULL`` on x86-64 (AVX2).

    OpenCV converts row by row; within a row, whole blocks of 32 pixels go through its SIMD kernel, which
    truncates to uint8, and the remaining pixels through its scalar loop, which rounds half to even. H is read
    over 255 steps here although RGB2HSV_FULL wrote it over 256 (OpenCV's asymmetry)."""
    h = hsv[..., 0].astype(np.float32) * np.float32(6.0 / 255.0)
    s = hsv[..., 1].astype(np.float32) * np.float32(1.0 / 255.0)
    v = hsv[..., 2].astype(np.float32) * np.float32(1.0 / 255.0)
    sector = np.floor(h)
    f = h - sector
    one = np.float32(1.0)
    tab = np.stack([v, v * (one - s), v * (one - s * f), v * (one - s * (one - f))], axis=-1)
    bgr = np.take_along_axis(tab, _SECTORS[sector.astype(np.int64) % 6], axis=-1)
    rgb = bgr[..., ::-1] * np.float32(255.0)
    width = hsv.shape[1]
    n_simd = 0 if width < _SIMD_BLOCK else (width // _SIMD_BLOCK) * _SIMD_BLOCK
    out = np.rint(rgb)
    out[:, :n_simd] = np.trunc(rgb[:, :n_simd])
    grey = (s == 0)
    grey[:, :n_simd] = False                    # the scalar loop copies v when s == 0
    out = np.where(grey[..., None], np.rint(v * np.float32(255.0))[..., None], out)
    return np.clip(out, 0, 255).astype(np.uint8)


def _check_factor(hue_factor):
    if isinstance(hue_factor, bool) or not isinstance(hue_factor, (float, int)):
        # MindSpore names the types as a list, or as a tuple when it refuses a bool
        kinds = "(<class 'float'>, <class 'int'>)" if isinstance(hue_factor, bool) else \
            "[<class 'float'>, <class 'int'>]"
        raise TypeError(f"AdjustHue: Argument hue_factor with value {hue_factor} is not of type {kinds}, but got "
                        f"{type(hue_factor)}.")
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError("AdjustHue: Input hue_factor is not within the required interval of [-0.5, 0.5].")
    return float(hue_factor)


def adjust_hue(img: np.ndarray, hue_factor: float) -> np.ndarray:
    """Add ``hue_factor * 255`` (truncated, wrapping modulo 256) to the H channel of HSV_FULL."""
    if img.ndim != 3:
        raise RuntimeError(f"AdjustHue: the dimension of image tensor does not match the requirement of operator. "
                           f"Expecting tensor in dimension of (3), in shape of <H, W, C>. But got dimension "
                           f"{img.ndim}.")
    if img.shape[-1] != 3:
        raise RuntimeError(f"AdjustHue: the channel of image tensor does not match the requirement of operator. "
                           f"Expecting tensor in channel of (3). But got channel {img.shape[-1]}.")
    if img.dtype != np.uint8:
        # MindSpore's kernel reads a non-uint8 HSV image as bytes and returns garbage; refuse instead
        raise RuntimeError(f"AdjustHue: the input image should be uint8, but got {img.dtype}")
    hsv = rgb_to_hsv_full(img)
    # C++ static_cast<uint8_t>(float): truncation toward zero, then the low byte (negative factors wrap)
    shift = int(np.trunc(np.float32(hue_factor) * np.float32(255.0))) & 0xFF
    hsv[..., 0] = (hsv[..., 0].astype(np.int64) + shift).astype(np.uint8)
    return hsv_full_to_rgb(hsv)


class AdjustHue(TensorOperation):
    """Shift the hue of a uint8 <H, W, 3> RGB image by ``hue_factor`` (in [-0.5, 0.5], a fraction of the hue
    circle; -0.5 and 0.5 give the complementary colours, up to OpenCV's 8-bit hue steps, as in MindSpore).

    >>> import numpy as np
    >>> AdjustHue(0.5)(np.array([[[255, 0, 0]]], np.uint8)).tolist()
    [[[0, 255, 252]]]
    """

    def __init__(self, hue_factor: float) -> None:
        self.hue_factor = _check_factor(hue_factor)

    def _apply(self, rng, x):
        return adjust_hue(x, self.hue_factor)

    def __repr__(self):
        return f"AdjustHue(hue_factor={self.hue_factor})"
