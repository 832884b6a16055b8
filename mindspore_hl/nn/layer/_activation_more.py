"""More activation Cells (``ELU``, ``HSwish``, ``Mish``, ``PReLU`` ...), with their maths as private JAX functions.

The functional forms of these activations are not ops yet; each Cell computes with a private ``_name`` function
(wrapped with ``ops._core.op`` so errors name the op) that the functional op can later replace.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ...common import seed
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops._core import op
from ..cell import Cell
from ._activation import _check_axis, _Elementwise
from ._checks import check_float, check_input, positive_int

__all__ = ["ELU", "CELU", "SeLU", "HSwish", "HSigmoid", "Mish", "Softsign", "Hardtanh", "LogSigmoid", "HShrink",
           "SoftShrink", "Tanhshrink", "Threshold", "Softmin", "Softmax2d", "GLU", "FastGelu", "PReLU", "RReLU"]


def _number(owner, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{owner}: '{name}' must be a float, but got {type(value).__name__} {value!r}.")
    return float(value)


@op("elu")
def _elu(x, alpha):
    return jnp.where(x > 0, x, alpha * jnp.expm1(x)).astype(x.dtype)


@op("celu")
def _celu(x, alpha):
    return (jnp.maximum(x, 0) + jnp.minimum(0, alpha * jnp.expm1(x / alpha))).astype(x.dtype)


@op("selu")
def _selu(x):
    return jax.nn.selu(x)


@op("hardswish")
def _hswish(x):
    return x * jnp.clip(x + 3, 0, 6) / 6


@op("hardsigmoid")
def _hsigmoid(x):
    return jnp.clip(x + 3, 0, 6) / 6


@op("mish")
def _mish(x):
    return x * jnp.tanh(jax.nn.softplus(x))


@op("softsign")
def _softsign(x):
    return x / (1 + jnp.abs(x))


@op("hardtanh")
def _hardtanh(x, lo, hi):
    return jnp.clip(x, jnp.asarray(lo, x.dtype), jnp.asarray(hi, x.dtype))


@op("logsigmoid")
def _logsigmoid(x):
    return jax.nn.log_sigmoid(x)


@op("hardshrink")
def _hshrink(x, lambd):
    return jnp.where(jnp.abs(x) > lambd, x, jnp.zeros((), x.dtype))


@op("softshrink")
def _softshrink(x, lambd):
    lam = jnp.asarray(lambd, x.dtype)
    return jnp.where(x > lam, x - lam, jnp.where(x < -lam, x + lam, jnp.zeros((), x.dtype)))


@op("tanhshrink")
def _tanhshrink(x):
    return x - jnp.tanh(x)


@op("threshold")
def _threshold(x, threshold, value):
    return jnp.where(x > threshold, x, jnp.asarray(value, x.dtype))


@op("softmin")
def _softmin(x, axis):
    return jax.nn.softmax(-x, axis=axis)


@op("glu")
def _glu(x, axis):
    a, b = jnp.split(x, 2, axis=axis)
    return a * jax.nn.sigmoid(b)


@op("fast_gelu")
def _fast_gelu(x):
    # MindSpore's FastGeLU: x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|)).
    ax = jnp.abs(x)
    return x / (1 + jnp.exp(-1.702 * ax)) * jnp.exp(0.851 * (x - ax))


@op("prelu")
def _prelu(x, w):
    w = w.astype(x.dtype)
    if x.ndim >= 2 and w.size > 1:
        w = w.reshape((-1,) + (1,) * (x.ndim - 2))
    return jnp.where(x >= 0, x, w * x)


@op("rrelu")
def _rrelu(x, slope):
    return jnp.where(x >= 0, x, slope.astype(x.dtype) * x)


class _Scalar(_Elementwise):
    """An element-wise activation with one float hyper-parameter."""

    _arg = "alpha"

    def __init__(self, value):
        super().__init__()
        setattr(self, self._arg, _number(type(self).__name__, self._arg, value))

    def extend_repr(self):
        return f"{self._arg}={getattr(self, self._arg)}"


class ELU(_Scalar):
    """x if x > 0 else alpha * (exp(x) - 1)."""

    alpha: float  # set by _Scalar

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__(alpha)
        if self.alpha != 1.0:  # MindSpore's Elu primitive supports only alpha = 1.0
            raise ValueError(f"ELU: 'alpha' must be 1.0 (as in MindSpore), but got {alpha}.")

    def _fn(self, x):
        return _elu(x, self.alpha)


class CELU(_Scalar):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    alpha: float  # set by _Scalar

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__(alpha)
        if self.alpha == 0:
            raise ValueError("CELU: 'alpha' must not be 0.")

    def _fn(self, x):
        return _celu(x, self.alpha)


class SeLU(_Elementwise):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))) with SELU's fixed constants."""

    def _fn(self, x):
        return _selu(x)


class HSwish(_Elementwise):
    """x * relu6(x + 3) / 6."""

    def _fn(self, x):
        return _hswish(x)


class HSigmoid(_Elementwise):
    """relu6(x + 3) / 6."""

    def _fn(self, x):
        return _hsigmoid(x)


