"""Random vision transforms. Each draws from the ``rng`` the pipeline gives it (seed x epoch x block)."""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ._ops import decode_bytes
from ._resize import resize_block
from ._utils import Border, Inter, check_fill, check_padding, check_size, interp_mode, pad_image

__all__ = ["RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop",
           "RandomCropDecodeResize", "RandomRotation"]


def _check_prob(op, prob):
    if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0.0 <= float(prob) <= 1.0:
        raise ValueError(f"{op}: prob must be a number in [0.0, 1.0], but got {prob!r}")
    return float(prob)


def _pair(size):
    return (size, size) if isinstance(size, int) else size


class _RandomFlip(TensorOperation):
    batchable = True
    random = True
    _axis: int    # set by each subclass
    _name: str

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = _check_prob(self._name, prob)

    def _apply_batch(self, rng, x):
        check_rank(self._name, x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        flip = rng.random(len(x)) < self.prob
        out = x.copy()
        for i in np.flatnonzero(flip).tolist():   # a slice copy per image beats a gather of the flipped subset
            out[i] = np.flip(x[i], axis=self._axis - 1)
        return out

    def __repr__(self):
        return f"{self._name}(prob={self.prob})"


class RandomHorizontalFlip(_RandomFlip):
    """Flip left-right with probability ``prob``. Args: prob (float): default 0.5."""
    _axis, _name = 2, "RandomHorizontalFlip"


class RandomVerticalFlip(_RandomFlip):
    """Flip upside-down with probability ``prob``. Args: prob (float): default 0.5."""
    _axis, _name = 1, "RandomVerticalFlip"


class RandomCrop(TensorOperation):
    """Pad (optionally), then crop a random ``size`` window.

    Args: size (int | (h, w)), padding (int | 2 or 4 ints), pad_if_needed (bool), fill_value (int | 3-tuple),
        padding_mode (Border)."""
    batchable = True
    random = True

    def __init__(self, size: int | Sequence[int], padding: int | Sequence[int] | None = None,
                 pad_if_needed: bool = False, fill_value: int | tuple[int, ...] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.size = _pair(check_size("RandomCrop", size))
        self.padding = (0, 0, 0, 0) if padding is None else check_padding("RandomCrop", padding)
        if not isinstance(pad_if_needed, bool):
            raise TypeError(f"RandomCrop: pad_if_needed must be a bool, but got {pad_if_needed!r}")
        self.pad_if_needed = pad_if_needed
        self.fill_value = check_fill("RandomCrop", fill_value)
        self.padding_mode = Border(padding_mode)

    def _constant_crop(self, rng, x):
        """Constant padding: copy each window's overlap with the image into a filled output, never building the
        padded block (one slice copy per image instead of a padded copy and a fancy-indexed gather)."""
        left, top, right, bottom = self.padding
        n, h, w = x.shape[:3]
        ch, cw = self.size
        ph, pw = h + top + bottom, w + left + right
        ys = rng.integers(0, ph - ch + 1, size=n) - top    # window origin in image coordinates
        xs = rng.integers(0, pw - cw + 1, size=n) - left
        out = np.empty((n, ch, cw) + x.shape[3:], dtype=x.dtype)
        out[...] = np.asarray(self.fill_value, dtype=x.dtype)
        for i, (y0, x0) in enumerate(zip(ys.tolist(), xs.tolist())):
            sy0, sy1, sx0, sx1 = max(y0, 0), min(y0 + ch, h), max(x0, 0), min(x0 + cw, w)
            if sy0 < sy1 and sx0 < sx1:
                out[i, sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = x[i, sy0:sy1, sx0:sx1]
        return out

    def _apply_batch(self, rng, x):
        check_rank("RandomCrop", x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        left, top, right, bottom = self.padding
        if self.padding_mode == Border.CONSTANT and not self.pad_if_needed and \
                x.shape[1] + top + bottom >= self.size[0] and x.shape[2] + left + right >= self.size[1] and \
                (not isinstance(self.fill_value, tuple) or (x.ndim == 4 and x.shape[3] == len(self.fill_value))):
            return self._constant_crop(rng, x)
        x = pad_image(x, left, top, right, bottom, self.padding_mode, self.fill_value, 1)
        ch, cw = self.size
        if self.pad_if_needed and (x.shape[1] < ch or x.shape[2] < cw):
            dh, dw = max(ch - x.shape[1], 0), max(cw - x.shape[2], 0)
            x = pad_image(x, dw, dh, dw, dh, self.padding_mode, self.fill_value, 1)
        h, w = x.shape[1], x.shape[2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: crop size {self.size} is larger than the (padded) image size "
                               f"{(h, w)}; set pad_if_needed=True or a larger padding")
        n = len(x)
        ys = rng.integers(0, h - ch + 1, size=n)
        xs = rng.integers(0, w - cw + 1, size=n)
        rows = ys[:, None] + np.arange(ch)[None, :]
        cols = xs[:, None] + np.arange(cw)[None, :]
        return x[np.arange(n)[:, None, None], rows[:, :, None], cols[:, None, :]]

    def __repr__(self):
        return f"RandomCrop(size={self.size}, padding={self.padding})"


def _crop_box(rng, h, w, scale, ratio, attempts):
    """MindSpore/Inception crop box: random area fraction and log-uniform aspect ratio, centre fallback."""
    area = h * w
    log_r = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(attempts):
        target = rng.uniform(scale[0], scale[1]) * area
        r = math.exp(rng.uniform(*log_r))
        cw = int(round(math.sqrt(target * r)))
        ch = int(round(math.sqrt(target / r)))
        if 0 < cw <= w and 0 < ch <= h:
            return int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1)), ch, cw
    in_ratio = w / h
    if in_ratio < ratio[0]:
        cw, ch = w, int(round(w / ratio[0]))
    elif in_ratio > ratio[1]:
        ch, cw = h, int(round(h * ratio[1]))
    else:
        ch, cw = h, w
    ch, cw = max(1, min(ch, h)), max(1, min(cw, w))
    return (h - ch) // 2, (w - cw) // 2, ch, cw


def _check_range(op, name, value, low):
    if not isinstance(value, (list, tuple)) or len(value) != 2 or \
            not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{op}: {name} must be a sequence of two numbers, but got {value!r}")
    if value[0] > value[1] or value[0] < low:
        raise ValueError(f"{op}: {name} must be (min, max) with {low} <= min <= max, but got {value!r}")
    return float(value[0]), float(value[1])


class RandomResizedCrop(TensorOperation):
    """Crop a random area / aspect-ratio window and resize it to ``size``.

    Args: size (int | (h, w)), scale ((min, max) area fraction), ratio ((min, max) aspect ratio),
        interpolation (Inter), max_attempts (int)."""
    random = True
    _name = "RandomResizedCrop"

    def __init__(self, size: int | Sequence[int], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3. / 4., 4. / 3.), interpolation: Inter = Inter.BILINEAR,
                 max_attempts: int = 10) -> None:
        self.size = _pair(check_size(self._name, size))
        self.scale = _check_range(self._name, "scale", scale, 0.0)
        self.ratio = _check_range(self._name, "ratio", ratio, 1e-12)
        self.interpolation = interpolation
        self._mode = interp_mode(self._name, interpolation, allow_area=True)
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"{self._name}: max_attempts must be a positive int, but got {max_attempts!r}")
        self.max_attempts = max_attempts

    def _crop_resize(self, rng, img):
        check_rank(self._name, img, (2, 3), "<H,W> or <H,W,C>")
        y, x, ch, cw = _crop_box(rng, img.shape[0], img.shape[1], self.scale, self.ratio, self.max_attempts)
        crop = img[None, y:y + ch, x:x + cw]
        return resize_block(crop, self.size[0], self.size[1], self._mode, h_axis=1)[0]

    def _apply(self, rng, img):
        return self._crop_resize(rng, img)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode encoded bytes, then ``RandomResizedCrop`` (same arguments)."""
    _name = "RandomCropDecodeResize"

    def _apply(self, rng, data):
        return self._crop_resize(rng, decode_bytes(data, self._name))


class RandomRotation(TensorOperation):
    """Rotate by a random angle (degrees, counter-clockwise positive) about the centre.

    Args: degrees (number d -> [-d, d], or (min, max)), resample (Inter.NEAREST / BILINEAR), expand (bool):
        grow the output to hold the whole rotated image, center ((x, y) or None), fill_value (int | 3-tuple)."""
    random = True

    def __init__(self, degrees: float | Sequence[float], resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: Sequence[float] | None = None, fill_value: int | tuple[int, ...] = 0) -> None:
        if isinstance(degrees, numbers.Real) and not isinstance(degrees, bool):
            if degrees < 0:
                raise ValueError(f"RandomRotation: degrees must be non-negative, but got {degrees}")
            self.degrees = (-float(degrees), float(degrees))
        else:
            self.degrees = _check_range("RandomRotation", "degrees", degrees, -math.inf)
        self._mode = interp_mode("RandomRotation", resample)
        if self._mode == "cubic":
            raise ValueError("RandomRotation: resample Inter.BICUBIC is not supported; use NEAREST or BILINEAR")
        self.resample, self.expand = resample, bool(expand)
        if center is not None and (not isinstance(center, (list, tuple)) or len(center) != 2):
            raise TypeError(f"RandomRotation: center must be (x, y) or None, but got {center!r}")
        self.center = None if center is None else (float(center[0]), float(center[1]))
        self.fill_value = check_fill("RandomRotation", fill_value)

    def _apply(self, rng, img):
        check_rank("RandomRotation", img, (2, 3), "<H,W> or <H,W,C>")
        angle = rng.uniform(*self.degrees)
        return rotate(img, angle, self._mode, self.expand, self.center, self.fill_value)


def rotate(img: np.ndarray, angle: float, mode: str, expand: bool, center: Sequence[float] | None,
           fill: int | tuple[int, ...]) -> np.ndarray:
    """Rotate ``img`` (H, W[, C]) by ``angle`` degrees counter-clockwise (OpenCV getRotationMatrix2D +
    warpAffine semantics, constant border)."""
    h, w = img.shape[:2]
    cx, cy = ((w - 1) / 2.0, (h - 1) / 2.0) if center is None else center
    a, b = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    # forward map (source -> destination), as cv::getRotationMatrix2D(center, angle, 1)
    m = np.array([[a, b, (1 - a) * cx - b * cy], [-b, a, b * cx + (1 - a) * cy]])
    out_h, out_w = h, w
    if expand:
        corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], dtype=np.float64)
        pts = corners @ m.T
        out_w = int(round(pts[:, 0].max() - pts[:, 0].min()))
        out_h = int(round(pts[:, 1].max() - pts[:, 1].min()))
        m[0, 2] += out_w / 2.0 - w / 2.0
        m[1, 2] += out_h / 2.0 - h / 2.0
    inv = np.linalg.inv(np.vstack([m, [0, 0, 1]]))[:2]
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    sx = inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2]
    sy = inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2]
    fill_arr = np.asarray(fill, dtype=img.dtype)
    out_shape = (out_h, out_w) + img.shape[2:]
    if mode == "nearest":
        ix, iy = np.floor(sx + 0.5).astype(np.int64), np.floor(sy + 0.5).astype(np.int64)
        valid = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
        out = np.empty(out_shape, dtype=img.dtype)
        out[...] = fill_arr
        out[valid] = img[iy[valid], ix[valid]]
        return out
    x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
    fx, fy = sx - x0, sy - y0
    acc = np.zeros(out_shape, dtype=np.float64)
    src = img.astype(np.float64)
    fillf = np.asarray(fill, dtype=np.float64)
    for dy, dx, wgt in ((0, 0, (1 - fx) * (1 - fy)), (0, 1, fx * (1 - fy)), (1, 0, (1 - fx) * fy), (1, 1, fx * fy)):
        px, py = x0 + dx, y0 + dy
        valid = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        vals = np.empty(out_shape, dtype=np.float64)
        vals[...] = fillf
        vals[valid] = src[py[valid], px[valid]]
        acc += vals * (wgt[..., None] if img.ndim == 3 else wgt)
    if img.dtype.kind in "iu":
        info = np.iinfo(img.dtype)
        return np.clip(np.rint(acc), info.min, info.max).astype(img.dtype)
    return acc.astype(img.dtype)
