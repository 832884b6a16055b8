"""More shape and layout ops: stacking/splitting helpers, diagonals, flips, index grids, searching."""

from __future__ import annotations

import builtins
import itertools
from typing import Any, Sequence

import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common._device_arrays import copy_array
from ..common.tensor import Tensor
from ._core import check, op, unwrap
from ._registry import register

__all__ = ["hstack", "vstack", "dstack", "column_stack", "row_stack", "hsplit", "vsplit", "dsplit", "tensor_split",
           "diagonal", "diag_embed", "diagflat", "fliplr", "flipud", "rot90", "atleast_1d", "atleast_2d", "atleast_3d",
           "ravel", "t", "swapdims", "expand", "expand_as", "view_as", "type_as", "take", "argwhere", "searchsorted",
           "bucketize", "unique_consecutive", "msort", "reverse", "cartesian_prod", "combinations", "block_diag",
           "tril_indices", "triu_indices", "channel_shuffle", "pixel_shuffle", "pixel_unshuffle",
           "fills", "deepcopy", "is_tensor", "dtype", "cross"]


def _seq(name, tensors):
    check(isinstance(tensors, (list, tuple)) and len(tensors) > 0, name,
          f"'tensors' must be a non-empty tuple or list of Tensors, but got {type(tensors).__name__}.")
    return [jnp.asarray(t) for t in tensors]


@op("hstack")
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along axis 1 (axis 0 for 1-D inputs)."""
    return jnp.hstack(_seq("hstack", tensors))


@op("vstack")
def vstack(inputs: Sequence[Tensor]) -> Tensor:
    """Concatenate along axis 0 after making 1-D inputs (1, N)."""
    return jnp.vstack(_seq("vstack", inputs))


row_stack = vstack


@op("dstack")
def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along axis 2 after making inputs at least 3-D."""
    return jnp.dstack(_seq("dstack", tensors))


@op("column_stack")
def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """Stack 1-D inputs as columns (2-D inputs are concatenated along axis 1)."""
    return jnp.column_stack(_seq("column_stack", tensors))


def _sections(name, input, indices_or_sections, axis):
    a = unwrap(input)
    check(a.ndim > axis, name, f"the input must have more than {axis} dimensions, but got shape {list(a.shape)}.")
    if isinstance(indices_or_sections, int):
        check(a.shape[axis] % indices_or_sections == 0, name,
              f"{indices_or_sections} does not divide dimension {axis} of shape {list(a.shape)} evenly.")
    return tensor_split(input, indices_or_sections, axis)


def hsplit(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]:
    """Split along axis 1 (axis 0 for 1-D inputs) into equal sections or at indices."""
    return _sections("hsplit", input, indices_or_sections, 0 if unwrap(input).ndim == 1 else 1)


def vsplit(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]:
    """Split along axis 0."""
    return _sections("vsplit", input, indices_or_sections, 0)


def dsplit(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]:
    """Split along axis 2."""
    return _sections("dsplit", input, indices_or_sections, 2)


@op("tensor_split")
def tensor_split(input: Tensor, indices_or_sections: int | Sequence[int],
                 axis: int = 0) -> tuple[Tensor, ...]:
    """Split into ``n`` nearly equal parts (the first ones one longer), or at the given indices."""
    if not isinstance(indices_or_sections, int):
        indices_or_sections = [int(i) for i in np.asarray(indices_or_sections).reshape(-1)]
    return tuple(jnp.array_split(input, indices_or_sections, axis=axis))