class Mish(_Elementwise):
    """x * tanh(softplus(x))."""

    def _fn(self, x):
        return _mish(x)


class Softsign(_Elementwise):
    """x / (1 + |x|)."""

    def _fn(self, x):
        return _softsign(x)


class Hardtanh(_Elementwise):
    """clip(x, min_val, max_val)."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        self.min_val = _number("Hardtanh", "min_val", min_val)
        self.max_val = _number("Hardtanh", "max_val", max_val)
        if self.min_val >= self.max_val:
            raise ValueError(f"Hardtanh: 'min_val' ({min_val}) must be less than 'max_val' ({max_val}).")

    def _fn(self, x):
        return _hardtanh(x, self.min_val, self.max_val)


class LogSigmoid(_Elementwise):
    """log(sigmoid(x)), computed stably."""

    def _fn(self, x):
        return _logsigmoid(x)


class HShrink(_Scalar):
    """x where |x| > lambd, else 0."""

    _arg = "lambd"
    lambd: float  # set by _Scalar

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__(lambd)

    def _fn(self, x):
        return _hshrink(x, self.lambd)


class SoftShrink(_Scalar):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0."""

    _arg = "lambd"
    lambd: float  # set by _Scalar

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__(lambd)
        if self.lambd < 0:
            raise ValueError(f"SoftShrink: 'lambd' must be >= 0, but got {lambd}.")

    def _fn(self, x):
        return _softshrink(x, self.lambd)


class Tanhshrink(_Elementwise):
    """x - tanh(x)."""

    def _fn(self, x):
        return _tanhshrink(x)


class Threshold(_Elementwise):
    """x where x > threshold, else value."""

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold = _number("Threshold", "threshold", threshold)
        self.value = _number("Threshold", "value", value)

    def _fn(self, x):
        return _threshold(x, self.threshold, self.value)


class Softmin(_Elementwise):
    """softmax(-x) along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def _fn(self, x):
        _check_axis(self, x, self.axis)
        return _softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) input."""

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", "C", "H", "W"), ("C", "H", "W"))
        return _softmin(-x, -3)


class GLU(Cell):
    """Gated linear unit: a * sigmoid(b) where (a, b) are the two halves of the input along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...",))
        _check_axis(self, x, self.axis)
        if x.shape[self.axis] % 2:
            raise ValueError(f"GLU: the input's size along axis {self.axis} must be even, but got shape "
                             f"{tuple(x.shape)}.")
        return _glu(x, self.axis)


class FastGelu(_Elementwise):
    """MindSpore's fast GELU approximation: x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|))."""

    def _fn(self, x):
        return _fast_gelu(x)


class PReLU(Cell):
    """x where x >= 0 else w * x, with a learnt slope of shape (channel,) (one per channel, axis 1).

    Args:
        channel: 1 (one shared slope) or the input's channel count. w: initial slope: a float, a list of
            ``channel`` floats or a (channel,) Tensor. Inside a network the Parameter is ``<path>.w``, as in
            MindSpore's checkpoints.
    """

    def __init__(self, channel: int = 1, w: float | list[float] | tuple[float, ...] | Tensor = 0.25) -> None:
        super().__init__()
        self.channel = positive_int("PReLU", "channel", channel)
        if isinstance(w, (list, tuple)):
            if len(w) != channel:
                raise ValueError(f"PReLU: a list 'w' must hold 'channel' ({channel}) floats, but got {len(w)}.")
            w = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, (int, float)) and not isinstance(w, bool):
            w = Tensor(np.full((channel,), w, np.float32))
        elif not isinstance(w, Tensor):
            raise TypeError(f"PReLU: 'w' must be a float, list or Tensor, but got {type(w).__name__}.")
        if tuple(w.shape) != (channel,):
            raise ValueError(f"PReLU: 'w' must have shape ({channel},), but got {tuple(w.shape)}.")
        self.w = Parameter(w)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...",))
        check_float(self, x)
        if self.channel > 1 and (x.ndim < 2 or x.shape[1] != self.channel):
            raise ValueError(f"PReLU: expected an input with {self.channel} channels on axis 1, but got shape "
                             f"{tuple(x.shape)}.")
        return _prelu(x, self.w)


class RReLU(Cell):
    """Randomized leaky ReLU: each negative element is scaled by a slope drawn from U(lower, upper).

    As in MindSpore 2.10, the slopes are drawn in training and in eval mode alike.
    """

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        # MindSpore's attribute name; on this Cell it hides Cell.lower
        self.lower = _number("RReLU", "lower", lower)  # type: ignore[method-assign]
        self.upper = _number("RReLU", "upper", upper)
        if self.lower > self.upper:
            raise ValueError(f"RReLU: 'lower' ({lower}) must be <= 'upper' ({upper}).")

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...",))
        check_float(self, x)
        slope = jax.random.uniform(seed.next_key(), x.shape, jnp.float32, self.lower,  # type: ignore[arg-type]
                                   self.upper)
        return _rrelu(x, slope)
