"""``MaxUnpool1d/2d/3d`` (the inverse of max pooling with indices) and ``Unfold`` (TensorFlow-style image patches),
plus the PyTorch-style im2col/col2im that mint.nn's ``Unfold``/``Fold`` use.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from ...ops._core import op
from ...ops._nn_fold import patches
from ...ops._primitives_more2 import extract_image_patches
from ..cell import Cell
from ._checks import check_input

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Unfold"]


def _tuple(name, cls, value, nd):
    value = (value,) * nd if isinstance(value, int) else tuple(value)
    if len(value) != nd or not all(isinstance(v, int) and v >= 0 for v in value):
        raise ValueError(f"For '{cls}', '{name}' must be an int or {nd} non-negative ints, but got {value!r}.")
    return value


@op("nn_max_unpool")
def _max_unpool(x, indices, out_spatial):
    lead = x.shape[:-len(out_spatial)]
    flat_x = x.reshape((-1, math.prod(x.shape[len(lead):])))
    flat_i = indices.reshape(flat_x.shape).astype(jnp.int32)
    rows = jnp.arange(flat_x.shape[0])[:, None]
    out = jnp.zeros((flat_x.shape[0], math.prod(out_spatial)), x.dtype).at[rows, flat_i].set(flat_x)
    return out.reshape(lead + tuple(out_spatial))


class _MaxUnpoolNd(Cell):
    nd = 2

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _tuple("kernel_size", name, kernel_size, self.nd)
        self.stride = self.kernel_size if stride is None else _tuple("stride", name, stride, self.nd)
        self.padding = _tuple("padding", name, padding, self.nd)

    def construct(self, x, indices, output_size=None):
        nd = self.nd
        if x.ndim not in (nd + 1, nd + 2):
            raise ValueError(f"For '{type(self).__name__}', x must be {nd + 1}-D or {nd + 2}-D, but got shape "
                             f"{tuple(x.shape)}.")
        if tuple(indices.shape) != tuple(x.shape):
            raise ValueError(f"For '{type(self).__name__}', indices must have x's shape {tuple(x.shape)}, but got "
                             f"{tuple(indices.shape)}.")
        if output_size is not None and len(output_size) > 0:
            out = tuple(int(s) for s in tuple(output_size)[-nd:])
        else:
            out = tuple((i - 1) * s - 2 * p + k for i, s, p, k in
                        zip(x.shape[-nd:], self.stride, self.padding, self.kernel_size))
        return _max_unpool(x, indices, out)


class MaxUnpool1d(_MaxUnpoolNd):
    """Inverse of ``MaxPool1d`` with indices: ``x`` (N, C, L) or (C, L) placed at ``indices`` in zeros of length
    ``(L - 1) * stride - 2 * padding + kernel_size`` (or ``output_size``)."""

    nd = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Inverse of ``MaxPool2d`` with indices (indices index each flattened H*W plane)."""

    nd = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Inverse of ``MaxPool3d`` with indices (indices index each flattened D*H*W volume)."""

    nd = 3


def _check_window(name, value):
    if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or value[3] != 1 or \
            not all(isinstance(v, int) and v >= 1 for v in value[1:3]):
        raise ValueError(f"For 'Unfold', '{name}' must be [1, {name[:-1]}_row, {name[:-1]}_col, 1] with positive "
                         f"ints, but got {value!r}.")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    """Image patches of NCHW input as channels: ``(N, C, H, W) -> (N, kr * kc * C, out_rows, out_cols)``, the depth
    ordered (row in patch, column in patch, channel) as TensorFlow's ``extract_image_patches``.

    Args: ksizes, strides, rates: ``[1, row, col, 1]``; padding: ``'valid'`` or ``'same'``.
    """

    def __init__(self, ksizes: tuple[int, ...] | list[int], strides: tuple[int, ...] | list[int],
                 rates: tuple[int, ...] | list[int], padding: int | tuple[int, ...] | str = "valid") -> None:
        super().__init__()
        self.ksizes, self.strides = _check_window("ksizes", ksizes), _check_window("strides", strides)
        self.rates = _check_window("rates", rates)
        if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
            raise ValueError(f"For 'Unfold', 'padding' must be 'valid' or 'same', but got {padding!r}.")
        self.padding = padding.lower()

    def construct(self, input_x: Tensor) -> Tensor:
        check_input(self, input_x, ("N", "C", "H", "W"))
        return extract_image_patches(input_x, self.ksizes, self.strides, self.rates, self.padding)


def _im2col_raw(x, kernel_size, dilation, padding, stride):
    n, c = x.shape[:2]
    p = patches(x, kernel_size, stride, [(q, q) for q in padding], rhs_dilation=dilation)
    return p.reshape((n, c * kernel_size[0] * kernel_size[1], -1))


@op("mint_im2col")
def im2col(x: Tensor, kernel_size: tuple[int, int], dilation: tuple[int, int], padding: tuple[int, int],
           stride: tuple[int, int]) -> Tensor:
    """PyTorch's unfold: (N, C, H, W) -> (N, C * kh * kw, L), the depth ordered (channel, kernel row, kernel col)."""
    return _im2col_raw(x, kernel_size, dilation, padding, stride)


@op("mint_col2im")
def col2im(cols: Tensor, output_size: tuple[int, int], kernel_size: tuple[int, int], dilation: tuple[int, int],
           padding: tuple[int, int], stride: tuple[int, int]) -> Tensor:
    """PyTorch's fold, the adjoint of im2col: overlapping patch values are summed into (N, C, H, W)."""
    n, ckk = cols.shape[:2]
    c = ckk // (kernel_size[0] * kernel_size[1])
    zeros = jnp.zeros((n, c) + tuple(output_size), cols.dtype)  # type: ignore[arg-type]  # jnp reads an mstype
    (out,) = jax.linear_transpose(lambda t: _im2col_raw(t, kernel_size, dilation, padding, stride), zeros)(cols)
    return out
