"""Discrete distributions: Bernoulli, Categorical, Geometric, Poisson (samples in the distribution's dtype)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
from jax.scipy import special as sp

from ....common import dtype as mstype
from ._base import Distribution
from ._continuous import _dist

if TYPE_CHECKING:
    from typing import Sequence

    from ....common.tensor import Tensor

__all__ = ["Bernoulli", "Categorical", "Geometric", "Poisson"]


class Bernoulli(Distribution):
    """Bernoulli(probs): 1 with probability ``probs``."""

    _param_names = ("probs",)
    _discrete = True

    def __init__(self, probs: float | Sequence[float] | Tensor | None = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Bernoulli") -> None:
        Distribution.__init__(self, seed, dtype, name, {"probs": probs})
        self._set_params(probs=probs)

    def _log_prob(self, x, p):
        return x * jnp.log(p) + (1 - x) * jnp.log1p(-p)

    def _cdf(self, x, p):
        return jnp.where(x < 0, 0.0, jnp.where(x < 1, 1 - p, 1.0))

    def _mean(self, p):
        return p

    def _var(self, p):
        return p * (1 - p)

    def _mode(self, p):
        return jnp.where(p > 0.5, 1.0, 0.0)

    def _entropy(self, p):
        return -(p * jnp.log(p) + (1 - p) * jnp.log1p(-p))

    def _kl(self, a, b):
        pa, pb = a[0], b[0]
        return pa * (jnp.log(pa) - jnp.log(pb)) + (1 - pa) * (jnp.log1p(-pa) - jnp.log1p(-pb))

    def _sample(self, key, shape, p):
        return jax.random.bernoulli(key, p, shape)


class Geometric(Distribution):
    """Geometric(probs): the number of failures before the first success."""

    _param_names = ("probs",)
    _discrete = True

    def __init__(self, probs: float | Sequence[float] | Tensor | None = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Geometric") -> None:
        Distribution.__init__(self, seed, dtype, name, {"probs": probs})
        self._set_params(probs=probs)

    def _log_prob(self, x, p):
        return jnp.where(x >= 0, jnp.floor(x) * jnp.log1p(-p) + jnp.log(p), -jnp.inf)

    def _cdf(self, x, p):
        return jnp.where(x >= 0, 1 - jnp.power(1 - p, jnp.floor(x) + 1), 0.0)

    def _mean(self, p):
        return (1 - p) / p

    def _var(self, p):
        return (1 - p) / jnp.square(p)

    def _mode(self, p):
        return jnp.zeros_like(p)

    def _entropy(self, p):
        return (-(1 - p) * jnp.log1p(-p) - p * jnp.log(p)) / p

    def _kl(self, a, b):
        pa, pb = a[0], b[0]
        return jnp.log(pa) - jnp.log(pb) + (1 - pa) / pa * (jnp.log1p(-pa) - jnp.log1p(-pb))

    def _sample(self, key, shape, p):
        u = jax.random.uniform(key, shape, jnp.float32, minval=jnp.finfo(jnp.float32).tiny)
        return jnp.floor(jnp.log(u) / jnp.log1p(-p))


class Poisson(Distribution):
    """Poisson(rate)."""

    _param_names = ("rate",)
    __init__ = _dist("Poisson", ("rate",))

    def _log_prob(self, x, r):
        return jnp.where(x >= 0, x * jnp.log(r) - r - sp.gammaln(x + 1), -jnp.inf)

    def _cdf(self, x, r):
        return jnp.where(x >= 0, sp.gammaincc(jnp.floor(x) + 1, r), 0.0)

    def _mean(self, r):
        return r

    def _var(self, r):
        return r

    def _mode(self, r):
        return jnp.floor(r)

    def _sample(self, key, shape, r):
        return jax.random.poisson(key, r, shape).astype(jnp.float32)


class Categorical(Distribution):
    """Categorical(probs): classes 0..K-1 with probabilities ``probs`` (last axis)."""

    _param_names = ("probs",)
    _discrete = True

    def __init__(self, probs: float | Sequence[float] | Tensor | None = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Categorical") -> None:
        Distribution.__init__(self, seed, dtype, name, {"probs": probs})
        self._set_params(probs=probs)

    def _log_prob(self, x, p):
        logp = jnp.log(p / p.sum(-1, keepdims=True))
        idx = x.astype(jnp.int32)
        return jnp.take_along_axis(jnp.broadcast_to(logp, idx.shape + logp.shape[-1:]), idx[..., None], -1)[..., 0]

    def _cdf(self, x, p):
        c = jnp.cumsum(p / p.sum(-1, keepdims=True), -1)
        idx = jnp.clip(x.astype(jnp.int32), 0, p.shape[-1] - 1)
        out = jnp.take_along_axis(jnp.broadcast_to(c, idx.shape + c.shape[-1:]), idx[..., None], -1)[..., 0]
        return jnp.where(x < 0, 0.0, jnp.where(x >= p.shape[-1], 1.0, out))

    # MindSpore keeps the class axis (size 1) in the mean and variance.
    def _mean(self, p):
        q = p / p.sum(-1, keepdims=True)
        return (q * jnp.arange(p.shape[-1], dtype=jnp.float32)).sum(-1, keepdims=True)

    def _var(self, p):
        q = p / p.sum(-1, keepdims=True)
        k = jnp.arange(p.shape[-1], dtype=jnp.float32)
        return (q * jnp.square(k)).sum(-1, keepdims=True) - jnp.square((q * k).sum(-1, keepdims=True))

    def _mode(self, p):
        return jnp.argmax(p, -1).astype(jnp.float32)

    def _entropy(self, p):
        q = p / p.sum(-1, keepdims=True)
        return -(q * jnp.log(q)).sum(-1)

    def _kl(self, a, b):
        qa, qb = a[0] / a[0].sum(-1, keepdims=True), b[0] / b[0].sum(-1, keepdims=True)
        return (qa * (jnp.log(qa) - jnp.log(qb))).sum(-1)

    def _sample(self, key, shape, p):
        return jax.random.categorical(key, jnp.log(p), shape=shape[:len(shape) - 1] if shape else ())
