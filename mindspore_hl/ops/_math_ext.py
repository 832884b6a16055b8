"""More elementwise math: rounding parts, number theory, complex parts, float classification, aliases."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..common.tensor import Tensor
from ._core import check, op
from ._math import _float, floor_div, floor_mod, mul, sub
from ._math import pow as _pow

__all__ = ["sinc", "deg2rad", "rad2deg", "copysign", "fmax", "fmin", "frac", "gcd", "lcm", "heaviside", "ldexp",
           "logaddexp2", "nextafter", "signbit", "sgn", "positive", "float_power", "xdivy", "truncate_div",
           "truncate_mod", "floordiv", "floormod", "subtract", "multiply", "arcsinh", "arccosh", "arctanh", "angle",
           "real", "imag", "conj", "is_complex", "isreal", "isneginf", "isposinf", "nan_to_num", "invert",
           "bitwise_left_shift", "bitwise_right_shift", "inv", "logit", "approximate_equal", "trapz", "diff",
           "vander", "dist", "population_count", "polar", "view_as_real", "is_nonzero", "pows", "bias_add"]


def _f(x):
    return _float(x)


@op("sinc")
def sinc(input: Tensor) -> Tensor:
    """sin(pi x) / (pi x), 1 at 0, NaN at +-inf (sin(inf) is NaN; GPUs' sine would give a finite value there)."""
    x = _f(input)
    return jnp.where(jnp.isinf(x), jnp.asarray(jnp.nan, x.dtype), jnp.sinc(x))


@op("deg2rad")
def deg2rad(x: Tensor) -> Tensor:
    check(jnp.issubdtype(x.dtype, jnp.floating), "deg2rad", f"the input must be a float tensor, got {x.dtype}.",
          TypeError)
    return jnp.deg2rad(x)


@op("rad2deg")
def rad2deg(x: Tensor) -> Tensor:
    check(jnp.issubdtype(x.dtype, jnp.floating), "rad2deg", f"the input must be a float tensor, got {x.dtype}.",
          TypeError)
    return jnp.rad2deg(x)


@op("copysign")
def copysign(x: Tensor, other: Tensor | float) -> Tensor:
    """|x| with the sign of ``other``."""
    x = _f(x)
    return jnp.copysign(x, jnp.asarray(other).astype(x.dtype))


@op("fmax")
def fmax(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise maximum that ignores NaN (NaN only where both are NaN)."""
    return jnp.fmax(input, other)


@op("fmin")
def fmin(input: Tensor, other: Tensor | float) -> Tensor:
    """Elementwise minimum that ignores NaN."""
    return jnp.fmin(input, other)


@op("frac")
def frac(x: Tensor) -> Tensor:
    """The fractional part x - trunc(x) (sign of x)."""
    return x - jnp.trunc(x) if jnp.issubdtype(x.dtype, jnp.floating) else jnp.zeros_like(x)


@op("gcd")
def gcd(input: Tensor, other: Tensor | float) -> Tensor:
    check(jnp.issubdtype(jnp.result_type(input, other), jnp.integer), "gcd", "the inputs must be integer tensors.",
          TypeError)
    return jnp.gcd(input, other)


@op("lcm")
def lcm(input: Tensor, other: Tensor | float) -> Tensor:
    check(jnp.issubdtype(jnp.result_type(input, other), jnp.integer), "lcm", "the inputs must be integer tensors.",
          TypeError)
    return jnp.lcm(input, other)


@op("heaviside")
def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """0 for x < 0, ``values`` at x == 0, 1 for x > 0."""
    return jnp.heaviside(input, values).astype(jnp.result_type(input, values))


@op("ldexp")
def ldexp(x: Tensor, other: Tensor | float) -> Tensor:
    """x * 2 ** other."""
    x = _f(x)
    return (x * jnp.exp2(jnp.asarray(other).astype(x.dtype))).astype(x.dtype)


@op("logaddexp2")
def logaddexp2(input: Tensor, other: Tensor | float) -> Tensor:
    """log2(2 ** input + 2 ** other), computed stably."""
    return jnp.logaddexp2(_f(input), _f(other))


@op("nextafter")
def nextafter(input: Tensor, other: Tensor | float) -> Tensor:
    """The next representable float after ``input`` toward ``other``."""
    return jnp.nextafter(input, other)


@op("signbit")
def signbit(input: Tensor) -> Tensor:
    """True where the sign bit is set (negative values and -0.0)."""
    return jnp.signbit(input)


@op("sgn")
def sgn(input: Tensor) -> Tensor:
    """sign(x) for reals; x / |x| (0 at 0) for complex."""
    if jnp.issubdtype(input.dtype, jnp.complexfloating):
        a = jnp.abs(input)
        return jnp.where(a == 0, jnp.zeros_like(input), input / jnp.where(a == 0, 1, a))
    return jnp.sign(input)


@op("positive")
def positive(input: Tensor) -> Tensor:
    check(input.dtype != jnp.bool_, "positive", "the input must not be a bool tensor.", TypeError)
    return input


@op("float_power", keep_f64=True)
def float_power(input: Tensor, exponent: Tensor | float) -> Tensor:
    """input ** exponent computed in Float64 (Complex128 for complex inputs)."""
    dt = jnp.complex128 if jnp.iscomplexobj(input) or jnp.iscomplexobj(exponent) else jnp.float64
    return jnp.power(jnp.asarray(input, dt), jnp.asarray(exponent, dt))


@op("xdivy")
def xdivy(x: Tensor, y: Tensor | float) -> Tensor:
    """x / y, 0 where x == 0."""
    out = jnp.true_divide(x, y)
    return jnp.where(x == 0, jnp.zeros_like(out), out)


@op("truncate_div")
def truncate_div(x: Tensor, y: Tensor | float) -> Tensor:
    """x / y rounded toward zero."""
    dt = jnp.result_type(x, y)
    if jnp.issubdtype(dt, jnp.integer):
        return (jnp.sign(x) * jnp.sign(y) * (jnp.abs(x) // jnp.abs(y))).astype(dt)
    return jnp.trunc(jnp.true_divide(x, y)).astype(dt)


@op("truncate_mod")
def truncate_mod(x: Tensor, y: Tensor | float) -> Tensor:
    """C-style remainder (sign of x)."""
    return jnp.fmod(x, y)


floordiv = floor_div
floormod = floor_mod


def subtract(input: Tensor, other: Tensor | float, *, alpha: Tensor | float = 1) -> Tensor:
    """input - alpha * other."""
    return sub(input, other, alpha=alpha)


def multiply(input: Tensor, other: Tensor | float) -> Tensor:
    """input * other."""
    return mul(input, other)


arcsinh = op("asinh")(lambda input: jnp.arcsinh(_f(input)))
arccosh = op("acosh")(lambda input: jnp.arccosh(_f(input)))
arctanh = op("atanh")(lambda input: jnp.arctanh(_f(input)))
for _fn, _n in ((arcsinh, "arcsinh"), (arccosh, "arccosh"), (arctanh, "arctanh")):
    _fn.__name__ = _fn.__qualname__ = _n
    _fn.__doc__ = f"Elementwise inverse hyperbolic {_n[4:]}."


@op("angle", keep_f64=True)  # Complex128 in, Float64 out (the input is checked to be complex)
def angle(input: Tensor) -> Tensor:
    """The argument of each element of a complex tensor."""
    check(jnp.iscomplexobj(input), "angle", f"the input must be complex64 or complex128, but got {input.dtype}.",
          TypeError)
    return jnp.angle(input)


@op("real")
def real(input: Tensor) -> Tensor:
    return jnp.real(input)


@op("imag")
def imag(input: Tensor) -> Tensor:
    return jnp.imag(input)


@op("conj")
def conj(input: Tensor) -> Tensor:
    return jnp.conj(input)


def is_complex(input: Tensor) -> bool:
    """True when ``input`` has a complex dtype."""
    return bool(jnp.issubdtype(jnp.asarray(getattr(input, "_value", input)).dtype, jnp.complexfloating))


@op("isreal")
def isreal(input: Tensor) -> Tensor:
    return jnp.isreal(input)


@op("isneginf")
def isneginf(input: Tensor) -> Tensor:
    return jnp.isneginf(input)


@op("isposinf")
def isposinf(input: Tensor) -> Tensor:
    return jnp.isposinf(input)


@op("nan_to_num")
def nan_to_num(input: Tensor, nan: Tensor | float | None = None, posinf: Tensor | float | None = None,
               neginf: Tensor | float | None = None) -> Tensor:
    """NaN -> ``nan`` (0.0), +inf -> ``posinf`` (dtype max), -inf -> ``neginf`` (dtype min)."""
    return jnp.nan_to_num(input, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


@op("invert")
def invert(x: Tensor) -> Tensor:
    """Bitwise NOT of an integer (or bool) tensor."""
    check(jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_, "invert",
          f"the input must be an integer tensor, got {x.dtype}.", TypeError)
    return jnp.invert(x)


@op("bitwise_left_shift")
def bitwise_left_shift(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.left_shift(input, other)


@op("bitwise_right_shift")
def bitwise_right_shift(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.right_shift(input, other)


@op("inv")
def inv(x: Tensor) -> Tensor:
    """Elementwise 1 / x; on int32 / int64 the quotient truncated toward zero, and 1 / 0 the type's minimum,
    as MindSpore's kernel computes it (other integer types have no kernel there).

    >>> import mindspore_hl as ms
    >>> inv(ms.Tensor([0, 1, 2, -1], ms.int32))
    Tensor(shape=[4], dtype=Int32, value= [-2147483648,           1,           0,          -1])
    """
    if jnp.issubdtype(x.dtype, jnp.integer):
        check(x.dtype in (jnp.int32, jnp.int64), "inv", f"'x' must be a float, complex, int32 or int64 tensor, but "
              f"got {x.dtype}.", TypeError)
        return jnp.where(x == 0, jnp.iinfo(x.dtype).min, jnp.where(jnp.abs(x) == 1, x, 0)).astype(x.dtype)
    return jnp.reciprocal(_f(x))


@op("logit")
def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """log(x / (1 - x)), with x clamped to [eps, 1 - eps] when ``eps`` is given."""
    x = _f(input)
    if eps is not None and eps >= 0:
        x = jnp.clip(x, eps, 1 - eps)
    return jnp.log(x / (1 - x))


@op("approximate_equal")
def approximate_equal(x: Tensor, y: Tensor | float, tolerance: float = 1e-05) -> Tensor:
    """|x - y| < tolerance."""
    return jnp.abs(x - y) < tolerance


@op("trapz")
def trapz(y: Tensor, x: Tensor | None = None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    """Integral of ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    return jnp.trapezoid(_f(y), x, dx=dx, axis=dim)


@op("diff")
def diff(x: Tensor, n: int = 1, axis: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The n-th forward difference along ``axis``."""
    return jnp.diff(x, n, axis, prepend=prepend, append=append)


@op("vander")
def vander(x: Tensor, N: int | None = None) -> Tensor:
    """Vandermonde matrix with decreasing powers of the 1-D input."""
    check(x.ndim == 1, "vander", f"the input must be 1-D, but got shape {list(x.shape)}.")
    return jnp.vander(x, N)


@op("dist")
def dist(input: Tensor, other: Tensor | float, p: float = 2) -> Tensor:
    """The p-norm of input - other."""
    d = jnp.abs(_f(input) - _f(other)).reshape(-1)
    if p == 0:
        return jnp.sum(d != 0).astype(d.dtype)
    if p == float("inf"):
        return jnp.max(d)
    return jnp.sum(d ** p) ** (1.0 / p)


@op("population_count")
def population_count(input_x: Tensor) -> Tensor:
    """Number of set bits per element (UInt8)."""
    return jax.lax.population_count(input_x).astype(jnp.uint8)


@op("polar")
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """abs * (cos(angle) + i sin(angle))."""
    return jax.lax.complex(abs * jnp.cos(angle), abs * jnp.sin(angle))


@op("view_as_real")
def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor's (real, imag) pairs in a new last axis."""
    check(jnp.iscomplexobj(input), "view_as_real", f"the input must be complex, got {input.dtype}.", TypeError)
    return jnp.stack([jnp.real(input), jnp.imag(input)], -1)


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor."""
    a = jnp.asarray(getattr(input, "_value", input))
    check(a.size == 1, "is_nonzero", f"the input must have exactly one element, but got shape {list(a.shape)}.")
    return bool(a.reshape(()) != 0)


def pows(input: Tensor, exponent: Tensor | float) -> Tensor:
    """input ** exponent (MindSpore's alias of ``ops.pow``)."""
    return _pow(input, exponent)


@op("bias_add")
def bias_add(input_x: Tensor, bias: Tensor) -> Tensor:
    """input_x + bias, the bias along axis 1 (channels-first)."""
    check(bias.ndim == 1 and input_x.ndim >= 2 and input_x.shape[1] == bias.shape[0], "bias_add",
          f"'bias' must be 1-D with input_x.shape[1] values, but got {list(bias.shape)} for {list(input_x.shape)}.")
    return input_x + bias.reshape((-1,) + (1,) * (input_x.ndim - 2))
