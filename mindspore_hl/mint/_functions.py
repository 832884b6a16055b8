"""``mindspore.mint`` functions: PyTorch-style names and keywords (``dim``, ``keepdim``) over ``mindspore_hl.ops``.

Every function here adapts its arguments and calls the one functional op (looked up in the op table when it is
registered there, else on ``mindspore_hl.ops``); none computes anything itself. ``TARGETS`` maps each mint name to
the op(s) it needs, so the package exports only names whose ops exist.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ops as _ops
from ..common._tensor_registry import lookup as _lookup
from ..ops import _linalg_decomp

if TYPE_CHECKING:
    from ..common.tensor import Tensor

TARGETS: dict[str, tuple[str, ...]] = {}


def _op(name: str):
    try:
        return _lookup(name)
    except (AttributeError, KeyError):
        return getattr(_ops, name)


def _uses(*targets: str):
    def deco(fn):
        TARGETS[fn.__name__] = targets
        return fn
    return deco


def _same(name: str, target: str | None = None, arity: int = 1):
    """A mint function whose arguments are exactly the op's, positionally (``mint.sin(input)``)."""
    target = target or name
    if arity == 1 and name == "arcsin":
        def fn(x):
            return _op(target)(x)
    elif arity == 1:
        def fn(input):
            return _op(target)(input)
    else:
        def fn(input, other):  # type: ignore[misc]  # one generated function per arity: the parameters differ
            return _op(target)(input, other)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``mint.{name}``: ``ops.{target}``."
    TARGETS[name] = (target,)
    return fn


_UNARY = ("abs acos acosh arcsin asin asinh atan atanh arccos arccosh arcsinh arctan arctanh ceil cos cosh erf erfc "
          "erfinv exp exp2 expm1 floor frac inverse isfinite isinf isneginf log log10 log1p log2 logical_not neg "
          "negative reciprocal rsqrt sigmoid sign sin sinc sinh sqrt square tan tanh ravel real imag trace").split()
_BINARY = ("arctan2 atan2 lt bitwise_and bitwise_or bitwise_xor eq ne not_equal greater gt greater_equal le less "
           "less_equal maximum minimum logaddexp logaddexp2 logical_and logical_or logical_xor matmul dot "
           "gcd fmod remainder floor_divide xlogy mul").split()
_ALIASES = {"lt": "less", "gt": "greater", "le": "less_equal", "arcsin": "asin", "arccos": "acos", "arctan": "atan",
            "arccosh": "acosh", "arcsinh": "asinh", "arctanh": "atanh", "atan2": "arctan2", "ne": "not_equal",
            "negative": "neg", "isnan": "isnan"}
for _n in _UNARY:
    globals()[_n] = _same(_n, _ALIASES.get(_n) if not hasattr(_ops, _n) else _n)
for _n in _BINARY:
    globals()[_n] = _same(_n, _ALIASES.get(_n) if not hasattr(_ops, _n) else _n, arity=2)


# binary functions whose MindSpore parameter names are not (input, other)
@_uses("pow")
def pow(input: Tensor, exponent: Tensor) -> Tensor:  # noqa: A001
    """input ** exponent."""
    return _op("pow")(input, exponent)


@_uses("float_power")
def float_power(input: Tensor, exponent: Tensor) -> Tensor:
    """input ** exponent in double precision (Float64 unless complex)."""
    return _op("float_power")(input, exponent)


@_uses("masked_select")
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements where ``mask`` is true, as a 1-D tensor."""
    return _op("masked_select")(input, mask)


@_uses("mm")
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Product of two matrices."""
    return _op("mm")(input, mat2)


@_uses("outer")
def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """Outer product of two vectors."""
    return _op("outer")(input, vec2)


@_uses("polar")
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002
    """abs * (cos(angle) + i sin(angle))."""
    return _op("polar")(abs, angle)


@_uses("isnan")
def isnan(tensor: Tensor) -> Tensor:
    """``mint.isnan``."""
    return _op("isnan")(tensor)


@_uses("bitwise_not", "invert")
def bitwise_not(input: Tensor) -> Tensor:
    """Bitwise NOT (logical NOT for Bool)."""
    return _op("bitwise_not" if hasattr(_ops, "bitwise_not") else "invert")(input)


TARGETS["bitwise_not"] = ("invert",) if not hasattr(_ops, "bitwise_not") else ("bitwise_not",)


@_uses("add")
def add(input: Tensor, other: Tensor, *, alpha: float = 1) -> Tensor:
    """input + alpha * other."""
    return _op("add")(input, other, alpha=alpha)


@_uses("sub")
def sub(input: Tensor, other: Tensor, *, alpha: float = 1) -> Tensor:
    """input - alpha * other."""
    return _op("sub")(input, other, alpha=alpha)


@_uses("div")
def div(input: Tensor, other: Tensor, *, rounding_mode: str | None = None) -> Tensor:
    """True, truncated ('trunc') or floor ('floor') division."""
    return _op("div")(input, other, rounding_mode=rounding_mode)


divide = _uses("div")(lambda input, other, *, rounding_mode=None: div(input, other, rounding_mode=rounding_mode))
divide.__name__ = "divide"
TARGETS["divide"] = ("div",)


