"""MindSpore's Primitive classes for math, array and reduction ops (``ops.Mul()(a, b)``, ``ops.ReduceMean``...).

A Primitive is configured by its constructor (attributes such as ``keep_dims``) and applied by calling it;
each one calls the functional op of the same meaning, so both forms behave identically.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

import jax.numpy as jnp

from ..common import dtype as mstype
from ..common.tensor import Tensor, wrap
from . import _array, _creation, _index, _index_ext, _linalg, _math, _reduce, _state
from ._core import check, op, unwrap


class Primitive:
    """Base class of the operator classes: ``prim = ops.Mul(); prim(a, b)``."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.attrs: dict[str, Any] = {}

    def add_prim_attr(self, name: str, value: Any) -> Primitive:
        """Record an attribute (also readable as ``prim.<name>``); returns self."""
        self.attrs[name] = value
        self.__dict__.setdefault(name, value)
        return self

    def del_prim_attr(self, name: str) -> Primitive:
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs: Sequence[str], outputs: Sequence[str]) -> None:
        self.attrs["input_names"], self.attrs["output_names"] = list(inputs), list(outputs)

    def shard(self, in_strategy: tuple[tuple[int, ...], ...] | None = None,
              out_strategy: tuple[tuple[int, ...], ...] | None = None) -> Primitive:
        """Record a parallel layout (used by the parallel modes; ignored otherwise); returns self."""
        self.attrs["in_strategy"], self.attrs["out_strategy"] = in_strategy, out_strategy
        return self

    def set_prim_instance_name(self, instance_name: str) -> Primitive:
        self.instance_name = instance_name
        return self

    def recompute(self, mode: bool = True) -> Primitive:
        return self

    def __call__(self, *args: Any) -> Any:
        raise NotImplementedError(f"Primitive {self.name} must define __call__ (or use a built-in ops class).")

    def __repr__(self):
        return f"Prim[{self.name}]"


PrimitiveWithInfer = PrimitiveWithCheck = Primitive


def primitive_class(name: str, init_args: Sequence[tuple[str, Any]], call: Callable[..., Any], doc: str | None,
                    module: str, on_init: Callable[[Primitive], None] | None = None) -> type[Primitive]:
    """A Primitive subclass ``name`` whose constructor takes ``init_args`` ((argument, default), ...) by name or
    position, as MindSpore's does, and records each as an attribute (``prim.attrs`` and ``prim.<argument>``);
    ``on_init(prim)`` may then validate them. Calling an instance is ``call(prim, *inputs, **kwargs)``.
    """
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + [
        inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d) for k, d in init_args]
    sig = inspect.Signature(params)

    def __init__(self, *a, **kw):
        bound = sig.bind(self, *a, **kw)
        bound.apply_defaults()
        Primitive.__init__(self, name)
        for key, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(key, value)
            setattr(self, key, value)
        if on_init is not None:
            on_init(self)

    def __call__(self, *inputs, **kwargs):
        return call(self, *inputs, **kwargs)

    __init__.__signature__ = sig  # type: ignore[attr-defined]  # what inspect.signature reports
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": module})


def prim_attr_register(fn: Callable[..., None]) -> Callable[..., None]:
    """Decorator for a Primitive's ``__init__``: its arguments become attributes (as in MindSpore)."""
    import inspect
    sig = inspect.signature(fn)

    def init(self, *args, **kwargs):
        Primitive.__init__(self, type(self).__name__)
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            self.add_prim_attr(k, v)
        fn(self, *args, **kwargs)

    init.__wrapped__ = fn  # type: ignore[attr-defined]  # inspect.signature follows it to fn's parameters
    return init


