"""Elementwise math, comparisons and logic (``ops.add``, ``ops.exp``, ``ops.equal`` ...)."""

from __future__ import annotations

from typing import Sequence

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp

from ..common.tensor import Tensor
from ._core import check, op

__all__ = [
    "add", "sub", "mul", "div", "true_divide", "divide", "floor_div", "floor_divide", "floor_mod", "remainder", "fmod",
    "pow", "neg", "negative", "abs", "absolute", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt",
    "rsqrt", "square", "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan",
    "atan2", "arctan2", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "floor", "ceil", "round",
    "trunc", "sign", "maximum", "minimum", "clamp", "clip", "clip_by_value", "lerp", "xlogy", "addn", "logaddexp",
    "hypot", "square_sum", "addcmul", "addcdiv",
    "equal", "eq", "not_equal", "ne", "greater", "gt", "greater_equal", "ge", "less", "lt", "less_equal", "le",
    "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "isnan", "isinf", "isfinite", "isclose", "is_floating_point",
]


def _float(x):
    """Ints and bools compute in Float32 (as MindSpore's float-only kernels do)."""
    x = jnp.asarray(x)
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


# ---- arithmetic ------------------------------------------------------------------------------
@op("add")
def add(input: Tensor, other: Tensor | float, *, alpha: Tensor | float = 1) -> Tensor:
    """input + alpha * other, with broadcasting."""
    return jnp.add(input, other if alpha == 1 else jnp.multiply(other, alpha))


@op("sub")
def sub(input: Tensor, other: Tensor | float, *, alpha: Tensor | float = 1) -> Tensor:
    """input - alpha * other, with broadcasting."""
    return jnp.subtract(input, other if alpha == 1 else jnp.multiply(other, alpha))


