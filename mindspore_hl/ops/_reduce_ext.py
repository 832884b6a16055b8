"""More reductions and scans: NaN-aware means, quantiles, histograms, ``reduce_*`` aliases, norms of rows."""

from __future__ import annotations

import builtins
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check, op, unwrap
from ._reduce import _axis, _float, max, mean, min, sum

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "aminmax", "nanmean", "nanmedian", "quantile",
           "nanquantile", "logcumsumexp", "bincount", "histc", "renorm", "clip_by_norm", "cond", "top_k",
           "logspace", "hann_window", "hamming_window", "bartlett_window", "blackman_window", "kaiser_window", "cov"]


def reduce_sum(x: Tensor, axis: int | tuple[int, ...] = ()) -> Tensor:
    """Sum over ``axis`` (() : all)."""
    return sum(x, axis if axis != () else None)


def reduce_mean(x: Tensor, axis: int | tuple[int, ...] = ()) -> Tensor:
    """Mean over ``axis`` (() : all)."""
    return mean(x, axis)


def reduce_max(x: Tensor, axis: int | tuple[int, ...] = ()) -> Tensor:
    """Maximum over ``axis`` (() : all)."""
    return max(x, axis if axis != () else None)[0]


def reduce_min(x: Tensor, axis: int | tuple[int, ...] = ()) -> Tensor:
    """Minimum over ``axis`` (() : all)."""
    return min(x, axis if axis != () else None)[0]


