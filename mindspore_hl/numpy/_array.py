"""Creation and manipulation functions of ``mindspore.numpy`` (``array``, ``arange``, ``concatenate``, ``split`` ...).

Names with a MindSpore op call it; NumPy-only helpers (index grids, ``ix_``, ``choose`` ...) work on the arrays.
"""
from __future__ import annotations

import jax.numpy as jnp

from ..common import dtype as mstype
from . import _base
from ._base import apply_dtype, arr, asarray_const, ms_dtype, np_dtype, op, promote, wrap

__all__ = ["array", "asarray", "asfarray", "arange", "linspace", "logspace", "geomspace", "zeros", "ones", "full",
           "empty", "zeros_like", "ones_like", "full_like", "empty_like", "eye", "identity", "tri", "diag", "diagflat",
           "meshgrid", "vander", "bartlett", "blackman", "hamming", "hanning", "append", "array_split",
           "split", "hsplit", "vsplit", "dsplit", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays",
           "broadcast_to", "column_stack", "concatenate", "dstack", "hstack", "vstack", "stack", "expand_dims", "flip",
           "fliplr", "flipud", "moveaxis", "ravel", "repeat", "reshape", "roll", "rollaxis", "rot90", "squeeze",
           "swapaxes", "tile", "transpose", "diagonal", "tril", "triu", "where", "pad"]


