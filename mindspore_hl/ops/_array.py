"""Shape manipulation, joining, splitting and slicing (``ops.concat``, ``ops.reshape``, ``ops.split`` ...)."""

from __future__ import annotations

import builtins
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import OpError, check, op, unwrap

__all__ = ["cat", "concat", "stack", "unstack", "unbind", "reshape", "transpose", "permute", "squeeze", "unsqueeze",
           "expand_dims", "flatten", "tile", "broadcast_to", "split", "chunk", "flip", "roll", "cast", "shape", "rank",
           "size", "numel", "slice", "strided_slice", "narrow", "tril", "triu", "diag", "meshgrid", "unique",
           "nonzero", "repeat_interleave", "repeat_elements", "swapaxes", "moveaxis", "movedim", "stop_gradient",
           "depend", "identity"]


def _shapes(xs):
    return [list(jnp.shape(x)) for x in xs]


@op("concat")
def concat(tensors: Sequence[Tensor], axis: int = 0) -> Tensor:
    """Join a list/tuple of Tensors along an existing ``axis``."""
    check(isinstance(tensors, (list, tuple)) and len(tensors) > 0, "concat",
          "'tensors' must be a non-empty list or tuple of Tensors.")
    nd = jnp.ndim(tensors[0])
    check(nd > 0 and -nd <= axis < nd, "concat", f"'axis' {axis} is out of range for {nd}-D inputs.")
    ax = axis % nd
    s0 = jnp.shape(tensors[0])
    for t in tensors[1:]:
        s = jnp.shape(t)
        check(len(s) == nd and all(a == b for i, (a, b) in enumerate(zip(s, s0)) if i != ax), "concat",
              f"all inputs must have the same shape except along axis {axis}, but got shapes {_shapes(tensors)}.")
    return jnp.concatenate(tensors, axis)


cat = concat


@op("stack")
def stack(tensors: Sequence[Tensor], axis: int = 0) -> Tensor:
    """Join Tensors of the same shape along a new ``axis``."""
    check(isinstance(tensors, (list, tuple)) and len(tensors) > 0, "stack",
          "'tensors' must be a non-empty list or tuple of Tensors.")
    shapes = _shapes(tensors)
    check(all(s == shapes[0] for s in shapes), "stack", f"all inputs must have the same shape, but got {shapes}.")
    return jnp.stack(tensors, axis)


@op("unstack")
def unstack(input_x: Tensor, axis: int = 0) -> tuple[Tensor, ...]:
    """Split along ``axis`` into a tuple of Tensors with that axis removed."""
    return tuple(jnp.moveaxis(input_x, axis, 0))


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    return unstack(input, dim)


def _to_shape(name, shape):
    shape = unwrap(shape)
    if isinstance(shape, int):
        return (shape,)
    if isinstance(shape, (jax.Array, np.ndarray)):
        return tuple(int(s) for s in np.asarray(shape).reshape(-1))
    check(isinstance(shape, (tuple, list)), name, f"'shape' must be a tuple or list of ints, but got {shape!r}.")
    if all(type(s) is int for s in shape):
        return tuple(shape)
    # Tensors/NumPy ints become ints; other entries (symbolic dimensions under jax.export) pass through.
    return tuple(int(s) if isinstance(s, (Tensor, np.integer, jax.Array)) else s for s in shape)


