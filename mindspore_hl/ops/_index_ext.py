"""Scatter family and index updates (``ops.scatter_nd_update``, ``ops.tensor_scatter_elements``, ``index_add`` ...).

MindSpore's ``scatter_*`` / ``scatter_nd_*`` functions update their ``input_x`` Parameter in place and return
it; here the new value is computed functionally and written back with ``_set_value`` (which records into the
active scope when compiling), then returned. ``tensor_scatter_*`` return a new Tensor.
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op, unwrap
from ._index import _check_bounds
from ._registry import register

__all__ = ["tensor_scatter_elements", "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div",
           "tensor_scatter_max", "tensor_scatter_min", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
           "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min", "scatter_update", "scatter_add",
           "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min", "index_add", "index_fill",
           "select_scatter", "slice_scatter", "diagonal_scatter", "inplace_update", "inplace_add", "inplace_sub",
           "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sum"]


def _nd(indices):
    return tuple(jnp.moveaxis(indices, -1, 0))


def _apply(at, kind, updates):
    if kind == "update":
        return at.set(updates)
    if kind == "add":
        return at.add(updates)
    if kind == "sub":
        return at.add(-updates)
    if kind == "mul":
        return at.multiply(updates)
    if kind == "div":
        return at.divide(updates)
    if kind == "max":
        return at.max(updates)
    return at.min(updates)


def _tensor_scatter(kind):
    name = f"tensor_scatter_{kind}"

    @op(name)
    def fn(input_x, indices, updates):
        check(jnp.issubdtype(indices.dtype, jnp.integer), name, f"'indices' must be integers, got {indices.dtype}.",
              TypeError)
        _check_bounds(name, indices, input_x.shape[:indices.shape[-1]])
        want = indices.shape[:-1] + input_x.shape[indices.shape[-1]:]
        check(updates.shape == want, name, f"'updates' must have shape {list(want)} for input {list(input_x.shape)} "
              f"and indices {list(indices.shape)}, but got {list(updates.shape)}.")
        return _apply(input_x.at[_nd(indices)], kind, updates.astype(input_x.dtype))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"A copy of ``input_x`` with ``{kind}`` of ``updates`` applied at the N-D ``indices``."
    return fn


tensor_scatter_sub = _tensor_scatter("sub")
tensor_scatter_mul = _tensor_scatter("mul")
tensor_scatter_div = _tensor_scatter("div")
tensor_scatter_max = _tensor_scatter("max")
tensor_scatter_min = _tensor_scatter("min")


@op("tensor_scatter_elements")
def tensor_scatter_elements(input_x: Tensor, indices: Tensor, updates: Tensor, axis: int = 0,
                            reduction: str = "none") -> Tensor:
    """``out[..., indices[i, j], ...] = updates[i, j]`` along ``axis`` (``reduction`` 'none' or 'add')."""
    check(reduction in ("none", "add"), "tensor_scatter_elements",
          f"'reduction' must be 'none' or 'add', but got {reduction!r}.")
    axis = axis % input_x.ndim
    idx = list(jnp.indices(indices.shape, sparse=True))
    idx[axis] = indices % input_x.shape[axis]
    at = input_x.at[tuple(idx)]  # type: ignore[attr-defined]  # @op body: a jax.Array here
    u = updates.astype(input_x.dtype)
    return at.add(u) if reduction == "add" else at.set(u)


def _inplace(name, fn, input_x, *args):
    if isinstance(input_x, Tensor) and isinstance(args[-1], Tensor):
        # the Parameter keeps its dtype: updates may only promote into it (Float16 into Float32), never beyond
        have, given = unwrap(input_x).dtype, unwrap(args[-1]).dtype
        check(jnp.promote_types(have, given) == have, name,
              f"'updates' ({args[-1].dtype}) cannot be converted to the dtype of the Parameter 'input_x' "
              f"({input_x.dtype}) that is updated in place.", TypeError)
    out = fn(input_x, *args)
    if isinstance(input_x, Tensor):
        input_x._set_value(out._value)
        return input_x
    return out


def _scatter_nd(kind):
    inner = _tensor_scatter(kind)
    name = f"scatter_nd_{kind}"

    def fn(input_x, indices, updates, use_locking=False):
        return _inplace(name, inner, input_x, indices, updates)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"In place on the Parameter ``input_x``: ``{kind}`` of ``updates`` at the N-D ``indices``."
    return fn


scatter_nd_add = _scatter_nd("add")
scatter_nd_sub = _scatter_nd("sub")
scatter_nd_mul = _scatter_nd("mul")
scatter_nd_div = _scatter_nd("div")
scatter_nd_max = _scatter_nd("max")
scatter_nd_min = _scatter_nd("min")
_tensor_scatter_update = _tensor_scatter("update")


def scatter_nd_update(input_x: Tensor, indices: Tensor, updates: Tensor, use_locking: bool = True) -> Tensor:
    """In place on the Parameter ``input_x``: set ``updates`` at the N-D ``indices``; returns ``input_x``."""
    return _inplace("scatter_nd_update", _tensor_scatter_update, input_x, indices, updates)


def _scatter_rows(kind):
    name = f"scatter_{kind}"

    @op(name)
    def rows(input_x, indices, updates):
        check(jnp.issubdtype(indices.dtype, jnp.integer), name, f"'indices' must be integers, got {indices.dtype}.",
              TypeError)
        _check_bounds(name, indices, input_x.shape[0])
        want = indices.shape + input_x.shape[1:]
        check(updates.shape == want, name, f"'updates' must have shape {list(want)}, but got {list(updates.shape)}.")
        return _apply(input_x.at[indices], kind, updates.astype(input_x.dtype))

    def fn(input_x, indices, updates):
        return _inplace(name, rows, input_x, indices, updates)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"In place on the Parameter ``input_x``: ``{kind}`` of ``updates`` into the rows ``indices``."
    return fn


scatter_update = _scatter_rows("update")
scatter_add = _scatter_rows("add")
scatter_sub = _scatter_rows("sub")
scatter_mul = _scatter_rows("mul")
scatter_div = _scatter_rows("div")
scatter_max = _scatter_rows("max")
scatter_min = _scatter_rows("min")


@op("index_add")
def _index_add(x, indices, y, axis):
    idx = [slice(None)] * x.ndim
    idx[axis % x.ndim] = indices
    return x.at[tuple(idx)].add(y.astype(x.dtype))


def index_add(x: Tensor, indices: Tensor, y: Tensor | float, axis: int, use_lock: bool = True,
              check_index_bound: bool = True) -> Tensor:
    """In place on the Parameter ``x``: add ``y`` into the slices ``indices`` along ``axis``; returns ``x``."""
    return _inplace("index_add", _index_add, x, indices, y, axis)


@op("index_fill")
def index_fill(x: Tensor, axis: int, index: Tensor, value: Tensor | float) -> Tensor:
    """A copy of ``x`` with the slices ``index`` along ``axis`` set to ``value``."""
    idx = [slice(None)] * x.ndim
    idx[axis % x.ndim] = jnp.reshape(index, -1)
    return x.at[tuple(idx)].set(jnp.asarray(value, x.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


@op("select_scatter")
def select_scatter(input: Tensor, src: Tensor, axis: int, index: Tensor) -> Tensor:
    """A copy of ``input`` with ``input.select(axis, index)`` replaced by ``src``."""
    idx = [slice(None)] * input.ndim
    idx[axis % input.ndim] = index
    return input.at[tuple(idx)].set(src.astype(input.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


@op("slice_scatter")
def slice_scatter(input: Tensor, src: Tensor, axis: int = 0, start: int | None = None, end: int | None = None,
                  step: int = 1) -> Tensor:
    """A copy of ``input`` with ``input[start:end:step]`` along ``axis`` replaced by ``src``."""
    idx = [slice(None)] * input.ndim
    idx[axis % input.ndim] = slice(start, end, step)
    return input.at[tuple(idx)].set(src.astype(input.dtype))  # type: ignore[attr-defined]  # @op body: a jax.Array here


@op("diagonal_scatter")
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` with its (offset, dim1, dim2) diagonal replaced by ``src``."""
    moved = jnp.moveaxis(input, (dim1, dim2), (-2, -1))
    m, n = moved.shape[-2:]
    k = src.shape[-1]
    i = jnp.arange(k)
    rows, cols = (i, i + offset) if offset >= 0 else (i - offset, i)
    check(k == max(0, min(m - rows[0] if k else 0, n - cols[0] if k else 0)) or k == 0, "diagonal_scatter",
          f"'src' has {k} diagonal elements, which does not match the input's shape {list(input.shape)}.")
    moved = moved.at[..., rows, cols].set(src.astype(input.dtype))
    return jnp.moveaxis(moved, (-2, -1), (dim1, dim2))


