"""1-D and 3-D pooling (``MaxPool1d``, ``AvgPool1d``, ``MaxPool3d``, ``AvgPool3d``), adaptive pooling in 1, 2 and
3 dims (``AdaptiveAvgPool1d/3d``, ``AdaptiveMaxPool1d/2d/3d``) and power-average pooling (``LPPool1d/2d``).

One private windowed reduction over the last ``nd`` dims serves every fixed-window pool; adaptive pools use
PyTorch's bins (start floor(i * L / out), end ceil((i + 1) * L / out)) as 0/1 masks, so they compile for any size.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from ...ops._core import op
from ..cell import Cell
from ._checks import check_input, choice, int_tuple

__all__ = ["MaxPool1d", "AvgPool1d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool3d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d"]


def _window_pads(sizes, kernel, stride, dilation, mode, padding, ceil_mode):
    """Per spatial dim: (lo, hi) explicit padding and the extra ``hi`` padding that ceil_mode adds."""
    pads, extra = [], []
    for i, n in enumerate(sizes):
        eff = dilation[i] * (kernel[i] - 1) + 1
        if mode == "same":
            out = -(-n // stride[i])
            total = max((out - 1) * stride[i] + eff - n, 0)
            pads.append((total // 2, total - total // 2))
            extra.append(0)
            continue
        p = padding[i] if mode == "pad" else 0
        span = n + 2 * p - eff
        out = (-(-span // stride[i]) if ceil_mode else span // stride[i]) + 1
        if ceil_mode and (out - 1) * stride[i] >= n + p:
            out -= 1  # the last window must start inside the input or the left padding
        pads.append((p, p))
        extra.append(max((out - 1) * stride[i] + eff - (n + 2 * p), 0))
    return pads, extra


@op("pool_nd")
def _pool(x, nd, kind, kernel, stride, dilation, mode, padding, ceil_mode, count_include_pad, divisor, norm):
    sizes = x.shape[-nd:]
    pads, extra = _window_pads(sizes, kernel, stride, dilation, mode, padding, ceil_mode)
    lead = x.ndim - nd
    win = (1,) * lead + tuple(kernel)
    strides = (1,) * lead + tuple(stride)
    dil = (1,) * lead + tuple(dilation)
    full = [(0, 0)] * lead + [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]
    if kind == "max":
        return lax.reduce_window(x, np.array(-np.inf, x.dtype), lax.max, win, strides, full, window_dilation=dil)
    if kind == "lp":
        total = lax.reduce_window(x ** norm, np.array(0, x.dtype), lax.add, win, strides, full)
        return jnp.sign(total) * jnp.maximum(jnp.abs(total), 0) ** (1.0 / norm)
    total = lax.reduce_window(x, np.array(0, x.dtype), lax.add, win, strides, full)
    if divisor:
        return total / jnp.asarray(divisor, x.dtype)
    ones = jnp.ones(sizes, x.dtype)
    if count_include_pad and mode == "pad":
        ones, inner = jnp.pad(ones, pads, constant_values=1), [(0, e) for e in extra]
    else:
        inner = [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]
    count = lax.reduce_window(ones, np.array(0, x.dtype), lax.add, tuple(kernel), tuple(stride), inner)
    return total / count


@op("max_pool_nd_indices")
def _argmax_pool(x, nd, kernel, stride, dilation, mode, padding, ceil_mode):
    """The flat index (over the spatial dims of the unpadded input) of each window's maximum."""
    x = lax.stop_gradient(x)  # indices carry no gradient
    sizes = x.shape[-nd:]
    pads, extra = _window_pads(sizes, kernel, stride, dilation, mode, padding, ceil_mode)
    lead = x.ndim - nd
    idx = jnp.broadcast_to(jnp.arange(math.prod(sizes), dtype=jnp.int32).reshape(sizes), x.shape)
    full = [(0, 0)] * lead + [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]

    def pick(a, b):
        take_b = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
        return jnp.where(take_b, b[0], a[0]), jnp.where(take_b, b[1], a[1])

    _, out = lax.reduce_window((x, idx), (jnp.asarray(-jnp.inf, x.dtype), jnp.asarray(2 ** 30, jnp.int32)), pick,
                               (1,) * lead + tuple(kernel), (1,) * lead + tuple(stride), full,
                               window_dilation=(1,) * lead + tuple(dilation))
    return out.astype(jnp.int64)