@op("reshape")
def reshape(input: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Reshape to ``shape`` (one entry may be -1)."""
    shp = _to_shape("reshape", shape)
    try:
        return jnp.reshape(input, shp)
    except (TypeError, ValueError):  # validate only on failure: reshape is on the hot path
        n = int(np.prod(jnp.shape(input), dtype=np.int64))
        raise OpError(f"For 'reshape', the input of shape {list(jnp.shape(input))} ({n} elements) cannot be "
                      f"reshaped to {list(shp)}.") from None


@op("transpose")
def transpose(input: Tensor, dims: tuple[int, ...]) -> Tensor:
    """Permute the axes: output axis i is input axis ``dims[i]``."""
    perm = tuple(dims)
    nd = jnp.ndim(input)
    check(sorted(p % nd if nd else p for p in perm) == list(range(nd)), "transpose",
          f"'dims' {perm} is not a permutation of the {nd} axes of the input (shape {list(jnp.shape(input))}).")
    return jnp.transpose(input, perm)


def permute(input: Tensor, axis: tuple[int, ...]) -> Tensor:
    return transpose(input, axis)


@op("squeeze")
def squeeze(input: Tensor, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Remove axes of length 1 (all, or those in ``axis``)."""
    if axis is not None:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        for a in axes:
            check(jnp.shape(input)[a] == 1, "squeeze",
                  f"cannot squeeze axis {a} of length {jnp.shape(input)[a]} (shape {list(jnp.shape(input))}).")
        axis = axes
    return jnp.squeeze(input, axis)


@op("expand_dims")
def expand_dims(input_x: Tensor, axis: int) -> Tensor:
    return jnp.expand_dims(input_x, axis)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    return expand_dims(input, dim)


@op("flatten")
def flatten(input: Tensor, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """Flatten dimensions start_dim..end_dim (default: all but the first)."""
    check(order in ("C", "F"), "flatten", f"'order' must be 'C' or 'F', but got {order!r}.")
    x = input if order == "C" else jnp.transpose(input)
    nd = x.ndim
    if nd == 0:
        return x.reshape(1)
    s, e = start_dim % nd, end_dim % nd
    check(s <= e, "flatten", f"'start_dim' {start_dim} must not be after 'end_dim' {end_dim}.")
    return x.reshape(x.shape[:s] + (-1,) + x.shape[e + 1:])


@op("tile")
def tile(input: Tensor, dims: tuple[int, ...]) -> Tensor:
    return jnp.tile(input, tuple(dims))


@op("broadcast_to")
def broadcast_to(input: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Broadcast to ``shape``; -1 keeps the input's size in that position."""
    shp = list(_to_shape("broadcast_to", shape))
    in_shape = jnp.shape(input)
    offset = len(shp) - len(in_shape)
    for i, s in enumerate(shp):
        if s == -1:
            check(i >= offset, "broadcast_to", f"-1 is not allowed in a new leading dimension of {shp}.")
            shp[i] = in_shape[i - offset]
    return jnp.broadcast_to(input, tuple(shp))


@op("split")
def split(tensor: Tensor, split_size_or_sections: int | Sequence[int],
          axis: int = 0) -> tuple[Tensor, ...]:
    """Split into chunks of ``split_size`` (int) or of the given section sizes (list)."""
    n = tensor.shape[axis]
    if isinstance(split_size_or_sections, int):
        check(split_size_or_sections > 0, "split", f"'split_size' must be positive, got {split_size_or_sections}.")
        points = list(range(split_size_or_sections, n, split_size_or_sections))
    else:
        sizes = list(split_size_or_sections)
        check(sum(sizes) == n, "split", f"the sections {sizes} must add up to the axis length {n}.")
        points = list(np.cumsum(sizes)[:-1])
    return tuple(jnp.split(tensor, points, axis))


@op("chunk")
def chunk(input: Tensor, chunks: int, axis: int = 0) -> tuple[Tensor, ...]:
    """Split into ``chunks`` pieces of size ceil(n / chunks) (the last may be smaller)."""
    n = input.shape[axis]
    size = -(-n // chunks)
    return tuple(jnp.split(input, list(range(size, n, size)), axis))


@op("flip")
def flip(input: Tensor, dims: tuple[int, ...]) -> Tensor:
    return jnp.flip(input, tuple(dims) if isinstance(dims, (list, tuple)) else dims)


@op("roll")
def roll(input: Tensor, shifts: int | tuple[int, ...], dims: tuple[int, ...] | None = None) -> Tensor:
    return jnp.roll(input, shifts, dims)


@op("cast", keep_f64=True)
def cast(input: Tensor, dtype: mstype.Type) -> Tensor:
    """Convert to ``dtype`` (``ms.float32`` ...)."""
    return jnp.asarray(input).astype(mstype.to_ms_dtype(dtype).to_numpy())


def shape(input_x: Tensor) -> tuple[int, ...]:
    """The shape as a tuple of ints."""
    return tuple(jnp.shape(unwrap(input_x)))


def rank(input_x: Tensor) -> Tensor:
    """The number of dimensions."""
    return jnp.ndim(unwrap(input_x))


def size(input_x: Tensor) -> int:
    """The number of elements."""
    return int(np.prod(jnp.shape(unwrap(input_x)), dtype=np.int64))


def numel(input: Tensor) -> int:
    """The number of elements of ``input``."""
    return size(input)


@op("slice")
def slice(input_x: Tensor, begin: tuple[int, ...], size: tuple[int, ...]) -> Tensor:
    """input_x[begin[i] : begin[i] + size[i]] per axis (size -1: to the end)."""
    idx = tuple(builtins.slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))
    return input_x[idx]


@op("strided_slice")
def strided_slice(input_x: Tensor, begin: tuple[int, ...], end: tuple[int, ...], strides: tuple[int, ...],
                  begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """TensorFlow-style strided slice with bit masks."""
    idx = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            idx.append(Ellipsis)
        elif new_axis_mask & bit:
            idx.append(None)
        elif shrink_axis_mask & bit:
            idx.append(b)
        else:
            idx.append(builtins.slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return input_x[tuple(idx)]


@op("narrow")
def narrow(input: Tensor, axis: int, start: int, length: int) -> Tensor:
    return jax.lax.slice_in_dim(input, start, start + length, axis=axis)


@op("tril")
def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    return jnp.tril(input, diagonal)


@op("triu")
def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    return jnp.triu(input, diagonal)


@op("diag")
def diag(input: Tensor) -> Tensor:
    """The diagonal tensor of ``input``: shape ``s + s`` with ``out[i..., i...] = input[i...]`` (rank 1-4)."""
    check(1 <= input.ndim <= 4, "diag", f"the input must have rank 1 to 4, but got shape {list(input.shape)}.")
    n = input.size
    flat = jnp.zeros((n, n), input.dtype).at[jnp.arange(n), jnp.arange(n)].set(input.reshape(-1))
    return flat.reshape(input.shape + input.shape)


@op("meshgrid")
def meshgrid(*inputs: Tensor, indexing: str = "xy") -> tuple[Tensor, ...]:
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = inputs[0]
    check(indexing in ("xy", "ij"), "meshgrid", f"'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    check(len({jnp.result_type(x) for x in inputs}) <= 1, "meshgrid", f"all inputs must have the same dtype, but "
          f"got {[str(jnp.result_type(x)) for x in inputs]}.")
    # (MindSpore's kernel reads each input's elements in order: an N-D input counts as its flattened 1-D form)
    return tuple(jnp.meshgrid(*[jnp.reshape(x, -1) for x in inputs], indexing=indexing))


def unique(input: Tensor) -> tuple[Tensor, Tensor]:
    """(unique values in order of first appearance, index of each input element among them).

    The indices are Int64 for an Int64 input, else Int32 (as MindSpore). Eager only: the output
    size depends on the data.
    """
    a = np.asarray(unwrap(input))
    vals, first, inv = np.unique(a.reshape(-1), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_dtype = np.int64 if a.dtype == np.int64 else np.int32
    return Tensor(vals[order]), Tensor(rank[inv.reshape(-1)].reshape(a.shape).astype(idx_dtype))


def nonzero(input: Tensor, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Indices of the non-zero elements (Int64), eager only (data-dependent size)."""
    idx = np.nonzero(np.asarray(unwrap(input)))
    if as_tuple:
        return tuple(Tensor(i.astype(np.int64)) for i in idx)
    return Tensor(np.stack(idx, -1).astype(np.int64))


@op("repeat_interleave")
def repeat_interleave(input: Tensor, repeats: int | Tensor, axis: int | None = None) -> Tensor:
    return jnp.repeat(input, repeats, axis)


@op("repeat_elements")
def repeat_elements(x: Tensor, rep: int, axis: int = 0) -> Tensor:
    return jnp.repeat(x, rep, axis)


@op("swapaxes")
def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    return jnp.swapaxes(input, axis0, axis1)


@op("moveaxis")
def moveaxis(x: Tensor, source: int | tuple[int, ...], destination: int | tuple[int, ...]) -> Tensor:
    return jnp.moveaxis(x, source, destination)


movedim = moveaxis


@op("stop_gradient")
def stop_gradient(value: Tensor | float) -> Tensor:
    """The same value, with no gradient flowing back through it."""
    return jax.tree_util.tree_map(jax.lax.stop_gradient, value)


def depend(value: Tensor | float, expr: Any) -> Tensor:
    """Return ``value`` (MindSpore orders side effects with it; JAX orders by data dependence)."""
    return value


def identity(x: Tensor) -> Tensor:
    return x