def constexpr(fn: Callable[..., Any] | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Callable[..., Any]:
    """Mark a function as computing a compile-time constant; here it simply runs in Python."""
    return fn if fn is not None else (lambda f: f)


def _prim(name, fn, doc=None):
    def __call__(self, *args, **kwargs):
        return fn(*args, **kwargs)
    doc = doc or f"``ops.{name}()(...)``, the Primitive form of ``{fn.__name__}``."
    cls = type(name, (Primitive,), {"__call__": __call__, "__module__": __name__, "__doc__": doc})
    globals()[name] = cls
    return cls


for _name, _fn in [
    ("Add", _math.add), ("Sub", _math.sub), ("Mul", _math.mul), ("Div", _math.div), ("RealDiv", _math.div),
    ("FloorDiv", _math.floor_div), ("FloorMod", _math.floor_mod), ("Mod", _math.fmod), ("Pow", _math.pow),
    ("Sqrt", _math.sqrt), ("Rsqrt", _math.rsqrt), ("Square", _math.square), ("Exp", _math.exp),
    ("Log", _math.log), ("Log1p", _math.log1p), ("Abs", _math.abs), ("Neg", _math.neg), ("Sign", _math.sign),
    ("Maximum", _math.maximum), ("Minimum", _math.minimum), ("Reciprocal", _math.reciprocal), ("Erf", _math.erf),
    ("Sin", _math.sin), ("Cos", _math.cos), ("Floor", _math.floor), ("Ceil", _math.ceil), ("Round", _math.round),
    ("Atan2", _math.atan2), ("Equal", _math.equal), ("NotEqual", _math.not_equal), ("Greater", _math.greater),
    ("GreaterEqual", _math.greater_equal), ("Less", _math.less), ("LessEqual", _math.less_equal),
    ("LogicalAnd", _math.logical_and), ("LogicalOr", _math.logical_or), ("LogicalNot", _math.logical_not),
    ("IsNan", _math.isnan), ("IsInf", _math.isinf), ("IsFinite", _math.isfinite), ("AddN", _math.addn),
    ("Select", _index.select), ("Reshape", _array.reshape), ("Transpose", _array.transpose),
    ("ExpandDims", _array.expand_dims), ("Tile", _array.tile), ("ZerosLike", _creation.zeros_like),
    ("OnesLike", _creation.ones_like), ("GatherNd", _index.gather_nd), ("GatherD", _index.gather_d),
    ("ScatterNd", _index.scatter_nd), ("TensorScatterUpdate", _index.tensor_scatter_update),
    ("TensorScatterAdd", _index.tensor_scatter_add), ("Cast", _array.cast), ("Slice", _array.slice),
    ("Depend", _array.depend), ("StopGradient", _array.stop_gradient), ("Identity", _array.identity),
    ("Assign", _state.assign), ("AssignAdd", _state.assign_add), ("AssignSub", _state.assign_sub),
    ("Fill", _creation.fill), ("Shape", _array.shape), ("Rank", _array.rank), ("Size", _array.size),
]:
    _prim(_name, _fn)


@op("squared_difference")
def _squared_difference(x, y):
    return jnp.square(x - y)


@op("l2_loss")
def _l2_loss(x):
    return jnp.sum(jnp.square(x)) / 2


_prim("SquaredDifference", _squared_difference, "``(x - y) ** 2`` elementwise.")
_prim("L2Loss", _l2_loss, "``sum(x ** 2) / 2``.")
_prim("UnsortedSegmentSum", _index_ext.unsorted_segment_sum, "Sum of the rows of ``x`` per segment id.")


def _dtype_of(x):
    return x.dtype if isinstance(x, Tensor) else mstype.from_numpy(jnp.result_type(unwrap(x)))


_prim("DType", _dtype_of, "The dtype of a Tensor.")
_prim("Zeros", lambda size, type=None: _creation.zeros(size, type), "``Zeros()(shape, dtype)``.")
_prim("Ones", lambda shape, type=None: _creation.ones(shape, type), "``Ones()(shape, dtype)``.")
_prim("Eye", lambda n, m, t: _creation.eye(n, m, t), "``Eye()(n, m, dtype)``.")


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``: 2-D matrix product."""

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        self.transpose_a, self.transpose_b = transpose_a, transpose_b

    def __call__(self, x: Tensor, y: Tensor) -> Tensor:
        if self.transpose_a:
            x = _array.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = _array.swapaxes(y, -1, -2)
        return _linalg.matmul(x, y)


class BatchMatMul(MatMul):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: batched matrix product."""


def _reduce_prim(name, fn, doc):
    class _Reduce(Primitive):
        def __init__(self, keep_dims=False):
            super().__init__(name)
            check(isinstance(keep_dims, bool), name, f"'keep_dims' must be a bool, but got {keep_dims!r}.", TypeError)
            self.keep_dims = keep_dims

        def __call__(self, x, axis=()):
            return fn(x, axis, self.keep_dims)

    _Reduce.__name__ = _Reduce.__qualname__ = name
    _Reduce.__doc__ = doc
    globals()[name] = _Reduce


_reduce_prim("ReduceSum", lambda x, a, k: _reduce.sum(x, a, k), "``ReduceSum(keep_dims)(x, axis=())``: sum.")
_reduce_prim("ReduceMean", _reduce.mean, "``ReduceMean(keep_dims)(x, axis=())``: mean.")
_reduce_prim("ReduceMax", _reduce.amax, "``ReduceMax(keep_dims)(x, axis=())``: maximum.")
_reduce_prim("ReduceMin", _reduce.amin, "``ReduceMin(keep_dims)(x, axis=())``: minimum.")
_reduce_prim("ReduceProd", _reduce.prod, "``ReduceProd(keep_dims)(x, axis=())``: product.")
_reduce_prim("ReduceAll", _reduce.all, "``ReduceAll(keep_dims)(x, axis=())``: logical and.")
_reduce_prim("ReduceAny", _reduce.any, "``ReduceAny(keep_dims)(x, axis=())``: logical or.")


class Argmax(Primitive):
    """``Argmax(axis=-1, output_type=ms.int32)(x)``."""

    def __init__(self, axis: int = -1, output_type: mstype.Type = mstype.int32) -> None:
        super().__init__()
        self.axis, self.output_type = axis, output_type

    def __call__(self, x: Tensor) -> Tensor:
        return _array.cast(_reduce.argmax(x, self.axis), self.output_type)


class Argmin(Argmax):
    """``Argmin(axis=-1, output_type=ms.int32)(x)``."""

    def __call__(self, x: Tensor) -> Tensor:
        return _array.cast(_reduce.argmin(x, self.axis), self.output_type)


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, value)``."""

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x: Tensor) -> tuple[Tensor, Tensor]:
        values, index = _reduce.max(x, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, value)``."""

    def __call__(self, x: Tensor) -> tuple[Tensor, Tensor]:
        values, index = _reduce.min(x, self.axis, self.keep_dims)
        return index, values


