"""``mindspore.mint`` reductions, sorting and indexing functions (delegating to ``ops``)."""
from __future__ import annotations

from ..common import dtype as _mstype
from ._functions import TARGETS, _op, _uses


def _dims(dim):
    return tuple(dim) if isinstance(dim, list) else dim


@_uses("sum")
def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001
    """Sum over ``dim`` (all dims by default); integer and Bool inputs sum in Int64."""
    return _op("sum")(input, _dims(dim), keepdim, dtype=dtype)


@_uses("nansum")
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum treating NaN as zero (integer inputs keep their dtype)."""
    out = _op("nansum")(input, _dims(dim), keepdim, dtype=dtype)
    return out if dtype is not None or input.dtype == out.dtype else _op("cast")(out, input.dtype)


@_uses("mean")
def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over ``dim``."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("mean")(x, _dims(dim), keepdim)


@_uses("prod")
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product over ``dim``."""
    return _op("prod")(input, dim, keepdim, dtype)


@_uses("all")
def all(input, dim=None, keepdim=False):  # noqa: A001
    """Whether all elements along ``dim`` are true."""
    return _op("all")(input, _dims(dim), keepdim)


@_uses("any")
def any(input, dim=None, keepdim=False):  # noqa: A001
    """Whether any element along ``dim`` is true."""
    return _op("any")(input, _dims(dim), keepdim)


@_uses("amax")
def amax(input, dim=(), keepdim=False):
    """Maximum over ``dim`` (all dims when empty)."""
    return _op("amax")(input, _dims(dim) if dim != () else None, keepdim)


@_uses("amin")
def amin(input, dim=(), keepdim=False):
    """Minimum over ``dim`` (all dims when empty)."""
    return _op("amin")(input, _dims(dim) if dim != () else None, keepdim)


def _extreme(name, pair):
    def fn(input, dim=None, keepdim=False, *, out=None):
        if dim is None:
            return _op("a" + name)(input)
        if not isinstance(dim, int):         # max(input, other): element-wise
            return _op(pair)(input, dim)
        return _op(name)(input, dim, keepdim)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}(input)``: the {name}imum element; ``{name}(input, dim, keepdim=False)``: (values, "
                  f"indices) along ``dim``; ``{name}(input, other)``: ``{pair}``.")
    TARGETS[name] = (name, pair, "a" + name)
    return fn


max = _extreme("max", "maximum")  # noqa: A001
min = _extreme("min", "minimum")  # noqa: A001


@_uses("argmax")
def argmax(input, dim=None, keepdim=False):
    """Index of the maximum along ``dim`` (of the flattened input when None)."""
    return _op("argmax")(input, dim, keepdim)


@_uses("argmin")
def argmin(input, dim=None, keepdim=False):
    """Index of the minimum along ``dim`` (of the flattened input when None)."""
    return _op("argmin")(input, dim, keepdim)


@_uses("std")
def std(input, dim=None, *, correction=1, keepdim=False):
    """Standard deviation with ``correction`` (Bessel's by default)."""
    return _op("std")(input, _dims(dim), correction, keepdim)


@_uses("var")
def var(input, dim=None, *, correction=1, keepdim=False):
    """Variance with ``correction``."""
    return _op("var")(input, _dims(dim), correction, keepdim)


@_uses("std_mean")
def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """(std, mean)."""
    return _op("std_mean")(input, _dims(dim), correction, keepdim)


@_uses("var_mean")
def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """(var, mean)."""
    return _op("var_mean")(input, _dims(dim), correction, keepdim)


@_uses("median")
def median(input, dim=None, keepdim=False):
    """Median of all elements, or (values, indices) along ``dim``."""
    if dim is None:
        return _op("median")(_op("reshape")(input, (-1,)), 0, False)[0]
    return _op("median")(input, dim, keepdim)


