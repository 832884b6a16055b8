"""Normalisation: ``batch_norm``, ``layer_norm``, ``group_norm``.

Statistics are computed in float32 (or float64 for float64 inputs) and the result is cast back to the
input's dtype, so float16 activations are normalised without overflow.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from ..common._device_arrays import default_platform
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["batch_norm", "layer_norm", "group_norm"]


def _stat_dtype(x):
    return jnp.float64 if x.dtype == jnp.float64 else jnp.float32


def _bcast(v, ndim, axis, dtype):
    """Reshape a per-channel vector to broadcast along ``axis`` of an ``ndim``-D array."""
    shape = [1] * ndim
    shape[axis] = -1
    return jnp.reshape(v, shape).astype(dtype)


@op("batch_norm")
def _batch_norm(x, mean, var, weight, bias, training, momentum, eps):
    """(y, new running mean, new running var); the running ones pass through unchanged when not training."""
    name = "batch_norm"
    check(x.ndim >= 2, name, f"'input' must be at least 2-D (N, C, ...), but got shape {list(x.shape)}.")
    c = x.shape[1]
    for what, v in (("running_mean", mean), ("running_var", var), ("weight", weight), ("bias", bias)):
        if v is not None:
            check(tuple(v.shape) == (c,), name, f"'{what}' must have shape ({c},) to match the input's "
                  f"channels, but got {list(v.shape)}; input shape {list(x.shape)}.")
    check(training or (mean is not None and var is not None), name,
          "'running_mean' and 'running_var' are required when not training.")
    return _batch_norm_core(x, mean, var, weight, bias, bool(training), float(momentum), float(eps))


@functools.partial(jax.jit, static_argnums=(5, 6, 7))
def _batch_norm_core(x, mean, var, weight, bias, training, momentum, eps):
    # Channels-last inside, like the convolutions and poolings around it (NCHW only at the API): the
    # transposes between a convolution and its BatchNorm then cancel when compiled, instead of each layer
    # boundary copying the activations (ResNet50 train step ~6-10% faster).
    nchw = x.ndim > 2
    x = jnp.moveaxis(x, 1, -1) if nchw else x
    sd = _stat_dtype(x)
    c = x.shape[-1]
    gamma = jnp.ones((c,), sd) if weight is None else weight
    beta = jnp.zeros((c,), sd) if bias is None else bias
    if training:
        y, m, v = _normalize_batch(x, gamma, beta, eps)
        n = x.size // c
        # The running variance takes the unbiased batch variance (as MindSpore's kernels).
        new_mean = None if mean is None else ((1 - momentum) * mean.astype(sd) + momentum * m).astype(mean.dtype)
        new_var = None if var is None else \
            ((1 - momentum) * var.astype(sd) + momentum * v * (n / max(n - 1, 1))).astype(var.dtype)
    else:
        scale = jax.lax.rsqrt(var.astype(sd) + eps) * gamma.astype(sd)
        y = _affine(x, scale, beta.astype(sd) - mean.astype(sd) * scale)
        new_mean, new_var = mean, var
    return (jnp.moveaxis(y, -1, 1) if nchw else y), new_mean, new_var


def _affine(x, scale, shift):
    """x * scale + shift per channel (last axis) in x's dtype: one fused multiply-add per element."""
    return x * scale.astype(x.dtype) + shift.astype(x.dtype)


def _batch_affine(x, gamma, beta, eps):
    """Batch mean, biased variance, 1/std, and the per-channel scale and shift that normalise ``x``."""
    xs = x.astype(_stat_dtype(x))
    if default_platform() == "cpu":
        # The barrier keeps the statistics' reductions on this channels-last array. Without it, a bfloat16
        # convolution's output cast to float32 (O2) reached them through the convolution's NHWC -> NCHW
        # transpose and this layer's NCHW -> NHWC one, with XLA:CPU's conversions between them (it transposes
        # bfloat16 in float32), so the two could not cancel; XLA folded the second into the reduction instead,
        # and the reduction then read a physical NCHW copy of the activations (ResNet50 224x224 bfloat16 step
        # 1.45 -> 1.18 s; float32 unchanged). On a GPU the barrier made XLA keep a float32 copy of every
        # BatchNorm input (bfloat16 ResNet50 at batch 256: 55 -> 66 ms per step, 6 GB more memory).
        xs = jax.lax.optimization_barrier(xs)
    axes = tuple(range(x.ndim - 1))
    m = jnp.mean(xs, axis=axes)
    v = jnp.mean(jnp.square(xs - m), axis=axes)
    rstd = jax.lax.rsqrt(v + eps)
    scale = gamma.astype(xs.dtype) * rstd
    return m, v, rstd, scale, beta.astype(xs.dtype) - m * scale


@functools.partial(jax.custom_jvp, nondiff_argnums=(3,))
def _normalize_batch(x, gamma, beta, eps):
    """Training-mode BatchNorm of channels-last ``x``: (normalised x, batch mean, biased batch variance)."""
    m, v, _, scale, shift = _batch_affine(x, gamma, beta, eps)
    return _affine(x, scale, shift), m, v


