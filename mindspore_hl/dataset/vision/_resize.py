"""Vectorised image resampling with OpenCV ``cv::resize`` semantics (what MindSpore's CPU Resize calls).

Each output axis gets a tap table (source indices and weights, built once per (in, out) size and cached) and
the two axes are applied one after the other to a whole block of images at once:

* LINEAR: half-pixel centres ``src = (dst + 0.5) * in/out - 0.5``, the left/right taps clamped to the edge.
  For uint8 the weights are OpenCV's 11-bit fixed-point integers, the horizontal pass is exact in int32 and the
  vertical pass rounds once: ``(sum + 2**21) >> 22`` (OpenCV's reference INTER_LINEAR path; its SIMD kernels can
  differ by 1 in the last bit). An exact 2x downscale is an area average, as in OpenCV.
* NEAREST: ``src = floor(dst * in/out)`` (OpenCV INTER_NEAREST, no half-pixel shift).
* CUBIC: half-pixel centres, Keys kernel with a = -0.75, edge-replicated taps (OpenCV INTER_CUBIC).
"""
import functools

import numpy as np

__all__ = ["resize_block", "output_size"]

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS


def output_size(in_h, in_w, size):
    """MindSpore's Resize target: (h, w), or an int for the shorter side with the aspect ratio kept."""
    if isinstance(size, int):
        if in_h < in_w:
            return size, int(np.floor(np.float32(in_w) / np.float32(in_h) * np.float32(size) + 0.5))
        return int(np.floor(np.float32(in_h) / np.float32(in_w) * np.float32(size) + 0.5)), size
    return int(size[0]), int(size[1])


@functools.lru_cache(maxsize=256)
def _taps(mode, n_in, n_out):
    """(index[int64, (n_out, K)], weight[float32, (n_out, K)]) for one axis."""
    scale = 1.0 / (n_out / n_in)   # OpenCV: scale = 1 / inv_scale, inv_scale = out / in (doubles)
    dst = np.arange(n_out, dtype=np.float64)
    if mode == "nearest":
        idx = np.minimum(np.floor(dst * scale).astype(np.int64), n_in - 1)
        return idx[:, None], np.ones((n_out, 1), np.float32)
    f = ((dst + 0.5) * scale - 0.5).astype(np.float32)
    s = np.floor(f).astype(np.int64)
    f = (f - s.astype(np.float32)).astype(np.float32)
    if mode == "linear":
        low, high = s < 0, s >= n_in - 1
        f[low | high] = 0.0
        s = np.clip(s, 0, n_in - 1)
        idx = np.stack([s, np.minimum(s + 1, n_in - 1)], axis=1)
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
def _fixed_taps(mode, n_in, n_out):
    idx, w = _taps(mode, n_in, n_out)
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


def resize_block(x, out_h, out_w, mode, h_axis=1):
    """Resize images stacked along axis 0: ``x`` is (N, H, W) or (N, H, W, C) with H at ``h_axis``."""
    w_axis = h_axis + 1
    in_h, in_w = x.shape[h_axis], x.shape[w_axis]
    if (in_h, in_w) == (out_h, out_w):
        return x.copy()
    if mode == "linear" and in_h == 2 * out_h and in_w == 2 * out_w:
        return _area2(x, h_axis)
    if mode == "nearest":
        iy, _ = _taps("nearest", in_h, out_h)
        ix, _ = _taps("nearest", in_w, out_w)
        return np.take(np.take(x, iy[:, 0], axis=h_axis), ix[:, 0], axis=w_axis)
    if x.dtype == np.uint8:
        iy, wy = _fixed_taps(mode, in_h, out_h)
        ix, wx = _fixed_taps(mode, in_w, out_w)
        # Both passes are exact integer sums (as in OpenCV: rows first, then columns); one rounding at the end.
        t = _apply_axis(x, w_axis, ix, wx, np.int32)
        t = _apply_axis(t, h_axis, iy, wy, np.int32)
        t += 1 << (2 * _COEF_BITS - 1)
        t >>= 2 * _COEF_BITS
        if mode != "linear":   # cubic overshoots
            np.clip(t, 0, 255, out=t)
        return t.astype(np.uint8)
    ft = np.float64 if x.dtype == np.float64 else np.float32
    iy, wy = _taps(mode, in_h, out_h)
    ix, wx = _taps(mode, in_w, out_w)
    t = _apply_axis(x, w_axis, ix, wx.astype(ft), ft)
    t = _apply_axis(t, h_axis, iy, wy.astype(ft), ft)
    if x.dtype.kind in "iub":
        info = np.iinfo(x.dtype) if x.dtype.kind != "b" else None
        t = np.rint(t)
        if info is not None:
            np.clip(t, info.min, info.max, out=t)
        return t.astype(x.dtype)
    return t.astype(x.dtype, copy=False)