@_uses("addcdiv")
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """input + value * tensor1 / tensor2."""
    return _op("addcdiv")(input, tensor1, tensor2, value)


@_uses("addmm")
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * input + alpha * mat1 @ mat2."""
    return _op("addmm")(input, mat1, mat2, beta=beta, alpha=alpha)


@_uses("baddbmm")
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * input + alpha * batch1 @ batch2."""
    return _op("baddbmm")(input, batch1, batch2, beta=beta, alpha=alpha)


@_uses("addbmm")
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * input + alpha * sum_b batch1[b] @ batch2[b]."""
    return _op("addbmm")(input, batch1, batch2, beta=beta, alpha=alpha)


@_uses("addmv")
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * input + alpha * mat @ vec."""
    return _op("addmv")(input, mat, vec, beta=beta, alpha=alpha)


@_uses("addr")
def addr_(input: Tensor, vec1: Tensor, vec2: Tensor, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * input + alpha * outer(vec1, vec2)."""
    return _op("addr")(input, vec1, vec2, beta=beta, alpha=alpha)


@_uses("mv")
def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix-vector product."""
    return _op("mv")(input, vec)


@_uses("bmm")
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product."""
    return _op("bmm")(input, mat2)


@_uses("vdot")
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """Dot product of two 1-D tensors (the first conjugated)."""
    return _op("vdot")(input, other)


@_uses("clamp")
def clamp(input: Tensor, min: float | Tensor | None = None, max: float | Tensor | None = None) -> Tensor:
    """Clamp into [min, max]."""
    return _op("clamp")(input, min, max)


@_uses("isclose")
def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """|input - other| <= atol + rtol * |other|, element-wise."""
    return _op("isclose")(input, other, rtol, atol, equal_nan)


@_uses("isclose", "all")
def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """Whether every element is close (a Python bool)."""
    return bool(_op("all")(_op("isclose")(input, other, rtol, atol, equal_nan)))


@_uses("lerp")
def lerp(input: Tensor, end: Tensor, weight: float | Tensor) -> Tensor:
    """input + weight * (end - input)."""
    return _op("lerp")(input, end, weight)


@_uses("where")
def where(condition: Tensor, input: Tensor | None = None, other: Tensor | None = None) -> Tensor | tuple[Tensor, ...]:
    """Elements of ``input`` where ``condition`` else of ``other``; with one argument, ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return _op("nonzero")(condition, as_tuple=True)
    return _op("where")(condition, input, other)


@_uses("nan_to_num")
def nan_to_num(input: Tensor, nan: float | None = None, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """Replace NaN / +inf / -inf (by 0 / the dtype's max / its min unless given)."""
    return _op("nan_to_num")(input, 0.0 if nan is None else nan, posinf, neginf)


@_uses("round")
def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001  (MindSpore's name)
    """Round half to even, to ``decimals`` places."""
    return _op("round")(input, decimals=decimals)


@_uses("cross")
def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """Cross product along ``dim`` (the first dim of size 3 by default)."""
    return _op("cross")(input, other, dim)


@_uses("gelu")
def npu_gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """GELU (``mint.npu_gelu``)."""
    return _op("gelu")(input, approximate)


@_uses("conv2d")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1, groups: int = 1) -> Tensor:
    """2-D convolution (``padding`` an int, a pair, 'valid' or 'same')."""
    mode = padding if isinstance(padding, str) else "pad"
    return _op("conv2d")(input, weight, bias, stride, mode, 0 if isinstance(padding, str) else padding, dilation,
                         groups)


@_uses("matrix_solve")
def triangular_solve(b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """(X, A) solving A X = b for triangular A."""
    return _linalg_decomp.triangular_solve(b, A, upper, transpose, unitriangular)


@_uses("batch_norm_stats")
def batch_norm_stats(input: Tensor, eps: float) -> tuple[Tensor, Tensor]:
    """(mean, invstd) per channel: the local statistics of synchronised batch norm."""
    return _op("batch_norm_stats")(input, eps)


@_uses("batch_norm_elemt")
def batch_norm_elemt(input: Tensor, weight: Tensor | None = None, bias: Tensor | None = None,
                     mean: Tensor | None = None, invstd: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """Normalise with given per-channel mean / invstd, then scale and shift."""
    return _op("batch_norm_elemt")(input, weight, bias, mean, invstd, eps)


@_uses("batch_norm_gather_stats_with_counts")
def batch_norm_gather_stats_with_counts(input: Tensor, mean: Tensor, invstd: Tensor, running_mean: Tensor | None = None,
                                        running_var: Tensor | None = None, momentum: float = 0.1, eps: float = 1e-05,
                                        counts: Tensor | None = None) -> Tensor:
    """Global (mean, invstd) from per-replica statistics and counts."""
    return _op("batch_norm_gather_stats_with_counts")(input, mean, invstd, running_mean, running_var, momentum,
                                                      eps, counts)


@_uses("conv1d", "transpose")
def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution of a (time, batch, channel) input with a (kernel, in, out) weight."""
    x = _op("transpose")(input, (1, 2, 0))
    w = _op("transpose")(weight, (2, 1, 0))
    out = _op("conv1d")(x, w, bias, 1, "pad", pad)
    return _op("transpose")(out, (2, 0, 1))