@op("aminmax")
def aminmax(input: Tensor, *, axis: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(minimum, maximum) along ``axis`` (None: over all elements)."""
    ax = _axis("aminmax", axis, input.ndim)
    return jnp.min(input, ax, keepdims=keepdims), jnp.max(input, ax, keepdims=keepdims)


@op("nanmean")
def nanmean(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, *,
            dtype: mstype.Type | None = None) -> Tensor:
    """Mean over ``axis`` ignoring NaNs."""
    out = jnp.nanmean(_float(input), _axis("nanmean", axis, input.ndim), keepdims=keepdims)
    return out if dtype is None else out.astype(mstype.to_ms_dtype(dtype).to_numpy())


@op("nanmedian")
def nanmedian(input: Tensor, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(lower median ignoring NaNs along ``axis``, its index)."""
    _axis("nanmedian", axis, input.ndim)
    n_valid = jnp.sum(~jnp.isnan(input), axis=axis, keepdims=True)
    idx = jnp.argsort(input, axis=axis, stable=True)  # NaNs sort last
    pos = jnp.maximum((n_valid - 1) // 2, 0)
    mid = jnp.take_along_axis(idx, pos, axis)
    vals = jnp.take_along_axis(input, mid, axis)
    if not keepdims:
        vals, mid = jnp.squeeze(vals, axis), jnp.squeeze(mid, axis)
    return vals, mid.astype(jnp.int64)


def _quantile(name, fn, input, q, axis, keepdims):
    x = unwrap(input)
    check(jnp.issubdtype(x.dtype, jnp.floating), name, f"the input must be a float tensor, got {x.dtype}.", TypeError)
    qa = jnp.asarray(unwrap(q), x.dtype)
    check(bool(jnp.all((qa >= 0) & (qa <= 1))), name, "'q' must be in [0, 1].")
    return Tensor(fn(x, qa, axis=axis, keepdims=keepdims).astype(x.dtype))


def quantile(input: Tensor, q: Tensor, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """The q-th quantiles (linear interpolation) along ``axis``."""
    return _quantile("quantile", jnp.quantile, input, q, axis, keepdims)


def nanquantile(input: Tensor, q: Tensor, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """The q-th quantiles along ``axis``, ignoring NaNs."""
    return _quantile("nanquantile", jnp.nanquantile, input, q, axis, keepdims)


@op("logcumsumexp")
def logcumsumexp(input: Tensor, axis: int) -> Tensor:
    """log(cumsum(exp(input))) along ``axis``, computed stably."""
    _axis("logcumsumexp", axis, input.ndim)
    return jax.lax.cumlogsumexp(_float(input), axis=axis % input.ndim)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Count (Float32, as MindSpore) of each value 0, 1, ... max(input), weighted by ``weights``; eager only.

    As MindSpore's, the bins are ``max(int(max(input)) + 1, minlength)`` long and count the elements equal to
    their index: negative and non-integral elements (of a float or bool input) fall in no bin.
    """
    a = np.asarray(unwrap(input))
    check(a.ndim == 1 and (np.issubdtype(a.dtype, np.integer) or a.dtype.kind in "fb"), "bincount",
          f"the input must be a 1-D real tensor, got shape {list(a.shape)} and {a.dtype}.")
    if a.size == 0:
        return Tensor(np.zeros(0, np.float32))
    check(isinstance(minlength, int) and minlength >= 0, "bincount",
          f"minlength must be an int >= 0, got {minlength!r}.")
    w = None if weights is None else np.asarray(unwrap(weights))
    check(w is None or w.shape == a.shape, "bincount",
          f"input and weights must have the same shape, got {list(a.shape)} and {list(np.shape(w))}.")
    top = np.float32(a.max())
    length = int(top + 1) if top > minlength - 1 else minlength
    v = a.astype(np.float64)
    keep = (v >= 0) & (v == np.floor(v)) & (v < length)
    out = np.bincount(v[keep].astype(np.int64), None if w is None else w[keep].astype(np.float64), length)
    return Tensor(out.astype(np.float32))


@op("histc")
def histc(input: Tensor, bins: int = 100, min: Tensor | float = 0.0, max: Tensor | float = 0.0) -> Tensor:
    """Histogram with ``bins`` equal bins in [min, max] (both 0: the data's range); values outside are ignored."""
    x = input.astype(jnp.float32) if not jnp.issubdtype(input.dtype, jnp.floating) else input
    lo, hi = jnp.asarray(min, x.dtype), jnp.asarray(max, x.dtype)
    auto = (lo == 0) & (hi == 0)
    lo = jnp.where(auto, jnp.min(x), lo)
    hi = jnp.where(auto, jnp.max(x), hi)
    width = jnp.where(hi > lo, hi - lo, 1)
    b = jnp.clip(jnp.floor((x - lo) / width * bins).astype(jnp.int32), 0, bins - 1)
    inside = (x >= lo) & (x <= hi)
    return jnp.zeros(bins, x.dtype).at[b.reshape(-1)].add(inside.reshape(-1).astype(x.dtype))


@op("renorm")
def renorm(input: Tensor, p: float, axis: int, maxnorm: float) -> Tensor:
    """Scale each slice along ``axis`` whose p-norm exceeds ``maxnorm`` down to ``maxnorm``."""
    others = tuple(i for i in range(input.ndim) if i != axis % input.ndim)
    norm = jnp.sum(jnp.abs(input) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return (input * scale).astype(input.dtype)


def clip_by_norm(x: Tensor | Sequence[Tensor], max_norm: float, norm_type: float = 2.0,
                 error_if_nonfinite: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Scale ``x`` (a Tensor or a list/tuple of them) so its total ``norm_type`` norm is at most ``max_norm``."""
    many = isinstance(x, (list, tuple))
    arrays = [unwrap(t) for t in (x if many else [x])]
    if norm_type == float("inf"):
        total = jnp.max(jnp.stack([jnp.max(jnp.abs(a)) for a in arrays]))
    else:
        total = jnp.sum(jnp.stack([jnp.sum(jnp.abs(a.astype(jnp.float32)) ** norm_type) for a in arrays]))
        total = total ** (1.0 / norm_type)
    if error_if_nonfinite:
        check(bool(jnp.isfinite(total)), "clip_by_norm", "the total norm of the gradients is non-finite.")
    coef = jnp.minimum(max_norm / (total + 1e-6), 1.0)
    out = [Tensor((a * coef).astype(a.dtype)) for a in arrays]
    return tuple(out) if many else out[0]


@op("cond")
def cond(A: Tensor, p: float | None = None) -> Tensor:
    """The condition number of the matrix (or batch) ``A`` in norm ``p`` (None: 2-norm)."""
    check(A.ndim >= 2, "cond", f"'A' must be at least 2-D, but got shape {list(A.shape)}.")
    return jnp.linalg.cond(_float(A), p)


@op("top_k")
def top_k(input_x: Tensor, k: int, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """(the k largest values along the last axis, their Int32 indices)."""
    check(isinstance(k, int) and 0 <= k <= input_x.shape[-1], "top_k",
          f"'k' must be an int in [0, {input_x.shape[-1]}], but got {k!r}.")
    vals, idx = jax.lax.top_k(input_x, k)
    return vals, idx.astype(jnp.int32)


def _np_dtype(dtype, default=mstype.float32):
    return mstype.to_ms_dtype(default if dtype is None else dtype).to_numpy()


def logspace(start: Tensor | float, end: Tensor | float, steps: int, base: float = 10, *,
             dtype: mstype.Type = mstype.float32) -> Tensor:
    """``steps`` values base ** linspace(start, end) (Float32 by default)."""
    return Tensor(jnp.logspace(float(unwrap(start)), float(unwrap(end)), int(steps), base=base)
                  .astype(_np_dtype(dtype)))


def _window(name, fn, window_length, periodic, dtype, default=mstype.float64):
    dtype = default if dtype is None else dtype  # (MindSpore 2.10: Float64 by default, hamming Float32)
    check(isinstance(window_length, int) and window_length >= 0, name,
          f"'window_length' must be a non-negative int, but got {window_length!r}.")
    if window_length == 1:
        return Tensor(jnp.ones(1, _np_dtype(dtype)))
    n = window_length + 1 if periodic else window_length
    w = fn(n)[:window_length] if window_length else jnp.zeros(0, jnp.float64)
    return Tensor(jnp.asarray(w).astype(_np_dtype(dtype)))


def hann_window(window_length: int, periodic: bool = True, *, dtype: mstype.Type | None = None) -> Tensor:
    """The Hann window (periodic by default)."""
    return _window("hann_window", jnp.hanning, window_length, periodic, dtype)


def hamming_window(window_length: int, periodic: bool = True, alpha: Tensor | float = 0.54, beta: Tensor | float = 0.46,
                   *, dtype: mstype.Type | None = None) -> Tensor:
    """The generalised Hamming window alpha - beta cos(2 pi n / (N - 1))."""
    def fn(n):
        return alpha - beta * jnp.cos(2 * jnp.pi * jnp.arange(n, dtype=jnp.float64) / builtins.max(n - 1, 1))
    return _window("hamming_window", fn, window_length, periodic, dtype, mstype.float32)


def _length_tensor(name, window_length, dtype):
    """MindSpore's BartlettWindow / BlackmanWindow take the length as a 0-D Int32/Int64 Tensor and give Float32
    by default (a Python int is accepted here too); the result must be a float dtype."""
    if isinstance(window_length, Tensor):
        v = np.asarray(window_length.asnumpy())
        check(np.issubdtype(v.dtype, np.integer), name, f"'window_length' must be an Int32 or Int64 Tensor, but "
              f"got {window_length.dtype}.", TypeError)
        check(v.ndim == 0, name, f"the dim of 'window_length' must be 0, but got {v.ndim}.")
        window_length = int(v)
    check(dtype is None or mstype.to_ms_dtype(dtype) in (mstype.float16, mstype.float32, mstype.float64), name,
          f"'dtype' must be float16, float32 or float64, but got {dtype}.", TypeError)
    return window_length, mstype.float32 if dtype is None else dtype


def bartlett_window(window_length: Tensor | int, periodic: bool = True, *,
                    dtype: mstype.Type | None = None) -> Tensor:
    """The triangular (Bartlett) window of a 0-D integer Tensor's length (Float32 by default)."""
    window_length, dtype = _length_tensor("bartlett_window", window_length, dtype)
    return _window("bartlett_window", jnp.bartlett, window_length, periodic, dtype)


def blackman_window(window_length: Tensor | int, periodic: bool = True, *,
                    dtype: mstype.Type | None = None) -> Tensor:
    """The Blackman window of a 0-D integer Tensor's length (Float32 by default)."""
    window_length, dtype = _length_tensor("blackman_window", window_length, dtype)
    return _window("blackman_window", jnp.blackman, window_length, periodic, dtype)


def kaiser_window(window_length: int, periodic: bool = True, beta: Tensor | float = 12.0, *,
                  dtype: mstype.Type | None = None) -> Tensor:
    """The Kaiser window with shape parameter ``beta``."""
    return _window("kaiser_window", lambda n: jnp.kaiser(n, beta), window_length, periodic, dtype)


@op("cov")
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """Covariance of the rows (variables) of ``input`` over its columns (observations)."""
    return jnp.cov(_float(input), ddof=correction, fweights=fweights, aweights=aweights)
