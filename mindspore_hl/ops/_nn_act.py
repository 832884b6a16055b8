"""Activation functions beyond the basics of ``_nn.py`` (``ops.softplus``, ``ops.elu``, ``ops.hardswish`` ...)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..common import dtype as mstype
from ..common import seed
from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["softplus", "elu", "selu", "celu", "hardswish", "hardsigmoid", "hardtanh", "hardshrink", "softshrink",
           "soft_shrink", "tanhshrink", "softsign", "mish", "logsigmoid", "prelu", "rrelu", "glu", "softmin",
           "threshold", "fast_gelu", "swiglu", "gumbel_softmax"]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _check_float(name, x):
    check(jnp.issubdtype(x.dtype, jnp.floating), name,
          f"the input must be a float16, float32 or float64 tensor, but got {x.dtype}.", TypeError)


@op("softplus")
def softplus(input: Tensor, beta: Tensor | float = 1, threshold: float = 20) -> Tensor:
    """log(1 + exp(beta * x)) / beta, linear where beta * x > threshold."""
    _check_float("softplus", input)
    bx = input * beta
    return jnp.where(bx > threshold, input, jnp.logaddexp(bx, 0.0).astype(input.dtype) / beta).astype(input.dtype)


@op("elu")
def elu(input_x: Tensor, alpha: Tensor | float = 1.0) -> Tensor:
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    _check_float("elu", input_x)
    return jnp.where(input_x > 0, input_x, alpha * jnp.expm1(input_x)).astype(input_x.dtype)  # type: ignore[operator]  # @op body: jax Arrays


@op("selu")
def selu(input_x: Tensor) -> Tensor:
    """scale * (x for x > 0, alpha * (exp(x) - 1) otherwise), the self-normalising constants."""
    _check_float("selu", input_x)
    return (_SELU_SCALE * jnp.where(input_x > 0, input_x, _SELU_ALPHA * jnp.expm1(input_x))).astype(input_x.dtype)


@op("celu")
def celu(x: Tensor, alpha: Tensor | float = 1.0) -> Tensor:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    _check_float("celu", x)
    check(alpha != 0, "celu", "'alpha' must not be 0.")
    return (jnp.maximum(x, 0) + jnp.minimum(0, alpha * jnp.expm1(x / alpha))).astype(x.dtype)


@op("hardswish")
def hardswish(input: Tensor) -> Tensor:
    """x * relu6(x + 3) / 6."""
    x = input
    return (x * jnp.clip(x + 3, 0, 6) / 6).astype(x.dtype)


@op("hardsigmoid")
def hardsigmoid(input: Tensor) -> Tensor:
    """relu6(x + 3) / 6."""
    return (jnp.clip(input + 3, 0, 6) / 6).astype(input.dtype)


@op("hardtanh")
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """x clipped to [min_val, max_val]."""
    return jnp.clip(input, min_val, max_val).astype(input.dtype)


@op("hardshrink")
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0."""
    return jnp.where(jnp.abs(input) > lambd, input, jnp.zeros_like(input))


@op("softshrink")
def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd for x > lambd, x + lambd for x < -lambd, else 0."""
    check(lambd >= 0, "softshrink", f"'lambd' must be >= 0, but got {lambd}.")
    z = jnp.zeros_like(input)
    return jnp.where(input > lambd, input - lambd, jnp.where(input < -lambd, input + lambd, z)).astype(input.dtype)


soft_shrink = softshrink


@op("tanhshrink")
def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x)."""
    x = input if jnp.issubdtype(input.dtype, jnp.inexact) else input.astype(jnp.float32)
    return x - jnp.tanh(x)


@op("softsign")
def softsign(x: Tensor) -> Tensor:
    """x / (1 + |x|)."""
    _check_float("softsign", x)
    return x / (1 + jnp.abs(x))


