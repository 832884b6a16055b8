"""Tensor-creating ops: ones, zeros, *_like, full, arange, eye, randn/rand/randint (seeded)."""
import jax
import jax.numpy as jnp

from ..common import dtype as mstype
from ..common import seed
from ..common.tensor import Tensor, wrap
from ._core import op, unwrap

__all__ = ["ones", "zeros", "ones_like", "zeros_like", "full", "full_like", "arange", "eye", "linspace",
           "randn", "rand", "randint", "normal", "uniform", "tensor"]


def _shape(size):
    size = unwrap(size)
    if isinstance(size, int):
        return (size,)
    if hasattr(size, "shape") and not isinstance(size, tuple):
        return tuple(int(s) for s in jnp.asarray(size).tolist())
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(int(s) for s in size)


def _np(dtype, default=mstype.float32):
    return mstype.to_ms_dtype(dtype if dtype is not None else default).to_numpy()


def ones(shape, dtype=None):
    """A Tensor of ones (Float32 by default)."""
    return wrap(jnp.ones(_shape(shape), _np(dtype)))


def zeros(size, dtype=None):
    """A Tensor of zeros (Float32 by default)."""
    return wrap(jnp.zeros(_shape(size), _np(dtype)))


def full(size, fill_value, *, dtype=None):
    default = mstype.float32 if isinstance(fill_value, float) else (mstype.bool_ if isinstance(fill_value, bool) else mstype.int64)
    return wrap(jnp.full(_shape(size), unwrap(fill_value), _np(dtype, default)))


@op("ones_like")
def ones_like(input, *, dtype=None):
    return jnp.ones_like(input, dtype=None if dtype is None else _np(dtype))


@op("zeros_like")
def zeros_like(input, *, dtype=None):
    return jnp.zeros_like(input, dtype=None if dtype is None else _np(dtype))


@op("full_like")
def full_like(input, fill_value, *, dtype=None):
    return jnp.full_like(input, fill_value, dtype=None if dtype is None else _np(dtype))


def arange(start=0, end=None, step=1, *, dtype=None):
    start, end, step = unwrap(start), unwrap(end), unwrap(step)
    if end is None:
        start, end = 0, start
    floats = any(isinstance(v, float) for v in (start, end, step))
    return wrap(jnp.arange(start, end, step, dtype=_np(dtype, mstype.float32 if floats else mstype.int64)))


def eye(n, m=None, dtype=None):
    return wrap(jnp.eye(n, m, dtype=_np(dtype)))


def linspace(start, end, steps):
    return wrap(jnp.linspace(unwrap(start), unwrap(end), int(steps), dtype=jnp.float32))


def randn(*size, dtype=None, seed=None):
    """Standard normal samples, drawn from the seeded key stream (``ms.set_seed``)."""
    return wrap(jax.random.normal(_key(seed), _shape(size), _np(dtype)))


def rand(*size, dtype=None, seed=None):
    return wrap(jax.random.uniform(_key(seed), _shape(size), _np(dtype)))


def randint(low, high, size, seed=None, *, dtype=None):
    return wrap(jax.random.randint(_key(seed), _shape(size), low, high, _np(dtype, mstype.int64)))


def normal(shape, mean=0.0, stddev=1.0, seed=None):
    return wrap(unwrap(mean) + unwrap(stddev) * jax.random.normal(_key(seed), _shape(shape), jnp.float32))


def uniform(shape, minval, maxval, seed=None, dtype=None):
    return wrap(jax.random.uniform(_key(seed), _shape(shape), _np(dtype), unwrap(minval), unwrap(maxval)))


def tensor(data, dtype=None):
    return Tensor(data, dtype)


def _key(s):
    if s is not None:
        return jax.random.key_data(jax.random.key(s))
    return seed.next_key()
