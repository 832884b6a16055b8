"""``mindspore.mint`` joining, splitting, reshaping and linear-algebra helpers (delegating to ``ops``)."""
from __future__ import annotations

import builtins

from ._functions import TARGETS, _op, _uses


def _dims(dim):
    return tuple(dim) if isinstance(dim, list) else dim


@_uses("cat")
def cat(tensors, dim=0):
    """Concatenate along ``dim``."""
    return _op("cat")(tensors, dim)


concat = _uses("cat")(lambda tensors, dim=0: cat(tensors, dim))
concat.__name__ = "concat"
TARGETS["concat"] = ("cat",)


@_uses("stack")
def stack(tensors, dim=0):
    """Stack along a new ``dim``."""
    return _op("stack")(tensors, dim)


@_uses("hstack")
def hstack(tensors):
    """Concatenate column-wise."""
    return _op("hstack")(tensors)


@_uses("dstack")
def dstack(tensors):
    """Concatenate depth-wise (along the third dim)."""
    return _op("dstack")(tensors)


@_uses("split")
def split(tensor, split_size_or_sections, dim=0):
    """Split into chunks of a size, or of the listed sizes."""
    return _op("split")(tensor, split_size_or_sections, dim)


@_uses("chunk")
def chunk(input, chunks, dim=0):
    """Split into ``chunks`` near-equal parts."""
    return _op("chunk")(input, chunks, dim)


@_uses("unbind")
def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple."""
    return _op("unbind")(input, dim)


@_uses("reshape")
def reshape(input, shape):
    """``input`` with a new shape."""
    return _op("reshape")(input, shape)


@_uses("flatten")
def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim``..``end_dim`` into one."""
    return _op("flatten")(input, start_dim=start_dim, end_dim=end_dim)


@_uses("squeeze")
def squeeze(input, dim=None):
    """Remove size-1 dims (only ``dim`` when given)."""
    return _op("squeeze")(input, dim)


@_uses("unsqueeze")
def unsqueeze(input, dim):
    """Insert a size-1 dim at ``dim``."""
    return _op("unsqueeze")(input, dim)


@_uses("permute")
def permute(input, dims):
    """Reorder dims."""
    return _op("permute")(input, dims)


@_uses("swapaxes")
def transpose(input, dim0, dim1):
    """Swap two dims."""
    return _op("swapaxes")(input, dim0, dim1)


@_uses("swapaxes")
def swapaxes(input, axis0, axis1):
    """Swap two dims."""
    return _op("swapaxes")(input, axis0, axis1)


@_uses("t")
def t(input):
    """Transpose of a tensor of at most 2 dims."""
    return _op("t")(input)


@_uses("broadcast_to")
def broadcast_to(input, shape):
    """Broadcast to ``shape`` (-1 keeps a dim)."""
    return _op("broadcast_to")(input, shape)


@_uses("flip")
def flip(input, dims):
    """Reverse the order along ``dims``."""
    return _op("flip")(input, dims)


@_uses("roll")
def roll(input, shifts, dims=None):
    """Roll elements along ``dims`` (the flattened input when None)."""
    return _op("roll")(input, shifts, dims)


@_uses("tile")
def tile(input, dims):
    """Repeat the whole tensor ``dims`` times per dim."""
    return _op("tile")(input, dims)


@_uses("repeat_interleave")
def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened input when None)."""
    return _op("repeat_interleave")(input, repeats, dim)


@_uses("tril")
def tril(input, diagonal=0):
    """Lower triangle (below ``diagonal``)."""
    return _op("tril")(input, diagonal)


@_uses("triu")
def triu(input, diagonal=0):
    """Upper triangle (above ``diagonal``)."""
    return _op("triu")(input, diagonal)


@_uses("diff")
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """``n``-th forward difference along ``dim``."""
    return _op("diff")(input, n, dim, prepend, append)


@_uses("diag")
def diag(input, diagonal=0):
    """A diagonal matrix from a 1-D input, or the ``diagonal``-th diagonal of a 2-D input."""
    return _op("diag")(input, diagonal) if diagonal else _op("diag")(input)


@_uses("meshgrid")
def meshgrid(*tensors, indexing=None):
    """Coordinate grids ('ij' indexing unless ``indexing='xy'``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return _op("meshgrid")(*tensors, indexing="ij" if indexing is None else indexing)


@_uses("einsum")
def einsum(equation, *operands):
    """Einstein summation."""
    return _op("einsum")(equation, *operands)


@_uses("cdist")
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between the rows of ``x1`` and ``x2``."""
    return _op("cdist")(x1, x2, p)


@_uses("norm")
def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm (``p`` 'fro', 'nuc' or a number)."""
    if p == "fro" and (dim is None or isinstance(dim, int) or builtins.len(dim) == 1):
        p = 2 if dim is not None or input.ndim != 2 else "fro"
        if dim is None:
            return _op("vector_norm")(input, 2, None, keepdim, dtype=dtype)
    return _op("norm")(input, p, _dims(dim), keepdim, dtype=dtype)