@op("mul")
def mul(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise product, with broadcasting."""
    return jnp.multiply(input, other)


@op("div")
def div(input: Tensor, other: Tensor | float, *, rounding_mode: str | None = None) -> Tensor:
    """input / other; ``rounding_mode`` None (true division), 'floor' or 'trunc'."""
    check(rounding_mode in (None, "floor", "trunc"), "div",
          f"'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}.")
    if rounding_mode == "floor":
        return jnp.floor_divide(input, other)
    if rounding_mode == "trunc":
        return jnp.trunc(jnp.true_divide(input, other)).astype(jnp.result_type(input, other))
    return jnp.true_divide(input, other)


def true_divide(dividend: Tensor, divisor: Tensor) -> Tensor:
    """dividend / divisor (true division)."""
    return div(dividend, divisor)


divide = div


@op("floor_div")
def floor_div(x: Tensor, y: Tensor | float) -> Tensor:
    """Elementwise floor(x / y)."""
    return jnp.floor_divide(x, y)


def floor_divide(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise floor(input / other)."""
    return floor_div(input, other)


@op("floor_mod")
def floor_mod(x: Tensor, y: Tensor | float) -> Tensor:
    """x - floor(x / y) * y (the sign follows y, like Python's %)."""
    return jnp.mod(x, y)


def remainder(input: Tensor, other: Tensor | float) -> Tensor:
    """input - floor(input / other) * other (the sign follows other)."""
    return floor_mod(input, other)


@op("fmod")
def fmod(input: Tensor, other: Tensor | float) -> Tensor:
    """C-style remainder (the sign follows input)."""
    return jnp.fmod(input, other)


@op("pow")
def pow(input: Tensor, exponent: Tensor | float) -> Tensor:
    """input ** exponent."""
    return jnp.power(input, exponent)


@op("neg")
def neg(input: Tensor) -> Tensor:
    return jnp.negative(input)


negative = neg


@op("abs")
def abs(input: Tensor) -> Tensor:
    return jnp.abs(input)


absolute = abs


def _unary_float(name, fn, doc):
    @op(name)
    def f(input):
        return fn(_float(input))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


exp = _unary_float("exp", jnp.exp, "Elementwise e ** x.")
exp2 = _unary_float("exp2", jnp.exp2, "Elementwise 2 ** x.")
expm1 = _unary_float("expm1", jnp.expm1, "Elementwise exp(x) - 1.")
log = _unary_float("log", jnp.log, "Elementwise natural logarithm.")
log1p = _unary_float("log1p", jnp.log1p, "Elementwise log(1 + x).")
log2 = _unary_float("log2", jnp.log2, "Elementwise base-2 logarithm.")
log10 = _unary_float("log10", jnp.log10, "Elementwise base-10 logarithm.")
_sqrt = _unary_float("sqrt", jnp.sqrt, "Elementwise square root.")


def sqrt(x: Tensor) -> Tensor:
    """Elementwise square root."""
    return _sqrt(x)

rsqrt = _unary_float("rsqrt", jax.lax.rsqrt, "Elementwise 1 / sqrt(x).")
reciprocal = _unary_float("reciprocal", jnp.reciprocal, "Elementwise 1 / x.")
sin = _unary_float("sin", jnp.sin, "Elementwise sine.")
cos = _unary_float("cos", jnp.cos, "Elementwise cosine.")
tan = _unary_float("tan", jnp.tan, "Elementwise tangent.")
asin = _unary_float("asin", jnp.arcsin, "Elementwise arcsine.")


def arcsin(x: Tensor) -> Tensor:
    """Elementwise arcsine."""
    return asin(x)


acos = arccos = _unary_float("acos", jnp.arccos, "Elementwise arccosine.")
atan = arctan = _unary_float("atan", jnp.arctan, "Elementwise arctangent.")
sinh = _unary_float("sinh", jnp.sinh, "Elementwise hyperbolic sine.")
cosh = _unary_float("cosh", jnp.cosh, "Elementwise hyperbolic cosine.")
asinh = _unary_float("asinh", jnp.arcsinh, "Elementwise inverse hyperbolic sine.")
acosh = _unary_float("acosh", jnp.arccosh, "Elementwise inverse hyperbolic cosine.")
atanh = _unary_float("atanh", jnp.arctanh, "Elementwise inverse hyperbolic tangent.")
erf = _unary_float("erf", jsp.erf, "Elementwise Gauss error function.")
erfc = _unary_float("erfc", jsp.erfc, "Elementwise complementary error function.")
erfinv = _unary_float("erfinv", jsp.erfinv, "Elementwise inverse error function.")


@op("atan2")
def atan2(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise arctangent of input / other, using the signs of both to pick the quadrant."""
    return jnp.arctan2(_float(input), _float(other))


arctan2 = atan2


@op("square")
def square(input: Tensor) -> Tensor:
    return jnp.square(input)


@op("floor")
def floor(input: Tensor) -> Tensor:
    return jnp.floor(input)


@op("ceil")
def ceil(input: Tensor) -> Tensor:
    return jnp.ceil(input)


@op("round")
def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    """Round half to even (as NumPy and MindSpore do)."""
    return jnp.round(input, decimals)


@op("trunc")
def trunc(input: Tensor) -> Tensor:
    return jnp.trunc(input)


@op("sign")
def sign(input: Tensor) -> Tensor:
    return jnp.sign(input)


@op("maximum")
def maximum(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise maximum (NaN propagates)."""
    return jnp.maximum(input, other)


@op("minimum")
def minimum(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise minimum (NaN propagates)."""
    return jnp.minimum(input, other)


@op("clamp")
def clamp(input: Tensor, min: Tensor | float | None = None, max: Tensor | float | None = None) -> Tensor:
    """Clip values to [min, max]; either bound may be None (not both)."""
    check(min is not None or max is not None, "clamp", "at least one of 'min' and 'max' must be given.")
    out = input
    if min is not None:
        out = jnp.maximum(out, jnp.asarray(min, jnp.result_type(input)))  # type: ignore[assignment]  # @op body: a jax.Array here
    if max is not None:
        out = jnp.minimum(out, jnp.asarray(max, jnp.result_type(input)))  # type: ignore[assignment]  # @op body: a jax.Array here
    return out


clip = clamp


def clip_by_value(x: Tensor | Sequence[Tensor], clip_value_min: Tensor | float | None = None,
                  clip_value_max: Tensor | float | None = None) -> Tensor | Sequence[Tensor]:
    """Clip ``x`` (a Tensor, or a list/tuple of Tensors) to [clip_value_min, clip_value_max]."""
    if isinstance(x, (list, tuple)):
        return type(x)(clamp(t, clip_value_min, clip_value_max) for t in x)
    return clamp(x, clip_value_min, clip_value_max)


@op("lerp")
def lerp(input: Tensor, end: Tensor | float, weight: Tensor) -> Tensor:
    """input + weight * (end - input)."""
    return input + weight * (end - input)


@op("xlogy")
def xlogy(input: Tensor, other: Tensor | float) -> Tensor:
    """input * log(other), 0 where input == 0."""
    return jsp.xlogy(_float(input), _float(other))


@op("addn")
def addn(x: Sequence[Tensor]) -> Tensor:
    """Sum of a list/tuple of Tensors of the same shape."""
    check(isinstance(x, (list, tuple)) and len(x) > 0, "addn", "'x' must be a non-empty list or tuple of Tensors.")
    shapes = [jnp.shape(v) for v in x]
    check(all(s == shapes[0] for s in shapes), "addn", f"all inputs must have the same shape, but got {shapes}.")
    out = x[0]
    for v in x[1:]:
        out = jnp.add(out, v)  # type: ignore[assignment]  # @op body: a jax.Array here
    return out


@op("logaddexp")
def logaddexp(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.logaddexp(_float(input), _float(other))


@op("hypot")
def hypot(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.hypot(_float(input), _float(other))


@op("square_sum")
def square_sum(input: Tensor) -> Tensor:
    return jnp.sum(jnp.square(input))


@op("addcmul")
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor | float = 1) -> Tensor:
    return input + value * tensor1 * tensor2


@op("addcdiv")
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor | float = 1) -> Tensor:
    return input + value * tensor1 / tensor2


# ---- comparison and logic ----------------------------------------------------------------------
def _compare(name, fn):
    @op(name)
    def f(input, other):
        return fn(input, other)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise ``{name}`` with broadcasting; returns a Bool Tensor."
    return f


equal = eq = _compare("equal", jnp.equal)
not_equal = ne = _compare("not_equal", jnp.not_equal)
greater = gt = _compare("greater", jnp.greater)
greater_equal = ge = _compare("greater_equal", jnp.greater_equal)
less = lt = _compare("less", jnp.less)
less_equal = le = _compare("less_equal", jnp.less_equal)
logical_and = _compare("logical_and", jnp.logical_and)
logical_or = _compare("logical_or", jnp.logical_or)
logical_xor = _compare("logical_xor", jnp.logical_xor)


@op("logical_not")
def logical_not(input: Tensor) -> Tensor:
    return jnp.logical_not(input)


def _bitwise(name, fn):
    @op(name)
    def f(input, other):
        dt = jnp.result_type(input, other)
        check(jnp.issubdtype(dt, jnp.integer) or dt == jnp.bool_, name,
              f"the inputs must be integer or bool tensors, but got {jnp.result_type(input)} and "
              f"{jnp.result_type(other)}.", TypeError)
        return fn(input, other)
    f.__name__ = f.__qualname__ = name
    return f


bitwise_and = _bitwise("bitwise_and", jnp.bitwise_and)
bitwise_or = _bitwise("bitwise_or", jnp.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", jnp.bitwise_xor)


@op("isnan")
def isnan(input: Tensor) -> Tensor:
    return jnp.isnan(input)


@op("isinf")
def isinf(input: Tensor) -> Tensor:
    return jnp.isinf(input)


@op("isfinite")
def isfinite(input: Tensor) -> Tensor:
    return jnp.isfinite(input)


@op("isclose")
def isclose(input: Tensor, other: Tensor | float, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """|input - other| <= atol + rtol * |other|, elementwise."""
    return jnp.isclose(input, other, rtol, atol, equal_nan)


def is_floating_point(input: Tensor) -> bool:
    """True if ``input``'s dtype is a floating type."""
    return jnp.issubdtype(jnp.result_type(input._value if hasattr(input, "_value") else input), jnp.floating)
