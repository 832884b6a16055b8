"""Layers that move values around: padding (``ConstantPad*``, ``ReflectionPad*``, ``ReplicationPad*``,
``ZeroPad2d``), ``PixelShuffle`` / ``PixelUnshuffle`` / ``ChannelShuffle``, ``Upsample``, ``Unflatten``, ``Roll``,
``Tril`` / ``Triu`` and ``CentralCrop``.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import jax.numpy as jnp

from ...ops._core import op
from ..cell import Cell
from ._checks import check_input, choice, positive_int

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad2d", "PixelShuffle", "PixelUnshuffle",
           "ChannelShuffle", "Upsample", "Unflatten", "Roll", "Tril", "Triu", "CentralCrop"]


@op("pad")
def _pad_last(x, pads, mode, value):
    """``pads`` = (left, right) of the last dim, then of the one before, ... (PyTorch order); negative crops."""
    n = len(pads) // 2
    widths = [(0, 0)] * (x.ndim - n) + [(pads[2 * i], pads[2 * i + 1]) for i in reversed(range(n))]
    crop = tuple(slice(max(-lo, 0), x.shape[d] - max(-hi, 0)) for d, (lo, hi) in enumerate(widths))
    x = x[crop]
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if mode == "constant":
        return jnp.pad(x, widths, constant_values=jnp.asarray(value, x.dtype))
    return jnp.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge"}[mode])


class _PadNd(Cell):
    _nd = 1
    _mode = "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        name, n = type(self).__name__, 2 * self._nd
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * n
        if not (isinstance(padding, (tuple, list)) and len(padding) == n
                and all(isinstance(p, int) and not isinstance(p, bool) for p in padding)):
            raise TypeError(f"{name}: 'padding' must be an int or a tuple of {n} ints, but got {padding!r}.")
        if self._mode != "constant" and any(p < 0 for p in padding):
            raise ValueError(f"{name}: 'padding' must be non-negative, but got {padding!r}.")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name}: 'value' must be a number, but got {value!r}.")
        self.padding, self.value = tuple(padding), value

    def construct(self, x):
        nd = self._nd
        batched = ("N", "C") + tuple(f"D{i}" for i in range(nd))
        check_input(self, x, batched[1:], batched)
        if self._mode == "reflect":
            for i in range(nd):
                size = x.shape[x.ndim - 1 - i]
                if max(self.padding[2 * i], self.padding[2 * i + 1]) >= size:
                    raise ValueError(f"{type(self).__name__}: reflection padding {self.padding} must be smaller "
                                     f"than the padded dimension, but the input has shape {tuple(x.shape)}.")
        return _pad_last(x, self.padding, self._mode, self.value)

    def extend_repr(self):
        return f"padding={self.padding}" + (f", value={self.value}" if self._mode == "constant" else "")


def _pad_class(name, nd, mode, doc):
    if mode == "constant" and name != "ZeroPad2d":
        def __init__(self, padding, value):
            _PadNd.__init__(self, padding, value)
    else:
        def __init__(self, padding):  # type: ignore[misc]  # the generated classes differ in their parameters
            _PadNd.__init__(self, padding)
    return type(name, (_PadNd,), {"_nd": nd, "_mode": mode, "__init__": __init__, "__doc__": doc,
                                  "__module__": __name__})


_SIDES = {1: "(left, right)", 2: "(left, right, top, bottom)", 3: "(left, right, top, bottom, front, back)"}
ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, \
    ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
        _pad_class(f"{kind}Pad{nd}d", nd, mode,
                   f"Pad the last {nd} dim(s) {how}. padding: an int or {_SIDES[nd]}.")
        for kind, mode, how in (("Constant", "constant", "with ``value`` (negative padding crops)"),
                                ("Reflection", "reflect", "by reflection (excluding the edge)"),
                                ("Replication", "replicate", "by repeating the edge"))
        for nd in (1, 2, 3))
ZeroPad2d = _pad_class("ZeroPad2d", 2, "constant", "Pad the last 2 dims with zeros. padding: an int or "
                                                   "(left, right, top, bottom).")


@op("pixel_shuffle")
def _pixel_shuffle(x, r):
    *lead, c, h, w = x.shape
    x = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*lead, c // (r * r), h * r, w * r)


@op("pixel_unshuffle")
def _pixel_unshuffle(x, r):
    *lead, c, h, w = x.shape
    x = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*lead, c * r * r, h // r, w // r)


class PixelShuffle(Cell):
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r) with r = upscale_factor."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = positive_int("PixelShuffle", "upscale_factor", upscale_factor)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...", "C", "H", "W"))
        r = self.upscale_factor
        if x.shape[-3] % (r * r):
            raise ValueError(f"PixelShuffle: the channel count must be divisible by upscale_factor^2 = {r * r}, but "
                             f"got shape {tuple(x.shape)}.")
        return _pixel_shuffle(x, r)


class PixelUnshuffle(Cell):
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W) with r = downscale_factor."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = positive_int("PixelUnshuffle", "downscale_factor", downscale_factor)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...", "C", "H", "W"))
        r = self.downscale_factor
        if x.shape[-1] % r or x.shape[-2] % r:
            raise ValueError(f"PixelUnshuffle: H and W must be divisible by downscale_factor={r}, but got shape "
                             f"{tuple(x.shape)}.")
        return _pixel_unshuffle(x, r)


@op("channel_shuffle")
def _channel_shuffle(x, g):
    n, c = x.shape[:2]
    return x.reshape(n, g, c // g, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape)


class ChannelShuffle(Cell):
    """Split the C channels into ``groups`` and interleave them (ShuffleNet)."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = positive_int("ChannelShuffle", "groups", groups)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", "C", "..."))
        if x.shape[1] % self.groups:
            raise ValueError(f"ChannelShuffle: the channel count must be divisible by groups={self.groups}, but got "
                             f"shape {tuple(x.shape)}.")
        return _channel_shuffle(x, self.groups)