class CumSum(Primitive):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``."""

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        self.exclusive, self.reverse = exclusive, reverse

    def __call__(self, x: Tensor, axis: int) -> Tensor:
        v = unwrap(x)
        axis = int(unwrap(axis))
        if self.reverse:
            v = jnp.flip(v, axis)
        out = jnp.cumsum(v, axis)
        if self.exclusive:
            out = out - v
        return wrap(jnp.flip(out, axis) if self.reverse else out)


class CumProd(CumSum):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``."""

    def __call__(self, x: Tensor, axis: int) -> Tensor:
        v = unwrap(x)
        axis = int(unwrap(axis))
        if self.reverse:
            v = jnp.flip(v, axis)
        out = jnp.cumprod(v, axis)
        if self.exclusive:
            out = out / v
        return wrap(jnp.flip(out, axis) if self.reverse else out)


class _Axis(Primitive):
    def __init__(self, axis=0):
        super().__init__()
        self.axis = axis


class Concat(_Axis):
    """``Concat(axis=0)(tensors)``."""

    def __call__(self, tensors: Sequence[Tensor]) -> Tensor:
        return _array.concat(tensors, self.axis)


class Stack(_Axis):
    """``Stack(axis=0)(tensors)``."""

    def __call__(self, tensors: Sequence[Tensor]) -> Tensor:
        return _array.stack(tensors, self.axis)


class Unstack(_Axis):
    """``Unstack(axis=0)(x)`` -> tuple."""

    def __init__(self, axis: int = 0, num: int | None = None) -> None:
        super().__init__(axis)

    def __call__(self, x: Tensor) -> tuple[Tensor, ...]:
        return _array.unstack(x, self.axis)


