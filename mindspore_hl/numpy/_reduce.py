"""Reductions, statistics and the remaining NumPy functions of ``mindspore.numpy`` (``sum``, ``var``, ``cov``,
``histogram``, ``polyval``, set operations ...)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ._base import apply_dtype, arr, asarray_const, ms_dtype, np_dtype, op, promote, result_dtype, wrap

if TYPE_CHECKING:
    from typing import Any, Sequence

    from ..common.tensor import Tensor
    from ._base import ArrayLike, DTypeLike

__all__ = ["sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "std", "var", "ptp", "average",
           "count_nonzero", "cumsum", "cumprod", "nancumsum", "nanmax", "nanmin", "nanmean", "nansum", "nanstd",
           "nanvar", "sometrue", "trace", "norm", "dot", "inner", "outer", "kron", "matmul", "tensordot", "cross",
           "multi_dot", "isclose", "array_equal", "array_equiv", "argwhere", "promote_types", "result_type"]

_INT = ("int", "uin", "boo")


def _is_int(t):
    return str(t._value.dtype)[:3] in _INT


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def sum(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, keepdims: bool = False,
        initial: float | None = None) -> Tensor:  # noqa: A001
    """Sum over ``axis``."""
    t = asarray_const(a)
    out = op("sum")(t, _axis(axis), keepdims, dtype=ms_dtype(dtype))
    return out if initial is None else op("add")(out, initial)


def mean(a: ArrayLike, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
         dtype: DTypeLike | None = None) -> Tensor:
    """Mean over ``axis`` (integer inputs keep their dtype, as in MindSpore)."""
    t = asarray_const(a)
    out = op("mean")(op("cast")(t, mstype.float32) if _is_int(t) else t, _axis(axis), keepdims)
    return apply_dtype(out, dtype if dtype is not None else (t.dtype if _is_int(t) else None))


def _extreme(name):
    def fn(a, axis=None, keepdims=False, initial=None, where=True):
        t = asarray_const(a)
        x = t._value
        if where is not True:
            fill = jnp.asarray(initial, x.dtype)
            x = jnp.where(arr(where), x, fill)
        red = jnp.max if name == "amax" else jnp.min
        return wrap(red(x, _axis(axis), keepdims=keepdims, initial=initial))
    fn.__name__ = name
    fn.__doc__ = f"``numpy.{name}`` over ``axis`` with ``initial`` and ``where``."
    return fn


amax = max = _extreme("amax")  # noqa: A001
amin = min = _extreme("amin")  # noqa: A001


def argmax(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Index of the maximum (of the flattened input when axis is None)."""
    t = asarray_const(a)
    return op("argmax")(op("reshape")(t, (-1,)) if axis is None else t, 0 if axis is None else axis)


