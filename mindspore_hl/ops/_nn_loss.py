"""Loss functions over arrays (MindSpore ``ops.cross_entropy``, ``ops.mse_loss`` ...).

Every loss takes ``reduction`` in 'mean' | 'sum' | 'none'.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss",
           "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"]


def check_reduction(reduction: str, name: str) -> None:
    check(reduction in ("mean", "sum", "none"), name,
          f"'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")


def reduce_loss(x: jax.Array, reduction: str, name: str) -> jax.Array:
    """Apply ``reduction`` ('mean', 'sum' or 'none') to an elementwise loss."""
    check_reduction(reduction, name)
    if reduction == "mean":
        return jnp.mean(x)
    if reduction == "sum":
        return jnp.sum(x)
    return x


def _same_shape(name, a, b, what=("input", "target")):
    check(jnp.shape(a) == jnp.shape(b), name, f"'{what[0]}' and '{what[1]}' must have the same shape, but got "
          f"{list(jnp.shape(a))} and {list(jnp.shape(b))}.")


def _class_weight(weight, c, ndim, dtype):
    if weight is None:
        return None
    shape = [1] * ndim
    shape[1 if ndim > 1 else 0] = c
    return jnp.reshape(weight, shape).astype(dtype)


@functools.partial(jax.jit, static_argnums=(0, 4, 5, 6, 7))
def _nll(name, logp, target, weight, ignore_index, reduction, label_smoothing, from_logits=False):
    """Negative log-likelihood of class-index targets from log-probabilities (class axis 1, or 0 if 1-D)."""
    if from_logits:
        logp = jax.nn.log_softmax(logp, axis=1 if logp.ndim > 1 else 0)
    check(0.0 <= label_smoothing <= 1.0, name, f"'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    axis = 1 if logp.ndim > 1 else 0
    c = logp.shape[axis]
    expect = logp.shape[:axis] + logp.shape[axis + 1:]
    check(tuple(target.shape) == tuple(expect), name, f"class-index 'target' must have shape {list(expect)} for "
          f"input of shape {list(logp.shape)}, but got {list(target.shape)}.")
    check(jnp.issubdtype(target.dtype, jnp.integer), name, f"class-index 'target' must be integer, but got "
          f"{target.dtype}; pass probabilities with the input's shape for soft targets.")
    if weight is not None:
        check(tuple(jnp.shape(weight)) == (c,), name, f"'weight' must have shape ({c},), but got "
              f"{list(jnp.shape(weight))}.")
    valid = target != ignore_index
    safe = jnp.where(valid, target, 0).astype(jnp.int32)
    picked = jnp.take_along_axis(logp, jnp.expand_dims(safe, axis), axis=axis).squeeze(axis)
    w = jnp.ones((), logp.dtype) if weight is None else jnp.take(weight.astype(logp.dtype), safe)
    w = jnp.where(valid, w, jnp.zeros((), logp.dtype))
    loss = -picked * w
    if label_smoothing > 0:
        cw = _class_weight(weight, c, logp.ndim, logp.dtype)
        smooth = -jnp.sum(logp if cw is None else logp * cw, axis=axis)
        smooth = jnp.where(valid, smooth, jnp.zeros((), logp.dtype))
    if reduction == "mean":
        denom = jnp.sum(w)
        out = jnp.sum(loss) / denom
        if label_smoothing > 0:
            out = (1 - label_smoothing) * out + label_smoothing / c * jnp.sum(smooth) / denom
        return out
    if label_smoothing > 0:
        loss = (1 - label_smoothing) * loss + label_smoothing / c * smooth
    return reduce_loss(loss, reduction, name)


@op("nll_loss")
def nll_loss(inputs: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
             reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Negative log-likelihood loss (MindSpore ``ops.nll_loss``).

    Args:
        inputs: log-probabilities (N, C) or (N, C, d1, ...) (or (C,)). target: class indices (N, d1, ...).
        weight: (C,) per-class weight. ignore_index: targets equal to it add nothing (and are not counted).
        reduction: 'mean' is the weighted mean, sum(w[y] * loss) / sum(w[y]).
    Returns:
        Scalar, or the per-element loss with reduction='none'.
    """
    check_reduction(reduction, "nll_loss")
    return _nll("nll_loss", inputs, target, weight, ignore_index, reduction, float(label_smoothing))


