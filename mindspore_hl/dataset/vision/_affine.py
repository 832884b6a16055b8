"""Affine warps: ``Affine`` and ``RandomAffine`` (torchvision's inverse matrix about the pixel-centre of the
image, OpenCV-style sampling: nearest is pixel-exact against MindSpore, bilinear is float interpolation)."""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ._utils import Inter, check_fill, interp_mode

__all__ = ["Affine", "RandomAffine", "affine_matrix", "warp"]


def affine_matrix(center: Sequence[float], angle: float, translate: Sequence[float], scale: float,
                  shear: Sequence[float]) -> np.ndarray:
    """The 2x3 map from output pixel to input pixel (torchvision's ``_get_inverse_affine_matrix``)."""
    rot = math.radians(angle)
    sx, sy = (math.radians(s) for s in shear)
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return np.array(m, np.float64).reshape(2, 3)


def warp(img: np.ndarray, m: np.ndarray, mode: str, fill: int | tuple[int, ...]) -> np.ndarray:
    """Sample ``img`` (H, W[, C]) at ``m @ (x, y, 1)`` for every output pixel; outside: ``fill``."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    sx = m[0, 0] * xx + m[0, 1] * yy + m[0, 2]
    sy = m[1, 0] * xx + m[1, 1] * yy + m[1, 2]
    fill_arr = np.broadcast_to(np.asarray(fill, np.float64), img.shape[2:]) if img.ndim == 3 else float(
        np.asarray(fill).reshape(-1)[0])
    if mode == "nearest":
        ix, iy = np.floor(sx + 0.5).astype(np.int64), np.floor(sy + 0.5).astype(np.int64)
        ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
        out = np.empty_like(img)
        out[...] = np.asarray(fill_arr, img.dtype) if img.ndim == 3 else img.dtype.type(fill_arr)
        out[ok] = img[iy[ok], ix[ok]]
        return out
    x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
    fx, fy = sx - x0, sy - y0
    acc = np.zeros(img.shape, np.float64)
    src = img.astype(np.float64)
    for dy, dx, wgt in ((0, 0, (1 - fx) * (1 - fy)), (0, 1, fx * (1 - fy)), (1, 0, (1 - fx) * fy), (1, 1, fx * fy)):
        px, py = x0 + dx, y0 + dy
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        vals = np.empty(img.shape, np.float64)
        vals[...] = fill_arr
        vals[ok] = src[py[ok], px[ok]]
        acc += vals * (wgt[..., None] if img.ndim == 3 else wgt)
    if img.dtype.kind in "iu":
        info = np.iinfo(img.dtype)
        return np.clip(np.rint(acc), info.min, info.max).astype(img.dtype)
    return acc.astype(img.dtype)


def _pair(op, name, v, low=-math.inf, high=math.inf):
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        v = (v, 0.0) if name == "shear" else (v, v)
    if not isinstance(v, (list, tuple)) or len(v) != 2 or \
            not all(isinstance(x, numbers.Real) and not isinstance(x, bool) and low <= x <= high for x in v):
        raise ValueError(f"{op}: {name} must be a number or two numbers in [{low}, {high}], but got {v!r}")
    return float(v[0]), float(v[1])


class Affine(TensorOperation):
    """Rotate by ``degrees``, translate by ``translate`` (fractions of width / height in [-1, 1]), scale and
    shear ((x, y) degrees) about the image centre. Args: degrees, translate, scale, shear, resample (Inter),
    fill_value (int or 3-tuple)."""

    def __init__(self, degrees: float, translate: Sequence[float], scale: float, shear: float | Sequence[float],
                 resample: Inter = Inter.NEAREST, fill_value: int | tuple[int, ...] = 0) -> None:
        if isinstance(degrees, bool) or not isinstance(degrees, numbers.Real):
            raise TypeError(f"Affine: degrees must be a number, but got {degrees!r}")
        self.degrees: float = float(degrees)
        self.translate: tuple[float, float] = _pair("Affine", "translate", translate, -1.0, 1.0)
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real) or scale <= 0:
            raise ValueError(f"Affine: scale must be a positive number, but got {scale!r}")
        self.scale: float = float(scale)
        self.shear: tuple[float, float] = _pair("Affine", "shear", shear)
        self._mode: str = interp_mode("Affine", resample)
        self.fill_value: int | tuple[int, ...] = check_fill("Affine", fill_value)

    def _apply(self, rng, x):
        check_rank("Affine", x, (2, 3), "<H,W> or <H,W,C>")
        return apply_affine(x, self.degrees, self.translate, self.scale, self.shear, self._mode, self.fill_value)


def apply_affine(x: np.ndarray, degrees: float, translate: Sequence[float], scale: float, shear: Sequence[float],
                 mode: str, fill: int | tuple[int, ...]) -> np.ndarray:
    h, w = x.shape[:2]
    m = affine_matrix(((w - 1) * 0.5, (h - 1) * 0.5), degrees, (translate[0] * w, translate[1] * h), scale, shear)
    return warp(x, m, mode, fill)


class RandomAffine(TensorOperation):
    """A random Affine: angle uniform in ``degrees`` ((-d, d) for a number), translation uniform within
    ``translate`` (max fractions (tx, ty), or (min_x, max_x, min_y, max_y)), scale uniform in ``scale``, shear
    uniform in ``shear`` (a number s: x in (-s, s); 2 values: x range; 4 values: x and y ranges)."""
    random = True

    def __init__(self, degrees: float | Sequence[float], translate: Sequence[float] | None = None,
                 scale: Sequence[float] | None = None, shear: Any = None, resample: Inter = Inter.NEAREST,
                 fill_value: int | tuple[int, ...] = 0) -> None:
        if isinstance(degrees, numbers.Real) and not isinstance(degrees, bool):
            if degrees < 0:
                raise ValueError(f"RandomAffine: degrees must be non-negative, but got {degrees}")
            degrees = (-float(degrees), float(degrees))
        self.degrees = _pair("RandomAffine", "degrees", degrees)
        self.translate: tuple[float, ...]
        if translate is None:
            self.translate = (0.0, 0.0, 0.0, 0.0)
        elif len(translate) == 2:
            tx, ty = _pair("RandomAffine", "translate", translate, -1.0, 1.0)
            self.translate = (-tx, tx, -ty, ty)
        elif len(translate) == 4 and all(-1 <= t <= 1 for t in translate):
            self.translate = tuple(float(t) for t in translate)
        else:
            raise ValueError(f"RandomAffine: translate must have 2 or 4 values in [-1, 1], but got {translate!r}")
        self.scale = (1.0, 1.0) if scale is None else _pair("RandomAffine", "scale", scale, 0.0)
        self.shear: tuple[float, ...]
        if shear is None:
            self.shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Real):
            self.shear = (-float(shear), float(shear), 0.0, 0.0)
        elif len(shear) == 2:
            self.shear = (float(shear[0]), float(shear[1]), 0.0, 0.0)
        elif len(shear) == 4:
            self.shear = tuple(float(s) for s in shear)
        else:
            raise ValueError(f"RandomAffine: shear must be a number or 2 or 4 numbers, but got {shear!r}")
        self._mode = interp_mode("RandomAffine", resample)
        self.fill_value = check_fill("RandomAffine", fill_value)

    def _apply(self, rng, x):
        check_rank("RandomAffine", x, (2, 3), "<H,W> or <H,W,C>")
        h, w = x.shape[:2]
        angle = rng.uniform(*self.degrees)
        tx = round(rng.uniform(self.translate[0] * w, self.translate[1] * w)) / w
        ty = round(rng.uniform(self.translate[2] * h, self.translate[3] * h)) / h
        scale = rng.uniform(*self.scale)
        shear = (rng.uniform(self.shear[0], self.shear[1]), rng.uniform(self.shear[2], self.shear[3]))
        return apply_affine(x, angle, (tx, ty), scale, shear, self._mode, self.fill_value)