def argmin(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """Index of the minimum (of the flattened input when axis is None)."""
    t = asarray_const(a)
    return op("argmin")(op("reshape")(t, (-1,)) if axis is None else t, 0 if axis is None else axis)


def var(x: ArrayLike, axis: int | tuple[int, ...] | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance with ``ddof`` delta degrees of freedom."""
    t = asarray_const(x)
    return op("var")(op("cast")(t, mstype.float32) if _is_int(t) else t, _axis(axis), ddof, keepdims)


def std(x: ArrayLike, axis: int | tuple[int, ...] | None = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation with ``ddof``."""
    t = asarray_const(x)
    return op("std")(op("cast")(t, mstype.float32) if _is_int(t) else t, _axis(axis), ddof, keepdims)


def ptp(x: ArrayLike, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """max - min over ``axis``."""
    return op("sub")(amax(x, axis, keepdims), amin(x, axis, keepdims))


def average(x: ArrayLike, axis: int | tuple[int, ...] | None = None, weights: ArrayLike | None = None,
            returned: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Weighted mean over ``axis``."""
    a = arr(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        a = a.astype(jnp.float32)
    out, scl = jnp.average(a, axis, None if weights is None else arr(weights).astype(a.dtype), returned=True)
    return (wrap(out), wrap(scl.astype(out.dtype))) if returned else wrap(out)


def count_nonzero(x: ArrayLike, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """Number of non-zero elements (Int32)."""
    return wrap(jnp.count_nonzero(arr(x), _axis(axis), keepdims=keepdims).astype(jnp.int32))


def cumsum(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None) -> Tensor:
    """Cumulative sum (of the flattened input when axis is None)."""
    t = asarray_const(a)
    if axis is None:
        t, axis = op("reshape")(t, (-1,)), 0
    return op("cumsum")(t, axis, ms_dtype(dtype))


def cumprod(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None) -> Tensor:
    """Cumulative product (of the flattened input when axis is None)."""
    t = asarray_const(a)
    if axis is None:
        t, axis = op("reshape")(t, (-1,)), 0
    return apply_dtype(op("cumprod")(t, axis), dtype)


def _nan_result(x, out, dtype):
    return apply_dtype(wrap(out.astype(x.dtype) if jnp.issubdtype(x.dtype, jnp.floating) else out), dtype)


def nanmax(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
           keepdims: bool = False) -> Tensor:
    """Maximum ignoring NaNs."""
    x = arr(a)
    return _nan_result(x, jnp.nanmax(x, _axis(axis), keepdims=keepdims), dtype)


def nanmin(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
           keepdims: bool = False) -> Tensor:
    """Minimum ignoring NaNs."""
    x = arr(a)
    return _nan_result(x, jnp.nanmin(x, _axis(axis), keepdims=keepdims), dtype)


def nanmean(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
            keepdims: bool = False) -> Tensor:
    """Mean ignoring NaNs."""
    x = arr(a)
    return _nan_result(x, jnp.nanmean(x, _axis(axis), keepdims=keepdims), dtype)


def nanstd(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """Standard deviation ignoring NaNs."""
    x = arr(a)
    return _nan_result(x, jnp.nanstd(x, _axis(axis), ddof=ddof, keepdims=keepdims), dtype)


def nanvar(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """Variance ignoring NaNs."""
    x = arr(a)
    return _nan_result(x, jnp.nanvar(x, _axis(axis), ddof=ddof, keepdims=keepdims), dtype)


def nansum(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
           keepdims: bool = False) -> Tensor:
    """Sum treating NaN as zero (integer inputs keep their dtype)."""
    t = asarray_const(a)
    out = op("nansum")(t, _axis(axis), keepdims, dtype=ms_dtype(dtype))
    return apply_dtype(out, t.dtype) if dtype is None and _is_int(t) else out


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None) -> Tensor:
    """Cumulative sum treating NaN as zero."""
    x = arr(a)
    return apply_dtype(wrap(jnp.nancumsum(x, axis)), dtype)


def sometrue(a: ArrayLike, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """Whether any element along ``axis`` is true."""
    return op("any")(asarray_const(a, mstype.bool_), _axis(axis), keepdims)


def trace(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: DTypeLike | None = None) -> Tensor:
    """Sum along the ``offset`` diagonal."""
    return apply_dtype(wrap(jnp.trace(arr(a), offset, axis1, axis2)), dtype)


def norm(x: ArrayLike, ord: int | float | str | None = None, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> Tensor:
    """Vector or matrix norm (``numpy.linalg.norm``)."""
    return op("norm")(asarray_const(x), ord, _axis(axis), keepdims)


def dot(a: ArrayLike, b: ArrayLike) -> Tensor:
    """NumPy's ``dot``."""
    x, y = promote(a, b)
    return op("dot")(x, y)


def inner(a: ArrayLike, b: ArrayLike) -> Tensor:
    """Inner product over the last axes."""
    x, y = promote(a, b)
    return op("inner")(x, y)


def outer(a: ArrayLike, b: ArrayLike) -> Tensor:
    """Outer product of the flattened inputs."""
    x, y = promote(a, b)
    return op("outer")(op("reshape")(x, (-1,)), op("reshape")(y, (-1,)))


def kron(a: ArrayLike, b: ArrayLike) -> Tensor:
    """Kronecker product."""
    x, y = promote(a, b)
    return op("kron")(x, y)


def matmul(x1: ArrayLike, x2: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """Matrix product."""
    x, y = promote(x1, x2)
    return apply_dtype(op("matmul")(x, y), dtype)


def tensordot(a: ArrayLike, b: ArrayLike, axes: int | tuple[int, ...] | list[int] = 2) -> Tensor:
    """Sum of products over ``axes``."""
    x, y = promote(a, b)
    return op("tensor_dot")(x, y, axes)


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Tensor:
    """Cross product of 3-vectors (NumPy's axis arguments)."""
    x, y = promote(a, b)
    return wrap(jnp.cross(x._value, y._value, axisa, axisb, axisc, axis))


def multi_dot(arrays: Sequence[ArrayLike]) -> Tensor:
    """Chained matrix product."""
    ts = promote(*arrays)
    out = ts[0]
    for t in ts[1:]:
        out = op("matmul")(out, t)
    return out


def _fl(x):
    a = arr(x)
    return a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float32)


def isclose(a: ArrayLike, b: ArrayLike, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """|a - b| <= atol + rtol * |b| element-wise."""
    x, y = promote(a, b)
    return op("isclose")(x, y, rtol, atol, equal_nan)


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """Same shape and elements (a Python bool)."""
    return bool(jnp.array_equal(arr(a1), arr(a2), equal_nan))


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Equal after broadcasting (a Python bool)."""
    return bool(jnp.array_equiv(arr(a1), arr(a2)))




def argwhere(a: ArrayLike) -> Tensor:
    """Indices of the non-zero elements, one row each (Int64)."""
    return wrap(jnp.argwhere(arr(a)).astype(jnp.int64))


def promote_types(type1: DTypeLike, type2: DTypeLike) -> mstype.Type:
    """The MindSpore dtype both promote to (a float beats any integer and keeps its width)."""
    return ms_dtype(result_dtype(np_dtype(type1), np_dtype(type2)))


def result_type(*arrays_and_dtypes: Any) -> mstype.Type:
    """The dtype of the result of an operation on the inputs, by MindSpore's promotion rule."""
    dts = [np_dtype(a) if not hasattr(a, "dtype") and not isinstance(a, (int, float, bool, list))
           else np.dtype(arr(a).dtype) for a in arrays_and_dtypes]
    return ms_dtype(functools.reduce(result_dtype, dts))
