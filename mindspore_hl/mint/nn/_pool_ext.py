"""``mint.nn.functional`` 1-D / 3-D pooling, adaptive max pooling and ``max_unpool2d`` (PyTorch's keyword names
and defaults, as MindSpore 2.10's mint), each adapting its arguments to the one functional op in ``ops``.

1-D pooling runs as 2-D pooling over a (1, L) plane, so ``ceil_mode`` and the padding rules are the 2-D op's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._functions import _op

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "avg_pool1d", "avg_pool3d", "max_unpool2d"]


def _one(name: str, arg: str, value) -> int:
    """An int, or a 1-element tuple/list holding one, as an int."""
    if isinstance(value, (tuple, list)):
        if len(value) != 1:
            raise ValueError(f"For '{name}', '{arg}' must be an int or a tuple of 1 int, but got {value!r}.")
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got {type(value).__name__}.")
    return value


def _check_rank(name: str, input: Tensor, ranks: tuple[int, ...], layout: str) -> None:
    if input.ndim not in ranks:
        raise ValueError(f"For '{name}', 'input' must be {layout}, but got shape {tuple(input.shape)}.")


def adaptive_avg_pool1d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Average of adaptive windows ``[floor(i*L/out), ceil((i+1)*L/out))`` of the last axis of (N, C, L) or (C, L).

    >>> import numpy as np, mindspore_hl as ms
    >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 1, 6))
    >>> adaptive_avg_pool1d(x, 3).asnumpy().tolist()
    [[[0.5, 2.5, 4.5]]]
    """
    name = "adaptive_avg_pool1d"
    _check_rank(name, input, (2, 3), "(N, C, L) or (C, L)")
    out = _one(name, "output_size", output_size)
    if out <= 0:
        raise ValueError(f"For '{name}', 'output_size' must be positive, but got {out}.")
    return _op("adaptive_avg_pool1d")(input, out)


def adaptive_avg_pool3d(input: Tensor, output_size: int | tuple[int | None, ...]) -> Tensor:
    """Adaptive 3-D average pooling of (N, C, D, H, W) or (C, D, H, W) to ``output_size`` (None keeps a size)."""
    return _op("adaptive_avg_pool3d")(input, output_size)


def adaptive_max_pool2d(input: Tensor, output_size: int | tuple[int | None, ...],
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive 2-D max pooling of (N, C, H, W) or (C, H, W); indices (``return_indices``) are flat h * W + w."""
    return _op("adaptive_max_pool2d")(input, output_size, return_indices)


def adaptive_max_pool1d(input: Tensor, output_size: int | tuple[int, ...],
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Maximum of adaptive windows of the last axis of (N, C, L) or (C, L); indices are positions along L (int64).

    >>> import numpy as np, mindspore_hl as ms
    >>> x = ms.Tensor(np.array([[[1, 5, 2, 0, 7]]], np.float32))
    >>> y, i = adaptive_max_pool1d(x, 2, return_indices=True)
    >>> y.asnumpy().tolist(), i.asnumpy().tolist()
    ([[[5.0, 7.0]]], [[[1, 4]]])
    """
    name = "adaptive_max_pool1d"
    _check_rank(name, input, (2, 3), "(N, C, L) or (C, L)")
    out = _one(name, "output_size", output_size)
    # A (1, L) plane: the flat index h * L + w of the 2-D op is the position along L.
    res = _op("adaptive_max_pool2d")(_op("expand_dims")(input, -2), (1, out), bool(return_indices))
    if return_indices:
        return _op("squeeze")(res[0], -2), _op("squeeze")(res[1], -2)
    return _op("squeeze")(res, -2)


def avg_pool1d(input: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """1-D average pooling of (N, C, L) or (C, L) (``stride`` defaults to ``kernel_size``).

    >>> import numpy as np, mindspore_hl as ms
    >>> x = ms.Tensor(np.arange(5, dtype=np.float32).reshape(1, 1, 5))
    >>> avg_pool1d(x, 2, ceil_mode=True).asnumpy().tolist()
    [[[0.5, 2.5, 4.0]]]
    """
    name = "avg_pool1d"
    _check_rank(name, input, (2, 3), "(N, C, L) or (C, L)")
    k = _one(name, "kernel_size", kernel_size)
    s = k if stride is None else _one(name, "stride", stride)
    p = _one(name, "padding", padding)
    if p < 0 or 2 * p > k:
        raise ValueError(f"For '{name}', 'padding' must be in [0, kernel_size / 2] = [0, {k / 2}], but got {p}.")
    x = _op("expand_dims")(input, -2)
    if input.ndim == 2:
        x = _op("expand_dims")(x, 0)
    y = _op("avg_pool2d")(x, (1, k), (1, s), (0, p), bool(ceil_mode), bool(count_include_pad))
    y = _op("squeeze")(y, -2)
    return _op("squeeze")(y, 0) if input.ndim == 2 else y


def avg_pool3d(input: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """3-D average pooling of (N, C, D, H, W) or (C, D, H, W) (``stride`` defaults to ``kernel_size``)."""
    if divisor_override is not None and (isinstance(divisor_override, bool) or not isinstance(divisor_override, int)
                                         or divisor_override == 0):
        raise ValueError(f"For 'avg_pool3d', 'divisor_override' must be None or a non-zero int, "
                         f"but got {divisor_override!r}.")
    return _op("avg_pool3d")(input, kernel_size, kernel_size if stride is None else stride, padding, bool(ceil_mode),
                           bool(count_include_pad), divisor_override or 0)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] | None = None, padding: int | tuple[int, ...] = 0,
                 output_size: int | tuple[int, ...] | None = None) -> Tensor:
    """Inverse of ``max_pool2d``: scatter (N, C, H, W) values to their flat (h * W_out + w) ``indices`` in zeros."""
    return _op("max_unpool2d")(input, indices, kernel_size, stride, padding, output_size)
