"""``nn.SampledSoftmaxLoss``: softmax cross entropy over the true classes and a sample of negative classes, for
training a classifier with many classes (Jean et al., 2014)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import numpy as np

from ...common.tensor import Tensor, to_array, wrap
from ...ops import UniformCandidateSampler
from ._base import LossBase

if TYPE_CHECKING:
    from typing import Any

__all__ = ["SampledSoftmaxLoss"]


class SampledSoftmaxLoss(LossBase):
    """Sampled softmax loss: ``loss(weights, biases, labels, logits)`` with ``weights`` (num_classes, dim),
    ``biases`` (num_classes,), ``labels`` (batch, num_true) int32/int64 and ``logits`` (batch, dim) returns one loss
    per example, shape (batch,).

    The logits of the true classes and of ``num_sampled`` candidates (drawn by a ``UniformCandidateSampler`` with
    ``seed`` and ``remove_accidental_hits``, or the ``sampled_values`` triple ``(sampled_candidates,
    true_expected_count, sampled_expected_count)`` when given) are ``logits @ w.T + b - log(expected count)``;
    the loss is the cross entropy of their softmax against ``1 / num_true`` on each true class. As in MindSpore,
    ``reduction`` is checked but the per-example loss is returned whatever it is.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, nn
    >>> sv = (Tensor(np.array([1, 3], np.int32)), Tensor(np.ones((2, 1), np.float32)),
    ...       Tensor(np.ones(2, np.float32)))
    >>> loss = nn.SampledSoftmaxLoss(num_sampled=2, num_classes=5, sampled_values=sv)
    >>> w, b = Tensor(np.zeros((5, 3), np.float32)), Tensor(np.zeros(5, np.float32))
    >>> out = loss(w, b, Tensor(np.array([[0], [2]], np.int32)), Tensor(np.ones((2, 3), np.float32)))
    >>> [round(float(v), 4) for v in out.asnumpy()]  # log(3): three equal logits
    [1.0986, 1.0986]
    """

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1, sampled_values: Any = None,
                 remove_accidental_hits: bool = True, seed: int = 0, reduction: str = "none") -> None:
        super().__init__(reduction)
        name = self.cls_name
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{name}', the 'num_sampled' must be smaller than or equal to 'num_classes', but "
                             f"got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{name}', the 'num_true' must be smaller than or equal to 'num_classes', but got "
                             f"'num_true': {num_true} and 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{name}', the type of 'sampled_values' must be a list or tuple, but got "
                                f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{name}', the length of 'sampled_values' must be equal to 3, but got "
                                 f"{len(sampled_values)}.")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed
        self.sampler = UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed, remove_accidental_hits)

    def construct(self, weights: Tensor, biases: Tensor, labels: Tensor,  # type: ignore[override]
                  logits: Tensor) -> Tensor:
        for key, value in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For '{self.cls_name}', the '{key}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
        if to_array(labels).dtype not in (np.int32, np.int64):
            raise TypeError(f"For '{self.cls_name}', the 'labels' must be int32 or int64, but got {labels.dtype}.")
        labels = wrap(to_array(labels).astype(jnp.int32).reshape(-1, self.num_true))
        sampled_values = self.sampler(labels) if self.sampled_values is None else self.sampled_values
        sampled, true_expected, sampled_expected = (to_array(v) for v in sampled_values)
        return wrap(_sampled_softmax(to_array(weights), to_array(biases), to_array(labels), to_array(logits),
                                     sampled.astype(jnp.int32), true_expected, sampled_expected, self.num_true))


# one compiled computation per shape (eagerly, op-by-op dispatch would cost more than the loss itself)
@functools.partial(jax.jit, static_argnums=(7,))
def _sampled_softmax(weights, biases, labels, logits, sampled, true_expected, sampled_expected, num_true):
    """The logits of the true classes then the sampled ones, less the log expected counts, and their softmax cross
    entropy against ``1 / num_true`` on each true class."""
    true_w = weights[labels.reshape(-1)].reshape(labels.shape[0], num_true, -1)
    true_logits = jnp.sum(logits[:, None, :] * true_w, axis=-1) + biases[labels]
    sampled_logits = logits @ weights[sampled].T + biases[sampled]
    true_logits = true_logits - jnp.log(true_expected)
    sampled_logits = sampled_logits - jnp.log(sampled_expected)
    out_logits = jnp.concatenate([true_logits, sampled_logits], axis=1)
    out_labels = jnp.concatenate([jnp.ones_like(true_logits) / num_true, jnp.zeros_like(sampled_logits)], axis=1)
    # MindSpore's stable softmax and the 1e-20 inside the log
    shifted = jnp.exp(out_logits - jnp.max(out_logits, axis=1, keepdims=True))
    pred = shifted / jnp.sum(shifted, axis=1, keepdims=True)
    return -jnp.sum(out_labels * jnp.log(pred + 1.0e-20), axis=1)