@op("diagonal")
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal over axes (dim1, dim2), appended as the last axis."""
    check(input.ndim >= 2, "diagonal", f"the input must be at least 2-D, but got shape {list(input.shape)}.")
    return jnp.diagonal(input, offset, dim1, dim2)


@op("diag_embed")
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Place the last axis of ``input`` on the (offset) diagonal of planes (dim1, dim2) of a new tensor."""
    n = input.shape[-1] + builtins.abs(offset)
    out_nd = input.ndim + 1
    d1, d2 = dim1 % out_nd, dim2 % out_nd
    check(d1 != d2, "diag_embed", f"'dim1' and 'dim2' must differ, but got {dim1} and {dim2}.")
    base = jnp.zeros(input.shape[:-1] + (n, n), input.dtype)
    i = jnp.arange(input.shape[-1])
    rows, cols = (i, i + offset) if offset >= 0 else (i - offset, i)
    base = base.at[..., rows, cols].set(input)
    rest = [k for k in range(out_nd) if k not in (d1, d2)]
    perm = [0] * out_nd
    for src, dst in zip(list(range(out_nd - 2)) + [out_nd - 2, out_nd - 1], rest + [d1, d2]):
        perm[dst] = src
    return jnp.transpose(base, perm)


@op("diagflat")
def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A 2-D tensor with the flattened input on its ``offset`` diagonal."""
    return jnp.diagflat(input, offset)


@op("fliplr")
def fliplr(input: Tensor) -> Tensor:
    check(input.ndim >= 2, "fliplr", f"the input must be at least 2-D, but got shape {list(input.shape)}.")
    return jnp.fliplr(input)


@op("flipud")
def flipud(input: Tensor) -> Tensor:
    check(input.ndim >= 1, "flipud", "the input must be at least 1-D.")
    return jnp.flipud(input)


@op("rot90")
def rot90(input: Tensor, k: int, dims: tuple[int, int]) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane ``dims`` (from the first axis toward the second)."""
    return jnp.rot90(input, k, tuple(dims))


def _atleast(name, fn, inputs):
    if isinstance(inputs, (list, tuple)):
        return tuple(Tensor(fn(unwrap(t))) for t in inputs)
    return Tensor(fn(unwrap(inputs)))


