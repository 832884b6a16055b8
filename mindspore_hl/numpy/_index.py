"""Index helpers, element selection and random draws of ``mindspore.numpy`` (``tril_indices``, ``take``,
``choose``, ``rand`` ...)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from . import _base
from ._base import arr, asarray_const, ms_dtype, np_dtype, op, promote, wrap

if TYPE_CHECKING:
    from typing import Any, Sequence

    from ..common.tensor import Tensor
    from ._base import ArrayLike, DTypeLike

__all__ = ["ix_", "size", "isscalar", "array_str", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices", "ravel_multi_index", "unravel_index", "rand", "randn", "randint",
           "indices", "take", "take_along_axis", "choose", "select"]


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def ix_(*args: Any) -> tuple[Tensor, ...]:
    """Open mesh index arrays from 1-D sequences."""
    return tuple(wrap(a) for a in jnp.ix_(*[arr(a) for a in args]))


def size(a: ArrayLike, axis: int | None = None) -> int:
    """Number of elements (along ``axis``)."""
    t = asarray_const(a)
    return int(np.prod(t.shape)) if axis is None else t.shape[axis]


def isscalar(element: ArrayLike) -> bool:
    """Whether ``element`` is a Python/NumPy scalar (a Tensor never is)."""
    return isinstance(element, (int, float, bool, complex, str, bytes, np.generic))


def array_str(a: ArrayLike) -> str:
    """The string of the array's values."""
    return np.array_str(asarray_const(a).asnumpy())


def _idx(pair):
    return tuple(wrap(jnp.asarray(p, jnp.int32)) for p in pair)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> Tensor:
    """Indices of the lower triangle of an n x m array."""
    return _idx(np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> Tensor:
    """Indices of the upper triangle of an n x m array."""
    return _idx(np.triu_indices(n, k, m))


def tril_indices_from(arr: ArrayLike, k: int = 0) -> Tensor:
    """``tril_indices`` for the shape of a 2-D array."""
    s = asarray_const(arr).shape
    return tril_indices(s[-2], k, s[-1])


def triu_indices_from(arr: ArrayLike, k: int = 0) -> Tensor:
    """``triu_indices`` for the shape of a 2-D array."""
    s = asarray_const(arr).shape
    return triu_indices(s[-2], k, s[-1])


def diag_indices(n: int, ndim: int = 2) -> Tensor:
    """Indices of the main diagonal of an n x ... x n array."""
    return _idx(np.diag_indices(n, ndim))


def ravel_multi_index(multi_index: Sequence[ArrayLike], dims: tuple[int, ...] | list[int], mode: str = "clip",
                      order: str = "C") -> Tensor:
    """Flat indices of index tuples into an array of shape ``dims``."""
    return wrap(jnp.ravel_multi_index(tuple(arr(i) for i in multi_index), tuple(dims), mode=mode, order=order))


def unravel_index(indices: ArrayLike, shape: tuple[int, ...] | list[int], order: str = "C") -> tuple[Tensor, ...]:
    """Index tuples of flat indices into an array of ``shape`` (out-of-range indices are clipped)."""
    i = arr(indices)
    total = int(np.prod(shape))
    i = jnp.clip(jnp.where(i < 0, i + total, i), 0, total - 1)
    if order == "F":
        return tuple(wrap(o) for o in jnp.unravel_index(i, tuple(shape)[::-1])[::-1])
    return tuple(wrap(o) for o in jnp.unravel_index(i, tuple(shape)))


def _sz(shape):
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else tuple(shape)


def rand(*shape: Any, dtype: DTypeLike = mstype.float32) -> Tensor:
    """Uniform samples in [0, 1)."""
    return op("rand")(*_sz(shape), dtype=ms_dtype(dtype))


def randn(*shape: Any, dtype: DTypeLike = mstype.float32) -> Tensor:
    """Standard normal samples."""
    return op("randn")(*_sz(shape), dtype=ms_dtype(dtype))


def randint(minval: ArrayLike, maxval: ArrayLike | None = None, shape: int | tuple[int, ...] | list[int] | None = None,
            dtype: DTypeLike = mstype.int32) -> Tensor:
    """Integers in [minval, maxval) (in [0, minval) when maxval is None)."""
    lo, hi = (0, minval) if maxval is None else (minval, maxval)
    return op("randint")(lo, hi, _shape(shape) if shape is not None else (), dtype=ms_dtype(dtype))


def indices(dimensions: tuple[int, ...] | list[int], dtype: DTypeLike = mstype.int32,
            sparse: bool = False) -> list[Tensor]:
    """Index grids of a grid of shape ``dimensions``."""
    out = jnp.indices(tuple(dimensions), dtype=np_dtype(dtype), sparse=sparse)
    return [wrap(o) for o in out]


def take(a: ArrayLike, indices: ArrayLike, axis: int | None = None, mode: str = "clip") -> Tensor:
    """Elements at ``indices`` along ``axis`` (flattened when None); ``mode`` 'clip' (negative indices count
    from the end first, as in MindSpore) or 'wrap'."""
    x, i = arr(a), arr(indices)
    if mode != "wrap":
        n = x.size if axis is None else x.shape[axis]
        i, mode = jnp.where(i < 0, i + n, i), "clip"
    return wrap(jnp.take(x, i, axis, mode=mode))


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: int) -> Tensor:
    """Elements of ``arr`` at the matching ``indices`` along ``axis``."""
    return wrap(jnp.take_along_axis(_base.arr(arr), _base.arr(indices), axis))


def choose(a: ArrayLike, choices: Sequence[ArrayLike], mode: str = "clip") -> Tensor:
    """out[i] = choices[a[i]][i]."""
    return wrap(jnp.choose(arr(a), [t._value for t in promote(*choices)], mode=mode))


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike], default: ArrayLike = 0) -> Tensor:
    """Elements of the first choice whose condition holds, else ``default``."""
    cs = promote(*choicelist)
    return wrap(jnp.select([arr(c).astype(bool) for c in condlist], [t._value for t in cs],
                           jnp.asarray(default, cs[0]._value.dtype)))