class _FixedPool(Cell):
    _nd = 1
    _kind = "max"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, count_include_pad=True, divisor_override=None):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, nd)
        self.stride = int_tuple(name, "stride", stride, nd)
        self.dilation = int_tuple(name, "dilation", dilation, nd)
        self.pad_mode = choice(name, "pad_mode", str(pad_mode).lower(), ("same", "valid", "pad"))
        self.padding = int_tuple(name, "padding", padding, nd, allow_zero=True)
        if self.pad_mode != "pad" and any(self.padding):
            raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is '{pad_mode}', but got {padding!r}.")
        if self.pad_mode != "pad" and (ceil_mode or any(d != 1 for d in self.dilation)):
            raise ValueError(f"{name}: 'ceil_mode' and 'dilation' need pad_mode='pad', but pad_mode is "
                             f"'{pad_mode}'.")
        if any(2 * p > k for p, k in zip(self.padding, self.kernel_size)):
            raise ValueError(f"{name}: 'padding' {self.padding} must be at most half of 'kernel_size' "
                             f"{self.kernel_size}.")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)
        self.count_include_pad = bool(count_include_pad)
        if divisor_override is not None and (not isinstance(divisor_override, int) or divisor_override <= 0):
            raise ValueError(f"{name}: 'divisor_override' must be a positive int or None, got {divisor_override!r}.")
        self.divisor_override = divisor_override

    def construct(self, x):
        nd = self._nd
        spatial = tuple(f"D{i}" for i in range(nd))
        check_input(self, x, ("N", "C") + spatial, ("C",) + spatial)
        args = (self.kernel_size, self.stride, self.dilation, self.pad_mode, self.padding, self.ceil_mode)
        y = _pool(x, nd, self._kind, *args, self.count_include_pad, self.divisor_override, None)
        if self.return_indices:
            return y, _argmax_pool(x, nd, *args)
        return y

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool1d(_FixedPool):
    """1-D max pooling over (N, C, L) or (C, L); stride defaults to 1 as in MindSpore.

    pad_mode 'valid' (default), 'same' or 'pad' (``padding`` each side, ``dilation``, ``ceil_mode``);
    ``return_indices`` also returns the index of each maximum along L.
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode)


class MaxPool3d(_FixedPool):
    """3-D max pooling over (N, C, D, H, W) or (C, D, H, W); indices are flat over D * H * W."""

    _nd = 3

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode)


class AvgPool1d(_FixedPool):
    """1-D average pooling over (N, C, L) or (C, L); with pad_mode='pad', ``count_include_pad`` counts the padding."""

    _kind = "avg"

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, 1, False, ceil_mode, count_include_pad)


class AvgPool3d(_FixedPool):
    """3-D average pooling over (N, C, D, H, W) or (C, D, H, W); ``divisor_override`` replaces the window count."""

    _nd, _kind = 3, "avg"

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, 1, False, ceil_mode, count_include_pad,
                         divisor_override)


class _LPPool(Cell):
    _nd = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        name = type(self).__name__
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)) or norm_type <= 0:
            raise ValueError(f"{name}: 'norm_type' must be a positive number, but got {norm_type!r}.")
        self.norm_type = norm_type
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, self._nd)
        self.stride = self.kernel_size if stride is None else int_tuple(name, "stride", stride, self._nd)
        self.ceil_mode = bool(ceil_mode)

    def construct(self, x):
        spatial = tuple(f"D{i}" for i in range(self._nd))
        check_input(self, x, ("N", "C") + spatial, ("C",) + spatial)
        return _pool(x, self._nd, "lp", self.kernel_size, self.stride, (1,) * self._nd, "pad", (0,) * self._nd,
                     self.ceil_mode, False, None, float(self.norm_type))


class LPPool1d(_LPPool):
    """Power-average pooling: (sum over the window of x^p)^(1/p) over (N, C, L); stride defaults to kernel_size."""


class LPPool2d(_LPPool):
    """Power-average pooling over (N, C, H, W); stride defaults to kernel_size."""

    _nd = 2


def _bins(size, out):
    """(out, size) 0/1 matrix of PyTorch's adaptive bins."""
    m = np.zeros((out, size), np.float32)
    for i in range(out):
        m[i, (i * size) // out: -(-(i + 1) * size // out)] = 1
    return m


@op("adaptive_pool_nd")
def _adaptive(x, nd, out_sizes, kind, indices):
    sizes = x.shape[-nd:]
    if kind == "avg":
        for i in range(nd):
            m = _bins(sizes[i], out_sizes[i])
            m = jnp.asarray(m / m.sum(1, keepdims=True), x.dtype)
            x = jnp.moveaxis(jnp.tensordot(x, m, axes=[[x.ndim - nd + i], [1]]), -1, x.ndim - nd + i)
        return x
    # Max: one mask per output cell over the flattened spatial dims.
    mask = _bins(sizes[0], out_sizes[0])
    for i in range(1, nd):
        mask = np.einsum("ab,cd->acbd", mask, _bins(sizes[i], out_sizes[i])).reshape(
            mask.shape[0] * out_sizes[i], mask.shape[1] * sizes[i])
    flat = x.reshape(x.shape[:-nd] + (-1,))
    vals = jnp.where(jnp.asarray(mask, bool), flat[..., None, :], jnp.asarray(-jnp.inf, x.dtype))
    y = vals.max(-1).reshape(x.shape[:-nd] + tuple(out_sizes))
    if not indices:
        return y
    return y, vals.argmax(-1).reshape(y.shape).astype(jnp.int64)


class _Adaptive(Cell):
    _nd, _kind = 1, "avg"

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        sizes = (output_size,) * nd if isinstance(output_size, int) and not isinstance(output_size, bool) \
            else output_size
        if not (isinstance(sizes, (tuple, list)) and len(sizes) == nd
                and all(s is None or (isinstance(s, int) and not isinstance(s, bool) and s > 0) for s in sizes)):
            raise ValueError(f"{name}: 'output_size' must be a positive int or {nd} positive ints (or None), but got "
                             f"{output_size!r}.")
        self.output_size, self.return_indices = output_size, bool(return_indices)
        self._sizes = tuple(sizes)

    def construct(self, x):
        nd = self._nd
        spatial = tuple(f"D{i}" for i in range(nd))
        check_input(self, x, ("N", "C") + spatial, ("C",) + spatial)
        out = tuple(x.shape[x.ndim - nd + i] if s is None else s for i, s in enumerate(self._sizes))
        if nd == 1 and x.shape[-1] % out[0]:
            # MindSpore 2.10's 1-D adaptive pools accept only evenly divisible lengths.
            raise ValueError(f"{type(self).__name__}: the input's last dimension must be divisible by output_size "
                             f"{out[0]}, but got shape {tuple(x.shape)}.")
        return _adaptive(x, nd, out, self._kind, self.return_indices)

    def extend_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_Adaptive):
    """Average pooling of (N, C, L) to ``output_size`` positions."""

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool3d(_Adaptive):
    """Average pooling of (N, C, D, H, W) to ``output_size`` (int or 3 ints/None)."""

    _nd = 3

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool1d(_Adaptive):
    """Max pooling of (N, C, L) to ``output_size`` positions."""

    _kind = "max"

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool2d(_Adaptive):
    """Max pooling of (N, C, H, W) to ``output_size``; ``return_indices`` adds the flat h * W + w indices."""

    _nd, _kind = 2, "max"


class AdaptiveMaxPool3d(_Adaptive):
    """Max pooling of (N, C, D, H, W) to ``output_size``; ``return_indices`` adds the flat indices."""

    _nd, _kind = 3, "max"
