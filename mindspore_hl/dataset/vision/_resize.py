"""Vectorised image resampling with OpenCV ``cv::resize`` semantics (what MindSpore's CPU Resize calls).

Each output axis gets a tap table (source indices and weights, built once per (in, out) size and cached) and
the two axes are applied one after the other to a whole block of images at once:

* LINEAR: half-pixel centres ``src = (dst + 0.5) * in/out - 0.5``. Columns outside the image are clamped with
  their weight moved to the edge tap; rows are not (OpenCV clamps only the row *index*, so an edge row keeps two
  weights on the same source row). For uint8 the weights are OpenCV's 11-bit fixed-point integers, the
  horizontal pass is exact in int32 and the vertical pass is OpenCV's vectorised one,
  ``(((S0 >> 4) * b0 >> 16) + ((S1 >> 4) * b1 >> 16) + 2) >> 2``, which is what MindSpore's CPU build computes
  (checked pixel-exact against it). An exact 2x downscale is an area average, as in OpenCV.
* AREA: OpenCV INTER_AREA. Shrinking by whole factors averages blocks; other shrinks weight each source pixel by
  its overlap with the output cell (float sums); enlarging is LINEAR with OpenCV's area-mode coefficients.
* NEAREST: ``src = floor(dst * in/out)`` (OpenCV INTER_NEAREST, no half-pixel shift).
* CUBIC: half-pixel centres, Keys kernel with a = -0.75, edge-replicated taps (OpenCV INTER_CUBIC).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

__all__ = ["resize_block", "output_size"]

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS


def output_size(in_h: int, in_w: int, size: int | Sequence[int]) -> tuple[int, int]:
    """MindSpore's Resize target: (h, w), or an int for the shorter side with the aspect ratio kept."""
    if isinstance(size, int):
        if in_h < in_w:
            return size, int(np.floor(np.float32(in_w) / np.float32(in_h) * np.float32(size) + 0.5))
        return int(np.floor(np.float32(in_h) / np.float32(in_w) * np.float32(size) + 0.5)), size
    return int(size[0]), int(size[1])


@functools.lru_cache(maxsize=256)
def _taps(mode, n_in, n_out, row_axis=False):
    """(index[int64, (n_out, K)], weight[float32, (n_out, K)]) for one axis (``row_axis``: the H axis)."""
    scale = 1.0 / (n_out / n_in)   # OpenCV: scale = 1 / inv_scale, inv_scale = out / in (doubles)
    dst = np.arange(n_out, dtype=np.float64)
    if mode == "nearest":
        idx = np.minimum(np.floor(dst * scale).astype(np.int64), n_in - 1)
        return idx[:, None], np.ones((n_out, 1), np.float32)
    if mode == "area":   # enlarging with INTER_AREA: linear taps with OpenCV's area-mode coefficients
        s = np.floor(dst * scale).astype(np.int64)
        f = ((dst + 1) - (s + 1) * (n_out / n_in)).astype(np.float32)
        f = np.where(f <= 0, np.float32(0), f - np.floor(f)).astype(np.float32)
        mode = "linear"
    else:
        f = ((dst + 0.5) * scale - 0.5).astype(np.float32)
        s = np.floor(f).astype(np.int64)
        f = (f - s.astype(np.float32)).astype(np.float32)
    if mode == "linear":
        if not row_axis:
            low, high = s < 0, s >= n_in - 1
            f[low | high] = 0.0
            s = np.clip(s, 0, n_in - 1)
        idx = np.stack([np.clip(s, 0, n_in - 1), np.clip(s + 1, 0, n_in - 1)], axis=1)
        w = np.stack([np.float32(1.0) - f, f], axis=1)
        return idx, w.astype(np.float32)
    if mode == "cubic":
        a = np.float32(-0.75)
        x = f
        w0 = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
        w1 = ((a + 2) * x - (a + 3)) * x * x + 1
        w2 = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1
        w3 = 1 - w0 - w1 - w2
        idx = np.clip(s[:, None] + np.arange(-1, 3)[None, :], 0, n_in - 1)
        return idx, np.stack([w0, w1, w2, w3], axis=1).astype(np.float32)
    raise ValueError(f"Resize: unsupported interpolation mode {mode!r}")


