"""Enums and argument checks shared by the vision transforms."""
from __future__ import annotations

import numbers
from enum import Enum
from typing import Any

import numpy as np

__all__ = ["Inter", "Border", "ImageBatchFormat", "check_size", "check_inter", "interp_mode", "pad_image"]


class Inter(str, Enum):
    """Interpolation modes (``Inter.LINEAR`` is an alias of ``Inter.BILINEAR``, ``CUBIC`` of ``BICUBIC``)."""
    NEAREST = "nearest"
    ANTIALIAS = "antialias"
    BILINEAR = "bilinear"
    LINEAR = "bilinear"
    BICUBIC = "bicubic"
    CUBIC = "bicubic"
    AREA = "area"
    PILCUBIC = "pilcubic"


class Border(str, Enum):
    """Padding modes: constant fill, edge repeat, reflect (without the edge), symmetric (with the edge)."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(str, Enum):
    NHWC = "NHWC"
    NCHW = "NCHW"


_MODES = {Inter.NEAREST: "nearest", Inter.BILINEAR: "linear", Inter.BICUBIC: "cubic"}


def interp_mode(op: str, interpolation: Inter, allow_area: bool = False) -> str:
    """Map an ``Inter`` to the resampling kernel name; modes without a kernel here are refused up front
    (``allow_area``: the op resizes, where OpenCV's INTER_AREA applies)."""
    if not isinstance(interpolation, Inter):
        raise TypeError(f"{op}: interpolation must be of type Inter, but got {interpolation!r}")
    if allow_area and interpolation == Inter.AREA:
        return "area"
    if interpolation not in _MODES:
        raise ValueError(f"{op}: interpolation {interpolation} is not supported by mindspore_hl; "
                         f"use Inter.LINEAR, Inter.NEAREST or Inter.BICUBIC"
                         f"{', Inter.AREA' if allow_area else ''}")
    return _MODES[interpolation]


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def check_inter(op: str, interpolation: Any) -> Inter:
    """TypeError with MindSpore's message unless ``interpolation`` is an ``Inter``."""
    if not isinstance(interpolation, Inter):
        raise TypeError(f"{op}: Argument interpolation with value {interpolation} is not of type "
                        f"[<enum 'Inter'>], but got {type(interpolation)}.")
    return interpolation


def check_size(op: str, size: Any, allow_int: bool = True) -> int | tuple[int, int]:
    """Validate an output size: a positive int, or a (height, width) pair. Returns int or (h, w)."""
    if allow_int and _is_int(size):
        if not 1 <= size <= 16777216:
            raise ValueError(f"{op}: size {size} is not within the required interval of [1, 16777216]")
        return int(size)
    if isinstance(size, (list, tuple)) and len(size) in ((1, 2) if allow_int else (2,)) and \
            all(_is_int(v) for v in size):
        if not all(1 <= v <= 16777216 for v in size):
            raise ValueError(f"{op}: size {tuple(size)} is not within the required interval of [1, 16777216]")
        if len(size) == 1:
            return int(size[0])
        return int(size[0]), int(size[1])
    raise TypeError(f"{op}: size must be an int or a sequence of two ints (height, width), but got {size!r}")


def check_fill(op: str, fill_value: Any) -> int | tuple[int, ...]:
    if _is_int(fill_value):
        if not 0 <= fill_value <= 255:
            raise ValueError(f"{op}: fill_value {fill_value} is not within [0, 255]")
        return int(fill_value)
    if isinstance(fill_value, (list, tuple)) and len(fill_value) == 3 and all(_is_int(v) for v in fill_value):
        return tuple(int(v) for v in fill_value)
    raise TypeError(f"{op}: fill_value must be an int or a 3-tuple of ints, but got {fill_value!r}")


def check_padding(op: str, padding: Any) -> tuple[int, ...]:
    """MindSpore padding: int (all sides), (left/right, top/bottom) or (left, top, right, bottom)."""
    if _is_int(padding):
        p = (padding,) * 4
    elif isinstance(padding, (list, tuple)) and len(padding) == 2 and all(_is_int(v) for v in padding):
        p = (padding[0], padding[1], padding[0], padding[1])
    elif isinstance(padding, (list, tuple)) and len(padding) == 4 and all(_is_int(v) for v in padding):
        p = tuple(padding)
    else:
        raise TypeError(f"{op}: padding must be an int or a sequence of 2 or 4 ints, but got {padding!r}")
    if any(v < 0 for v in p):
        raise ValueError(f"{op}: padding values must be non-negative, but got {padding!r}")
    return tuple(int(v) for v in p)  # left, top, right, bottom


def pad_image(x: np.ndarray, left: int, top: int, right: int, bottom: int, mode: Any, fill: Any,
              h_axis: int) -> np.ndarray:
    """Pad the H and W axes of images (``h_axis`` is where H sits; W follows it)."""
    if not (left or top or right or bottom):
        return x
    widths = [(0, 0)] * x.ndim
    widths[h_axis] = (top, bottom)
    widths[h_axis + 1] = (left, right)
    mode = Border(mode).value
    if mode != "constant":
        for axis, (a, b) in ((h_axis, (top, bottom)), (h_axis + 1, (left, right))):
            limit = x.shape[axis] - (1 if mode == "reflect" else 0)
            if max(a, b) > limit:
                raise RuntimeError(f"Pad: padding {max(a, b)} with {mode} mode needs an image side longer than "
                                   f"{max(a, b)}, but got side {x.shape[axis]}")
        return np.pad(x, widths, mode=mode)
    if isinstance(fill, tuple):
        if x.ndim <= h_axis + 2 or x.shape[-1] != len(fill):
            raise RuntimeError(f"Pad: fill_value {fill} needs an image with {len(fill)} channels, but got shape "
                               f"{x.shape[h_axis:]}")
        out = np.pad(x, widths, mode="constant")
        mask = np.ones(out.shape[h_axis:h_axis + 2], dtype=bool)
        mask[top:top + x.shape[h_axis], left:left + x.shape[h_axis + 1]] = False
        out[(slice(None),) * h_axis + (mask,)] = np.asarray(fill, dtype=out.dtype)
        return out
    return np.pad(x, widths, mode="constant", constant_values=fill)
