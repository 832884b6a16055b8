"""Neural-network functional ops over arrays (activations, losses, dropout, conv, pooling, norms)."""
import jax
import jax.numpy as jnp

from ..common import seed
from ._core import op, check

__all__ = ["relu", "sigmoid", "softmax", "binary_cross_entropy_with_logits", "dropout"]


@op("relu")
def relu(input):
    return jax.nn.relu(input)


@op("sigmoid")
def sigmoid(input):
    return jax.nn.sigmoid(input)


@op("softmax")
def softmax(input, axis=-1, *, dtype=None):
    return jax.nn.softmax(input, axis=axis)


def _reduce(x, reduction, name):
    check(reduction in ("mean", "sum", "none"), name, f"'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")
    if reduction == "mean":
        return jnp.mean(x)
    if reduction == "sum":
        return jnp.sum(x)
    return x


@op("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    check(jnp.shape(input) == jnp.shape(target), "binary_cross_entropy_with_logits",
          f"'input' and 'target' must have the same shape, but got {list(jnp.shape(input))} and {list(jnp.shape(target))}.")
    log_p = jax.nn.log_sigmoid(input)
    log_not_p = jax.nn.log_sigmoid(-input)
    if pos_weight is not None:
        loss = -(pos_weight * target * log_p + (1 - target) * log_not_p)
    else:
        loss = -(target * log_p + (1 - target) * log_not_p)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "binary_cross_entropy_with_logits")


@op("dropout")
def dropout(input, p=0.5, training=True, seed=None):
    """Zero elements with probability ``p`` and scale the rest by 1/(1-p); identity when not training."""
    check(0 <= p <= 1, "dropout", f"'p' must be in [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    if p == 1:
        return jnp.zeros_like(input)
    key = _key(seed)
    keep = jax.random.bernoulli(key, 1.0 - p, jnp.shape(input))
    return jnp.where(keep, input / (1.0 - p), jnp.zeros((), input.dtype)).astype(input.dtype)


def _key(s):
    if s is not None:
        return jax.random.key_data(jax.random.key(s))
    return seed.next_key()
