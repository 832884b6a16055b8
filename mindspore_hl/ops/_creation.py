"""Tensor-creating ops: ones, zeros, *_like, full, fill, arange, eye and the seeded random ops."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from ._core import check, op, unwrap

__all__ = ["ones", "zeros", "ones_like", "zeros_like", "full", "full_like", "fill", "arange", "range", "eye",
           "linspace", "randn", "rand", "randint", "randn_like", "rand_like", "randint_like", "normal", "uniform",
           "bernoulli", "multinomial", "randperm", "shuffle", "tensor"]


def _shape(name, size):
    size = unwrap(size)
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    if isinstance(size, (jax.Array, np.ndarray)):
        return tuple(int(s) for s in np.asarray(size).reshape(-1))
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    try:
        shp = tuple(int(s) for s in size)
    except (TypeError, ValueError):
        raise TypeError(f"For '{name}', the shape must be an int or a tuple/list of ints, but got {size!r}.") from None
    check(all(s >= 0 for s in shp), name, f"the shape must not contain negative sizes, but got {list(shp)}.")
    return shp


def _np(dtype, default=mstype.float32):
    return mstype.to_ms_dtype(dtype if dtype is not None else default).to_numpy()


def ones(shape: tuple[int, ...], dtype: mstype.Type | None = None) -> Tensor:
    """A Tensor of ones (Float32 by default)."""
    return wrap(jnp.ones(_shape("ones", shape), _np(dtype)))


def zeros(size: int | tuple[int, ...], dtype: mstype.Type | None = None) -> Tensor:
    """A Tensor of zeros (Float32 by default)."""
    return wrap(jnp.zeros(_shape("zeros", size), _np(dtype)))


def _default_for(value):
    if isinstance(value, bool):
        return mstype.bool_
    if isinstance(value, (int, np.integer)):
        return mstype.int64
    if isinstance(value, Tensor):
        return value.dtype
    return mstype.float32


def full(size: int | tuple[int, ...], fill_value: Tensor | float, *, dtype: mstype.Type | None = None) -> Tensor:
    """A Tensor of ``size`` filled with ``fill_value`` (dtype inferred from the value by default)."""
    return wrap(jnp.full(_shape("full", size), unwrap(fill_value), _np(dtype, _default_for(fill_value))))


def fill(type: mstype.Type, shape: tuple[int, ...], value: Tensor | float) -> Tensor:
    """MindSpore's ``ops.fill(type, shape, value)``."""
    return wrap(jnp.full(_shape("fill", shape), unwrap(value), _np(type)))


@op("ones_like", keep_f64=True)
def ones_like(input: Tensor, *, dtype: mstype.Type | None = None) -> Tensor:
    return jnp.ones_like(input, dtype=None if dtype is None else _np(dtype))


@op("zeros_like", keep_f64=True)
def zeros_like(input: Tensor, *, dtype: mstype.Type | None = None) -> Tensor:
    return jnp.zeros_like(input, dtype=None if dtype is None else _np(dtype))


@op("full_like", keep_f64=True)
def full_like(input: Tensor, fill_value: Tensor | float, *, dtype: mstype.Type | None = None) -> Tensor:
    return jnp.full_like(input, fill_value, dtype=None if dtype is None else _np(dtype))


def arange(start: Tensor | float = 0, end: Tensor | float | None = None, step: Tensor | float = 1, *,
           dtype: mstype.Type | None = None) -> Tensor:
    """Evenly spaced values in [start, end): Int64 for int arguments, Float32 if any is a float."""
    start, end, step = unwrap(start), unwrap(end), unwrap(step)
    if end is None:
        start, end = 0, start
    check(step != 0, "arange", "'step' must not be 0.")
    floats = any(isinstance(v, float) or getattr(v, "dtype", np.dtype(int)).kind == "f" for v in (start, end, step))
    return wrap(jnp.arange(start, end, step, dtype=_np(dtype, mstype.float32 if floats else mstype.int64)))


def range(start: Tensor | float, end: Tensor | float, step: Tensor | float, maxlen: int = 1000000) -> Tensor:
    """MindSpore's ``ops.range``: like ``arange`` with all three arguments required (``maxlen`` is unused)."""
    return arange(start, end, step)


def eye(n: int, m: int | None = None, dtype: mstype.Type | None = None) -> Tensor:
    """A 2-D Tensor with ones on the diagonal (Float32 by default)."""
    return wrap(jnp.eye(n, m, dtype=_np(dtype)))


def linspace(start: Tensor | float, end: Tensor | float, steps: int) -> Tensor:
    """``steps`` evenly spaced Float32 values from start to end inclusive."""
    return wrap(jnp.linspace(unwrap(start), unwrap(end), int(steps), dtype=jnp.float32))


