"""Ops that ``mint`` needs and MindSpore's ``ops`` namespace does not name (``vdot``, ``kthvalue``, the
synchronised-batch-norm statistics)."""

from __future__ import annotations

import jax.numpy as jnp

from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["vdot", "kthvalue", "batch_norm_stats", "batch_norm_elemt", "batch_norm_gather_stats_with_counts"]


@op("vdot")
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """Dot product of two 1-D tensors, conjugating the first."""
    check(jnp.ndim(input) == 1 and jnp.ndim(other) == 1, "vdot",
          f"both inputs must be 1-D, but got shapes {list(jnp.shape(input))} and {list(jnp.shape(other))}.")
    check(input.dtype == other.dtype, "vdot", f"both inputs must have the same dtype, but got {input.dtype} and "
          f"{other.dtype}.", TypeError)
    return jnp.vdot(input, other)


@op("kthvalue")
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """(values, indices) of the ``k``-th smallest element (1-based) along ``dim``."""
    size = jnp.shape(input)[dim] if jnp.ndim(input) else 1
    check(1 <= k <= size, "kthvalue", f"k must be in [1, {size}], but got {k}.")
    x = jnp.reshape(input, (1,)) if jnp.ndim(input) == 0 else input
    order = jnp.argsort(x, axis=dim, stable=True)
    idx = jnp.take(order, jnp.asarray([k - 1]), axis=dim)
    val = jnp.take_along_axis(x, idx, axis=dim)
    if not keepdim or jnp.ndim(input) == 0:
        val, idx = jnp.squeeze(val, dim), jnp.squeeze(idx, dim)
    return val, idx.astype(jnp.int64)


def _channel_axes(x):
    return (0,) + tuple(range(2, jnp.ndim(x)))


@op("batch_norm_stats")
def batch_norm_stats(input: Tensor, eps: float) -> tuple[Tensor, Tensor]:
    """(mean, invstd) per channel (dim 1) over all other dims: the local half of synchronised batch norm."""
    axes = _channel_axes(input)
    x = input.astype(jnp.float32) if input.dtype == jnp.float16 else input
    mean = jnp.mean(x, axes)
    var = jnp.mean(jnp.square(x - jnp.expand_dims(mean, axes)), axes)
    return mean, 1.0 / jnp.sqrt(var + eps)


@op("batch_norm_elemt")
def batch_norm_elemt(input: Tensor, weight: Tensor | None = None, bias: Tensor | None = None,
                     mean: Tensor | float | None = None, invstd: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """(input - mean) * invstd * weight + bias, per channel (dim 1)."""
    shape = (1, -1) + (1,) * (jnp.ndim(input) - 2)
    out = (input - jnp.reshape(mean, shape)) * jnp.reshape(invstd, shape)
    if weight is not None:
        out = out * jnp.reshape(weight, shape)
    if bias is not None:
        out = out + jnp.reshape(bias, shape)
    return out.astype(input.dtype)


@op("batch_norm_gather_stats_with_counts")
def batch_norm_gather_stats_with_counts(input: Tensor, mean: Tensor, invstd: Tensor, running_mean: Tensor | None = None,
                                        running_var: Tensor | None = None, momentum: float = 0.1, eps: float = 1e-05,
                                        counts: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """Global (mean, invstd) from per-replica ``mean`` / ``invstd`` rows and their element ``counts``.

    The updated running statistics are not written back (Tensors here are values); use the returned mean and
    invstd to update them.
    """
    n = jnp.reshape(counts, (-1, 1)).astype(mean.dtype)
    total = jnp.sum(n, 0)
    g_mean = jnp.sum(mean * n, 0) / total
    var_i = 1.0 / jnp.square(invstd) - eps
    g_var = jnp.sum((var_i + jnp.square(mean - g_mean)) * n, 0) / total
    return g_mean, 1.0 / jnp.sqrt(g_var + eps)
