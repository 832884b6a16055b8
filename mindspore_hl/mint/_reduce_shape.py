"""``mindspore.mint`` reductions, sorting and indexing functions (delegating to ``ops``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import dtype as _mstype
from ._functions import TARGETS, _op, _uses

if TYPE_CHECKING:
    from ..common.tensor import Tensor


def _dims(dim):
    return tuple(dim) if isinstance(dim, list) else dim


@_uses("sum")
def sum(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, keepdim: bool = False, *,
        dtype: _mstype.Type | None = None) -> Tensor:  # noqa: A001
    """Sum over ``dim`` (all dims by default); integer and Bool inputs sum in Int64."""
    return _op("sum")(input, _dims(dim), keepdim, dtype=dtype)


@_uses("nansum")
def nansum(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, keepdim: bool = False, *,
           dtype: _mstype.Type | None = None) -> Tensor:
    """Sum treating NaN as zero (integer inputs keep their dtype)."""
    out = _op("nansum")(input, _dims(dim), keepdim, dtype=dtype)
    return out if dtype is not None or input.dtype == out.dtype else _op("cast")(out, input.dtype)


@_uses("mean")
def mean(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, keepdim: bool = False, *,
         dtype: _mstype.Type | None = None) -> Tensor:
    """Mean over ``dim``."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("mean")(x, _dims(dim), keepdim)


@_uses("prod")
def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: _mstype.Type | None = None) -> Tensor:
    """Product over ``dim``."""
    return _op("prod")(input, dim, keepdim, dtype)