class Split(Primitive):
    """``Split(axis=0, output_num=1)(x)`` -> tuple of ``output_num`` equal parts."""

    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        self.axis, self.output_num = axis, output_num

    def __call__(self, x: Tensor) -> tuple[Tensor, ...]:
        n = x.shape[self.axis]
        check(n % self.output_num == 0, "Split", f"the axis length {n} is not divisible by output_num "
                                                 f"{self.output_num}.")
        return _array.split(x, n // self.output_num, self.axis)


class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``: remove the given (default: all) length-1 axes."""

    def __init__(self, axis: int | tuple[int, ...] = ()) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, x: Tensor) -> Tensor:
        return _array.squeeze(x, None if self.axis == () else self.axis)


class Gather(Primitive):
    """``Gather(batch_dims=0)(params, indices, axis)``."""

    def __init__(self, batch_dims: int = 0) -> None:
        super().__init__()
        self.batch_dims = batch_dims

    def __call__(self, input_params: Tensor, input_indices: Tensor, axis: int) -> Tensor:
        return _index.gather(input_params, input_indices, axis, self.batch_dims)


class Einsum(Primitive):
    """``Einsum(equation)(inputs)``: Einstein summation of the tuple of Tensors ``inputs``."""

    def __init__(self, equation: str) -> None:
        super().__init__()
        check(isinstance(equation, str), "Einsum", f"'equation' must be a str, but got {type(equation).__name__}.",
              TypeError)
        self.equation = equation.replace(" ", "")
        self.add_prim_attr("equation", self.equation)

    def __call__(self, inputs: tuple[Tensor, ...] | list[Tensor]) -> Tensor:
        check(isinstance(inputs, (tuple, list)), "Einsum",
              f"the input must be a tuple of Tensors, but got {type(inputs).__name__}.", TypeError)
        return _linalg.einsum(self.equation, *inputs)


class GatherV2(Gather):
    """Older name of :class:`Gather`; MindSpore 2.10's takes ``batch_dims`` as a 4th input."""

    def __call__(self, input_params: Tensor, input_indices: Tensor, axis: int,  # type: ignore[override]
                 batch_dims: int | None = None) -> Tensor:
        return _index.gather(input_params, input_indices, axis, self.batch_dims if batch_dims is None else batch_dims)


class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        super().__init__()
        self.shape = shape

    def __call__(self, x: Tensor) -> Tensor:
        return _array.broadcast_to(x, self.shape)


class OneHot(Primitive):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, indices: Tensor, depth: int, on_value: Tensor | float, off_value: Tensor | float) -> Tensor:
        return _index.one_hot(indices, depth, on_value, off_value, self.axis)


class TopK(Primitive):
    """``TopK(sorted=True)(x, k)`` -> ``(values, indices)`` along the last axis."""

    def __init__(self, sorted: bool = True) -> None:
        super().__init__()
        self.sorted = sorted

    def __call__(self, input_x: Tensor, k: int) -> tuple[Tensor, Tensor]:
        return _reduce.topk(input_x, int(unwrap(k)), -1, True, self.sorted)


class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)`` -> ``(values, indices)``."""

    def __init__(self, axis: int = -1, descending: bool = False) -> None:
        super().__init__()
        self.axis, self.descending = axis, descending

    def __call__(self, x: Tensor) -> tuple[Tensor, Tensor]:
        return _reduce.sort(x, self.axis, self.descending)


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)``
    ``(x, begin, end, strides)``."""

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                 shrink_axis_mask: int = 0) -> None:
        super().__init__()
        self.masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def __call__(self, x: Tensor, begin: tuple[int, ...], end: tuple[int, ...],
                 strides: tuple[int, ...]) -> Tensor:
        return _array.strided_slice(x, begin, end, strides, *self.masks)


class Pad(Primitive):
    """``Pad(paddings)(x)``: zero padding with ``paddings = ((before, after), ...)`` per dimension."""

    def __init__(self, paddings: tuple[tuple[int, int], ...]) -> None:
        super().__init__()
        self.paddings = tuple(tuple(p) for p in paddings)

    def __call__(self, x: Tensor) -> Tensor:
        v = unwrap(x)
        check(len(self.paddings) == v.ndim, "Pad", f"'paddings' needs one (before, after) pair per dimension "
                                                   f"({v.ndim}), but got {len(self.paddings)}.")
        return wrap(jnp.pad(v, self.paddings))


class Flatten(Primitive):
    """``Flatten()(x)``: (N, ...) -> (N, -1)."""

    def __call__(self, x: Tensor) -> Tensor:
        return _array.flatten(x)


__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr"] + sorted(
    k for k, v in list(globals().items())
    if isinstance(v, type) and issubclass(v, Primitive) and v is not Primitive and not k.startswith("_"))