def _inplace_rows(kind):
    name = f"inplace_{kind}"

    @op(name)
    def fn(x, v, indices):
        idx = jnp.reshape(jnp.asarray(indices, jnp.int32), -1)
        if not isinstance(idx, jax.core.Tracer):  # (JAX would drop an out-of-range row silently)
            bad = [int(i) for i in np.asarray(idx) if not -x.shape[0] <= i < x.shape[0]]
            check(not bad, name, f"'indices' must be in [{-x.shape[0]}, {x.shape[0]}), but got {bad}.", IndexError)
        v = v.reshape((idx.shape[0],) + x.shape[1:]).astype(x.dtype)
        return _apply(x.at[idx], kind, v)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"A copy of ``x`` with ``{kind}`` of the rows ``v`` at row ``indices``."
    return fn


inplace_update = _inplace_rows("update")
inplace_add = _inplace_rows("add")
inplace_sub = _inplace_rows("sub")


def _segment(kind, reducer, empty):
    name = f"unsorted_segment_{kind}"

    @op(name)
    def fn(x, segment_ids, num_segments):
        n = int(unwrap(num_segments))
        init = jnp.full((n,) + x.shape[segment_ids.ndim:], empty(x.dtype), x.dtype)
        return getattr(init.at[segment_ids], reducer)(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The {kind} of the rows of ``x`` per segment id."
    return fn


def _lowest(dt):
    return jnp.finfo(dt).min if jnp.issubdtype(dt, jnp.floating) else jnp.iinfo(dt).min


def _highest(dt):
    return jnp.finfo(dt).max if jnp.issubdtype(dt, jnp.floating) else jnp.iinfo(dt).max


unsorted_segment_max = _segment("max", "max", _lowest)
unsorted_segment_min = _segment("min", "min", _highest)


@op("unsorted_segment_prod")
def unsorted_segment_prod(x: Tensor, segment_ids: Tensor, num_segments: int) -> Tensor:
    """The product of the rows of ``x`` per segment id (1 for empty segments)."""
    n = int(num_segments)
    return jnp.ones((n,) + x.shape[segment_ids.ndim:], x.dtype).at[segment_ids].multiply(x)



@op("unsorted_segment_sum")
def unsorted_segment_sum(input_x: Tensor, segment_ids: Tensor, num_segments: int) -> Tensor:
    """The sum of the rows of ``input_x`` per segment id (0 for empty segments)."""
    n = int(num_segments)
    return jnp.zeros((n,) + input_x.shape[segment_ids.ndim:], input_x.dtype).at[segment_ids].add(input_x)


register("_index_add_copy", _index_add)  # Tensor.index_add (a new Tensor, PyTorch-style arguments)