@functools.lru_cache(maxsize=256)
def _area_taps(n_in, n_out):
    """OpenCV's computeResizeAreaTab for a shrink: each source pixel weighted by its share of the output cell."""
    scale = n_in / n_out
    idx, wts = [], []
    for dx in range(n_out):
        fsx1 = dx * scale
        fsx2 = fsx1 + scale
        cell = min(scale, n_in - fsx1)
        sx1, sx2 = int(np.ceil(fsx1)), int(np.floor(fsx2))
        sx2 = min(sx2, n_in - 1)
        sx1 = min(sx1, sx2)
        row_i, row_w = [], []
        if sx1 - fsx1 > 1e-3:
            row_i.append(sx1 - 1)
            row_w.append((sx1 - fsx1) / cell)
        for sx in range(sx1, sx2):
            row_i.append(sx)
            row_w.append(1.0 / cell)
        if fsx2 - sx2 > 1e-3:
            row_i.append(sx2)
            row_w.append(min(min(fsx2 - sx2, 1.0), cell) / cell)
        idx.append(row_i)
        wts.append(row_w)
    k = max(len(r) for r in idx)
    index = np.zeros((n_out, k), np.int64)
    weight = np.zeros((n_out, k), np.float32)
    for i, (r, w) in enumerate(zip(idx, wts)):
        index[i, :len(r)] = r
        weight[i, :len(w)] = w
    return index, weight


@functools.lru_cache(maxsize=256)
def _fixed_taps(mode, n_in, n_out, row_axis=False):
    idx, w = _taps(mode, n_in, n_out, row_axis)
    return idx, np.rint(w * np.float32(_COEF_SCALE)).astype(np.int32)


def _apply_axis(x, axis, idx, w, acc_dtype):
    """Sum_k x.take(idx[:, k], axis) * w[:, k], the weights broadcast along ``axis``."""
    shape = [1] * x.ndim
    shape[axis] = idx.shape[0]
    out = None
    for k in range(idx.shape[1]):
        term = np.take(x, idx[:, k], axis=axis).astype(acc_dtype, copy=False)
        wk = w[:, k].reshape(shape)
        if out is None:
            out = term * wk
        else:
            out += term * wk
    return out


def _area2(x, h_axis):
    """Exact 2x downscale: mean of each 2x2 cell (OpenCV picks INTER_AREA for it), uint8 rounded."""
    w_axis = h_axis + 1
    a = np.take(x, np.arange(0, x.shape[h_axis], 2), axis=h_axis)
    b = np.take(x, np.arange(1, x.shape[h_axis], 2), axis=h_axis)
    if x.dtype == np.uint8:
        s = a.astype(np.int32) + b
        s = np.take(s, np.arange(0, s.shape[w_axis], 2), axis=w_axis) + \
            np.take(s, np.arange(1, s.shape[w_axis], 2), axis=w_axis)
        return ((s + 2) >> 2).astype(np.uint8)
    ft = np.float64 if x.dtype == np.float64 else np.float32
    s = a.astype(ft) + b
    s = np.take(s, np.arange(0, s.shape[w_axis], 2), axis=w_axis) + \
        np.take(s, np.arange(1, s.shape[w_axis], 2), axis=w_axis)
    return (s * ft(0.25)).astype(x.dtype if x.dtype.kind == "f" else ft)


