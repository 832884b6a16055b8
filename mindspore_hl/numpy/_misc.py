"""NumPy-only functions of ``mindspore.numpy``: statistics, histograms, set operations, polynomials and the
function-applying helpers (no MindSpore op has these names, so they compute on the arrays)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ._base import apply_dtype, arr, asarray_const, op, promote, wrap

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

    from ..common.tensor import Tensor
    from ._base import ArrayLike, DTypeLike

__all__ = ["convolve", "correlate", "cov", "corrcoef", "diff", "ediff1d", "gradient", "interp", "trapz", "unwrap",
           "digitize", "searchsorted", "bincount", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd",
           "isin", "in1d", "intersect1d", "setdiff1d", "unique", "polyadd", "polysub", "polymul", "polyder",
           "polyint", "polyval", "piecewise", "apply_along_axis", "apply_over_axes"]


def _fl(x):
    a = arr(x)
    return a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float32)


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> Tensor:
    """Discrete linear convolution of 1-D inputs."""
    x, y = promote(a, v)
    return wrap(jnp.convolve(x._value, y._value, mode))


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> Tensor:
    """Cross-correlation of 1-D inputs."""
    x, y = promote(a, v)
    return wrap(jnp.correlate(x._value, y._value, mode))


def cov(m: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: ArrayLike | None = None, aweights: ArrayLike | None = None, dtype: DTypeLike | None = None) -> Tensor:
    """Covariance matrix."""
    out = jnp.cov(_fl(m), None if y is None else _fl(y), rowvar, bias, ddof,
                  None if fweights is None else arr(fweights), None if aweights is None else arr(aweights))
    return apply_dtype(wrap(out), dtype)


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, dtype: DTypeLike | None = None) -> Tensor:
    """Pearson correlation coefficients."""
    return apply_dtype(wrap(jnp.corrcoef(_fl(x), None if y is None else _fl(y), rowvar)), dtype)


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike | None = None,
         append: ArrayLike | None = None) -> Tensor:
    """``n``-th discrete difference along ``axis``."""
    return wrap(jnp.diff(arr(a), n, axis, None if prepend is None else arr(prepend),
                         None if append is None else arr(append)))


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None) -> Tensor:
    """Differences of the flattened input, with optional ends."""
    return wrap(jnp.ediff1d(arr(ary), None if to_end is None else arr(to_end),
                            None if to_begin is None else arr(to_begin)))


def gradient(f: ArrayLike, *varargs: Any, axis: int | tuple[int, ...] | None = None,
             edge_order: int = 1) -> Tensor | list[Tensor]:
    """Central-difference gradient (first order at the edges)."""
    out = jnp.gradient(_fl(f), *[v if isinstance(v, (int, float)) else arr(v) for v in varargs], axis=axis)
    return [wrap(o) for o in out] if isinstance(out, (list, tuple)) else wrap(out)


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: float | None = None, right: float | None = None) -> Tensor:
    """Piecewise-linear interpolation."""
    return wrap(jnp.interp(_fl(x), _fl(xp), _fl(fp), left, right).astype(jnp.float32))


def trapz(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0, axis: int = -1) -> Tensor:
    """Trapezoid-rule integral along ``axis``."""
    return wrap(jnp.trapezoid(_fl(y), None if x is None else _fl(x), dx, axis))


def unwrap(p: ArrayLike, discont: float = 3.141592653589793, axis: int = -1) -> Tensor:
    """Unwrap phase jumps larger than ``discont``."""
    return wrap(jnp.unwrap(_fl(p), discont, axis))


def digitize(x: ArrayLike, bins: int | ArrayLike, right: bool = False) -> Tensor:
    """Indices of the bins each value falls in."""
    return wrap(jnp.digitize(arr(x), arr(bins), right).astype(jnp.int32))


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: ArrayLike | None = None) -> Tensor:
    """Insertion indices of ``v`` into sorted ``a``."""
    return wrap(jnp.searchsorted(arr(a), arr(v), side, sorter=None if sorter is None else arr(sorter))
                .astype(jnp.int32))


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0, length: int | None = None) -> Tensor:
    """Counts of each non-negative integer."""
    a = arr(x)
    n = builtins_max(int(jnp.max(a)) + 1 if a.size else 0, minlength) if length is None else length
    w = None if weights is None else arr(weights)
    out = jnp.bincount(a, w, length=n)
    return wrap(out.astype(jnp.float32 if w is None else out.dtype))     # MindSpore counts in Float32


def builtins_max(a: Any, b: Any) -> Any:
    return a if a > b else b


def _range(range_):
    return None if range_ is None else tuple(range_)


def histogram(a: ArrayLike, bins: int | ArrayLike = 10, range: tuple[float, float] | None = None,
              weights: ArrayLike | None = None, density: bool = False) -> tuple[Tensor, Tensor]:  # noqa: A002
    """(counts, bin edges)."""
    h, e = jnp.histogram(_fl(a), bins if isinstance(bins, int) else arr(bins), _range(range),
                         None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), wrap(e.astype(jnp.float32))


def histogram_bin_edges(a: ArrayLike, bins: int | ArrayLike = 10, range: tuple[float, float] | None = None,
                        weights: ArrayLike | None = None) -> Tensor:  # noqa: A002
    """The bin edges ``histogram`` would use."""
    return wrap(jnp.histogram_bin_edges(_fl(a), bins if isinstance(bins, int) else arr(bins), _range(range))
                .astype(jnp.float32))


def histogram2d(x: ArrayLike, y: ArrayLike, bins: int | Sequence[int] | ArrayLike = 10,
                range: Sequence[tuple[float, float]] | None = None, weights: ArrayLike | None = None,
                density: bool = False) -> tuple[Tensor, Tensor, Tensor]:  # noqa: A002
    """(counts, x edges, y edges)."""
    # bins may be a Tensor: jnp converts it through ``__array__``.
    h, ex, ey = jnp.histogram2d(_fl(x), _fl(y), bins, range,  # type: ignore[arg-type]
                                None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), wrap(ex.astype(jnp.float32)), wrap(ey.astype(jnp.float32))


def histogramdd(sample: ArrayLike, bins: int | Sequence[int] | ArrayLike = 10,
                range: Sequence[tuple[float, float]] | None = None, weights: ArrayLike | None = None,
                density: bool = False) -> tuple[Tensor, list[Tensor]]:  # noqa: A002
    """(counts, [edges per dimension])."""
    # bins may be a Tensor: jnp converts it through ``__array__``.
    h, es = jnp.histogramdd(_fl(sample), bins, range,  # type: ignore[arg-type]
                            None if weights is None else arr(weights), density)
    return wrap(h.astype(jnp.float32)), [wrap(e.astype(jnp.float32)) for e in es]


def isin(element: ArrayLike, test_elements: ArrayLike, invert: bool = False) -> Tensor:
    """Whether each element is in ``test_elements``."""
    return wrap(jnp.isin(arr(element), arr(test_elements), invert=invert))


def in1d(ar1: ArrayLike, ar2: ArrayLike, invert: bool = False) -> Tensor:
    """``isin`` of the flattened ``ar1``."""
    return wrap(jnp.isin(arr(ar1).ravel(), arr(ar2), invert=invert))


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False,
                return_indices: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Sorted common values (and their first indices)."""
    out = jnp.intersect1d(arr(ar1), arr(ar2), assume_unique, return_indices)
    return tuple(wrap(o) for o in out) if return_indices else wrap(out)


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Tensor:
    """Sorted values of ``ar1`` not in ``ar2``."""
    return wrap(jnp.setdiff1d(arr(ar1), arr(ar2), assume_unique))


