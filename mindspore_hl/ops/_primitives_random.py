"""MindSpore's random Primitive classes (``Gamma``, ``Poisson``, ``TruncatedNormal``, ``RandomChoiceWithMask`` ...).

A Primitive built with a non-zero ``seed``/``seed2`` owns a key stream (two instances with the same seeds draw the
same sequence, and each call advances it); with the default zero seeds it draws from the global stream that
``ms.set_seed`` seeds. The sampling itself is shared with the functional forms in ``_random_more``.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from . import _random_more as _rm
from ._core import check, unwrap
from ._primitives import Primitive

__all__ = ["Bernoulli", "Cauchy", "Gamma", "Poisson", "Multinomial", "MultinomialWithReplacement", "RandomCategorical",
           "RandomChoiceWithMask", "RandomGamma", "RandomPoisson", "RandomShuffle", "Randperm", "RandpermV2",
           "StandardLaplace", "TruncatedNormal", "ParameterizedTruncatedNormal", "LogNormalReverse",
           "NonDeterministicInts", "UniformCandidateSampler", "LogUniformCandidateSampler"]

_E = inspect.Parameter.empty


class _Seeded(Primitive):
    """A random Primitive: constructor arguments as attributes, keys from its own stream or the global one."""

    _args: tuple[tuple[str, Any], ...] = (("seed", 0), ("seed2", 0))

    if TYPE_CHECKING:
        # The constructor arguments named in ``_args`` become attributes (set with setattr in __init__).
        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, *a, **kw):
        sig = inspect.Signature([inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
                                 for k, d in self._args])
        bound = sig.bind(*a, **kw)
        bound.apply_defaults()
        super().__init__(type(self).__name__)
        for key, value in bound.arguments.items():
            self.add_prim_attr(key, value)
            setattr(self, key, value)
        self._calls = 0

    def _key(self):
        s, s2 = self.attrs.get("seed", 0), self.attrs.get("seed2", self.attrs.get("offset", 0))
        if not s and not s2 or s == -1:
            return _seed.next_key()
        self._calls += 1
        return jax.random.key_data(jax.random.fold_in(jax.random.key((int(s) << 20) ^ int(s2)), self._calls))


class Bernoulli(_Seeded):
    """``Bernoulli(seed=-1, offset=0)(x, p)``: 0/1 samples with probability ``p`` of 1, in ``x``'s shape and dtype."""

    _args = (("seed", -1), ("offset", 0))

    def __call__(self, x: Tensor, p: float) -> Tensor:
        xv = jnp.asarray(unwrap(x))
        return wrap(jax.random.bernoulli(self._key(), _rm._float(p), xv.shape).astype(xv.dtype))


class Cauchy(_Seeded):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: Float32 Cauchy samples of shape ``size``."""

    _args = (("size", _E), ("median", 0.0), ("sigma", 1.0))

    def __call__(self) -> Tensor:
        shape = _rm._shape("Cauchy", self.size)
        return wrap(self.median + self.sigma * jax.random.cauchy(self._key(), shape, jnp.float32))


class Gamma(_Seeded):
    """``Gamma(seed=0, seed2=0)(shape, alpha, beta)``: see ``ops.gamma``."""

    def __call__(self, shape: tuple[int, ...], alpha: Tensor | float, beta: Tensor | float) -> Tensor:
        return _rm._gamma(self._key(), shape, alpha, beta)


class Poisson(_Seeded):
    """``Poisson(seed=0, seed2=0)(shape, mean)``: Int32 samples, see ``ops.poisson``."""

    def __call__(self, shape: tuple[int, ...], mean: Tensor) -> Tensor:
        m = _rm._float(mean)
        out = jnp.broadcast_shapes(_rm._shape("Poisson", shape), m.shape)
        return wrap(jax.random.poisson(self._key(), jnp.broadcast_to(m, out), out).astype(jnp.int32))


class Multinomial(_Seeded):
    """``Multinomial(seed=0, seed2=0, dtype=int32)(x, num_sample)``: category indices drawn with replacement."""

    _args = (("seed", 0), ("seed2", 0), ("dtype", mstype.int32))

    def __call__(self, x: Tensor, num_sample: int) -> Tensor:
        p = _rm._float(x)
        check(p.ndim in (1, 2), "Multinomial", f"'x' must be 1-D or 2-D, but got shape {list(p.shape)}.")
        n = int(np.asarray(unwrap(num_sample)))
        out = jax.random.categorical(self._key(), jnp.log(p), axis=-1, shape=(n,) + p.shape[:-1])
        return wrap(jnp.moveaxis(out, 0, -1).astype(_rm._np(self.dtype)))


class MultinomialWithReplacement(_Seeded):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``."""

    _args = (("numsamples", _E), ("replacement", False))

    def __call__(self, x: Tensor, seed: int, offset: int) -> Tensor:
        return _rm.multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


class RandomCategorical(_Seeded):
    """``RandomCategorical(dtype=int64)(logits, num_sample, seed=0)``."""

    _args = (("dtype", mstype.int64),)

    def __call__(self, logits: Tensor, num_sample: int, seed: int = 0) -> Tensor:
        return _rm.random_categorical(logits, num_sample, seed, self.dtype)


class RandomChoiceWithMask(_Seeded):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``: see ``ops.choice_with_mask``."""

    _args = (("count", 256), ("seed", 0), ("seed2", 0))

    def __call__(self, input_x: Tensor) -> Tensor:
        return _rm._choice_with_mask(self._key(), input_x, self.count)


class RandomGamma(_Seeded):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``: see ``ops.random_gamma``."""

    def __call__(self, shape: tuple[int, ...], alpha: Tensor | float) -> Tensor:
        return _rm._random_gamma(self._key(), shape, alpha)