@op("cross_entropy")
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of logits (MindSpore ``ops.cross_entropy``): log-softmax over the class axis 1.

    Args:
        input: logits (N, C) or (N, C, d1, ...) (or (C,)).
        target: class indices (N, d1, ...) (integer), or class probabilities shaped like ``input``.
        weight: (C,) per-class weight. ignore_index: for class indices only. label_smoothing: in [0, 1].
    Returns:
        Scalar, or the per-element loss with reduction='none'.
    """
    name = "cross_entropy"
    check_reduction(reduction, name)
    check(0.0 <= label_smoothing <= 1.0, name, f"'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    if jnp.issubdtype(target.dtype, jnp.floating) and tuple(target.shape) == tuple(input.shape):
        return _soft_cross_entropy(input, target, weight, reduction, float(label_smoothing))
    return _nll(name, input, target, weight, ignore_index, reduction, float(label_smoothing), True)


@functools.partial(jax.jit, static_argnums=(3, 4))
def _soft_cross_entropy(input, target, weight, reduction, label_smoothing):
    """Cross-entropy with class-probability targets: -sum_c w_c * t_c * log_softmax(input)_c."""
    axis = 1 if input.ndim > 1 else 0
    logp = jax.nn.log_softmax(input, axis=axis)
    c = input.shape[axis]
    t = target.astype(logp.dtype)
    if label_smoothing > 0:
        t = t * (1 - label_smoothing) + label_smoothing / c
    cw = _class_weight(weight, c, input.ndim, logp.dtype)
    loss = -jnp.sum(t * logp if cw is None else t * logp * cw, axis=axis)
    return reduce_loss(loss, reduction, "cross_entropy")


def _clamped_log(x):
    return jnp.maximum(jnp.log(x), -100.0)


@op("binary_cross_entropy")
def binary_cross_entropy(logits: Tensor, labels: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of probabilities: -w * (y log x + (1 - y) log(1 - x)), logs clamped at -100."""
    input, target = logits, labels
    _same_shape("binary_cross_entropy", input, target)
    loss = -(target * _clamped_log(input) + (1 - target) * _clamped_log(1 - input))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction, "binary_cross_entropy")


@op("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    """Sigmoid + binary cross-entropy, computed stably from logits.

    Args:
        input, target: same shape. weight: broadcast per-element weight. pos_weight: weight of positive
            examples, broadcast along the last (class) axis.
    """
    _same_shape("binary_cross_entropy_with_logits", input, target)
    log_p = jax.nn.log_sigmoid(input)
    log_not_p = jax.nn.log_sigmoid(-input)
    pos = target * log_p if pos_weight is None else pos_weight * target * log_p
    loss = -(pos + (1 - target) * log_not_p)
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction, "binary_cross_entropy_with_logits")


@op("mse_loss")
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean squared error; ``input`` and ``target`` broadcast."""
    return reduce_loss(jnp.square(input - target), reduction, "mse_loss")


@op("l1_loss")
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean absolute error; ``input`` and ``target`` broadcast."""
    return reduce_loss(jnp.abs(input - target), reduction, "l1_loss")


@op("smooth_l1_loss")
def smooth_l1_loss(input: Tensor, target: Tensor, beta: Tensor | float = 1.0, reduction: str = "none") -> Tensor:
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (MindSpore default reduction is 'none')."""
    check(beta > 0, "smooth_l1_loss", f"'beta' must be > 0, but got {beta}.")
    _same_shape("smooth_l1_loss", input, target)
    d = jnp.abs(input - target)
    return reduce_loss(jnp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction, "smooth_l1_loss")


@op("huber_loss")
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """0.5 d^2 where |d| <= delta, else delta * (|d| - 0.5 delta)."""
    check(delta > 0, "huber_loss", f"'delta' must be > 0, but got {delta}.")
    d = jnp.abs(input - target)
    return reduce_loss(jnp.where(d <= delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction, "huber_loss")


@op("kl_div")
def kl_div(logits: Tensor, labels: Tensor, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL divergence with ``logits`` as log-probabilities: labels * (log labels - logits).

    Args:
        reduction: 'mean' (over all elements), 'batchmean' (sum / batch size), 'sum' or 'none'.
        log_target: ``labels`` are log-probabilities too.
    """
    check(reduction in ("mean", "batchmean", "sum", "none"), "kl_div",
          f"'reduction' must be 'mean', 'batchmean', 'sum' or 'none', but got {reduction!r}.")
    if log_target:
        loss = jnp.exp(labels) * (labels - logits)
    else:
        loss = jnp.where(labels > 0, labels * (jnp.log(jnp.where(labels > 0, labels, 1)) - logits),
                         jnp.zeros((), jnp.result_type(logits, labels)))
    if reduction == "batchmean":
        return jnp.sum(loss) / (logits.shape[0] if logits.ndim else 1)
    return reduce_loss(loss, reduction, "kl_div")
