"""NumPy-only functions of ``mindspore.numpy``: statistics, histograms, set operations, polynomials and the
function-applying helpers (no MindSpore op has these names, so they compute on the arrays)."""
from __future__ import annotations

import jax.numpy as jnp

from ._base import apply_dtype, arr, asarray_const, op, promote, wrap

__all__ = ["convolve", "correlate", "cov", "corrcoef", "diff", "ediff1d", "gradient", "interp", "trapz", "unwrap",
           "digitize", "searchsorted", "bincount", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd",
           "isin", "in1d", "intersect1d", "setdiff1d", "unique", "polyadd", "polysub", "polymul", "polyder",
           "polyint", "polyval", "piecewise", "apply_along_axis", "apply_over_axes"]


def _fl(x):
    a = arr(x)
    return a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float32)


def convolve(a, v, mode="full"):
    """Discrete linear convolution of 1-D inputs."""
    x, y = promote(a, v)
    return wrap(jnp.convolve(x._value, y._value, mode))


def correlate(a, v, mode="valid"):
    """Cross-correlation of 1-D inputs."""
    x, y = promote(a, v)
    return wrap(jnp.correlate(x._value, y._value, mode))


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """Covariance matrix."""
    out = jnp.cov(_fl(m), None if y is None else _fl(y), rowvar, bias, ddof,
                  None if fweights is None else arr(fweights), None if aweights is None else arr(aweights))
    return apply_dtype(wrap(out), dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients."""
    return apply_dtype(wrap(jnp.corrcoef(_fl(x), None if y is None else _fl(y), rowvar)), dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``n``-th discrete difference along ``axis``."""
    return wrap(jnp.diff(arr(a), n, axis, None if prepend is None else arr(prepend),
                         None if append is None else arr(append)))


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened input, with optional ends."""
    return wrap(jnp.ediff1d(arr(ary), None if to_end is None else arr(to_end),
                            None if to_begin is None else arr(to_begin)))


def gradient(f, *varargs, axis=None, edge_order=1):
    """Central-difference gradient (first order at the edges)."""
    out = jnp.gradient(_fl(f), *[v if isinstance(v, (int, float)) else arr(v) for v in varargs], axis=axis)
    return [wrap(o) for o in out] if isinstance(out, (list, tuple)) else wrap(out)


def interp(x, xp, fp, left=None, right=None):
    """Piecewise-linear interpolation."""
    return wrap(jnp.interp(_fl(x), _fl(xp), _fl(fp), left, right).astype(jnp.float32))


def trapz(y, x=None, dx=1.0, axis=-1):
    """Trapezoid-rule integral along ``axis``."""
    return wrap(jnp.trapezoid(_fl(y), None if x is None else _fl(x), dx, axis))


def unwrap(p, discont=3.141592653589793, axis=-1):
    """Unwrap phase jumps larger than ``discont``."""
    return wrap(jnp.unwrap(_fl(p), discont, axis))


def digitize(x, bins, right=False):
    """Indices of the bins each value falls in."""
    return wrap(jnp.digitize(arr(x), arr(bins), right).astype(jnp.int32))


def searchsorted(a, v, side="left", sorter=None):
    """Insertion indices of ``v`` into sorted ``a``."""
    return wrap(jnp.searchsorted(arr(a), arr(v), side, sorter=None if sorter is None else arr(sorter))
                .astype(jnp.int32))


def bincount(x, weights=None, minlength=0, length=None):
    """Counts of each non-negative integer."""
    a = arr(x)
    n = builtins_max(int(jnp.max(a)) + 1 if a.size else 0, minlength) if length is None else length
    w = None if weights is None else arr(weights)
    out = jnp.bincount(a, w, length=n)
    return wrap(out.astype(jnp.float32 if w is None else out.dtype))     # MindSpore counts in Float32


def builtins_max(a, b):
    return a if a > b else b


def _range(range_):
    return None if range_ is None else tuple(range_)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, bin edges)."""
    h, e = jnp.histogram(_fl(a), bins if isinstance(bins, int) else arr(bins), _range(range),
                         None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), wrap(e.astype(jnp.float32))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The bin edges ``histogram`` would use."""
    return wrap(jnp.histogram_bin_edges(_fl(a), bins if isinstance(bins, int) else arr(bins), _range(range))
                .astype(jnp.float32))


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, x edges, y edges)."""
    h, ex, ey = jnp.histogram2d(_fl(x), _fl(y), bins, range, None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), wrap(ex.astype(jnp.float32)), wrap(ey.astype(jnp.float32))


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, [edges per dimension])."""
    h, es = jnp.histogramdd(_fl(sample), bins, range, None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), [wrap(e.astype(jnp.float32)) for e in es]


def isin(element, test_elements, invert=False):
    """Whether each element is in ``test_elements``."""
    return wrap(jnp.isin(arr(element), arr(test_elements), invert=invert))


def in1d(ar1, ar2, invert=False):
    """``isin`` of the flattened ``ar1``."""
    return wrap(jnp.isin(arr(ar1).ravel(), arr(ar2), invert=invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Sorted common values (and their first indices)."""
    out = jnp.intersect1d(arr(ar1), arr(ar2), assume_unique, return_indices)
    return tuple(wrap(o) for o in out) if return_indices else wrap(out)


