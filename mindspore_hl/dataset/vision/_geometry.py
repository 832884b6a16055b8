"""Geometric vision transforms on one image: crop, erase, resized crop, pad to size, slice into patches, rotate."""
from __future__ import annotations

import enum
import numbers
from collections.abc import Sequence

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ._random_ops import rotate
from ._resize import resize_block
from ._utils import Border, Inter, check_fill, interp_mode, pad_image

__all__ = ["Crop", "Erase", "ResizedCrop", "PadToSize", "SlicePatches", "SliceMode", "Rotate", "GaussianBlur"]


def _ints(op, name, value, n, low=0):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if not isinstance(value, (list, tuple)) or len(value) != n or \
            not all(isinstance(v, int) and not isinstance(v, bool) and v >= low for v in value):
        raise ValueError(f"{op}: {name} must be {n} int(s) >= {low}, but got {value!r}")
    return tuple(int(v) for v in value)


def _image(op, x):
    check_rank(op, x, (2, 3), "<H, W> or <H, W, C>")
    return x


class Crop(TensorOperation):
    """The region of ``size`` (h, w) whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates: Sequence[int], size: int | Sequence[int]) -> None:
        self.coordinates = _ints("Crop", "coordinates", coordinates, 2)
        self.size = _ints("Crop", "size", size, 2, 1)

    def _apply(self, rng, x):
        _image("Crop", x)
        (top, left), (h, w) = self.coordinates, self.size
        if top + h > x.shape[0] or left + w > x.shape[1]:
            raise RuntimeError(f"Crop: the crop box (top {top}, left {left}, size {h}x{w}) exceeds the image of "
                               f"size {x.shape[0]}x{x.shape[1]}")
        return np.ascontiguousarray(x[top:top + h, left:left + w])


class Erase(TensorOperation):
    """Fill the box (top, left, height, width) with ``value`` (a number or one per channel)."""

    def __init__(self, top: int, left: int, height: int, width: int, value: float | str | tuple[int, ...] = 0,
                 inplace: bool = False) -> None:
        self.top, self.left = _ints("Erase", "top", top, 1)[0], _ints("Erase", "left", left, 1)[0]
        self.height, self.width = _ints("Erase", "height", height, 1, 1)[0], _ints("Erase", "width", width, 1, 1)[0]
        if isinstance(value, (list, tuple)):
            if len(value) != 3 or not all(isinstance(v, numbers.Real) for v in value):
                raise ValueError(f"Erase: value must be a number or 3 numbers, but got {value!r}")
        elif not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(f"Erase: value must be a number or 3 numbers, but got {value!r}")
        self.value, self.inplace = value, bool(inplace)

    def _apply(self, rng, x):
        _image("Erase", x)
        out = x if self.inplace and x.flags.writeable else x.copy()
        out[self.top:self.top + self.height, self.left:self.left + self.width] = np.asarray(self.value, x.dtype)
        return out


class ResizedCrop(TensorOperation):
    """Crop (top, left, height, width), then resize the crop to ``size`` with ``interpolation``."""

    def __init__(self, top: int, left: int, height: int, width: int, size: int | Sequence[int],
                 interpolation: Inter = Inter.BILINEAR) -> None:
        self.box = (_ints("ResizedCrop", "top", top, 1)[0], _ints("ResizedCrop", "left", left, 1)[0],
                    _ints("ResizedCrop", "height", height, 1, 1)[0], _ints("ResizedCrop", "width", width, 1, 1)[0])
        self.size = _ints("ResizedCrop", "size", size, 2, 1)
        self._mode = interp_mode("ResizedCrop", interpolation, allow_area=True)

    def _apply(self, rng, x):
        top, left, h, w = self.box
        crop = Crop((top, left), (h, w))._apply(rng, x)
        return resize_block(crop[None], self.size[0], self.size[1], self._mode)[0]


class PadToSize(TensorOperation):
    """Pad to ``size`` (h, w): the image goes at ``offset`` (top, left), default centred (extra on the
    bottom / right). Args: size, offset, fill_value, padding_mode (Border)."""

    def __init__(self, size: int | Sequence[int], offset: int | Sequence[int] | None = None,
                 fill_value: int | tuple[int, ...] = 0, padding_mode: Border = Border.CONSTANT) -> None:
        self.size = _ints("PadToSize", "size", size, 2, 1)
        self.offset = None if offset is None else _ints("PadToSize", "offset", offset, 2)
        self.fill_value = check_fill("PadToSize", fill_value)
        self.padding_mode = Border(padding_mode)

    def _apply(self, rng, x):
        _image("PadToSize", x)
        h, w = x.shape[:2]
        th, tw = self.size
        if th < h or tw < w:
            raise RuntimeError(f"PadToSize: the target size {th}x{tw} is smaller than the image {h}x{w}")
        top, left = ((th - h) // 2, (tw - w) // 2) if self.offset is None else self.offset
        if top + h > th or left + w > tw:
            raise RuntimeError(f"PadToSize: offset ({top}, {left}) puts the {h}x{w} image outside {th}x{tw}")
        return pad_image(x[None], left, top, tw - w - left, th - h - top, self.padding_mode, self.fill_value, 1)[0]


class SliceMode(str, enum.Enum):
    """How ``SlicePatches`` handles sizes that do not divide: pad the image, or drop the remainder."""
    PAD = "pad"
    DROP = "drop"


class SlicePatches(TensorOperation):
    """Cut the image into ``num_height`` x ``num_width`` patches (row by row): returns that many images."""

    def __init__(self, num_height: int = 1, num_width: int = 1, slice_mode: SliceMode = SliceMode.PAD,
                 fill_value: int = 0) -> None:
        self.num_height = _ints("SlicePatches", "num_height", num_height, 1, 1)[0]
        self.num_width = _ints("SlicePatches", "num_width", num_width, 1, 1)[0]
        self.slice_mode = SliceMode(slice_mode)
        self.fill_value = check_fill("SlicePatches", fill_value)

    def _apply(self, rng, x):
        _image("SlicePatches", x)
        h, w = x.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // self.num_height), -(-w // self.num_width)
            x = pad_image(x[None], 0, 0, pw * self.num_width - w, ph * self.num_height - h, "constant",
                          self.fill_value, 1)[0]
        else:
            ph, pw = h // self.num_height, w // self.num_width
        return tuple(np.ascontiguousarray(x[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw])
                     for i in range(self.num_height) for j in range(self.num_width))


class Rotate(TensorOperation):
    """Rotate by ``degrees`` counter-clockwise about ``center`` ((x, y), default the image centre).

    Args: degrees (float), resample (Inter.NEAREST / BILINEAR), expand (bool): grow to hold the whole image,
        center, fill_value (int or 3-tuple)."""

    def __init__(self, degrees: float, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: Sequence[float] | None = None, fill_value: int | tuple[int, ...] = 0) -> None:
        if isinstance(degrees, bool) or not isinstance(degrees, numbers.Real):
            raise TypeError(f"Rotate: degrees must be a number, but got {degrees!r}")
        self.degrees: float = float(degrees)
        self._mode: str = interp_mode("Rotate", resample)
        if self._mode == "cubic":
            raise ValueError("Rotate: resample Inter.BICUBIC is not supported; use NEAREST or BILINEAR")
        if center is not None and (not isinstance(center, (list, tuple)) or len(center) != 2):
            raise TypeError(f"Rotate: center must be (x, y) or None, but got {center!r}")
        self.center: tuple[float, float] | None = None if center is None else (float(center[0]), float(center[1]))
        self.expand: bool = bool(expand)
        self.fill_value: int | tuple[int, ...] = check_fill("Rotate", fill_value)

    def _apply(self, rng, x):
        _image("Rotate", x)
        return rotate(x, self.degrees, self._mode, self.expand, self.center, self.fill_value)


def _gaussian_kernel(n, sigma):
    x = np.arange(n, dtype=np.float64) - (n - 1) / 2.0
    k = np.exp(-(x * x) / (2 * sigma * sigma))
    return k / k.sum()


def _reflect101(n, pad):
    idx = np.arange(-pad, n + pad)
    if n == 1:
        return np.zeros_like(idx)
    period = 2 * (n - 1)
    idx = np.abs(idx) % period
    return np.where(idx >= n, period - idx, idx)


class GaussianBlur(TensorOperation):
    """Blur with a Gaussian kernel (separable, reflect-101 borders, as OpenCV's GaussianBlur).

    Args: kernel_size (odd int or (x, y)), sigma (float or (x, y); None: MindSpore derives one sigma for both
        axes from the x kernel size, ``0.3 * ((kx - 1) * 0.5 - 1) + 0.8``)."""

    def __init__(self, kernel_size: int | Sequence[int], sigma: float | Sequence[float] | None = None) -> None:
        ks = _ints("GaussianBlur", "kernel_size", kernel_size, 2, 1)
        if any(k % 2 == 0 for k in ks):
            raise ValueError(f"GaussianBlur: kernel_size must be odd, but got {kernel_size!r}")
        if sigma is None:
            sg = (0.3 * ((ks[0] - 1) * 0.5 - 1) + 0.8,) * 2
        elif isinstance(sigma, numbers.Real) and not isinstance(sigma, bool):
            sg = (float(sigma), float(sigma))
        elif isinstance(sigma, (list, tuple)) and len(sigma) == 2:
            sg = (float(sigma[0]), float(sigma[1]))
        else:
            raise TypeError(f"GaussianBlur: sigma must be a number, a pair or None, but got {sigma!r}")
        if any(s < 0 for s in sg):
            raise ValueError(f"GaussianBlur: sigma must be non-negative, but got {sigma!r}")
        self.kernel_size, self.sigma = ks, sg

    def _apply(self, rng, x):
        _image("GaussianBlur", x)
        kx = _gaussian_kernel(self.kernel_size[0], self.sigma[0])
        ky = _gaussian_kernel(self.kernel_size[1], self.sigma[1])
        img = x.astype(np.float64)
        px, py = len(kx) // 2, len(ky) // 2
        cols = _reflect101(x.shape[1], px)
        rows = _reflect101(x.shape[0], py)
        tmp = sum(kx[i] * img[:, cols[i:i + x.shape[1]]] for i in range(len(kx)))
        out = sum(ky[i] * tmp[rows[i:i + x.shape[0]]] for i in range(len(ky)))
        if x.dtype.kind in "iu":
            info = np.iinfo(x.dtype)
            return np.clip(np.rint(out), info.min, info.max).astype(x.dtype)
        return out.astype(x.dtype)