@_uses("all")
def all(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether all elements along ``dim`` are true."""
    return _op("all")(input, _dims(dim), keepdim)


@_uses("any")
def any(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether any element along ``dim`` is true."""
    return _op("any")(input, _dims(dim), keepdim)


@_uses("amax")
def amax(input: Tensor, dim: tuple[int, ...] = (), keepdim: bool = False) -> Tensor:
    """Maximum over ``dim`` (all dims when empty)."""
    return _op("amax")(input, _dims(dim) if dim != () else None, keepdim)


@_uses("amin")
def amin(input: Tensor, dim: tuple[int, ...] = (), keepdim: bool = False) -> Tensor:
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
def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the maximum along ``dim`` (of the flattened input when None)."""
    return _op("argmax")(input, dim, keepdim)


@_uses("argmin")
def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the minimum along ``dim`` (of the flattened input when None)."""
    return _op("argmin")(input, dim, keepdim)


@_uses("std")
def std(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, *, correction: int = 1,
        keepdim: bool = False) -> Tensor:
    """Standard deviation with ``correction`` (Bessel's by default)."""
    return _op("std")(input, _dims(dim), correction, keepdim)


@_uses("var")
def var(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, *, correction: int = 1,
        keepdim: bool = False) -> Tensor:
    """Variance with ``correction``."""
    return _op("var")(input, _dims(dim), correction, keepdim)


@_uses("std_mean")
def std_mean(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, *, correction: int = 1,
             keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """(std, mean)."""
    return _op("std_mean")(input, _dims(dim), correction, keepdim)


@_uses("var_mean")
def var_mean(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None, *, correction: int = 1,
             keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """(var, mean)."""
    return _op("var_mean")(input, _dims(dim), correction, keepdim)


@_uses("median")
def median(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Median of all elements, or (values, indices) along ``dim``."""
    if dim is None:
        return _op("median")(_op("reshape")(input, (-1,)), 0, False)[0]
    return _op("median")(input, dim, keepdim)


@_uses("logsumexp")
def logsumexp(input: Tensor, dim: int, keepdim: bool = False) -> Tensor:
    """log(sum(exp(input))) over ``dim``, computed stably."""
    return _op("logsumexp")(input, dim, keepdim)


@_uses("cumsum")
def cumsum(input: Tensor, dim: int, dtype: _mstype.Type | None = None) -> Tensor:
    """Cumulative sum along ``dim``."""
    return _op("cumsum")(input, dim, dtype)


@_uses("cumprod")
def cumprod(input: Tensor, dim: int, dtype: _mstype.Type | None = None) -> Tensor:
    """Cumulative product along ``dim`` (integer and Bool inputs in Int64)."""
    if dtype is None and (input.dtype in _mstype.int_type or input.dtype == _mstype.bool_):
        dtype = _mstype.int64
    return _op("cumprod")(input, dim, dtype=dtype)


@_uses("cummax")
def cummax(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(values, indices) of the running maximum along ``dim``."""
    return _op("cummax")(input, dim)


@_uses("cummin")
def cummin(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(values, indices) of the running minimum along ``dim``."""
    return _op("cummin")(input, dim)


@_uses("count_nonzero")
def count_nonzero(input: Tensor, dim: int | tuple[int, ...] | list[int] | None = None) -> Tensor:
    """Number of non-zero elements over ``dim`` (Int64)."""
    return _op("cast")(_op("count_nonzero")(input, () if dim is None else dim), _mstype.int64)


@_uses("softmax")
def softmax(input: Tensor, dim: int, *, dtype: _mstype.Type | None = None) -> Tensor:
    """Softmax along ``dim``."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("softmax")(x, dim)


@_uses("sort")
def sort(input: Tensor, *, dim: int = -1, descending: bool = False, stable: bool = False) -> tuple[Tensor, Tensor]:
    """(sorted values, their indices) along ``dim``."""
    return _op("sort")(input, dim, descending)


@_uses("argsort")
def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """Indices that sort ``input`` along ``dim``."""
    return _op("argsort")(input, dim, descending)


@_uses("topk")
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True) -> tuple[Tensor, Tensor]:  # noqa: A002
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    return _op("topk")(input, k, dim, largest, sorted)


@_uses("kthvalue")
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """(values, indices) of the ``k``-th smallest elements along ``dim``."""
    return _op("kthvalue")(input, k, dim, keepdim)


@_uses("searchsorted")
def searchsorted(sorted_sequence: Tensor, values: Tensor, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """Insertion indices of ``values`` into ``sorted_sequence``."""
    return _op("searchsorted")(sorted_sequence, values, out_int32=out_int32, right=right, side=side, sorter=sorter)


@_uses("unique_consecutive")
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Tensor | tuple[Tensor, ...]:
    """Collapse runs of equal elements."""
    return _op("unique_consecutive")(input, return_inverse, return_counts, dim)


@_uses("bincount")
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Counts (or weight sums) of each non-negative integer value."""
    return _op("bincount")(input, weights, minlength)


@_uses("histc")
def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """Histogram with ``bins`` equal bins over [min, max] (the data's range when both are 0)."""
    return _op("histc")(input, bins, min, max)


@_uses("gather_elements")
def gather(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """out[i][j] = input[index[i][j]][j] (for dim 0), like ``torch.gather``."""
    return _op("gather_elements")(input, dim, index)


@_uses("index_select")
def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``input`` at ``index`` along ``dim``."""
    return _op("index_select")(input, dim, index)


@_uses("index_add")
def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: float = 1) -> Tensor:
    """input with alpha * source added at ``index`` along ``dim``."""
    return _op("index_add")(input, index, source if alpha == 1 else _op("mul")(source, alpha), dim)


@_uses("scatter")
def scatter(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """input with ``src`` written at ``index`` along ``dim``."""
    return _op("scatter")(input, dim, index, src)


@_uses("tensor_scatter_elements")
def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """input with ``src`` added at ``index`` along ``dim``."""
    return _op("tensor_scatter_elements")(input, index, src, dim, "add")


@_uses("take")
def take(input: Tensor, index: Tensor) -> Tensor:
    """Elements of the flattened input at ``index``."""
    return _op("take")(input, index)


@_uses("narrow")
def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The slice [start, start + length) along ``dim``."""
    return _op("narrow")(input, dim, start, length)


@_uses("narrow", "squeeze")
def select(input: Tensor, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim``, with that dim removed."""
    size = input.shape[dim]
    return _op("squeeze")(_op("narrow")(input, dim, index % size if size else index, 1), dim)


@_uses("nonzero")
def nonzero(input: Tensor, *, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Indices of the non-zero elements."""
    return _op("nonzero")(input, as_tuple=as_tuple)