def _key(s):
    if s is not None:
        return jax.random.key_data(jax.random.key(int(s)))
    return _seed.next_key()


def _sizes(size):
    return size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def randn(*size: int | tuple[int, ...], dtype: mstype.Type | None = None, seed: int | None = None) -> Tensor:
    """Standard normal samples drawn from the seeded key stream (``ms.set_seed``)."""
    return wrap(jax.random.normal(_key(seed), _shape("randn", _sizes(size)), _np(dtype)))


def rand(*size: int | tuple[int, ...], dtype: mstype.Type | None = None, seed: int | None = None) -> Tensor:
    """Uniform [0, 1) samples drawn from the seeded key stream."""
    return wrap(jax.random.uniform(_key(seed), _shape("rand", _sizes(size)), _np(dtype)))


def randint(low: int, high: int, size: int | tuple[int, ...], seed: int | None = None, *,
            dtype: mstype.Type | None = None) -> Tensor:
    """Uniform integers in [low, high)."""
    check(low < high, "randint", f"'low' ({low}) must be less than 'high' ({high}).")
    return wrap(jax.random.randint(_key(seed), _shape("randint", size), low, high, _np(dtype, mstype.int64)))


def randn_like(input: Tensor, seed: int | None = None, *, dtype: mstype.Type | None = None) -> Tensor:
    return randn(input.shape, dtype=dtype or input.dtype, seed=seed)


def rand_like(input: Tensor, seed: int | None = None, *, dtype: mstype.Type | None = None) -> Tensor:
    return rand(input.shape, dtype=dtype or input.dtype, seed=seed)


def randint_like(input: Tensor, low: int, high: int, seed: int | None = None, *,
                 dtype: mstype.Type | None = None) -> Tensor:
    return randint(low, high, input.shape, seed, dtype=dtype or input.dtype)


def normal(shape: tuple[int, ...], mean: Tensor | float = 0.0, stddev: float = 1.0, seed: int | None = None) -> Tensor:
    """Normal(mean, stddev) Float32 samples of ``shape``."""
    mean, stddev = unwrap(mean), unwrap(stddev)
    return wrap(mean + stddev * jax.random.normal(_key(seed), _shape("normal", shape), jnp.float32))


def uniform(shape: tuple[int, ...], minval: Tensor, maxval: Tensor, seed: int | None = None,
            dtype: mstype.Type = mstype.float32) -> Tensor:
    """Uniform [minval, maxval) samples (integer dtypes give integers)."""
    dt = _np(dtype)
    lo, hi, shp = unwrap(minval), unwrap(maxval), _shape("uniform", shape)
    if np.dtype(dt).kind in "iu":
        return wrap(jax.random.randint(_key(seed), shp, lo, hi, dt))
    return wrap(jax.random.uniform(_key(seed), shp, dt, lo, hi))


def bernoulli(input: Tensor, p: float = 0.5, seed: int | None = None) -> Tensor:
    """0/1 samples with probability ``p`` of 1, in ``input``'s shape and dtype."""
    x = unwrap(input)
    return wrap(jax.random.bernoulli(_key(seed), unwrap(p), jnp.shape(x)).astype(x.dtype))


def multinomial(input: Tensor, num_samples: int, replacement: bool = True, seed: int | None = None) -> Tensor:
    """Int32 category indices (as MindSpore's) sampled from the (unnormalised) probabilities in the rows of
    ``input``."""
    probs = unwrap(input)
    logits = jnp.log(probs)
    key = _key(seed)
    if replacement:
        out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples,) + probs.shape[:-1])
        return wrap(jnp.moveaxis(out, 0, -1).astype(jnp.int32))
    gumbel = -jnp.log(-jnp.log(jax.random.uniform(key, probs.shape, minval=1e-20, maxval=1.0)))
    return wrap(jax.lax.top_k(logits + gumbel, num_samples)[1].astype(jnp.int32))


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: mstype.Type = mstype.int64) -> Tensor:
    """A random permutation of 0..n-1."""
    return wrap(jax.random.permutation(_key(seed + offset if seed else None), n).astype(_np(dtype)))


def shuffle(x: Tensor, seed: int | None = None) -> Tensor:
    """``x`` with its first axis randomly permuted."""
    return wrap(jax.random.permutation(_key(seed), unwrap(x), axis=0))


def tensor(input_data: Any = None, dtype: mstype.Type | None = None, shape: tuple[int, ...] | None = None,
           init: Any = None, const_arg: bool = False, device: str | None = None) -> Tensor:
    """``ms.tensor(...)``: the functional form of ``Tensor(...)``."""
    return Tensor(input_data, dtype, shape, init, const_arg, device)
