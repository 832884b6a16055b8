"""``mindspore.mint`` joining, splitting, reshaping and linear-algebra helpers (delegating to ``ops``)."""
from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from ._functions import TARGETS, _op, _uses

if TYPE_CHECKING:
    from typing import Any, Sequence

    from ..common import dtype as mstype
    from ..common.tensor import Tensor


def _dims(dim):
    return tuple(dim) if isinstance(dim, list) else dim


@_uses("cat")
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Concatenate along ``dim``."""
    return _op("cat")(tensors, dim)


concat = _uses("cat")(lambda tensors, dim=0: cat(tensors, dim))
concat.__name__ = "concat"
TARGETS["concat"] = ("cat",)


@_uses("stack")
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Stack along a new ``dim``."""
    return _op("stack")(tensors, dim)


@_uses("hstack")
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate column-wise."""
    return _op("hstack")(tensors)


@_uses("dstack")
def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate depth-wise (along the third dim)."""
    return _op("dstack")(tensors)


@_uses("split")
def split(tensor: Tensor, split_size_or_sections: int | list[int] | tuple[int, ...],
          dim: int = 0) -> tuple[Tensor, ...]:
    """Split into chunks of a size, or of the listed sizes."""
    return _op("split")(tensor, split_size_or_sections, dim)


@_uses("chunk")
def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Split into ``chunks`` near-equal parts."""
    return _op("chunk")(input, chunks, dim)


@_uses("unbind")
def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, as a tuple."""
    return _op("unbind")(input, dim)


@_uses("reshape")
def reshape(input: Tensor, shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """``input`` with a new shape."""
    return _op("reshape")(input, shape)


@_uses("flatten")
def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim``..``end_dim`` into one."""
    return _op("flatten")(input, start_dim=start_dim, end_dim=end_dim)


@_uses("squeeze")
def squeeze(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Remove size-1 dims (only ``dim`` when given)."""
    return _op("squeeze")(input, dim)


@_uses("unsqueeze")
def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim at ``dim``."""
    return _op("unsqueeze")(input, dim)


@_uses("permute")
def permute(input: Tensor, dims: int | tuple[int, ...] | list[int]) -> Tensor:
    """Reorder dims."""
    return _op("permute")(input, dims)


@_uses("swapaxes")
def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims."""
    return _op("swapaxes")(input, dim0, dim1)


@_uses("swapaxes")
def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """Swap two dims."""
    return _op("swapaxes")(input, axis0, axis1)


@_uses("t")
def t(input: Tensor) -> Tensor:
    """Transpose of a tensor of at most 2 dims."""
    return _op("t")(input)


@_uses("broadcast_to")
def broadcast_to(input: Tensor, shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """Broadcast to ``shape`` (-1 keeps a dim)."""
    return _op("broadcast_to")(input, shape)


@_uses("flip")
def flip(input: Tensor, dims: int | tuple[int, ...] | list[int]) -> Tensor:
    """Reverse the order along ``dims``."""
    return _op("flip")(input, dims)


@_uses("roll")
def roll(input: Tensor, shifts: int | tuple[int, ...], dims: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Roll elements along ``dims`` (the flattened input when None)."""
    return _op("roll")(input, shifts, dims)


@_uses("tile")
def tile(input: Tensor, dims: int | tuple[int, ...] | list[int]) -> Tensor:
    """Repeat the whole tensor ``dims`` times per dim."""
    return _op("tile")(input, dims)


@_uses("repeat_interleave")
def repeat_interleave(input: Tensor, repeats: int, dim: int | None = None, *,
                      output_size: int | tuple[int, ...] | None = None) -> Tensor:
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened input when None)."""
    return _op("repeat_interleave")(input, repeats, dim)


@_uses("tril")
def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """Lower triangle (below ``diagonal``)."""
    return _op("tril")(input, diagonal)


@_uses("triu")
def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """Upper triangle (above ``diagonal``)."""
    return _op("triu")(input, diagonal)


@_uses("diff")
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """``n``-th forward difference along ``dim``."""
    return _op("diff")(input, n, dim, prepend, append)


@_uses("diag")
def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A diagonal matrix from a 1-D input, or the ``diagonal``-th diagonal of a 2-D input."""
    return _op("diag")(input, diagonal) if diagonal else _op("diag")(input)


@_uses("meshgrid")
def meshgrid(*tensors: Tensor, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids ('ij' indexing unless ``indexing='xy'``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return _op("meshgrid")(*tensors, indexing="ij" if indexing is None else indexing)


@_uses("einsum")
def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation."""
    return _op("einsum")(equation, *operands)


@_uses("cdist")
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """p-norm distances between the rows of ``x1`` and ``x2``."""
    return _op("cdist")(x1, x2, p)


@_uses("norm")
def norm(input: Tensor, p: str | float = "fro", dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
         dtype: mstype.Type | None = None) -> Tensor:
    """Vector or matrix norm (``p`` 'fro', 'nuc' or a number)."""
    if p == "fro" and (dim is None or isinstance(dim, int) or builtins.len(dim) == 1):
        p = 2 if dim is not None or input.ndim != 2 else "fro"
        if dim is None:
            return _op("vector_norm")(input, 2, None, keepdim, dtype=dtype)
    return _op("norm")(input, p, _dims(dim), keepdim, dtype=dtype)