def _area_fast(x, h_axis, fy, fx):
    """Whole-factor shrink: the mean of each fy x fx block (2x2 in integers, as OpenCV; else float, rounded)."""
    if fy == 2 and fx == 2:
        return _area2(x, h_axis)
    w_axis = h_axis + 1
    shape = list(x.shape)
    shape[h_axis:w_axis + 1] = [shape[h_axis] // fy, fy, shape[w_axis] // fx, fx]
    blocks = x[(slice(None),) * h_axis + (slice(0, shape[h_axis] * fy), slice(0, shape[h_axis + 2] * fx))]
    total = blocks.reshape(shape).sum(axis=(h_axis + 1, h_axis + 3), dtype=np.float64 if x.dtype == np.float64
                                      else (np.int64 if x.dtype.kind in "iub" else np.float32))
    mean = total.astype(np.float32) * np.float32(1.0 / (fx * fy))
    return _cast_like(mean, x.dtype)


def _cast_like(t, dtype):
    if dtype.kind in "iub":
        info = np.iinfo(dtype) if dtype.kind != "b" else None
        t = np.rint(t)
        if info is not None:
            np.clip(t, info.min, info.max, out=t)
        return t.astype(dtype)
    return t.astype(dtype, copy=False)


def _area_shrink(x, out_h, out_w, h_axis):
    w_axis = h_axis + 1
    in_h, in_w = x.shape[h_axis], x.shape[w_axis]
    sy, sx = in_h / out_h, in_w / out_w
    iy, ix = int(round(sy)), int(round(sx))
    if abs(sy - iy) < 2.2e-16 and abs(sx - ix) < 2.2e-16:
        return _area_fast(x, h_axis, iy, ix)
    ft = np.float64 if x.dtype == np.float64 else np.float32
    idx_y, w_y = _area_taps(in_h, out_h)
    idx_x, w_x = _area_taps(in_w, out_w)
    t = _apply_axis(x, w_axis, idx_x, w_x.astype(ft), ft)
    t = _apply_axis(t, h_axis, idx_y, w_y.astype(ft), ft)
    return _cast_like(t, x.dtype)


def resize_block(x: np.ndarray, out_h: int, out_w: int, mode: str, h_axis: int = 1) -> np.ndarray:
    """Resize images stacked along axis 0: ``x`` is (N, H, W) or (N, H, W, C) with H at ``h_axis``."""
    w_axis = h_axis + 1
    in_h, in_w = x.shape[h_axis], x.shape[w_axis]
    if (in_h, in_w) == (out_h, out_w):
        return x.copy()
    if mode == "area" and in_h >= out_h and in_w >= out_w:
        return _area_shrink(x, out_h, out_w, h_axis)
    if mode == "linear" and in_h == 2 * out_h and in_w == 2 * out_w:
        return _area2(x, h_axis)
    if mode == "nearest":
        iy, _ = _taps("nearest", in_h, out_h)
        ix, _ = _taps("nearest", in_w, out_w)
        return np.take(np.take(x, iy[:, 0], axis=h_axis), ix[:, 0], axis=w_axis)
    if x.dtype == np.uint8:
        iy, wy = _fixed_taps(mode, in_h, out_h, True)
        ix, wx = _fixed_taps(mode, in_w, out_w)
        t = _apply_axis(x, w_axis, ix, wx, np.int32)   # exact horizontal sums, value * 2048
        if mode in ("linear", "area"):
            # OpenCV's vectorised vertical pass: each row pre-shifted by 4, multiplied high, rounded by 2 bits.
            shape = [1] * t.ndim
            shape[h_axis] = len(iy)
            a = (np.take(t, iy[:, 0], axis=h_axis) >> 4) * wy[:, 0].reshape(shape) >> 16
            a += (np.take(t, iy[:, 1], axis=h_axis) >> 4) * wy[:, 1].reshape(shape) >> 16
            a += 2
            a >>= 2
            np.clip(a, 0, 255, out=a)
            return a.astype(np.uint8)
        # cubic: OpenCV's vectorised pass converts to float and rounds half to even; the exact sum matches it
        t = _apply_axis(t, h_axis, iy, wy, np.int64).astype(np.float64) * (1.0 / (1 << 2 * _COEF_BITS))
        t = np.rint(t)
        np.clip(t, 0, 255, out=t)   # cubic overshoots
        return t.astype(np.uint8)
    ft = np.float64 if x.dtype == np.float64 else np.float32
    iy, wy = _taps(mode, in_h, out_h, True)
    ix, wx = _taps(mode, in_w, out_w)
    t = _apply_axis(x, w_axis, ix, wx.astype(ft), ft)
    t = _apply_axis(t, h_axis, iy, wy.astype(ft), ft)
    return _cast_like(t, x.dtype)