def _source_index(out, size, scale, mode, align_corners):
    """Source coordinates (float) of each output position along one axis (PyTorch's rules)."""
    dst = jnp.arange(out, dtype=jnp.float32)
    if mode == "nearest":
        return jnp.minimum(jnp.floor(dst * jnp.float32(scale)), size - 1)
    if align_corners:
        return dst * jnp.float32((size - 1) / (out - 1) if out > 1 else 0.0)
    return jnp.maximum((dst + 0.5) * jnp.float32(scale) - 0.5, 0.0)


@op("interpolate")
def _interpolate(x, sizes, scales, mode, align_corners):
    nd = len(sizes)
    for i in range(nd):
        axis = x.ndim - nd + i
        src = _source_index(sizes[i], x.shape[axis], scales[i], mode, align_corners)
        if mode == "nearest":
            x = jnp.take(x, src.astype(jnp.int32), axis=axis)
            continue
        lo = jnp.floor(src).astype(jnp.int32)
        hi = jnp.minimum(lo + 1, x.shape[axis] - 1)
        frac = (src - lo).astype(x.dtype).reshape((-1,) + (1,) * (x.ndim - axis - 1))
        x = jnp.take(x, lo, axis=axis) * (1 - frac) + jnp.take(x, hi, axis=axis) * frac
    return x


_UPSAMPLE_RANK = {"linear": 1, "bilinear": 2, "trilinear": 3}


