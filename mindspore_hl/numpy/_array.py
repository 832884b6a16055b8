"""Creation and manipulation functions of ``mindspore.numpy`` (``array``, ``arange``, ``concatenate``, ``split`` ...).

Names with a MindSpore op call it; NumPy-only helpers (index grids, ``ix_``, ``choose`` ...) work on the arrays.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ..common import dtype as mstype
from . import _base
from ._base import apply_dtype, arr, asarray_const, ms_dtype, np_dtype, op, promote, wrap

if TYPE_CHECKING:
    from typing import Any, Sequence

    from ..common.tensor import Tensor
    from ._base import ArrayLike, DTypeLike

__all__ = ["array", "asarray", "asfarray", "arange", "linspace", "logspace", "geomspace", "zeros", "ones", "full",
           "empty", "zeros_like", "ones_like", "full_like", "empty_like", "eye", "identity", "tri", "diag", "diagflat",
           "meshgrid", "vander", "bartlett", "blackman", "hamming", "hanning", "append", "array_split",
           "split", "hsplit", "vsplit", "dsplit", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays",
           "broadcast_to", "column_stack", "concatenate", "dstack", "hstack", "vstack", "stack", "expand_dims", "flip",
           "fliplr", "flipud", "moveaxis", "ravel", "repeat", "reshape", "roll", "rollaxis", "rot90", "squeeze",
           "swapaxes", "tile", "transpose", "diagonal", "tril", "triu", "where", "pad"]


def array(obj: ArrayLike, dtype: DTypeLike | None = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """A Tensor from ``obj`` (Python ints -> Int32, floats -> Float32)."""
    t = asarray_const(obj, dtype)
    while t.ndim < ndmin:
        t = op("expand_dims")(t, 0)
    return t


def asarray(a: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """``a`` as a Tensor (no copy for a Tensor of that dtype)."""
    return asarray_const(a, dtype)


def asfarray(a: ArrayLike, dtype: DTypeLike = mstype.float32) -> Tensor:
    """``a`` as a floating Tensor (``dtype`` if it is floating, else Float32)."""
    d = ms_dtype(dtype)
    if np_dtype(d).kind != "f":
        d = mstype.float32
    return asarray_const(a, d)


def _scalar_dtype(*values, dtype=None):
    if dtype is not None:
        return ms_dtype(dtype)
    return mstype.float32 if any(isinstance(v, float) for v in values) else mstype.int32


def arange(start: ArrayLike, stop: ArrayLike | None = None, step: float | None = None,
           dtype: DTypeLike | None = None) -> Tensor:
    """Evenly spaced values in [start, stop) (Int32 for ints, Float32 for floats)."""
    d = _scalar_dtype(start, stop, step, dtype=dtype)
    if stop is None:
        start, stop = 0, start
    return op("cast")(op("arange")(start, stop, 1 if step is None else step), d)


def linspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: DTypeLike | None = None, axis: int = 0) -> Tensor | tuple[Tensor, Tensor]:
    """``num`` evenly spaced values from start to stop (Float32 by default)."""
    lo, hi = arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32)
    out, step = jnp.linspace(lo, hi, num, endpoint=endpoint, retstep=True, axis=axis)
    t = wrap(out.astype(np_dtype(dtype) or jnp.float32))
    return (t, wrap(step)) if retstep else t


def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: DTypeLike | None = None, axis: int = 0) -> Tensor:
    """base ** linspace(start, stop, num)."""
    y = linspace(start, stop, num, endpoint, dtype=None, axis=axis)
    return apply_dtype(op("pow")(asarray_const(float(base)), y), dtype)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, dtype: DTypeLike | None = None,
              axis: int = 0) -> Tensor:
    """``num`` values spaced evenly on a log scale from start to stop."""
    out = jnp.geomspace(arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32), num, endpoint, axis=axis)
    return wrap(out.astype(np_dtype(dtype) or jnp.float32))


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def zeros(shape: int | tuple[int, ...] | list[int], dtype: DTypeLike = mstype.float32) -> Tensor:
    """A Tensor of zeros."""
    return op("zeros")(_shape(shape), ms_dtype(dtype))


def ones(shape: int | tuple[int, ...] | list[int], dtype: DTypeLike = mstype.float32) -> Tensor:
    """A Tensor of ones."""
    return op("ones")(_shape(shape), ms_dtype(dtype))


def empty(shape: int | tuple[int, ...] | list[int], dtype: DTypeLike = mstype.float32) -> Tensor:
    """An uninitialised Tensor (zero-filled here)."""
    return op("zeros")(_shape(shape), ms_dtype(dtype))


def full(shape: int | tuple[int, ...] | list[int], fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """A Tensor filled with ``fill_value`` (dtype from the value when None)."""
    v = asarray_const(fill_value)
    d = ms_dtype(dtype) if dtype is not None else v.dtype
    return op("broadcast_to")(op("cast")(v, d), _shape(shape))


def _like(a, dtype, shape):
    t = asarray_const(a)
    return (_shape(shape) if shape is not None else t.shape), (ms_dtype(dtype) if dtype is not None else t.dtype)


def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None,
               shape: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Zeros shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return op("zeros")(s, d)


def empty_like(prototype: ArrayLike, dtype: DTypeLike | None = None,
               shape: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """An uninitialised Tensor like ``prototype`` (zero-filled here)."""
    return zeros_like(prototype, dtype, shape)


def ones_like(a: ArrayLike, dtype: DTypeLike | None = None,
              shape: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Ones shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return op("ones")(s, d)


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None,
              shape: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """``fill_value`` shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return full(s, fill_value, d)