class RandomPoisson(_Seeded):
    """``RandomPoisson(seed=0, seed2=0, dtype=int64)(shape, rate)``: see ``ops.random_poisson``."""

    _args = (("seed", 0), ("seed2", 0), ("dtype", mstype.int64))

    def __call__(self, shape: tuple[int, ...], rate: float) -> Tensor:
        return _rm._random_poisson(self._key(), shape, rate, self.dtype)


class RandomShuffle(_Seeded):
    """``RandomShuffle(seed=0, seed2=0)(x)``: ``x`` with its first axis randomly permuted."""

    def __call__(self, x: Tensor) -> Tensor:
        return wrap(jax.random.permutation(self._key(), jnp.asarray(unwrap(x)), axis=0))


class Randperm(_Seeded):
    """``Randperm(max_length=1, pad=-1, dtype=int32)(n)``: a permutation of 0..n-1 padded with ``pad`` to
    ``max_length``."""

    _args = (("max_length", 1), ("pad", -1), ("dtype", mstype.int32))

    def __call__(self, n: int) -> Tensor:
        k = int(np.asarray(unwrap(n)).reshape(-1)[0])
        check(0 <= k <= self.max_length, "Randperm", f"'n' must be in [0, max_length={self.max_length}], but got {k}.")
        perm = jax.random.permutation(self._key(), k)
        return wrap(jnp.concatenate([perm, jnp.full((self.max_length - k,), self.pad)]).astype(_rm._np(self.dtype)))


class RandpermV2(_Seeded):
    """``RandpermV2(seed=0, offset=0, dtype=int64)(n)``: a random permutation of 0..n-1."""

    _args = (("seed", 0), ("offset", 0), ("dtype", mstype.int64))

    def __call__(self, n: int) -> Tensor:
        k = int(np.asarray(unwrap(n)).reshape(-1)[0])
        return wrap(jax.random.permutation(self._key(), k).astype(_rm._np(self.dtype)))


class StandardLaplace(_Seeded):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: Float32 Laplace(0, 1) samples."""

    def __call__(self, shape: tuple[int, ...]) -> Tensor:
        return wrap(jax.random.laplace(self._key(), _rm._shape("StandardLaplace", shape), jnp.float32))


class TruncatedNormal(_Seeded):
    """``TruncatedNormal(dtype=float32, seed=0, seed2=0)(shape)``: N(0, 1) samples truncated to [-2, 2]."""

    _args = (("dtype", mstype.float32), ("seed", 0), ("seed2", 0))

    def __call__(self, shape: tuple[int, ...]) -> Tensor:
        dt = _rm._np(self.dtype)
        return wrap(jax.random.truncated_normal(self._key(), -2.0, 2.0, _rm._shape("TruncatedNormal", shape), dt))


class ParameterizedTruncatedNormal(_Seeded):
    """``ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``: per batch row ``b`` (the
    first dimension), N(mean[b], stdevs[b]) samples truncated to [min[b], max[b]]."""

    def __call__(self, shape: tuple[int, ...], mean: Tensor, stdevs: Tensor, min: Tensor | float,
                 max: Tensor | float) -> Tensor:
        s = _rm._shape("ParameterizedTruncatedNormal", shape)
        m, sd, lo, hi = (_rm._float(v).reshape(-1) for v in (mean, stdevs, min, max))
        check(len(s) >= 1, "ParameterizedTruncatedNormal", "'shape' must have a batch dimension.")
        col = (s[0],) + (1,) * (len(s) - 1)

        def per_batch(v):
            return jnp.broadcast_to(v, (s[0],)).reshape(col)
        m, sd, lo, hi = (per_batch(v) for v in (m, sd, lo, hi))
        z = jax.random.truncated_normal(self._key(), (lo - m) / sd, (hi - m) / sd, s, m.dtype)
        return wrap((m + sd * z).astype(m.dtype))


class LogNormalReverse(_Seeded):
    """``LogNormalReverse(mean=1.0, std=2.0)(input)``: exp(N(mean, std)) samples in ``input``'s shape and dtype."""

    _args = (("mean", 1.0), ("std", 2.0))

    def __call__(self, input: Tensor) -> Tensor:
        x = jnp.asarray(unwrap(input))
        z = jax.random.normal(self._key(), x.shape, jnp.float32)
        return wrap(jnp.exp(self.mean + self.std * z).astype(x.dtype))


class NonDeterministicInts(_Seeded):
    """``NonDeterministicInts(dtype=int64)(shape)``: random integers over the whole range of ``dtype``."""

    _args = (("dtype", mstype.int64),)

    def __call__(self, shape: tuple[int, ...]) -> Tensor:
        dt = np.dtype(_rm._np(self.dtype))
        check(dt in (np.int32, np.int64), "NonDeterministicInts", f"'dtype' must be int32 or int64, but got {dt}.")
        bits = jax.random.bits(self._key(), _rm._shape("NonDeterministicInts", shape),
                               jnp.uint64 if dt == np.int64 else jnp.uint32)
        return wrap(jax.lax.bitcast_convert_type(bits, dt))


class UniformCandidateSampler(_Seeded):
    """``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False)``."""

    _args = (("num_true", _E), ("num_sampled", _E), ("unique", _E), ("range_max", _E), ("seed", 0),
             ("remove_accidental_hits", False))

    def __call__(self, true_classes: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        return _rm.uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique,
                                         self.range_max, self.seed, self.remove_accidental_hits)


class LogUniformCandidateSampler(_Seeded):
    """``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0)(true_classes)``."""

    _args = (("num_true", 1), ("num_sampled", 5), ("unique", True), ("range_max", 5), ("seed", 0))

    def __call__(self, true_classes: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        return _rm.log_uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique,
                                             self.range_max, self.seed)
