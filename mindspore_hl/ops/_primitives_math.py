"""Math, linear-algebra and segment/search Primitive classes (``SegmentSum``, ``Median``, ``MatrixDiagV3`` ...).

Each delegates to a functional op (the op table) or to a small array function here when MindSpore has no
functional form; constructor arguments carry MindSpore 2.10's names and defaults.

>>> import numpy as np, mindspore_hl as ms
>>> ms.ops.SegmentSum()(ms.Tensor(np.array([1., 2., 3.], np.float32)), ms.Tensor(np.array([0, 0, 1], np.int32)))
Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  3.00000000e+00])
"""
import inspect
from typing import Any, Callable

import jax
import jax.numpy as jnp
import jax.scipy.special as jss
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import wrap
from . import _math_more
from ._core import check, op, unwrap
from ._primitives import primitive_class
from ._registry import lookup

_E = inspect.Parameter.empty


def _np_dtype(d):
    if isinstance(d, str):
        d = {"int32": mstype.int32, "int64": mstype.int64, "float": mstype.float32, "float32": mstype.float32,
             "float64": mstype.float64}.get(d, d)
    return mstype.to_ms_dtype(d).to_numpy()


def _concrete(name, key, x):
    try:
        return np.asarray(unwrap(x))
    except (TypeError, jax.errors.ConcretizationTypeError):
        raise TypeError(f"For '{name}', '{key}' must be concrete (its value decides the output shape); it cannot "
                        f"be traced inside a compiled function.") from None


def _segment(kind):
    name = f"Segment{kind.capitalize()}"

    def fn(a, x, segment_ids):
        ids = _concrete(name, "segment_ids", segment_ids)
        check(ids.ndim == 1 and ids.dtype.kind in "iu", name,
              f"'segment_ids' must be a 1-D int Tensor, but got {ids.dtype} of shape {list(ids.shape)}.")
        xv = unwrap(x)
        check(xv.ndim >= 1 and xv.shape[0] == ids.size, name,
              f"'segment_ids' must have x.shape[0] = {xv.shape[0] if xv.ndim else 0} elements, but got {ids.size}.")
        check(ids.size == 0 or (ids[0] >= 0 and np.all(np.diff(ids) >= 0)), name,
              f"'segment_ids' must be sorted and non-negative, but got {ids.tolist()}.")
        num = int(ids[-1]) + 1 if ids.size else 0
        count = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num)
        count = count.reshape((num,) + (1,) * (xv.ndim - 1))
        if kind == "mean":
            out = jax.ops.segment_sum(xv, ids, num) / jnp.maximum(count, 1).astype(xv.dtype)
        else:
            out = getattr(jax.ops, f"segment_{kind}")(xv, ids, num)
        empty = 1 if kind == "prod" else 0  # MindSpore's value for a segment no id points at
        return wrap(jnp.where(count > 0, out, jnp.asarray(empty, xv.dtype)).astype(xv.dtype))
    return fn


def _median(a, x):
    xv = unwrap(x)
    if a["global_median"]:
        flat = xv.reshape(-1)
        order = jnp.argsort(flat, stable=True)
        k = (flat.size - 1) // 2
        return wrap(flat[order[k]]), wrap(jnp.zeros((), jnp.int64))  # MindSpore gives no index for the global one
    axis = a["axis"] % max(xv.ndim, 1)
    order = jnp.argsort(xv, axis=axis, stable=True)
    k = (xv.shape[axis] - 1) // 2
    idx = jnp.take(order, jnp.array([k]), axis=axis)
    vals = jnp.take_along_axis(xv, idx, axis=axis)
    if not a["keep_dims"]:
        idx, vals = jnp.squeeze(idx, axis), jnp.squeeze(vals, axis)
    return wrap(vals), wrap(idx.astype(jnp.int64))