@_normalize_batch.defjvp
def _normalize_batch_jvp(eps, primals, tangents):
    # Written out so that every full-size term is (per-channel vector) * x or * dx: its transpose (the
    # backward) is then two per-channel sums, sum(g) and sum(g * x), and one elementwise pass. Autodiff of
    # the forward formula kept x - mean as a residual and made three more passes over the activations per
    # BatchNorm (ResNet50 224x224 step 0.85 -> 0.82 s, and a third less peak memory).
    x, gamma, beta = primals
    dx, dgamma, dbeta = tangents
    m, v, rstd, scale, shift = _batch_affine(x, gamma, beta, eps)
    sd = m.dtype
    axes = tuple(range(x.ndim - 1))
    n = x.size // x.shape[-1]
    dxs = dx.astype(sd)
    s1 = jnp.sum(dxs, axis=axes)
    s2 = jnp.sum(dxs * x.astype(sd), axis=axes)
    dm = s1 / n
    dv = (s2 - m * s1) * (2.0 / n)
    dscale = dgamma.astype(sd) * rstd - scale * (0.5 * rstd * rstd) * dv
    dshift = dbeta.astype(sd) - dm * scale - m * dscale
    y = _affine(x, scale, shift)
    dy = dx * scale.astype(x.dtype) + _affine(x, dscale, dshift)
    return (y, m, v), (dy, dm, dv)


def batch_norm(input_x: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor, bias: Tensor,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalisation over the channel axis 1 (MindSpore ``ops.batch_norm``).

    Args:
        input_x: (N, C, ...). running_mean, running_var: (C,). weight (gamma), bias (beta): (C,) or None.
        training: normalise with the batch statistics and update the running ones; else use the running ones.
        momentum: update factor, ``running = (1 - momentum) * running + momentum * batch`` (batch variance is
            unbiased). Running statistics given as Parameters are updated (inside compiled steps too).
        eps: added to the variance.
    Returns:
        Tensor shaped like ``input_x``.
    """
    y, new_mean, new_var = _batch_norm(input_x, running_mean, running_var, weight, bias, training, momentum, eps)
    if training:
        for p, new in ((running_mean, new_mean), (running_var, new_var)):
            if isinstance(p, Parameter):
                p._set_value(new._value)
    return y


def normalize(x: jax.Array, axes: int | tuple[int, ...], eps: float) -> jax.Array:
    """(x - mean) / sqrt(var + eps) over ``axes`` with float32 statistics, in x's dtype."""
    return normalize_with_moments(x, axes, eps)[0]


def normalize_with_moments(x: jax.Array, axes: int | tuple[int, ...],
                           eps: float) -> tuple[jax.Array, jax.Array, jax.Array]:
    """:func:`normalize`'s result in x's dtype, with the mean and (biased) variance it used (kept dims, float32
    for half-precision input)."""
    xs = x.astype(_stat_dtype(x))
    m = jnp.mean(xs, axis=axes, keepdims=True)
    v = jnp.mean(jnp.square(xs - m), axis=axes, keepdims=True)
    return ((xs - m) * jax.lax.rsqrt(v + eps)).astype(x.dtype), m, v


@functools.partial(jax.jit, static_argnums=(1, 4, 5))
def layer_norm_axes(x: jax.Array, begin_norm_axis: int, gamma: jax.Array | None, beta: jax.Array | None, eps: float,
                    begin_params_axis: int) -> jax.Array:
    """Normalise over axes [begin_norm_axis:]; scale/shift by gamma/beta shaped x.shape[begin_params_axis:]."""
    nd = x.ndim
    y = normalize(x, tuple(range(begin_norm_axis % nd, nd)), eps)
    pshape = x.shape[begin_params_axis % nd:]
    if gamma is not None:
        y = y * jnp.reshape(gamma, pshape).astype(x.dtype)
    if beta is not None:
        y = y + jnp.reshape(beta, pshape).astype(x.dtype)
    return y


@op("layer_norm")
def layer_norm(input: Tensor, normalized_shape: int | tuple[int, ...], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Layer normalisation over the trailing ``normalized_shape`` dims (MindSpore ``ops.layer_norm``).

    Args:
        input: (..., *normalized_shape). weight, bias: shaped ``normalized_shape`` or None.
    Returns:
        Tensor shaped like ``input``.
    """
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    check(len(ns) > 0, "layer_norm", "'normalized_shape' must not be empty.")
    check(len(ns) <= input.ndim and tuple(input.shape[input.ndim - len(ns):]) == ns, "layer_norm",
          f"the trailing dims of 'input' must equal normalized_shape {list(ns)}, but got shape {list(input.shape)}.")
    for what, v in (("weight", weight), ("bias", bias)):
        if v is not None:
            check(tuple(jnp.shape(v)) == ns, "layer_norm", f"'{what}' must have shape {list(ns)}, but got "
                  f"{list(jnp.shape(v))}.")
    return layer_norm_axes(input, -len(ns), weight, bias, float(eps), -len(ns))


@op("group_norm")
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Group normalisation: channels (axis 1) split into ``num_groups`` groups normalised separately.

    Args:
        input: (N, C, ...). weight, bias: (C,) or None.
    Returns:
        Tensor shaped like ``input``.
    """
    check(input.ndim >= 2, "group_norm", f"'input' must be at least 2-D (N, C, ...), got shape {list(input.shape)}.")
    c = input.shape[1]
    check(isinstance(num_groups, int) and num_groups > 0 and c % num_groups == 0, "group_norm",
          f"'num_groups' ({num_groups}) must divide the channels ({c}).")
    return _group_norm_core(input, num_groups, weight, bias, float(eps))


@functools.partial(jax.jit, static_argnums=(1, 4))
def _group_norm_core(x, num_groups, weight, bias, eps):
    y = normalize(x.reshape(x.shape[0], num_groups, -1), (2,), eps).reshape(x.shape)
    if weight is not None:
        y = y * _bcast(weight, x.ndim, 1, x.dtype)
    if bias is not None:
        y = y + _bcast(bias, x.ndim, 1, x.dtype)
    return y