def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike = mstype.float32) -> Tensor:
    """Ones on the ``k``-th diagonal of an N x M matrix."""
    return wrap(jnp.eye(N, M, k, dtype=np_dtype(dtype)))


def identity(n: int, dtype: DTypeLike = mstype.float32) -> Tensor:
    """The n x n identity."""
    return op("eye")(n, n, ms_dtype(dtype))


def tri(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike = mstype.float32) -> Tensor:
    """Ones at and below the ``k``-th diagonal."""
    return wrap(jnp.tri(N, M, k, dtype=np_dtype(dtype)))


def diag(v: ArrayLike, k: int = 0) -> Tensor:
    """A diagonal matrix from a 1-D input, or the ``k``-th diagonal of a 2-D input."""
    return wrap(jnp.diag(arr(v), k))


def diagflat(v: ArrayLike, k: int = 0) -> Tensor:
    """A diagonal matrix from the flattened input."""
    return op("diagflat")(asarray_const(v), k)


def meshgrid(*xi: Any, sparse: bool = False, indexing: str = "xy") -> tuple[Tensor, ...]:
    """Coordinate matrices from coordinate vectors."""
    return tuple(wrap(o) for o in jnp.meshgrid(*[arr(x) for x in xi], sparse=sparse, indexing=indexing))


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of ``x``."""
    return wrap(jnp.vander(arr(x), N, increasing))


def _window(fn):
    def w(M):
        return wrap(fn(M).astype(jnp.float32))
    w.__name__ = fn.__name__
    w.__doc__ = f"The ``{fn.__name__}`` window of ``M`` points (Float32)."
    return w


bartlett, blackman, hamming, hanning = (_window(f) for f in (jnp.bartlett, jnp.blackman, jnp.hamming, jnp.hanning))


def append(arr: ArrayLike, values: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``values`` appended to ``arr`` (both flattened when axis is None)."""
    a, b = promote(arr, values)
    if axis is None:
        return op("cat")([op("reshape")(a, (-1,)), op("reshape")(b, (-1,))], 0)
    return op("cat")([a, b], axis)


