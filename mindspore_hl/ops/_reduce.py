"""Reductions, scans, sorting and selection (``ops.sum``, ``ops.mean``, ``ops.argmax``, ``ops.topk`` ...)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var", "std_mean",
           "var_mean", "all", "any", "logsumexp", "cumsum", "cumprod", "cummax", "cummin", "topk", "sort",
           "argsort", "count_nonzero", "median", "nansum"]


def _axis(name, axis, ndim):
    """Normalise an axis argument (None, int, list/tuple; () means all) and check it is in range."""
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:
        return None
    n = ndim if ndim > 0 else 1  # (builtin max/min are shadowed by the ops in this module)
    for a in axes:
        check(isinstance(a, int) and -n <= a < n, name,
              f"'axis' {a!r} is out of range for a {ndim}-D input (expected in [{-n}, {n})).")
    return axes[0] if isinstance(axis, int) else axes


def _dt(dtype):
    return None if dtype is None else mstype.to_ms_dtype(dtype).to_numpy()


def _float(x):
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


@op("sum")
def sum(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
        dtype: mstype.Type | None = None) -> Tensor:
    """Sum over ``dim`` (None: all); Bool inputs sum to Int64."""
    dt = _dt(dtype)
    if dt is None and input.dtype == jnp.bool_:
        dt = jnp.int64
    return jnp.sum(input, _axis("sum", dim, input.ndim), dtype=dt, keepdims=keepdim)


@op("nansum")
def nansum(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, *,
           dtype: mstype.Type | None = None) -> Tensor:
    return jnp.nansum(input, _axis("nansum", axis, input.ndim), dtype=_dt(dtype), keepdims=keepdims)


@op("mean")
def mean(x: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (None or (): all). Integer inputs keep their dtype (truncated toward 0, as MindSpore)."""
    out = jnp.mean(_float(x), _axis("mean", axis, x.ndim), keepdims=keep_dims)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.trunc(out).astype(x.dtype)
    return out


@op("prod")
def prod(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False,
         dtype: mstype.Type | None = None) -> Tensor:
    return jnp.prod(input, _axis("prod", axis, input.ndim), dtype=_dt(dtype), keepdims=keep_dims)


def _extreme(name, reduce_fn, arg_fn, input, axis, keepdims, initial, where):
    ax = _axis(name, axis, input.ndim)
    kw = {} if where is None else {"where": where}
    values = reduce_fn(input, ax, keepdims=keepdims, initial=initial, **kw)
    if ax is None:  # MindSpore 2.10 returns index 0 when reducing over all elements
        idx = jnp.zeros((1,) * input.ndim if keepdims else (), jnp.int64)
    else:
        idx = arg_fn(input, ax, keepdims=keepdims)
    return values, idx.astype(jnp.int64)