def unique(x: ArrayLike, return_inverse: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Unique values of the flattened input in order of first appearance (as MindSpore), and Int32 inverse
    indices."""
    a = arr(x).ravel()
    vals, first, inv = jnp.unique(a, return_index=True, return_inverse=True)
    order = jnp.argsort(first)
    rank = jnp.argsort(order)
    out = wrap(vals[order])
    return (out, wrap(rank[inv.reshape(-1)].astype(jnp.int32))) if return_inverse else out


def polyder(p: ArrayLike, m: int = 1) -> Tensor:
    """The ``m``-th derivative of a polynomial."""
    return wrap(jnp.polyder(arr(p), m))


def polyint(p: ArrayLike, m: int = 1, k: int | None = None) -> Tensor:
    """The ``m``-th antiderivative (integration constants ``k``)."""
    a = _fl(p)
    return wrap(jnp.polyint(a, m, 0 if k is None else (arr(k).astype(a.dtype) if not isinstance(k, (int, float))
                                                      else k)))


def polyval(p: ArrayLike, x: ArrayLike) -> Tensor:
    """The polynomial ``p`` evaluated at ``x``."""
    a, b = promote(p, x)
    return wrap(jnp.polyval(a._value, b._value))


def piecewise(x: ArrayLike, condlist: Sequence[ArrayLike], funclist: Sequence[Any], *args: Any, **kw: Any) -> Tensor:
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


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr_: ArrayLike, *args: Any, **kwargs: Any) -> Tensor:
    """``func1d`` applied to the 1-D slices along ``axis``."""
    a = asarray_const(arr_)
    moved = op("moveaxis")(a, axis, -1)
    lead = moved.shape[:-1]
    flat = op("reshape")(moved, (-1, moved.shape[-1]))
    outs = [asarray_const(func1d(flat[i], *args, **kwargs)) for i in range(flat.shape[0])]
    res = op("reshape")(op("stack")(outs, 0), lead + outs[0].shape)
    return op("moveaxis")(res, tuple(range(len(lead), len(lead) + outs[0].ndim)),
                          tuple(range(axis % a.ndim, axis % a.ndim + outs[0].ndim))) if outs[0].ndim else res


def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: int | tuple[int, ...] | list[int]) -> Tensor:
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