@_uses("logsumexp")
def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(input))) over ``dim``, computed stably."""
    return _op("logsumexp")(input, dim, keepdim)


@_uses("cumsum")
def cumsum(input, dim, dtype=None):
    """Cumulative sum along ``dim``."""
    return _op("cumsum")(input, dim, dtype)


@_uses("cumprod")
def cumprod(input, dim, dtype=None):
    """Cumulative product along ``dim`` (integer and Bool inputs in Int64)."""
    if dtype is None and (input.dtype in _mstype.int_type or input.dtype == _mstype.bool_):
        dtype = _mstype.int64
    return _op("cumprod")(input, dim, dtype=dtype)


@_uses("cummax")
def cummax(input, dim):
    """(values, indices) of the running maximum along ``dim``."""
    return _op("cummax")(input, dim)


@_uses("cummin")
def cummin(input, dim):
    """(values, indices) of the running minimum along ``dim``."""
    return _op("cummin")(input, dim)


@_uses("count_nonzero")
def count_nonzero(input, dim=None):
    """Number of non-zero elements over ``dim`` (Int64)."""
    return _op("cast")(_op("count_nonzero")(input, () if dim is None else dim), _mstype.int64)


@_uses("softmax")
def softmax(input, dim, *, dtype=None):
    """Softmax along ``dim``."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("softmax")(x, dim)


@_uses("sort")
def sort(input, *, dim=-1, descending=False, stable=False):
    """(sorted values, their indices) along ``dim``."""
    return _op("sort")(input, dim, descending)


@_uses("argsort")
def argsort(input, dim=-1, descending=False, stable=False):
    """Indices that sort ``input`` along ``dim``."""
    return _op("argsort")(input, dim, descending)


@_uses("topk")
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    return _op("topk")(input, k, dim, largest, sorted)


@_uses("kthvalue")
def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices) of the ``k``-th smallest elements along ``dim``."""
    return _op("kthvalue")(input, k, dim, keepdim)


@_uses("searchsorted")
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Insertion indices of ``values`` into ``sorted_sequence``."""
    return _op("searchsorted")(sorted_sequence, values, out_int32=out_int32, right=right, side=side, sorter=sorter)


@_uses("unique_consecutive")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal elements."""
    return _op("unique_consecutive")(input, return_inverse, return_counts, dim)


@_uses("bincount")
def bincount(input, weights=None, minlength=0):
    """Counts (or weight sums) of each non-negative integer value."""
    return _op("bincount")(input, weights, minlength)


@_uses("histc")
def histc(input, bins=100, min=0, max=0):  # noqa: A002
    """Histogram with ``bins`` equal bins over [min, max] (the data's range when both are 0)."""
    return _op("histc")(input, bins, min, max)


@_uses("gather_elements")
def gather(input, dim, index):
    """out[i][j] = input[index[i][j]][j] (for dim 0), like ``torch.gather``."""
    return _op("gather_elements")(input, dim, index)


@_uses("index_select")
def index_select(input, dim, index):
    """The slices of ``input`` at ``index`` along ``dim``."""
    return _op("index_select")(input, dim, index)


@_uses("index_add")
def index_add(input, dim, index, source, *, alpha=1):
    """input with alpha * source added at ``index`` along ``dim``."""
    return _op("index_add")(input, index, source if alpha == 1 else _op("mul")(source, alpha), dim)


@_uses("scatter")
def scatter(input, dim, index, src):
    """input with ``src`` written at ``index`` along ``dim``."""
    return _op("scatter")(input, dim, index, src)


@_uses("tensor_scatter_elements")
def scatter_add(input, dim, index, src):
    """input with ``src`` added at ``index`` along ``dim``."""
    return _op("tensor_scatter_elements")(input, index, src, dim, "add")


@_uses("take")
def take(input, index):
    """Elements of the flattened input at ``index``."""
    return _op("take")(input, index)


@_uses("narrow")
def narrow(input, dim, start, length):
    """The slice [start, start + length) along ``dim``."""
    return _op("narrow")(input, dim, start, length)


@_uses("narrow", "squeeze")
def select(input, dim, index):
    """The slice at ``index`` along ``dim``, with that dim removed."""
    size = input.shape[dim]
    return _op("squeeze")(_op("narrow")(input, dim, index % size if size else index, 1), dim)


@_uses("nonzero")
def nonzero(input, *, as_tuple=False):
    """Indices of the non-zero elements."""
    return _op("nonzero")(input, as_tuple=as_tuple)