def atleast_1d(inputs: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    """Each input viewed with at least 1 dimension (one Tensor, or a tuple for a list)."""
    return _atleast("atleast_1d", jnp.atleast_1d, inputs)


def atleast_2d(inputs: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    """Each input viewed with at least 2 dimensions."""
    return _atleast("atleast_2d", jnp.atleast_2d, inputs)


def atleast_3d(inputs: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    """Each input viewed with at least 3 dimensions."""
    return _atleast("atleast_3d", jnp.atleast_3d, inputs)


@op("ravel")
def ravel(input: Tensor) -> Tensor:
    return jnp.ravel(input)


@op("t")
def t(input: Tensor) -> Tensor:
    """Transpose of a tensor of rank <= 2."""
    check(input.ndim <= 2, "t", f"the input must be at most 2-D, but got shape {list(input.shape)}.")
    return input.T if input.ndim == 2 else input


@op("swapdims")
def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    return jnp.swapaxes(input, dim0, dim1)


@op("expand")
def expand(input_x: Tensor, size: tuple[int, ...]) -> Tensor:
    """Broadcast to ``size``; -1 keeps that dimension."""
    dims = [int(s) for s in np.asarray(size).reshape(-1)]
    lead = len(dims) - input_x.ndim
    check(lead >= 0, "expand", f"'size' {dims} has fewer dimensions than the input {list(input_x.shape)}.")
    shape = tuple(input_x.shape[i - lead] if s == -1 else s for i, s in enumerate(dims))
    return jnp.broadcast_to(input_x, shape)


@op("expand_as")
def expand_as(input: Tensor, other: Tensor) -> Tensor:
    return jnp.broadcast_to(input, other.shape)


@op("view_as")
def view_as(input: Tensor, other: Tensor) -> Tensor:
    return jnp.reshape(input, other.shape)


@op("type_as", keep_f64=True)
def type_as(input: Tensor, other: Tensor) -> Tensor:
    return input.astype(other.dtype)


@op("take")
def take(input: Tensor, index: Tensor) -> Tensor:
    """Elements of the flattened input at ``index`` (shape of ``index``)."""
    return jnp.take(input.reshape(-1), index)


def argwhere(input: Tensor) -> Tensor:
    """(N, ndim) Int64 indices of the non-zero elements; eager only (data-dependent size)."""
    return Tensor(np.argwhere(np.asarray(unwrap(input))).astype(np.int64))


@op("searchsorted")
def searchsorted(sorted_sequence: Tensor, values: Tensor, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """Indices where ``values`` would be inserted into the (last axis of) ``sorted_sequence`` to keep it sorted."""
    side = side or ("right" if right else "left")
    check(side in ("left", "right"), "searchsorted", f"'side' must be 'left' or 'right', but got {side!r}.")
    seq = sorted_sequence
    if sorter is not None:
        seq = jnp.take_along_axis(seq, sorter, -1)  # type: ignore[assignment]  # @op body: a jax.Array here
    if seq.ndim == 1:
        out = jnp.searchsorted(seq, values, side=side)
    else:
        flat_s = seq.reshape(-1, seq.shape[-1])
        flat_v = values.reshape(flat_s.shape[0], -1)
        out = jnp.stack([jnp.searchsorted(s, v, side=side) for s, v in zip(flat_s, flat_v)]).reshape(values.shape)
    return out.astype(jnp.int32 if out_int32 else jnp.int64)


@op("bucketize")
def bucketize(input: Tensor, boundaries: Tensor, *, right: bool = False) -> Tensor:
    """Index of the bucket (between ``boundaries``) each element falls in."""
    b = jnp.asarray(boundaries)
    return jnp.searchsorted(b, input, side="right" if right else "left").astype(jnp.int32)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Tensor | tuple[Tensor, ...]:
    """Collapse runs of equal consecutive elements (over the flattened input, or along ``dim``); eager only."""
    a = np.asarray(unwrap(input))
    if dim is None:
        flat = a.reshape(-1)
        keep = np.ones(flat.size, bool)
        keep[1:] = flat[1:] != flat[:-1]
        out, shape = flat[keep], a.shape
    else:
        moved = np.moveaxis(a, dim, 0)
        keep = np.ones(moved.shape[0], bool)
        keep[1:] = np.any((moved[1:] != moved[:-1]).reshape(moved.shape[0] - 1, -1), axis=1)
        out, shape = np.moveaxis(moved[keep], 0, dim), (a.shape[dim],)
    idx = (np.cumsum(keep) - 1).reshape(shape).astype(np.int64)
    counts = np.diff(np.append(np.nonzero(keep)[0], keep.size)).astype(np.int64)
    res = [Tensor(out)]
    if return_inverse:
        res.append(Tensor(idx))
    if return_counts:
        res.append(Tensor(counts))
    return res[0] if len(res) == 1 else tuple(res)


@op("msort")
def msort(input: Tensor) -> Tensor:
    """Sorted along the first axis."""
    return jnp.sort(input, axis=0)


@op("reverse")
def reverse(x: Tensor, axis: tuple[int, ...]) -> Tensor:
    return jnp.flip(x, tuple(axis))


@op("cartesian_prod")
def cartesian_prod(*inputs: Tensor) -> Tensor:
    """All combinations of the elements of the 1-D inputs, one per row."""
    grids = jnp.meshgrid(*inputs, indexing="ij")
    out = jnp.stack([g.reshape(-1) for g in grids], axis=1)
    return out if len(inputs) > 1 else out.reshape(-1)


@op("combinations")
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """All length-``r`` combinations of the 1-D input's elements, one per row."""
    check(input.ndim == 1, "combinations", f"the input must be 1-D, but got shape {list(input.shape)}.")
    gen = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(gen(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    return input[idx] if idx.size else jnp.zeros((0,) if r else (0,), input.dtype)


@op("block_diag")
def block_diag(*inputs: Tensor) -> Tensor:
    """A block-diagonal matrix of the (up to 2-D) inputs."""
    mats = [jnp.atleast_2d(m) for m in inputs]
    rows, cols = builtins.sum(m.shape[0] for m in mats), builtins.sum(m.shape[1] for m in mats)
    out = jnp.zeros((rows, cols), jnp.result_type(*mats))
    r = c = 0
    for m in mats:
        out = out.at[r:r + m.shape[0], c:c + m.shape[1]].set(m)
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def _indices(fn, row, col, offset, dtype):
    r, c = fn(row, offset, col)
    return Tensor(np.stack([r, c]).astype(mstype.to_ms_dtype(dtype).to_numpy()))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: mstype.Type = mstype.int64) -> Tensor:
    """(2, N) row/column indices of the lower triangle of a row x col matrix."""
    return _indices(np.tril_indices, row, col, offset, dtype)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: mstype.Type = mstype.int64) -> Tensor:
    """(2, N) row/column indices of the upper triangle of a row x col matrix."""
    return _indices(np.triu_indices, row, col, offset, dtype)


@op("channel_shuffle")
def channel_shuffle(x: Tensor, groups: int) -> Tensor:
    """Interleave the channels (axis 1) of ``groups`` groups."""
    n, c = x.shape[:2]
    check(c % groups == 0, "channel_shuffle", f"the channels ({c}) must be divisible by groups ({groups}).")
    rest = x.shape[2:]
    return x.reshape((n, groups, c // groups) + rest).swapaxes(1, 2).reshape(x.shape)


@op("pixel_shuffle")
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    *lead, c, h, w = input.shape
    check(c % (r * r) == 0, "pixel_shuffle", f"the channels ({c}) must be divisible by upscale_factor^2 ({r * r}).")
    x = input.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    k = len(lead)
    x = jnp.transpose(x, tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2))  # type: ignore[assignment]  # @op body: a jax.Array here
    return x.reshape(tuple(lead) + (c // (r * r), h * r, w * r))


@op("pixel_unshuffle")
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    r = downscale_factor
    *lead, c, h, w = input.shape
    check(h % r == 0 and w % r == 0, "pixel_unshuffle", f"H and W ({h}, {w}) must be divisible by {r}.")
    x = input.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    k = len(lead)
    x = jnp.transpose(x, tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3))  # type: ignore[assignment]  # @op body: a jax.Array here
    return x.reshape(tuple(lead) + (c * r * r, h // r, w // r))


@op("fills")
def fills(x: Tensor, value: Tensor | float) -> Tensor:
    """A tensor like ``x`` filled with ``value``."""
    return jnp.full_like(x, value)


@op("deepcopy")
def deepcopy(input_x: Tensor) -> Tensor:
    return copy_array(input_x)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def dtype(x: Any) -> mstype.Type:
    """The dtype of a Tensor."""
    return x.dtype if isinstance(x, Tensor) else mstype.to_ms_dtype(jnp.asarray(x).dtype)


@op("cross")
def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """Cross product along ``dim`` (default: the first axis of size 3, as in MindSpore)."""
    if dim is None:
        shape = jnp.broadcast_shapes(input.shape, other.shape)
        sizes = [i for i, s in enumerate(shape) if s == 3]
        check(bool(sizes), "cross", f"no dimension of size 3 in the inputs' shape {list(shape)}.")
        dim = sizes[0]
    check(input.shape[dim] == 3 and other.shape[dim] == 3, "cross",
          f"dimension {dim} must have size 3, got shapes {list(input.shape)} and {list(other.shape)}.")
    return jnp.cross(input, other, axis=dim)



def _unique_sorted(input, return_inverse=False, return_counts=False, dim=None):
    """``Tensor.unique``: sorted unique values (along ``dim``), optionally inverse indices and counts (Int64)."""
    a = np.asarray(unwrap(input))
    vals, inv, counts = np.unique(a, return_inverse=True, return_counts=True, axis=dim)
    res = [Tensor(vals)]
    if return_inverse:
        res.append(Tensor(inv.reshape(a.shape if dim is None else (a.shape[dim],)).astype(np.int64)))
    if return_counts:
        res.append(Tensor(counts.astype(np.int64)))
    return res[0] if len(res) == 1 else tuple(res)


register("_unique_sorted", _unique_sorted)