class Upsample(Cell):
    """Resize the spatial dims (all after N, C) to ``size`` or by ``scale_factor``.

    Args:
        size: int or one int per spatial dim. scale_factor: float or one per spatial dim (one of the two).
        mode: 'nearest' (default), 'linear' (3-D input), 'bilinear' (4-D) or 'trilinear' (5-D).
        align_corners: linear modes only; True maps the corner pixels onto each other.
        recompute_scale_factor: True computes the coordinates from the output size instead of ``scale_factor``.
    """

    def __init__(self, size: int | tuple[int, ...] | None = None, scale_factor: float | tuple[float, ...] | None = None,
                 mode: str = "nearest", align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.mode = choice("Upsample", "mode", mode, ("nearest", "linear", "bilinear", "trilinear"))
        if (size is None) == (scale_factor is None):
            raise ValueError("Upsample: exactly one of 'size' and 'scale_factor' must be set.")
        if align_corners is not None and mode == "nearest":
            raise ValueError("Upsample: 'align_corners' can only be set with a linear mode.")
        self.size, self.scale_factor = size, scale_factor
        self.align_corners = bool(align_corners)
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x: Tensor) -> Tensor:
        rank = _UPSAMPLE_RANK.get(self.mode)
        if rank is not None:
            check_input(self, x, ("N", "C") + ("D",) * rank, note=f"mode='{self.mode}'")
        else:
            check_input(self, x, ("N", "C", "..."))
        nd = x.ndim - 2
        in_sizes = tuple(x.shape[2:])
        if self.size is not None:
            sizes = (self.size,) * nd if isinstance(self.size, int) else tuple(self.size)
            scales = tuple(i / o for i, o in zip(in_sizes, sizes))
        else:
            factor = cast("float | tuple[float, ...]", self.scale_factor)  # set when size is None (checked in __init__)
            sf = (factor,) * nd if isinstance(factor, (int, float)) else tuple(factor)
            sizes = tuple(int(math.floor(i * s)) for i, s in zip(in_sizes, sf))
            scales = (tuple(i / o for i, o in zip(in_sizes, sizes)) if self.recompute_scale_factor
                      else tuple(1.0 / s for s in sf))
        if len(sizes) != nd:
            raise ValueError(f"Upsample: 'size'/'scale_factor' must give {nd} spatial sizes for an input of shape "
                             f"{tuple(x.shape)}, but got {self.size or self.scale_factor}.")
        return _interpolate(x, sizes, scales, self.mode, self.align_corners)


class Unflatten(Cell):
    """Split dim ``axis`` into ``unflattened_size`` (a tuple/list of ints whose product is that dim's size)."""

    def __init__(self, axis: int, unflattened_size: tuple[int, ...] | list[int]) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"Unflatten: 'axis' must be an int, but got {axis!r}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"Unflatten: 'unflattened_size' must be a tuple or list, but got {unflattened_size!r}.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, x: Tensor) -> Tensor:
        shape = tuple(x.shape)
        a = self.axis % len(shape)
        return x.reshape(shape[:a] + self.unflattened_size + shape[a + 1:])


class Roll(Cell):
    """Roll the elements by ``shift`` along ``axis`` (ints or equally long tuples)."""

    def __init__(self, shift: int | tuple[int, ...], axis: int) -> None:
        super().__init__()
        self.shift, self.axis = shift, axis

    def construct(self, x: Tensor) -> Tensor:
        return _roll(x, self.shift, self.axis)


@op("roll")
def _roll(x, shift, axis):
    return jnp.roll(x, shift, axis)


@op("tril")
def _tril(x, k):
    return jnp.tril(x, k)


@op("triu")
def _triu(x, k):
    return jnp.triu(x, k)


class Tril(Cell):
    """The lower triangle of the last two dims (below diagonal ``k``, default 0); the rest set to 0."""

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        check_input(self, x, ("...", "H", "W"))
        return _tril(x, k)


class Triu(Cell):
    """The upper triangle of the last two dims (above diagonal ``k``, default 0); the rest set to 0."""

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        check_input(self, x, ("...", "H", "W"))
        return _triu(x, k)


@op("central_crop")
def _central_crop(x, fraction):
    h, w = x.shape[-2:]
    top, left = int((h - h * fraction) / 2), int((w - w * fraction) / 2)
    return x[..., top:h - top, left:w - left]


class CentralCrop(Cell):
    """Crop the central ``central_fraction`` (0, 1] of the H and W of (C, H, W) or (N, C, H, W) images."""

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, (int, float)) \
                or not 0 < central_fraction <= 1:
            raise ValueError(f"CentralCrop: 'central_fraction' must be in (0, 1], but got {central_fraction!r}.")
        self.central_fraction = float(central_fraction)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("C", "H", "W"), ("N", "C", "H", "W"))
        return x if self.central_fraction == 1.0 else _central_crop(x, self.central_fraction)
