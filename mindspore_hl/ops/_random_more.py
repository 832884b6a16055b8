"""More random ops and random Primitives (gamma, Poisson, Laplace, Cauchy, truncated normal, candidate samplers ...).

Keys come from ``mindspore_hl.common.seed``: without a seed each call draws the next key of the global stream
(seeded by ``ms.set_seed``; threaded through compiled steps by the scope); a function's ``seed`` argument gives a
reproducible key of its own. A Primitive built with a non-zero ``seed``/``seed2`` owns a stream: two instances
with the same seeds draw the same sequence, and each call advances it (the Primitives are in
``_primitives_random``).

>>> import mindspore_hl as ms
>>> ms.ops.standard_laplace((2, 3), seed=1).shape
(2, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from ._core import check, unwrap
from ._registry import lookup

if TYPE_CHECKING:  # the top-level package imports ops: a runtime import would be circular
    from .._toplevel_misc import Generator

__all__ = ["gamma", "poisson", "random_gamma", "random_poisson", "random_categorical", "multinomial_with_replacement",
           "standard_laplace", "standard_normal", "laplace", "uniform_candidate_sampler",
           "log_uniform_candidate_sampler", "choice_with_mask", "bernoulli_ext"]

def _key(seed=None):
    if seed is not None:
        return jax.random.key_data(jax.random.key(int(seed)))
    return _seed.next_key()


def _np(d):
    return mstype.to_ms_dtype(d).to_numpy()


def _shape(name, shape):
    s = unwrap(shape)
    if hasattr(s, "shape"):  # a shape given as an int Tensor
        s = np.asarray(s).reshape(-1).tolist()
    check(isinstance(s, (tuple, list)) and all(isinstance(v, (int, np.integer)) and v >= 0 for v in s), name,
          f"'shape' must be a tuple of non-negative ints, but got {shape!r}.")
    return tuple(int(v) for v in s)


def _float(x, dtype=jnp.float32):
    v = jnp.asarray(unwrap(x))
    return v if jnp.issubdtype(v.dtype, jnp.floating) else v.astype(dtype)


def _gamma(key, shape, alpha, beta):
    a, b = _float(alpha), _float(beta)
    out = jnp.broadcast_shapes(_shape("gamma", shape), a.shape, b.shape)
    return wrap((jax.random.gamma(key, jnp.broadcast_to(a, out), out, a.dtype) * b).astype(a.dtype))


def gamma(shape: tuple[int, ...], alpha: Tensor | float, beta: Tensor | float, seed: int | None = None) -> Tensor:
    """Gamma(alpha) samples times the scale ``beta``, of the broadcast shape of ``shape``, ``alpha`` and ``beta``."""
    return _gamma(_key(seed), shape, alpha, beta)


def poisson(shape: tuple[int, ...], mean: Tensor, seed: int | None = None) -> Tensor:
    """Int32 Poisson(mean) samples of the broadcast shape of ``shape`` and ``mean``."""
    m = _float(mean)
    out = jnp.broadcast_shapes(_shape("poisson", shape), m.shape)
    return wrap(jax.random.poisson(_key(seed), jnp.broadcast_to(m, out), out).astype(jnp.int32))


def _random_gamma(key, shape, alpha):
    a = _float(alpha)
    out = _shape("random_gamma", shape) + a.shape
    return wrap(jax.random.gamma(key, jnp.broadcast_to(a, out), out, a.dtype))


def random_gamma(shape: tuple[int, ...], alpha: Tensor | float, seed: int | None = None) -> Tensor:
    """Gamma(alpha) samples of shape ``shape + alpha.shape`` (unit scale)."""
    return _random_gamma(_key(seed), shape, alpha)


def _random_poisson(key, shape, rate, dtype):
    r = _float(rate)
    out = _shape("random_poisson", shape) + r.shape
    return wrap(jax.random.poisson(key, jnp.broadcast_to(r, out), out).astype(_np(dtype)))


def random_poisson(shape: tuple[int, ...], rate: float, seed: int | None = None,
                   dtype: mstype.Type = mstype.float32) -> Tensor:
    """Poisson(rate) samples of shape ``shape + rate.shape`` in ``dtype``."""
    return _random_poisson(_key(seed), shape, rate, dtype)


def random_categorical(logits: Tensor, num_sample: int, seed: int = 0, dtype: mstype.Type = mstype.int64) -> Tensor:
    """``num_sample`` category indices per row of the 2-D unnormalised log-probabilities ``logits``."""
    lg = _float(logits)
    check(lg.ndim == 2, "random_categorical", f"'logits' must be 2-D, but got shape {list(lg.shape)}.")
    out = jax.random.categorical(_key(seed or None), lg, axis=-1, shape=(int(num_sample), lg.shape[0]))
    return wrap(out.T.astype(_np(dtype)))


def multinomial_with_replacement(x: Tensor, seed: int, offset: int, numsamples: int,
                                 replacement: bool = False) -> Tensor:
    """``numsamples`` Int64 category indices per row of the probabilities ``x`` (with or without replacement)."""
    s, o = int(np.asarray(unwrap(seed))), int(np.asarray(unwrap(offset)))
    return lookup("multinomial")(x, numsamples, replacement, seed=s + o if s or o else None).astype(mstype.int64)


def standard_laplace(shape: tuple[int, ...], seed: int | None = None) -> Tensor:
    """Float32 Laplace(0, 1) samples."""
    return wrap(jax.random.laplace(_key(seed), _shape("standard_laplace", shape), jnp.float32))


def standard_normal(shape: tuple[int, ...], seed: int | None = None) -> Tensor:
    """Float32 N(0, 1) samples."""
    return wrap(jax.random.normal(_key(seed), _shape("standard_normal", shape), jnp.float32))


def laplace(shape: tuple[int, ...], mean: Tensor, lambda_param: float, seed: int | None = None) -> Tensor:
    """Laplace(mean, lambda_param) samples of the broadcast shape of ``shape``, ``mean`` and ``lambda_param``."""
    m, b = _float(mean), _float(lambda_param)
    out = jnp.broadcast_shapes(_shape("laplace", shape), m.shape, b.shape)
    return wrap((m + b * jax.random.laplace(_key(seed), out, jnp.float32)).astype(m.dtype))


def _true_classes(name, true_classes, num_true):
    tc = jnp.asarray(unwrap(true_classes))
    check(tc.ndim == 2 and tc.shape[1] == num_true, name,
          f"'true_classes' must have shape [batch, num_true={num_true}], but got {list(tc.shape)}.")
    return tc


def _candidates(name, true_classes, num_true, num_sampled, unique, range_max, seed, log_uniform):
    """The samplers drawn with ``jax.random.choice``: log-uniform (with or without ``unique``) and uniform without
    ``unique``; the uniform ``unique`` sampler draws one class at a time (``_unique_uniform_draws``)."""
    tc = _true_classes(name, true_classes, num_true)
    check(not unique or num_sampled <= range_max, name,
          f"'num_sampled' ({num_sampled}) must not exceed 'range_max' ({range_max}) when 'unique' is True.")
    classes = jnp.arange(range_max, dtype=jnp.float64)
    probs = (jnp.log((classes + 2) / (classes + 1)) / np.log(range_max + 1)) if log_uniform else \
        jnp.full((range_max,), 1.0 / range_max)
    key = _key(seed or None)
    if unique:
        # sample without replacement; the expected count uses the number of tries a rejection sampler would need
        sampled = jax.random.choice(key, range_max, (num_sampled,), replace=False, p=probs)
        tries = jnp.sum(1.0 / (1.0 - jnp.cumsum(jnp.concatenate([jnp.zeros(1), probs[sampled][:-1]]))))
        expect = lambda p: -jnp.expm1(tries * jnp.log1p(-p))  # noqa: E731
    else:
        sampled = jax.random.choice(key, range_max, (num_sampled,), replace=True, p=probs)
        expect = lambda p: p * num_sampled  # noqa: E731
    true_exp = expect(probs[jnp.clip(tc, 0, range_max - 1)]).astype(jnp.float32)
    return wrap(sampled.astype(jnp.int64)), wrap(true_exp), wrap(expect(probs[sampled]).astype(jnp.float32))


def uniform_candidate_sampler(true_classes: Tensor, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: int = 0, remove_accidental_hits: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """(sampled candidates, expected counts of the true classes, expected counts of the samples), uniform.

    As MindSpore 2.10's kernel: with ``unique`` the classes are drawn one at a time, with replacement, until
    ``num_sampled`` distinct ones are found; the expected count of a class of probability p is then
    ``p * num_sampled`` when no draw was repeated, else ``1 - (1 - p) ** tries``. ``remove_accidental_hits`` (with
    ``unique`` and ``num_true`` 1, the only case where MindSpore's kernel applies it) also rejects the batch's true
    classes. Without ``unique`` the count is ``p * num_sampled``.
    """
    name = "uniform_candidate_sampler"
    if not unique:
        return _candidates(name, true_classes, num_true, num_sampled, unique, range_max, seed, False)
    tc = _true_classes(name, true_classes, num_true)
    excluded = jnp.zeros(range_max, jnp.bool_)
    if remove_accidental_hits and num_true == 1:
        excluded = excluded.at[jnp.clip(tc.reshape(-1), 0, range_max - 1)].set(True)
    if not isinstance(tc, jax.core.Tracer):
        free = range_max - int(np.sum(np.asarray(excluded)))
        check(num_sampled <= free, name, f"'num_sampled' ({num_sampled}) must not exceed the {free} classes "
              f"that can be drawn ('range_max' {range_max}, less the true classes removed as accidental hits).")
    sampled, tries = _unique_uniform_draws(_key(seed or None), excluded, num_sampled)
    p = 1.0 / range_max
    count = jnp.where(tries == num_sampled, p * num_sampled, -jnp.expm1(tries * np.log1p(-p))).astype(jnp.float32)
    return (wrap(sampled.astype(jnp.int64)), wrap(jnp.full(tc.shape, count, jnp.float32)),
            wrap(jnp.full((num_sampled,), count, jnp.float32)))


def _unique_uniform_draws(key, excluded, num_sampled):
    """``num_sampled`` distinct classes not in ``excluded``, drawn uniformly one at a time; and how many draws."""
    range_max = excluded.shape[0]

    def draw(state):
        key, seen, out, n, tries = state
        key, sub = jax.random.split(key)
        c = jax.random.randint(sub, (), 0, range_max)
        new = ~seen[c]
        out = jnp.where(new, out.at[n].set(c), out)
        return key, seen.at[c].set(True), out, n + new.astype(n.dtype), tries + 1

    state = (key, excluded, jnp.zeros(num_sampled, jnp.int64), jnp.asarray(0, jnp.int64), jnp.asarray(0, jnp.int64))
    _, _, out, _, tries = jax.lax.while_loop(lambda st: st[3] < num_sampled, draw, state)
    return out, tries


def log_uniform_candidate_sampler(true_classes: Tensor, num_true: int = 1, num_sampled: int = 5, unique: bool = True,
                                  range_max: int = 5, seed: int = 0) -> tuple[Tensor, Tensor, Tensor]:
    """(sampled candidates, expected counts of the true classes, expected counts of the samples), log-uniform."""
    return _candidates("log_uniform_candidate_sampler", true_classes, num_true, num_sampled, unique, range_max,
                       seed, True)


def choice_with_mask(input_x: Tensor, count: int = 256, seed: int | None = None) -> tuple[Tensor, Tensor]:
    """(Int32 indices of ``count`` randomly chosen True elements of the bool ``input_x``, padded with 0, and a bool
    mask of which rows are real)."""
    return _choice_with_mask(_key(seed), input_x, count)


def _choice_with_mask(key, input_x, count):
    x = jnp.asarray(unwrap(input_x))
    check(x.dtype == jnp.bool_ and 1 <= x.ndim <= 5, "choice_with_mask",
          f"'input_x' must be a bool Tensor of 1 to 5 dimensions, but got {x.dtype} of shape {list(x.shape)}.")
    flat = x.reshape(-1)
    score = jax.random.uniform(key, flat.shape) + flat.astype(jnp.float32)  # True elements rank first
    order = jnp.argsort(-score)
    take = order[:count] if count <= flat.size else jnp.concatenate(
        [order, jnp.zeros(count - flat.size, order.dtype)])
    mask = jnp.arange(count) < jnp.sum(flat)
    idx = jnp.stack(jnp.unravel_index(take, x.shape), axis=-1)
    return wrap(jnp.where(mask[:, None], idx, 0).astype(jnp.int32)), wrap(mask)


def bernoulli_ext(input: Tensor, *, generator: Generator | None = None) -> Tensor:
    """0/1 samples with the probabilities in ``input``, in its shape and dtype."""
    p = _float(input)
    key = _key(None) if generator is None else generator.next_key()
    return wrap(jax.random.bernoulli(key, p, p.shape).astype(p.dtype))

