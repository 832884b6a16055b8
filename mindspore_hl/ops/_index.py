"""Indexing, scattering and selection (``ops.gather``, ``ops.scatter_nd``, ``ops.where``, ``ops.one_hot`` ...)."""
import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op, unwrap

__all__ = ["gather", "gather_elements", "gather_d", "gather_nd", "index_select", "scatter_nd", "tensor_scatter_update",
           "tensor_scatter_add", "scatter", "where", "select", "masked_fill", "masked_select", "one_hot"]


def _check_int(name, what, x):
    check(jnp.issubdtype(jnp.result_type(x), jnp.integer), name,
          f"'{what}' must be an integer tensor, but got {jnp.result_type(x)}.", TypeError)


@op("gather")
def gather(input_params: Tensor, input_indices: Tensor, axis: int, batch_dims: int = 0) -> Tensor:
    """Take slices of ``input_params`` along ``axis`` at ``input_indices``."""
    _check_int("gather", "input_indices", input_indices)
    if batch_dims:
        fn = lambda p, i: jnp.take(p, i, axis=axis - batch_dims)  # noqa: E731
        for _ in range(batch_dims):
            fn = jax.vmap(fn)
        return fn(input_params, input_indices)
    return jnp.take(input_params, input_indices, axis=axis)


@op("gather_elements")
def gather_elements(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` (dim 0) etc., like torch.gather."""
    _check_int("gather_elements", "index", index)
    return jnp.take_along_axis(input, index, dim)


def gather_d(x: Tensor, dim: int, index: Tensor) -> Tensor:
    return gather_elements(x, dim, index)


@op("gather_nd")
def gather_nd(input_x: Tensor, indices: Tensor) -> Tensor:
    """Gather slices addressed by the last axis of ``indices``."""
    _check_int("gather_nd", "indices", indices)
    k = indices.shape[-1]
    return input_x[tuple(jnp.moveaxis(indices, -1, 0)[i] for i in range(k))]


@op("index_select")
def index_select(input: Tensor, axis: int, index: Tensor) -> Tensor:
    _check_int("index_select", "index", index)
    check(jnp.ndim(index) == 1, "index_select", f"'index' must be 1-D, but got shape {list(jnp.shape(index))}.")
    return jnp.take(input, index, axis=axis)


def _check_bounds(name: str, indices, bounds, what: str = "indices") -> None:
    """Concrete (eager) indices must lie in ``[0, bound)`` per position of the last axis (``bounds`` broadcasts):
    MindSpore raises there, where JAX would drop or clamp the update silently. Traced indices are not checked."""
    if isinstance(indices, jax.core.Tracer):
        return
    idx = np.asarray(indices)
    bound = np.broadcast_to(np.asarray(bounds, np.int64), idx.shape) if idx.size else np.zeros(idx.shape, np.int64)
    bad = (idx < 0) | (idx >= bound)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        check(False, name, f"'{what}'{list(first)} is {idx[first]}, out of range [0, {bound[first]}).")


def _nd_index(indices):
    return tuple(jnp.moveaxis(indices, -1, 0)[i] for i in range(indices.shape[-1]))


@op("scatter_nd")
def scatter_nd(indices: Tensor, updates: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (duplicates accumulate)."""
    _check_int("scatter_nd", "indices", indices)
    return jnp.zeros(tuple(shape), updates.dtype).at[_nd_index(indices)].add(updates)


@op("tensor_scatter_update")
def tensor_scatter_update(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    _check_int("tensor_scatter_update", "indices", indices)
    _check_bounds("tensor_scatter_update", indices, input_x.shape[:indices.shape[-1]])
    return input_x.at[_nd_index(indices)].set(updates.astype(input_x.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


@op("tensor_scatter_add")
def tensor_scatter_add(input_x: Tensor, indices: Tensor, updates: Tensor) -> Tensor:
    _check_int("tensor_scatter_add", "indices", indices)
    _check_bounds("tensor_scatter_add", indices, input_x.shape[:indices.shape[-1]])
    return input_x.at[_nd_index(indices)].add(updates.astype(input_x.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


@op("scatter")
def scatter(input: Tensor, axis: int, index: Tensor, src: Tensor) -> Tensor:
    """``out`` is ``input`` with ``out[index[i][j]][j] = src[i][j]`` (axis 0), like torch.scatter."""
    _check_int("scatter", "index", index)
    idx = list(jnp.meshgrid(*[jnp.arange(s) for s in index.shape], indexing="ij"))
    idx[axis] = index
    return input.at[tuple(idx)].set(jnp.broadcast_to(src, index.shape).astype(input.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


def _bool_cond(name, cond):
    check(jnp.result_type(cond) == jnp.bool_, name,
          f"the condition must be a Bool tensor, but got {jnp.result_type(cond)}.", TypeError)


@op("where")
def where(condition: Tensor, input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise ``input if condition else other`` with broadcasting."""
    _bool_cond("where", condition)
    return jnp.where(condition, input, other)


@op("select")
def select(condition: Tensor, input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise ``input if condition else other``."""
    _bool_cond("select", condition)
    return jnp.where(condition, input, other)


@op("masked_fill")
def masked_fill(input_x: Tensor, mask: Tensor, value: Tensor | float) -> Tensor:
    _bool_cond("masked_fill", mask)
    return jnp.where(mask, jnp.asarray(value, input_x.dtype), input_x)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where ``mask`` is True, as a 1-D Tensor (eager only: the size is data-dependent)."""
    a, m = np.asarray(unwrap(input)), np.asarray(unwrap(mask))
    return Tensor(a[np.broadcast_to(m, a.shape)])


@op("one_hot")
def one_hot(indices: Tensor, depth: int, on_value: Tensor | float = 1, off_value: Tensor | float = 0,
            axis: int = -1) -> Tensor:
    """One-hot encode integer ``indices`` into ``depth`` classes; the dtype follows ``on_value``."""
    _check_int("one_hot", "indices", indices)
    check(isinstance(depth, (int, np.integer)) and depth >= 0, "one_hot",
          f"'depth' must be an int >= 0, got {depth!r}.")
    on = jnp.asarray(on_value if not isinstance(on_value, float) else np.float32(on_value))
    off = jnp.asarray(off_value, on.dtype)
    hot = jax.nn.one_hot(indices, depth, dtype=jnp.bool_, axis=axis)
    return jnp.where(hot, on, off)
