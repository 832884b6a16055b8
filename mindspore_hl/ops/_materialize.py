"""A value whose cotangent XLA:CPU computes once, into a buffer of its own, instead of in every loop that reads it.

XLA:CPU fuses cheap element-wise producers into their consumers. When a consumer reads each element several
times, as the backward of a pooling window or of a blocked convolution does (one read per tap), the producers are
recomputed on every read. Two gradients suffer from this:

- a narrow convolution's col2im, the nine shifted blocks its input-gradient product adds back into place, read
  four times by the max pool's backward that follows it (LeNet5's conv2);
- a bfloat16 cotangent reaching a max pool's nine taps (ResNet50's 3x3 stem pool): the sum of two input gradients,
  each rounded to bfloat16, converted back and forth in every tap.

A forward value can suffer the same way: a float32 max pool's first-maximum index, a running comparison over the
taps, which the pool's backward reads once per tap.

An ``optimization_barrier`` does not stop the fusion, since XLA:CPU removes barriers before fusing; a conditional's
operand is always a buffer of its own. ``materialized`` passes the value through a conditional whose predicate is
true for every value. JAX transposes it into a conditional on the cotangent, so the cotangent is computed once and
every read takes it from that buffer.
"""
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

__all__ = ["materialized"]


def materialized(t: Any, like: jax.Array) -> Any:
    """``t`` (an array or a tuple of arrays), computed into a buffer of its own, as is its cotangent in reverse
    mode before it is read.

    The conditional's predicate is "``like``'s first element is NaN or it is not", which XLA does not fold, so its
    zero branch never runs. On a GPU, XLA reads a conditional's predicate on the host, so callers use this on the
    CPU only.

    >>> import jax, jax.numpy as jnp
    >>> float(jax.grad(lambda v: materialized(v * 3.0, v).sum())(jnp.ones(2))[0])
    3.0
    """
    if like.size == 0:
        return t
    v = like.reshape(-1)[0]
    return lax.cond(jnp.isnan(v) | ~jnp.isnan(v), lambda a: a, lambda a: jax.tree.map(jnp.zeros_like, a), t)