def _split(x, indices_or_sections, axis, strict):
    a = arr(x)
    if strict and isinstance(indices_or_sections, int) and a.shape[axis] % indices_or_sections:
        raise ValueError(f"mindspore.numpy.split: the axis of size {a.shape[axis]} cannot be split into "
                         f"{indices_or_sections} equal sections.")
    ios = list(indices_or_sections) if isinstance(indices_or_sections, (list, tuple)) else indices_or_sections
    return tuple(wrap(p) for p in jnp.array_split(a, ios, axis))


def split(x: ArrayLike, indices_or_sections: int | list[int] | tuple[int, ...], axis: int = 0) -> Tensor:
    """Equal sections, or pieces at the given indices."""
    return _split(x, indices_or_sections, axis, True)


def array_split(x: ArrayLike, indices_or_sections: int | list[int] | tuple[int, ...], axis: int = 0) -> Tensor:
    """Like ``split``, allowing unequal sections."""
    return _split(x, indices_or_sections, axis, False)


def hsplit(x: ArrayLike, indices_or_sections: int | list[int] | tuple[int, ...]) -> Tensor:
    """Split along axis 1 (axis 0 for 1-D)."""
    return split(x, indices_or_sections, 1 if asarray_const(x).ndim > 1 else 0)


def vsplit(x: ArrayLike, indices_or_sections: int | list[int] | tuple[int, ...]) -> Tensor:
    """Split along axis 0."""
    return split(x, indices_or_sections, 0)


def dsplit(x: ArrayLike, indices_or_sections: int | list[int] | tuple[int, ...]) -> Tensor:
    """Split along axis 2."""
    return split(x, indices_or_sections, 2)


