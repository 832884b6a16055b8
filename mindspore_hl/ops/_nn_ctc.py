"""CTC loss (``ops.ctc_loss``): the forward (alpha) recursion in log space over ``lax.scan``, differentiable."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax import lax

from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["ctc_loss"]


@functools.partial(jax.jit, static_argnums=(4,))
def ctc_alpha(log_probs: jax.Array, targets: jax.Array, input_lengths: jax.Array, target_lengths: jax.Array,
              blank: int) -> tuple[jax.Array, jax.Array]:
    """CTC forward variables and per-sample negative log-likelihood: log_probs (T, N, C), targets (N, S) ->
    (nll (N,), log_alpha (N, T, 2S + 1), -inf past each sample's input length and extended target)."""
    t_max, n, _ = log_probs.shape
    s = targets.shape[1]
    neg = jnp.asarray(-jnp.inf, log_probs.dtype)
    tl = target_lengths.astype(jnp.int32)
    ext = jnp.full((n, 2 * s + 1), blank, jnp.int32).at[:, 1::2].set(targets.astype(jnp.int32))
    inside = jnp.arange(2 * s + 1)[None, :] < (2 * tl + 1)[:, None]
    # A symbol may be reached from two back when it differs from the symbol two back (and is not blank).
    skip = jnp.concatenate([jnp.zeros((n, 2), bool), (ext[:, 2:] != ext[:, :-2]) & (ext[:, 2:] != blank)], axis=1)
    emit = jnp.take_along_axis(log_probs, jnp.broadcast_to(ext[None], (t_max,) + ext.shape), axis=2)  # (T, N, L)
    emit = jnp.where(inside[None], emit, neg)
    alpha0 = jnp.full(ext.shape, neg).at[:, 0].set(emit[0, :, 0]).at[:, 1].set(emit[0, :, 1])

    def step(alpha, e):
        a1 = jnp.concatenate([jnp.full((n, 1), neg), alpha[:, :-1]], axis=1)
        a2 = jnp.where(skip, jnp.concatenate([jnp.full((n, 2), neg), alpha[:, :-2]], axis=1), neg)
        new = jnp.logaddexp(jnp.logaddexp(alpha, a1), a2) + e
        return new, new

    _, alphas = lax.scan(step, alpha0, emit[1:])
    alphas = jnp.concatenate([alpha0[None], alphas], axis=0)                 # (T, N, L)
    last = alphas[jnp.clip(input_lengths.astype(jnp.int32) - 1, 0, t_max - 1), jnp.arange(n)]   # (N, L)
    end = jnp.take_along_axis(last, (2 * tl)[:, None], axis=1)[:, 0]
    before = jnp.where(tl > 0, jnp.take_along_axis(last, jnp.maximum(2 * tl - 1, 0)[:, None], axis=1)[:, 0], neg)
    alive = jnp.arange(t_max)[None, :, None] < input_lengths.astype(jnp.int32)[:, None, None]
    return -jnp.logaddexp(end, before), jnp.where(alive, jnp.transpose(alphas, (1, 0, 2)), neg)


@jax.custom_jvp
def _zero_infinite_grad(nll):
    return nll


@_zero_infinite_grad.defjvp
def _zero_infinite_grad_jvp(primals, tangents):
    (nll,), (t,) = primals, tangents
    return nll, jnp.where(jnp.isinf(nll), jnp.zeros((), t.dtype), t)


@op("ctc_loss")
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> tuple[Tensor, Tensor]:
    """Connectionist temporal classification loss.

    Args:
        log_probs: (T, N, C) log-softmax outputs. targets: (N, S) padded labels. input_lengths, target_lengths: (N,).
        reduction: 'none' (per sample), 'sum', or 'mean' (each loss divided by its target length, then averaged).
        zero_infinity: give infinite losses (impossible alignments) zero gradients; as in MindSpore 2.10's CPU
            build, the loss value itself stays inf.
    Returns:
        (loss, log_alpha): log_alpha (N, T, 2 * S + 1) holds the forward variables.
    """
    name = "ctc_loss"
    check(log_probs.ndim == 3, name, f"'log_probs' must be 3-D (T, N, C), but got shape {list(log_probs.shape)}.")
    check(targets.ndim == 2 and targets.shape[0] == log_probs.shape[1], name, f"'targets' must be 2-D (N, S) with "
          f"N={log_probs.shape[1]}, but got shape {list(targets.shape)}.")
    check(reduction in ("none", "sum", "mean"), name, f"'reduction' must be 'none', 'sum' or 'mean', but got "
          f"{reduction!r}.")
    nll, log_alpha = ctc_alpha(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:
        nll = _zero_infinite_grad(nll)
    if reduction == "sum":
        return nll.sum(), log_alpha
    if reduction == "mean":
        return jnp.mean(nll / jnp.maximum(target_lengths, 1).astype(nll.dtype)), log_alpha
    return nll, log_alpha