def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor from ``obj`` (Python ints -> Int32, floats -> Float32)."""
    t = asarray_const(obj, dtype)
    while t.ndim < ndmin:
        t = op("expand_dims")(t, 0)
    return t


def asarray(a, dtype=None):
    """``a`` as a Tensor (no copy for a Tensor of that dtype)."""
    return asarray_const(a, dtype)


def asfarray(a, dtype=mstype.float32):
    """``a`` as a floating Tensor (``dtype`` if it is floating, else Float32)."""
    d = ms_dtype(dtype)
    if np_dtype(d).kind != "f":
        d = mstype.float32
    return asarray_const(a, d)


def _scalar_dtype(*values, dtype=None):
    if dtype is not None:
        return ms_dtype(dtype)
    return mstype.float32 if any(isinstance(v, float) for v in values) else mstype.int32


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) (Int32 for ints, Float32 for floats)."""
    d = _scalar_dtype(start, stop, step, dtype=dtype)
    if stop is None:
        start, stop = 0, start
    return op("cast")(op("arange")(start, stop, 1 if step is None else step), d)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from start to stop (Float32 by default)."""
    lo, hi = arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32)
    out, step = jnp.linspace(lo, hi, num, endpoint=endpoint, retstep=True, axis=axis)
    t = wrap(out.astype(np_dtype(dtype) or jnp.float32))
    return (t, step) if retstep else t


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num)."""
    y = linspace(start, stop, num, endpoint, dtype=None, axis=axis)
    return apply_dtype(op("pow")(asarray_const(float(base)), y), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale from start to stop."""
    out = jnp.geomspace(arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32), num, endpoint, axis=axis)
    return wrap(out.astype(np_dtype(dtype) or jnp.float32))


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def zeros(shape, dtype=mstype.float32):
    """A Tensor of zeros."""
    return op("zeros")(_shape(shape), ms_dtype(dtype))


def ones(shape, dtype=mstype.float32):
    """A Tensor of ones."""
    return op("ones")(_shape(shape), ms_dtype(dtype))


def empty(shape, dtype=mstype.float32):
    """An uninitialised Tensor (zero-filled here)."""
    return op("zeros")(_shape(shape), ms_dtype(dtype))


def full(shape, fill_value, dtype=None):
    """A Tensor filled with ``fill_value`` (dtype from the value when None)."""
    v = asarray_const(fill_value)
    d = ms_dtype(dtype) if dtype is not None else v.dtype
    return op("broadcast_to")(op("cast")(v, d), _shape(shape))


def _like(a, dtype, shape):
    t = asarray_const(a)
    return (_shape(shape) if shape is not None else t.shape), (ms_dtype(dtype) if dtype is not None else t.dtype)


def zeros_like(a, dtype=None, shape=None):
    """Zeros shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return op("zeros")(s, d)


def empty_like(prototype, dtype=None, shape=None):
    """An uninitialised Tensor like ``prototype`` (zero-filled here)."""
    return zeros_like(prototype, dtype, shape)


def ones_like(a, dtype=None, shape=None):
    """Ones shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return op("ones")(s, d)


def full_like(a, fill_value, dtype=None, shape=None):
    """``fill_value`` shaped like ``a``."""
    s, d = _like(a, dtype, shape)
    return full(s, fill_value, d)


def eye(N, M=None, k=0, dtype=mstype.float32):
    """Ones on the ``k``-th diagonal of an N x M matrix."""
    return wrap(jnp.eye(N, M, k, dtype=np_dtype(dtype)))


def identity(n, dtype=mstype.float32):
    """The n x n identity."""
    return op("eye")(n, n, ms_dtype(dtype))


def tri(N, M=None, k=0, dtype=mstype.float32):
    """Ones at and below the ``k``-th diagonal."""
    return wrap(jnp.tri(N, M, k, dtype=np_dtype(dtype)))


def diag(v, k=0):
    """A diagonal matrix from a 1-D input, or the ``k``-th diagonal of a 2-D input."""
    return wrap(jnp.diag(arr(v), k))


def diagflat(v, k=0):
    """A diagonal matrix from the flattened input."""
    return op("diagflat")(asarray_const(v), k)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate matrices from coordinate vectors."""
    return tuple(wrap(o) for o in jnp.meshgrid(*[arr(x) for x in xi], sparse=sparse, indexing=indexing))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of ``x``."""
    return wrap(jnp.vander(arr(x), N, increasing))


def _window(fn):
    def w(M):
        return wrap(fn(M).astype(jnp.float32))
    w.__name__ = fn.__name__
    w.__doc__ = f"The ``{fn.__name__}`` window of ``M`` points (Float32)."
    return w


bartlett, blackman, hamming, hanning = (_window(f) for f in (jnp.bartlett, jnp.blackman, jnp.hamming, jnp.hanning))


def append(arr, values, axis=None):
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


def split(x, indices_or_sections, axis=0):
    """Equal sections, or pieces at the given indices."""
    return _split(x, indices_or_sections, axis, True)


def array_split(x, indices_or_sections, axis=0):
    """Like ``split``, allowing unequal sections."""
    return _split(x, indices_or_sections, axis, False)


def hsplit(x, indices_or_sections):
    """Split along axis 1 (axis 0 for 1-D)."""
    return split(x, indices_or_sections, 1 if asarray_const(x).ndim > 1 else 0)


def vsplit(x, indices_or_sections):
    """Split along axis 0."""
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """Split along axis 2."""
    return split(x, indices_or_sections, 2)


def _atleast(fn, arys):
    out = [wrap(fn(arr(a))) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """Inputs viewed with at least 1 dimension."""
    return _atleast(jnp.atleast_1d, arys)


def atleast_2d(*arys):
    """Inputs viewed with at least 2 dimensions."""
    return _atleast(jnp.atleast_2d, arys)


def atleast_3d(*arys):
    """Inputs viewed with at least 3 dimensions."""
    return _atleast(jnp.atleast_3d, arys)


def broadcast_arrays(*args):
    """The inputs broadcast to one shape."""
    return [wrap(a) for a in jnp.broadcast_arrays(*[arr(a) for a in args])]


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape``."""
    return op("broadcast_to")(asarray_const(array), _shape(shape))


def _tup(tup):
    return promote(*tup) if isinstance(tup, (list, tuple)) else [asarray_const(tup)]


def concatenate(arrays, axis=0):
    """Join along ``axis`` (flattened first when None)."""
    ts = _tup(arrays)
    if axis is None:
        return op("cat")([op("reshape")(t, (-1,)) for t in ts], 0)
    return op("cat")(ts, axis)


def stack(arrays, axis=0):
    """Join along a new ``axis``."""
    return op("stack")(_tup(arrays), axis)


def hstack(tup):
    """Join column-wise."""
    return op("hstack")(_tup(tup))


def vstack(tup):
    """Join row-wise."""
    return op("vstack")(_tup(tup))


def dstack(tup):
    """Join depth-wise."""
    return op("dstack")(_tup(tup))


def column_stack(tup):
    """1-D inputs as columns of a 2-D result."""
    return op("column_stack")(_tup(tup))


def expand_dims(a, axis):
    """Insert size-1 axes."""
    return wrap(jnp.expand_dims(arr(a), axis))


def flip(m, axis=None):
    """Reverse along ``axis`` (all axes when None)."""
    a = asarray_const(m)
    dims = tuple(range(a.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return op("flip")(a, dims)


def fliplr(m):
    """Reverse axis 1."""
    return flip(m, 1)


def flipud(m):
    """Reverse axis 0."""
    return flip(m, 0)


def moveaxis(a, source, destination):
    """Move axes to new positions."""
    return op("moveaxis")(asarray_const(a), source, destination)


def ravel(x):
    """The flattened input."""
    return op("reshape")(asarray_const(x), (-1,))


def repeat(a, repeats, axis=None):
    """Repeat each element ``repeats`` times."""
    return op("repeat_interleave")(asarray_const(a), repeats, axis)


def reshape(x, new_shape):
    """``x`` with a new shape."""
    return op("reshape")(asarray_const(x), _shape(new_shape))


def roll(a, shift, axis=None):
    """Roll elements along ``axis``."""
    return op("roll")(asarray_const(a), shift, axis)


def rollaxis(x, axis, start=0):
    """Roll ``axis`` backwards to position ``start``."""
    return wrap(jnp.rollaxis(arr(x), axis, start))


def rot90(a, k=1, axes=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    return op("rot90")(asarray_const(a), k, tuple(axes))


def squeeze(a, axis=None):
    """Remove size-1 axes."""
    return op("squeeze")(asarray_const(a), axis)


def swapaxes(x, axis1, axis2):
    """Swap two axes."""
    return op("swapaxes")(asarray_const(x), axis1, axis2)


def tile(a, reps):
    """Repeat the whole array ``reps`` times."""
    return op("tile")(asarray_const(a), (reps,) if isinstance(reps, int) else tuple(reps))


def transpose(a, axes=None):
    """Permute the axes (reverse them when None)."""
    t = asarray_const(a)
    return op("transpose")(t, tuple(range(t.ndim))[::-1] if axes is None else tuple(axes))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset`` diagonal over ``axis1``, ``axis2``."""
    return op("diagonal")(asarray_const(a), offset, axis1, axis2)


def tril(m, k=0):
    """Lower triangle."""
    return op("tril")(asarray_const(m), k)


def triu(m, k=0):
    """Upper triangle."""
    return op("triu")(asarray_const(m), k)


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` else of ``y``."""
    if x is None and y is None:
        return tuple(wrap(i.astype(jnp.int64)) for i in jnp.nonzero(arr(condition)))
    a, b = promote(x, y)
    return op("where")(asarray_const(condition, mstype.bool_), a, b)


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even",
        **kwargs):
    """NumPy's ``pad`` (modes constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap,
    empty)."""
    a = _base.arr(arr)
    kw = {}
    if mode == "constant":
        kw["constant_values"] = constant_values
    elif mode in ("maximum", "mean", "median", "minimum"):
        kw["stat_length"] = stat_length
    elif mode == "linear_ramp":
        kw["end_values"] = end_values
    elif mode in ("reflect", "symmetric"):
        kw["reflect_type"] = reflect_type
    return wrap(jnp.pad(a, pad_width, mode=mode, **kw).astype(a.dtype))