def setdiff1d(ar1, ar2, assume_unique=False):
    """Sorted values of ``ar1`` not in ``ar2``."""
    return wrap(jnp.setdiff1d(arr(ar1), arr(ar2), assume_unique))


def unique(x, return_inverse=False):
    """Unique values of the flattened input in order of first appearance (as MindSpore), and Int32 inverse
    indices."""
    a = arr(x).ravel()
    vals, first, inv = jnp.unique(a, return_index=True, return_inverse=True)
    order = jnp.argsort(first)
    rank = jnp.argsort(order)
    out = wrap(vals[order])
    return (out, wrap(rank[inv.reshape(-1)].astype(jnp.int32))) if return_inverse else out


def polyder(p, m=1):
    """The ``m``-th derivative of a polynomial."""
    return wrap(jnp.polyder(arr(p), m))


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative (integration constants ``k``)."""
    a = _fl(p)
    return wrap(jnp.polyint(a, m, 0 if k is None else (arr(k).astype(a.dtype) if not isinstance(k, (int, float))
                                                      else k)))


def polyval(p, x):
    """The polynomial ``p`` evaluated at ``x``."""
    a, b = promote(p, x)
    return wrap(jnp.polyval(a._value, b._value))


def piecewise(x, condlist, funclist, *args, **kw):
    """``funclist[i](x)`` where ``condlist[i]`` (a trailing extra function: elsewhere)."""
    t = asarray_const(x)
    conds = [arr(c).astype(bool) for c in condlist]
    if len(funclist) == len(conds) + 1:
        conds.append(~jnp.any(jnp.stack(conds), 0) if conds else jnp.ones(t.shape, bool))
    out = jnp.zeros(t.shape, t._value.dtype)
    for c, f in zip(conds, funclist):
        val = f(t, *args, **kw) if callable(f) else f
        v = val._value if hasattr(val, "_value") else jnp.asarray(val, t._value.dtype)
        out = jnp.where(c, v.astype(out.dtype), out)
    return wrap(out)


def apply_along_axis(func1d, axis, arr_, *args, **kwargs):
    """``func1d`` applied to the 1-D slices along ``axis``."""
    a = asarray_const(arr_)
    moved = op("moveaxis")(a, axis, -1)
    lead = moved.shape[:-1]
    flat = op("reshape")(moved, (-1, moved.shape[-1]))
    outs = [asarray_const(func1d(flat[i], *args, **kwargs)) for i in range(flat.shape[0])]
    res = op("reshape")(op("stack")(outs, 0), lead + outs[0].shape)
    return op("moveaxis")(res, tuple(range(len(lead), len(lead) + outs[0].ndim)),
                          tuple(range(axis % a.ndim, axis % a.ndim + outs[0].ndim))) if outs[0].ndim else res


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied repeatedly, keeping the reduced axes."""
    out = asarray_const(a)
    for ax in ([axes] if isinstance(axes, int) else axes):
        res = func(out, ax)
        out = res if res.ndim == out.ndim else op("expand_dims")(res, ax)
    return out


def _poly(fn, name):
    def f(a1, a2):
        x, y = promote(a1, a2)
        return wrap(fn(x._value, y._value))
    f.__name__ = name
    f.__doc__ = f"``numpy.{name}`` of coefficient arrays (highest power first)."
    return f


polyadd = _poly(jnp.polyadd, "polyadd")
polysub = _poly(jnp.polysub, "polysub")
polymul = _poly(jnp.polymul, "polymul")