@op("mish")
def mish(x: Tensor) -> Tensor:
    """x * tanh(softplus(x))."""
    _check_float("mish", x)
    return (x * jnp.tanh(jnp.logaddexp(x, 0.0))).astype(x.dtype)


@op("logsigmoid")
def logsigmoid(x: Tensor) -> Tensor:
    """log(sigmoid(x)), computed stably."""
    _check_float("logsigmoid", x)
    return jax.nn.log_sigmoid(x)


@op("prelu")
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, weight * x otherwise; ``weight`` has one value or one per channel (axis 1)."""
    check(weight.ndim <= 1, "prelu", f"'weight' must be 0-D or 1-D, but got shape {list(weight.shape)}.")
    w = weight
    if w.ndim == 1 and w.shape[0] > 1:
        check(input.ndim >= 2 and input.shape[1] == w.shape[0], "prelu",
              f"'weight' has {w.shape[0]} values but the input has shape {list(input.shape)} "
              "(expected one value or input.shape[1] values).")
        w = w.reshape((-1,) + (1,) * (input.ndim - 2))
    return jnp.where(input > 0, input, input * w).astype(input.dtype)


@op("rrelu")
def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> Tensor:
    """Randomized leaky ReLU: negative values scaled by a slope drawn uniformly from [lower, upper]."""
    check(lower <= upper, "rrelu", f"'lower' must be <= 'upper', but got {lower} and {upper}.")
    slope = jax.random.uniform(seed.next_key(), input.shape, jnp.float32, lower, upper).astype(input.dtype)
    return jnp.where(input >= 0, input, input * slope)


@op("glu")
def glu(x: Tensor, axis: int = -1) -> Tensor:
    """First half of ``x`` along ``axis`` times sigmoid of the second half."""
    check(x.shape[axis] % 2 == 0, "glu", f"the size of axis {axis} must be even, but got shape {list(x.shape)}.")
    a, b = jnp.split(x, 2, axis=axis)
    return a * jax.nn.sigmoid(b)


@op("softmin")
def softmin(x: Tensor, axis: int = -1, *, dtype: mstype.Type | None = None) -> Tensor:
    """softmax(-x) along ``axis``."""
    _check_float("softmin", x)
    return jax.nn.softmax(-x, axis=axis)


@op("threshold")
def threshold(input: Tensor, thr: float, value: Tensor | float) -> Tensor:
    """x where x > thr, else ``value``."""
    return jnp.where(input > thr, input, jnp.asarray(value, input.dtype))


@op("fast_gelu")
def fast_gelu(x: Tensor) -> Tensor:
    """x / (1 + exp(-1.702 * |x|)) * exp(0.851 * (x - |x|)) (MindSpore's FastGeLU)."""
    _check_float("fast_gelu", x)
    ax = jnp.abs(x)
    return (x / (1 + jnp.exp(-1.702 * ax)) * jnp.exp(0.851 * (x - ax))).astype(x.dtype)


@op("swiglu")
def swiglu(input: Tensor, dim: int = -1) -> Tensor:
    """Swish-GLU: silu(a) * b for the two halves a, b of ``input`` along ``dim``."""
    check(input.shape[dim] % 2 == 0, "swiglu", f"the size of dim {dim} must be even, got {list(input.shape)}.")
    a, b = jnp.split(input, 2, axis=dim)
    return jax.nn.silu(a) * b


@op("gumbel_softmax")
def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """Softmax of (logits + Gumbel noise) / tau; one-hot (straight-through) with ``hard=True``."""
    _check_float("gumbel_softmax", logits)
    check(tau > 0, "gumbel_softmax", f"'tau' must be > 0, but got {tau}.")
    g = jax.random.gumbel(seed.next_key(), logits.shape, logits.dtype)
    y = jax.nn.softmax((logits + g) / tau, axis=dim)
    if hard:
        one = jax.nn.one_hot(jnp.argmax(y, axis=dim), y.shape[dim], dtype=y.dtype, axis=dim)
        y = one - jax.lax.stop_gradient(y) + y
    return y