@op("max")
def max(input: Tensor, axis: int | None = None, keepdims: bool = False, *,
        initial: float | None = None, where: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """(maximum values, their Int64 indices) along ``axis`` (None: over all elements, index 0 as MindSpore)."""
    return _extreme("max", jnp.max, jnp.argmax, input, axis, keepdims, initial, where)


@op("min")
def min(input: Tensor, axis: int | None = None, keepdims: bool = False, *,
        initial: float | None = None, where: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """(minimum values, their Int64 indices) along ``axis`` (None: over all elements, index 0 as MindSpore)."""
    return _extreme("min", jnp.min, jnp.argmin, input, axis, keepdims, initial, where)


@op("amax")
def amax(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, *,
         initial: float | None = None, where: Tensor | None = None) -> Tensor:
    kw = {} if where is None else {"where": where}
    return jnp.max(input, _axis("amax", axis, input.ndim), keepdims=keepdims, initial=initial, **kw)


@op("amin")
def amin(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, *,
         initial: float | None = None, where: Tensor | None = None) -> Tensor:
    kw = {} if where is None else {"where": where}
    return jnp.min(input, _axis("amin", axis, input.ndim), keepdims=keepdims, initial=initial, **kw)


@op("argmax")
def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index (Int64) of the maximum along ``dim`` (None: into the flattened input)."""
    _axis("argmax", dim, input.ndim)
    return jnp.argmax(input, dim, keepdims=keepdim).astype(jnp.int64)


@op("argmin")
def argmin(input: Tensor, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index (Int32, as in MindSpore) of the minimum along ``axis`` (None: into the flattened input)."""
    _axis("argmin", axis, input.ndim)
    return jnp.argmin(input, axis, keepdims=keepdims).astype(jnp.int32)


@op("std")
def std(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    return jnp.std(_float(input), _axis("std", axis, input.ndim), ddof=ddof, keepdims=keepdims)


@op("var")
def var(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    return jnp.var(_float(input), _axis("var", axis, input.ndim), ddof=ddof, keepdims=keepdims)


@op("std_mean")
def std_mean(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int = 0,
             keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(std, mean) over ``axis``."""
    x, ax = _float(input), _axis("std_mean", axis, input.ndim)
    return jnp.std(x, ax, ddof=ddof, keepdims=keepdims), jnp.mean(x, ax, keepdims=keepdims)


@op("var_mean")
def var_mean(input: Tensor, axis: int | tuple[int, ...] | None = None, ddof: int = 0,
             keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(var, mean) over ``axis``."""
    x, ax = _float(input), _axis("var_mean", axis, input.ndim)
    return jnp.var(x, ax, ddof=ddof, keepdims=keepdims), jnp.mean(x, ax, keepdims=keepdims)


@op("all")
def all(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    return jnp.all(input, _axis("all", axis, input.ndim), keepdims=keep_dims)


@op("any")
def any(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    return jnp.any(input, _axis("any", axis, input.ndim), keepdims=keep_dims)


@op("logsumexp")
def logsumexp(input: Tensor, dim: int | tuple[int, ...], keepdim: bool = False) -> Tensor:
    """log(sum(exp(input), dim)), computed stably."""
    return jax.nn.logsumexp(_float(input), _axis("logsumexp", dim, input.ndim), keepdims=keepdim)


@op("cumsum")
def cumsum(x: Tensor, axis: int, dtype: mstype.Type | None = None) -> Tensor:
    _axis("cumsum", axis, x.ndim)
    return jnp.cumsum(x, axis, dtype=_dt(dtype))


@op("cumprod")
def cumprod(input: Tensor, dim: int, dtype: mstype.Type | None = None) -> Tensor:
    _axis("cumprod", dim, input.ndim)
    return jnp.cumprod(input, dim, dtype=_dt(dtype))


def _cum_extreme(input, axis, better, index_dtype):
    """Running extreme and the index where it was reached (later ties win, as in MindSpore)."""
    moved = jnp.moveaxis(input, axis, 0)
    idx = jnp.broadcast_to(jnp.arange(moved.shape[0]).reshape((-1,) + (1,) * (moved.ndim - 1)), moved.shape)

    def step(carry, xs):
        v, i = carry
        x, j = xs
        take = better(x, v) | (x == v)
        carry = (jnp.where(take, x, v), jnp.where(take, j, i))
        return carry, carry

    _, (vals, inds) = jax.lax.scan(step, (moved[0], idx[0]), (moved, idx))
    return jnp.moveaxis(vals, 0, axis), jnp.moveaxis(inds, 0, axis).astype(index_dtype)


@op("cummax")
def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """(running maximum, its indices) along ``axis``."""
    _axis("cummax", axis, input.ndim)
    return _cum_extreme(input, axis, jnp.greater, jnp.int64)


@op("cummin")
def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """(running minimum, its Int32 indices (MindSpore's dtype, unlike cummax's Int64)) along ``axis``."""
    _axis("cummin", axis, input.ndim)
    return _cum_extreme(input, axis, jnp.less, jnp.int32)


@op("topk")
def topk(input: Tensor, k: int, dim: int | None = None, largest: bool = True,
         sorted: bool = True) -> tuple[Tensor, Tensor]:
    """(the k largest (or smallest) values along ``dim`` (default last), their Int32 indices)."""
    dim = -1 if dim is None else dim
    _axis("topk", dim, input.ndim)
    check(isinstance(k, int) and 0 <= k <= input.shape[dim], "topk",
          f"'k' must be an int in [0, {input.shape[dim]}] for input shape {list(input.shape)}, but got {k!r}.")
    moved = jnp.moveaxis(input if largest else -input, dim, -1)
    vals, idx = jax.lax.top_k(moved, k)
    vals = vals if largest else -vals
    return jnp.moveaxis(vals, -1, dim), jnp.moveaxis(idx, -1, dim).astype(jnp.int32)


@op("sort")
def sort(input_x: Tensor, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """(sorted values, Int32 indices) along ``axis``; stable."""
    _axis("sort", axis, input_x.ndim)
    idx = jnp.argsort(input_x, axis=axis, stable=True, descending=descending)
    return jnp.take_along_axis(input_x, idx, axis), idx.astype(jnp.int32)


@op("argsort")
def argsort(input: Tensor, axis: int = -1, descending: bool = False) -> Tensor:
    """Int32 indices that sort ``input`` along ``axis``; stable."""
    _axis("argsort", axis, input.ndim)
    return jnp.argsort(input, axis=axis, stable=True, descending=descending).astype(jnp.int32)


@op("count_nonzero")
def count_nonzero(x: Tensor, axis: int | tuple[int, ...] = (), keep_dims: bool = False,
                  dtype: mstype.Type = mstype.int32) -> Tensor:
    return jnp.sum(x != 0, _axis("count_nonzero", axis, x.ndim), keepdims=keep_dims).astype(_dt(dtype))


@op("median")
def median(input: Tensor, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(lower median along ``axis``, its index)."""
    _axis("median", axis, input.ndim)
    n = input.shape[axis]
    idx = jnp.argsort(input, axis=axis, stable=True)
    mid = jax.lax.index_in_dim(idx, (n - 1) // 2, axis, keepdims=True)
    vals = jnp.take_along_axis(input, mid, axis)
    if not keepdims:
        vals, mid = jnp.squeeze(vals, axis), jnp.squeeze(mid, axis)
    return vals, mid.astype(jnp.int64)