def _reduce_std(a, x):
    xv = unwrap(x)
    axis = a["axis"]
    axis = None if axis in ([], ()) else (tuple(axis) if isinstance(axis, (list, tuple)) else axis)
    std = jnp.std(xv, axis=axis, ddof=1 if a["unbiased"] else 0, keepdims=a["keep_dims"])
    return wrap(std.astype(xv.dtype)), wrap(jnp.mean(xv, axis=axis, keepdims=a["keep_dims"]).astype(xv.dtype))


@op("Bound")
def _bound(sorted_x, values, side, dtype):
    check(sorted_x.ndim == 2 and values.ndim == 2 and sorted_x.shape[0] == values.shape[0], "LowerBound/UpperBound",
          f"expected 2-D inputs with equal first dimensions, but got {list(sorted_x.shape)} and "
          f"{list(values.shape)}.")
    return jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(sorted_x, values).astype(dtype)


@op("unravel_index")
def _unravel(indices, dims):
    return jnp.stack(jnp.unravel_index(indices, tuple(int(d) for d in np.asarray(dims))), axis=0).astype(
        indices.dtype)


@op("CompareAndBitpack")
def _bitpack(x, threshold):
    check(x.ndim >= 1 and x.shape[-1] % 8 == 0, "CompareAndBitpack",
          f"the last dimension of 'x' must be a multiple of 8, but got shape {list(x.shape)}.")
    bits = (x > threshold).reshape(x.shape[:-1] + (x.shape[-1] // 8, 8)).astype(jnp.uint8)
    return jnp.sum(bits << jnp.arange(7, -1, -1, dtype=jnp.uint8), axis=-1, dtype=jnp.uint8)


def _nth_element(a, x, n):
    xv, k = unwrap(x), int(_concrete("NthElement", "n", n))
    check(xv.ndim >= 1 and 0 <= k < xv.shape[-1], "NthElement",
          f"'n' must be in [0, {xv.shape[-1] if xv.ndim else 0}), but got {k}.")
    s = jnp.sort(xv, axis=-1)
    return wrap(s[..., -1 - k] if a["reverse"] else s[..., k])


def _invert_permutation(a, x):
    if isinstance(x, (list, tuple)):
        out = [0] * len(x)
        for i, v in enumerate(x):
            out[int(v)] = i
        return tuple(out)
    xv = unwrap(x)
    return wrap(jnp.argsort(xv).astype(xv.dtype))


def _check_numerics(a, x):
    v = unwrap(x)
    if not isinstance(v, jax.core.Tracer):
        check(bool(jnp.all(jnp.isfinite(v))), "CheckNumerics", "the input contains NaN or Inf values.")
    return wrap(v)


def _coalesce(a, indices, values, shape):
    idx, val = _concrete("Coalesce", "x_indices", indices), unwrap(values)
    keys = np.ravel_multi_index(tuple(idx), tuple(_concrete("Coalesce", "x_shape", shape)))
    uniq, inv = np.unique(keys, return_inverse=True)
    summed = jax.ops.segment_sum(val, jnp.asarray(inv.reshape(-1)), uniq.size)
    new_idx = np.stack(np.unravel_index(uniq, tuple(_concrete("Coalesce", "x_shape", shape))))
    return wrap(jnp.asarray(new_idx.astype(idx.dtype))), wrap(summed), wrap(shape)


def _ragged_range(a, starts, limits, deltas):
    s, lim, d = (np.atleast_1d(_concrete("RaggedRange", k, v)) for k, v in
                 (("starts", starts), ("limits", limits), ("deltas", deltas)))
    check(np.all(d != 0), "RaggedRange", f"'deltas' must not contain 0, but got {d.tolist()}.")
    parts = [np.arange(x, y, z, dtype=s.dtype) for x, y, z in zip(*np.broadcast_arrays(s, lim, d))]
    splits = np.concatenate([[0], np.cumsum([p.size for p in parts])]).astype(_np_dtype(a["Tsplits"]))
    return wrap(jnp.asarray(splits)), wrap(jnp.asarray(np.concatenate(parts) if parts else s[:0]))


def _index_put(a, x1, x2, indices):
    xv, v = unwrap(x1), unwrap(x2)
    idx = tuple(unwrap(i) for i in indices)
    at = xv.at[idx]
    return wrap(at.add(v.astype(xv.dtype)) if a["accumulate"] else at.set(v.astype(xv.dtype)))


def _masked_scatter(a, x, mask, updates):
    xv, m, u = unwrap(x), unwrap(mask), unwrap(updates)
    m = jnp.broadcast_to(m, xv.shape).reshape(-1)
    pos = jnp.clip(jnp.cumsum(m) - 1, 0, max(u.size - 1, 0))
    return wrap(jnp.where(m, u.reshape(-1)[pos].astype(xv.dtype), xv.reshape(-1)).reshape(xv.shape))


def _f(op_name, *keys, **fixed):
    """A Primitive body calling the functional op ``op_name`` with constructor attributes ``keys`` as keywords."""
    def fn(a, *inputs):
        kw = {k.split("=")[-1]: a[k.split("=")[0]] for k in keys}
        return lookup(op_name)(*inputs, **kw, **fixed)
    return fn


def _arr(fn):
    """A Primitive body from an array function of the inputs (no attributes); ``_make`` wraps it as an op."""
    fn._array_body = True
    return fn


# (name, ((constructor argument, default), ...), body(attrs, *inputs))
_SPECS: list[tuple[str, tuple[tuple[str, Any], ...], Callable[..., Any]]] = [
    ("SegmentMax", (), lambda a, x, s: _segment("max")(a, x, s)),
    ("SegmentMin", (), lambda a, x, s: _segment("min")(a, x, s)),
    ("SegmentSum", (), lambda a, x, s: _segment("sum")(a, x, s)),
    ("SegmentProd", (), lambda a, x, s: _segment("prod")(a, x, s)),
    ("SegmentMean", (), lambda a, x, s: _segment("mean")(a, x, s)),
    ("Median", (("global_median", False), ("axis", 0), ("keep_dims", False), ("ignore_nan", False)), _median),
    ("Quantile", (("dim", None), ("keep_dims", False), ("ignore_nan", False)),
     lambda a, x, q: lookup("nanquantile" if a["ignore_nan"] else "quantile")(x, q, axis=a["dim"],
                                                                               keepdims=a["keep_dims"])),
    ("CountNonZero", (("dims", None),), lambda a, x: lookup("count_nonzero")(
        x, axis=() if a["dims"] is None else tuple(a["dims"]) if isinstance(a["dims"], (list, tuple))
        else a["dims"], dtype=mstype.int64)),
    ("SplitV", (("size_splits", _E), ("split_dim", _E), ("num_split", _E)), lambda a, x: _split_v(a, x)),
    # (ignore below) mypy cannot infer this @op function, defined further down
    ("HistogramFixedWidth", (("nbins", _E), ("dtype", "int32")), lambda a, x, r: _hist_fixed(x, r, a["nbins"])),  # type: ignore[has-type]
    ("LerpScalar", (), lambda a, x, end, w: lookup("lerp")(x, end, w)),
    # (ignore below) mypy cannot infer this @op function, defined further down
    ("ConfusionMatrix", (("num_classes", _E), ("dtype", "int32")),
     lambda a, labels, pred, w=None: _confusion(labels, pred, w, a["num_classes"], _np_dtype(a["dtype"]))),  # type: ignore[has-type]
    ("ScatterNonAliasingAdd", (), lambda a, x, i, u: lookup("scatter_nd_add")(x, i, u)),
    ("ReduceStd", (("axis", []), ("unbiased", True), ("keep_dims", False)), _reduce_std),
    ("SearchSorted", (("dtype", mstype.int64), ("right", False)),
     lambda a, s, v: lookup("searchsorted")(s, v, right=a["right"], out_int32=_np_dtype(a["dtype"]) == np.int32)),
    ("LowerBound", (("out_type", mstype.int32),), lambda a, s, v: _bound(s, v, "left", _np_dtype(a["out_type"]))),
    ("UpperBound", (("out_type", mstype.int32),), lambda a, s, v: _bound(s, v, "right", _np_dtype(a["out_type"]))),
    ("UniqueConsecutive", (("return_inverse", False), ("return_counts", False), ("dim", None)),
     lambda a, x: _unique_consecutive(a, x)),
    ("UniqueWithPad", (), lambda a, x, pad: _math_more.unique_with_pad(x, pad)),
    ("UnravelIndex", (), lambda a, i, d: _unravel(i, d)),
    ("TrilIndices", (("row", _E), ("col", _E), ("offset", 0), ("dtype", mstype.int32)),
     lambda a: lookup("tril_indices")(a["row"], a["col"], a["offset"], dtype=a["dtype"])),
    ("TriuIndices", (("row", _E), ("col", _E), ("offset", 0), ("dtype", mstype.int32)),
     lambda a: lookup("triu_indices")(a["row"], a["col"], a["offset"], dtype=a["dtype"])),
    ("SquareSumAll", (), lambda a, x, y: (lookup("reduce_sum")(lookup("square")(x)),
                                          lookup("reduce_sum")(lookup("square")(y)))),
    ("Rint", (), _arr(lambda x: jnp.rint(x))),
    ("Complex", (), _arr(lambda re, im: jax.lax.complex(re, im))),
    ("ComplexAbs", (), _arr(lambda x: jnp.abs(x))),
    ("Betainc", (), _arr(lambda a, b, x: jss.betainc(a, b, x).astype(x.dtype))),
    ("Bincount", (), lambda a, x, size, w: wrap(jnp.zeros((int(_concrete("Bincount", "size", size)),),
                                                          unwrap(w).dtype).at[unwrap(x)].add(unwrap(w),
                                                                                              mode="drop"))),
    ("Cross", (("dim", -65530),), lambda a, x, y: lookup("cross")(x, y, None if a["dim"] == -65530 else a["dim"])),
    ("CumulativeLogsumexp", (("exclusive", False), ("reverse", False)), lambda a, x, axis: _cum_lse(a, x, axis)),
    ("DivNoNan", (), _arr(lambda x, y: jnp.where(y == 0, jnp.zeros((), jnp.result_type(x, y)), x / jnp.where(
        y == 0, jnp.ones((), y.dtype), y)).astype(jnp.result_type(x, y)))),
    ("MulNoNan", (), _arr(lambda x, y: jnp.where(y == 0, jnp.zeros((), jnp.result_type(x, y)), x * y))),
    ("EqualCount", (), _arr(lambda x, y: jnp.sum(x == y, dtype=x.dtype).reshape(1))),
    ("Histogram", (("bins", 100), ("min", 0.0), ("max", 0.0)), _f("histc", "bins", "min", "max")),
    ("InvertPermutation", (), _invert_permutation),
    ("LinSpace", (), lambda a, start, stop, num: lookup("linspace")(start, stop, num)),
    ("LogSpace", (("steps", 10), ("base", 10), ("dtype", mstype.float32)),
     lambda a, s, e: lookup("logspace")(s, e, a["steps"], a["base"], dtype=a["dtype"])),
    ("NonZero", (), lambda a, x: lookup("nonzero")(x)),
    ("NthElement", (("reverse", False),), _nth_element),
    ("IdentityN", (), lambda a, xs: tuple(wrap(unwrap(x)) for x in xs)),
    ("CheckNumerics", (), _check_numerics),
    ("Coalesce", (), _coalesce),
    ("RaggedRange", (("Tsplits", _E),), _ragged_range),
    ("IndexPut", (("accumulate", 0),), _index_put),
    ("MaskedScatter", (), _masked_scatter),
    ("ScatterAddWithAxis", (("axis", 0),),
     lambda a, x, i, u: lookup("tensor_scatter_elements")(x, i, u, axis=a["axis"], reduction="add")),
    ("CompareAndBitpack", (), lambda a, x, t: _bitpack(x, t)),
    ("InplaceUpdateV2", (), lambda a, x, i, v: lookup("inplace_update")(x, v, i)),
    ("InplaceIndexAdd", (("axis", _E),), lambda a, var, i, u: _math_more.inplace_index_add(var, i, u, a["axis"])),
]


def _split_v(a, x):
    n = unwrap(x).shape[a["split_dim"]]
    sizes = list(a["size_splits"])
    check(len(sizes) == a["num_split"] and sizes.count(-1) <= 1, "SplitV",
          f"'size_splits' must have num_split = {a['num_split']} entries with at most one -1, but got {sizes}.")
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
    check(sum(sizes) == n and min(sizes) >= 0, "SplitV",
          f"'size_splits' must sum to {n} (the size of dimension {a['split_dim']}), but got {sizes}.")
    return tuple(lookup("split")(x, sizes, a["split_dim"]))


@op("HistogramFixedWidth")
def _hist_fixed(x, value_range, nbins):
    check(value_range.shape == (2,), "HistogramFixedWidth",
          f"'range' must have shape [2], but got {list(value_range.shape)}.")
    lo, hi = value_range[0].astype(jnp.float64), value_range[1].astype(jnp.float64)
    idx = jnp.floor((x.astype(jnp.float64) - lo) / (hi - lo) * nbins).astype(jnp.int32)
    return jnp.zeros((nbins,), jnp.int32).at[jnp.clip(idx, 0, nbins - 1).reshape(-1)].add(1)


@op("ConfusionMatrix")
def _confusion(labels, predictions, weights, num_classes, dtype):
    check(labels.shape == predictions.shape and labels.ndim == 1, "ConfusionMatrix",
          f"'labels' and 'predictions' must be 1-D of one shape, but got {list(labels.shape)} and "
          f"{list(predictions.shape)}.")
    w = jnp.ones(labels.shape, dtype) if weights is None else weights.astype(dtype)
    return jnp.zeros((num_classes, num_classes), dtype).at[labels, predictions].add(w, mode="drop")


def _unique_consecutive(a, x):
    out = lookup("unique_consecutive")(x, True, True, a["dim"])
    zero = wrap(jnp.zeros((), jnp.int64))  # MindSpore's placeholder for an output not asked for
    return out[0], out[1] if a["return_inverse"] else zero, out[2] if a["return_counts"] else zero


@op("CumulativeLogsumexp")
def _cum_lse_arr(x, axis, exclusive, reverse):
    y = jnp.flip(x, axis) if reverse else x
    out = jax.lax.cumlogsumexp(y, axis=axis)
    if exclusive:
        pad = [(0, 0)] * x.ndim
        pad[axis] = (1, 0)
        lowest = jnp.finfo(x.dtype).min  # MindSpore starts the exclusive sum at the lowest finite value, not -inf
        out = jnp.pad(out, pad, constant_values=lowest)[tuple(
            slice(0, -1) if d == axis else slice(None) for d in range(x.ndim))]
    return jnp.flip(out, axis) if reverse else out


def _cum_lse(a, x, axis):
    ax = int(_concrete("CumulativeLogsumexp", "axis", axis))
    return _cum_lse_arr(x, ax % max(unwrap(x).ndim, 1), a["exclusive"], a["reverse"])


def _make(name, init_args, body):
    if getattr(body, "_array_body", False):
        array_op = op(name)(body)
        body = lambda a, *xs: array_op(*xs)  # noqa: E731
    doc = f"``ops.{name}({', '.join(k for k, _ in init_args)})(...)``: MindSpore's ``{name}`` Primitive."
    return primitive_class(name, init_args, lambda prim, *inputs: body(prim.attrs, *inputs), doc, __name__)


for _name, _args, _body in _SPECS:
    globals()[_name] = _make(_name, _args, _body)

__all__ = [s[0] for s in _SPECS]