def _atleast(fn, arys):
    out = [wrap(fn(arr(a))) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Tensor:
    """Inputs viewed with at least 1 dimension."""
    return _atleast(jnp.atleast_1d, arys)


def atleast_2d(*arys: Any) -> Tensor:
    """Inputs viewed with at least 2 dimensions."""
    return _atleast(jnp.atleast_2d, arys)


def atleast_3d(*arys: Any) -> Tensor:
    """Inputs viewed with at least 3 dimensions."""
    return _atleast(jnp.atleast_3d, arys)


def broadcast_arrays(*args: Any) -> list[Tensor]:
    """The inputs broadcast to one shape."""
    return [wrap(a) for a in jnp.broadcast_arrays(*[arr(a) for a in args])]


def broadcast_to(array: ArrayLike, shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """``array`` broadcast to ``shape``."""
    return op("broadcast_to")(asarray_const(array), _shape(shape))


def _tup(tup):
    return promote(*tup) if isinstance(tup, (list, tuple)) else [asarray_const(tup)]


def concatenate(arrays: ArrayLike, axis: int = 0) -> Tensor:
    """Join along ``axis`` (flattened first when None)."""
    ts = _tup(arrays)
    if axis is None:
        return op("cat")([op("reshape")(t, (-1,)) for t in ts], 0)
    return op("cat")(ts, axis)


def stack(arrays: ArrayLike, axis: int = 0) -> Tensor:
    """Join along a new ``axis``."""
    return op("stack")(_tup(arrays), axis)


def hstack(tup: Sequence[ArrayLike]) -> Tensor:
    """Join column-wise."""
    return op("hstack")(_tup(tup))


def vstack(tup: Sequence[ArrayLike]) -> Tensor:
    """Join row-wise."""
    return op("vstack")(_tup(tup))


def dstack(tup: Sequence[ArrayLike]) -> Tensor:
    """Join depth-wise."""
    return op("dstack")(_tup(tup))


def column_stack(tup: Sequence[ArrayLike]) -> Tensor:
    """1-D inputs as columns of a 2-D result."""
    return op("column_stack")(_tup(tup))


def expand_dims(a: ArrayLike, axis: int) -> Tensor:
    """Insert size-1 axes."""
    return wrap(jnp.expand_dims(arr(a), axis))


def flip(m: int, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Reverse along ``axis`` (all axes when None)."""
    a = asarray_const(m)
    dims = tuple(range(a.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return op("flip")(a, dims)


def fliplr(m: int) -> Tensor:
    """Reverse axis 1."""
    return flip(m, 1)


def flipud(m: int) -> Tensor:
    """Reverse axis 0."""
    return flip(m, 0)


def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """Move axes to new positions."""
    return op("moveaxis")(asarray_const(a), source, destination)


def ravel(x: ArrayLike) -> Tensor:
    """The flattened input."""
    return op("reshape")(asarray_const(x), (-1,))


def repeat(a: ArrayLike, repeats: int | Sequence[int], axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Repeat each element ``repeats`` times."""
    return op("repeat_interleave")(asarray_const(a), repeats, axis)


def reshape(x: ArrayLike, new_shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """``x`` with a new shape."""
    return op("reshape")(asarray_const(x), _shape(new_shape))


def roll(a: ArrayLike, shift: int | tuple[int, ...], axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Roll elements along ``axis``."""
    return op("roll")(asarray_const(a), shift, axis)


def rollaxis(x: ArrayLike, axis: int, start: int = 0) -> Tensor:
    """Roll ``axis`` backwards to position ``start``."""
    return wrap(jnp.rollaxis(arr(x), axis, start))


def rot90(a: ArrayLike, k: int = 1, axes: tuple[int, int] | list[int] = (0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    return op("rot90")(asarray_const(a), k, tuple(axes))


def squeeze(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Remove size-1 axes."""
    return op("squeeze")(asarray_const(a), axis)


def swapaxes(x: ArrayLike, axis1: int, axis2: int) -> Tensor:
    """Swap two axes."""
    return op("swapaxes")(asarray_const(x), axis1, axis2)


def tile(a: ArrayLike, reps: int | tuple[int, ...] | list[int]) -> Tensor:
    """Repeat the whole array ``reps`` times."""
    return op("tile")(asarray_const(a), (reps,) if isinstance(reps, int) else tuple(reps))


def transpose(a: ArrayLike, axes: tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Permute the axes (reverse them when None)."""
    t = asarray_const(a)
    return op("transpose")(t, tuple(range(t.ndim))[::-1] if axes is None else tuple(axes))


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset`` diagonal over ``axis1``, ``axis2``."""
    return op("diagonal")(asarray_const(a), offset, axis1, axis2)


def tril(m: int, k: int = 0) -> Tensor:
    """Lower triangle."""
    return op("tril")(asarray_const(m), k)


def triu(m: int, k: int = 0) -> Tensor:
    """Upper triangle."""
    return op("triu")(asarray_const(m), k)


def where(condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None) -> Tensor | tuple[Tensor, ...]:
    """Elements of ``x`` where ``condition`` else of ``y``."""
    if x is None and y is None:
        return tuple(wrap(i.astype(jnp.int64)) for i in jnp.nonzero(arr(condition)))
    a, b = promote(x, y)
    return op("where")(asarray_const(condition, mstype.bool_), a, b)


def pad(arr: ArrayLike, pad_width: int | tuple[int, ...] | tuple[tuple[int, int], ...], mode: str = "constant",
        stat_length: ArrayLike | None = None, constant_values: ArrayLike = 0, end_values: ArrayLike = 0,
        reflect_type: str = "even", **kwargs: Any) -> Tensor:
    """NumPy's ``pad`` (modes constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap,
    empty)."""
    a = _base.arr(arr)
    kw: dict[str, Any] = {}
    if mode == "constant":
        kw["constant_values"] = constant_values
    elif mode in ("maximum", "mean", "median", "minimum"):
        kw["stat_length"] = stat_length
    elif mode == "linear_ramp":
        kw["end_values"] = end_values
    elif mode in ("reflect", "symmetric"):
        kw["reflect_type"] = reflect_type
    return wrap(jnp.pad(a, pad_width, mode=mode, **kw).astype(a.dtype))

