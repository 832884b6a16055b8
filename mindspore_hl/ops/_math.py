"""Elementwise math, linear algebra and reductions (``ops.add``, ``ops.matmul``, ``ops.sum`` ...)."""
import jax
import jax.numpy as jnp

from ._core import op, check

__all__ = ["add", "sub", "mul", "div", "matmul", "sum", "mean", "argmax", "stop_gradient", "cast", "depend"]


@op("add")
def add(input, other):
    return jnp.add(input, other)


@op("sub")
def sub(input, other):
    return jnp.subtract(input, other)


@op("mul")
def mul(input, other):
    return jnp.multiply(input, other)


@op("div")
def div(input, other, *, rounding_mode=None):
    if rounding_mode == "floor":
        return jnp.floor_divide(input, other)
    if rounding_mode == "trunc":
        return jnp.trunc(jnp.true_divide(input, other))
    return jnp.true_divide(input, other)


@op("matmul")
def matmul(input, other):
    a, b = jnp.asarray(input), jnp.asarray(other)
    if a.ndim >= 1 and b.ndim >= 1:
        k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
        check(a.shape[-1] == k_b, "matmul", f"the last dimension of 'input' must equal the contracted dimension of "
              f"'other', but got input shape {list(a.shape)} and other shape {list(b.shape)}.")
    return jnp.matmul(a, b)


def _axis(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


@op("sum")
def sum(input, dim=None, keepdim=False, *, dtype=None):
    from ..common import dtype as mstype
    dt = mstype.to_ms_dtype(dtype).to_numpy() if dtype is not None else None
    return jnp.sum(input, _axis(dim), dtype=dt, keepdims=keepdim)


@op("mean")
def mean(input, axis=None, keep_dims=False):
    return jnp.mean(input, _axis(axis), keepdims=keep_dims)


@op("argmax")
def argmax(input, dim=None, keepdim=False):
    return jnp.argmax(input, dim, keepdims=keepdim).astype(jnp.int64)


@op("stop_gradient")
def stop_gradient(value):
    return jax.tree_util.tree_map(jax.lax.stop_gradient, value)


@op("cast")
def cast(input, dtype):
    from ..common import dtype as mstype
    return jnp.asarray(input).astype(mstype.to_ms_dtype(dtype).to_numpy())


def depend(value, expr):
    """Return ``value`` (ordering hint in MindSpore's graph; JAX orders by data dependence)."""
    return value
