"""Element-wise functions of ``mindspore.numpy`` (``add``, ``sqrt``, ``arctan2`` ...): MindSpore's NumPy dtype rules,
then the functional op."""
from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING

from ._base import apply_dtype, asarray_const, op, promote

if TYPE_CHECKING:
    from ..common.tensor import Tensor
    from ._base import ArrayLike, DTypeLike

__all__: list[str] = []

# numpy name -> ops name
_UNARY = {"abs": "abs", "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
          "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh", "ceil": "ceil", "cos": "cos", "cosh": "cosh",
          "deg2rad": "deg2rad", "radians": "deg2rad", "rad2deg": "rad2deg", "exp": "exp", "exp2": "exp2",
          "expm1": "expm1", "fabs": "abs", "floor": "floor", "isfinite": "isfinite", "isinf": "isinf",
          "isnan": "isnan", "log": "log", "log10": "log10", "log1p": "log1p", "log2": "log2", "negative": "neg",
          "positive": "positive", "reciprocal": "reciprocal", "rint": "round", "sign": "sign", "signbit": "signbit",
          "sin": "sin", "sinh": "sinh", "sqrt": "sqrt", "square": "square", "tan": "tan", "tanh": "tanh",
          "trunc": "trunc", "invert": "invert", "bitwise_not": "invert", "logical_not": "logical_not"}
_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
           "floor_divide": "floor_divide", "power": "pow", "mod": "remainder", "remainder": "remainder",
           "fmod": "fmod", "maximum": "maximum", "minimum": "minimum", "arctan2": "atan2", "hypot": "hypot",
           "copysign": "copysign", "heaviside": "heaviside", "gcd": "gcd", "lcm": "lcm", "logaddexp": "logaddexp",
           "logaddexp2": "logaddexp2", "equal": "equal", "not_equal": "not_equal", "greater": "greater",
           "greater_equal": "greater_equal", "less": "less", "less_equal": "less_equal",
           "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
           "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor"}
_FLOAT_RESULT = {"divide", "true_divide", "arctan2", "hypot", "logaddexp", "logaddexp2"}
_INT_TO_FLOAT = {"sqrt", "log", "log10", "log1p", "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin",
                 "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "deg2rad", "radians", "rad2deg", "expm1",
                 "rint", "ceil", "floor", "trunc", "exp", "sign"}


def _exp2_int(t):
    return op("pow")(asarray_const(2, t.dtype), t)


def _reciprocal_int(t):
    return op("div")(asarray_const(1, t.dtype), t, rounding_mode="trunc")


# integer inputs MindSpore keeps integral (exp2 as a power of two, reciprocal as truncating division, fabs)
_INT_SPECIAL = {"exp2": _exp2_int, "reciprocal": _reciprocal_int, "fabs": lambda t: op("abs")(t)}


def _is_int(t) -> bool:
    return str(t._value.dtype)[:3] in ("int", "uin", "boo")


# MindSpore's parameter name where it is not ``x``
_PARAM = {"arccos": "input", "logical_not": "a", "negative": "a", "positive": "a"}


def _named(fn, first: str):
    """``fn(x, dtype=None)`` presented (and callable by keyword) with MindSpore's name for its first parameter."""
    if first == "x":
        return fn
    sig = inspect.signature(fn)
    params = [p.replace(name=first) if p.name == "x" else p for p in sig.parameters.values()]
    new_sig = sig.replace(parameters=params)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = new_sig.bind(*args, **kwargs)
        vals = dict(bound.arguments)
        return fn(vals.pop(first), **vals)
    wrapper.__signature__ = new_sig  # type: ignore[attr-defined]  # read by inspect.signature
    return wrapper


def _unary(name: str, target: str):
    def fn(x, dtype=None):
        t = asarray_const(x)
        if name in _INT_SPECIAL and _is_int(t):
            return apply_dtype(_INT_SPECIAL[name](t), dtype)
        if name in _INT_TO_FLOAT and _is_int(t):
            t = apply_dtype(t, "float32")
        return apply_dtype(op(target)(t), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``numpy.{name}`` element-wise (``ops.{target}``); ``dtype`` casts the result."
    return _named(fn, _PARAM.get(name, "x"))


def _binary(name: str, target: str):
    def fn(x1, x2, dtype=None):
        a, b = promote(x1, x2)
        if name in _FLOAT_RESULT and _is_int(a):
            a, b = apply_dtype(a, "float32"), apply_dtype(b, "float32")
        out = op(target)(a, b)
        first = asarray_const(x1)
        if name == "copysign" and _is_int(first):   # MindSpore keeps the first operand's integer dtype
            out = apply_dtype(out, first.dtype)
        return apply_dtype(out, dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``numpy.{name}`` element-wise with MindSpore's NumPy promotion (``ops.{target}``)."
    return fn


for _n, _t in _UNARY.items():
    globals()[_n] = _unary(_n, _t)
    __all__.append(_n)
for _n, _t in _BINARY.items():
    globals()[_n] = _binary(_n, _t)
    __all__.append(_n)


def float_power(x1: ArrayLike, x2: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """x1 ** x2 computed in Float32 (Float64 for Float64 inputs)."""
    a, b = promote(x1, x2)
    if str(a._value.dtype) != "float64":
        a, b = apply_dtype(a, "float32"), apply_dtype(b, "float32")
    return apply_dtype(op("pow")(a, b), dtype)


def divmod(x1: ArrayLike, x2: ArrayLike, dtype: DTypeLike | None = None) -> tuple[Tensor, Tensor]:  # noqa: A001
    """(floor_divide(x1, x2), mod(x1, x2))."""
    a, b = promote(x1, x2)
    return apply_dtype(op("floor_divide")(a, b), dtype), apply_dtype(op("remainder")(a, b), dtype)


def cbrt(x: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """The real cube root."""
    t = asarray_const(x)
    if _is_int(t):
        t = apply_dtype(t, "float32")
    return apply_dtype(op("mul")(op("sign")(t), op("pow")(op("abs")(t), 1.0 / 3.0)), dtype)


def fix(x: ArrayLike) -> Tensor:
    """Round towards zero (Float32 for integer input)."""
    t = asarray_const(x)
    return op("trunc")(apply_dtype(t, "float32") if _is_int(t) else t)


def isneginf(x: ArrayLike) -> Tensor:
    """x == -inf."""
    return op("isneginf")(asarray_const(x))


def isposinf(x: ArrayLike) -> Tensor:
    """x == +inf."""
    return op("isposinf")(asarray_const(x))


def clip(x: ArrayLike, xmin: ArrayLike, xmax: ArrayLike, dtype: DTypeLike | None = None) -> Tensor:
    """Clamp into [xmin, xmax] (either may be None)."""
    return apply_dtype(op("clamp")(asarray_const(x), xmin, xmax), dtype)


__all__ += ["float_power", "divmod", "cbrt", "fix", "isneginf", "isposinf", "clip"]
