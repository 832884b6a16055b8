"""Loss Cells with MindSpore's signatures and defaults."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from ... import ops
from ...common.tensor import Tensor
from ._base import LossBase, as_tensor
from ._label_checks import check_class_indices

__all__ = ["SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
           "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]


def _check_tensor(cell, **named):
    for what, v in named.items():
        if not isinstance(v, Tensor):
            raise TypeError(f"{type(cell).__name__}: '{what}' must be a Tensor, but got {type(v).__name__}.")


def _is_int(t):
    return jnp.issubdtype(t._value.dtype, jnp.integer)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross-entropy between logits (N, C) and labels.

    Args:
        sparse: labels are class indices (N,) (int) instead of probabilities (N, C). Default False.
        reduction: default 'none' (MindSpore's default; tutorials pass ``sparse=True, reduction='mean'``).
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.sparse = bool(sparse)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        if len(logits.shape) != 2:
            raise ValueError(f"SoftmaxCrossEntropyWithLogits: expected logits of shape (N, C), but got "
                             f"{tuple(logits.shape)}.")
        if self.sparse:
            if tuple(labels.shape) != tuple(logits.shape[:1]) or not _is_int(labels):
                raise ValueError(f"SoftmaxCrossEntropyWithLogits(sparse=True): expected integer labels of shape "
                                 f"({logits.shape[0]},), but got {tuple(labels.shape)} {labels.dtype}.")
            if self.reduction == "mean":  # MindSpore's sparse kernel checks the range
                check_class_indices("SoftmaxCrossEntropyWithLogits", labels._value, logits.shape[1], False)
            else:  # MindSpore one-hot encodes: a label out of range is an all-zero row, a loss of 0
                labels = Tensor(jax.nn.one_hot(labels._value, logits.shape[1], dtype=logits._value.dtype))
        else:
            self._same_shape(logits, labels)
            labels = labels.astype(logits.dtype)
        return self.get_loss(ops.cross_entropy(logits, labels, reduction="none"))

    def extend_repr(self) -> str:
        return f"sparse={self.sparse}, reduction={self.reduction}"


class CrossEntropyLoss(LossBase):
    """Cross-entropy of logits (N, C[, d1...]) with class indices or class probabilities.

    Args:
        weight: (C,) per-class weights. ignore_index: class index that adds nothing (default -100).
        reduction: 'mean' (weighted mean over non-ignored targets), 'sum' or 'none'. label_smoothing: in [0, 1].
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"CrossEntropyLoss: 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
        self.weight, self.ignore_index, self.label_smoothing = as_tensor(weight), ignore_index, label_smoothing

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        if logits.ndim and labels.shape != logits.shape:  # class indices (MindSpore's GatherD checks the range)
            check_class_indices("CrossEntropyLoss", labels._value, logits.shape[1 if logits.ndim > 1 else 0], True,
                                self.ignore_index)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of log-probabilities (N, C[, d1...]) and class indices (N[, d1...])."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index = as_tensor(weight), ignore_index

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        if logits.ndim:
            check_class_indices("NLLLoss", labels._value, logits.shape[1 if logits.ndim > 1 else 0], True,
                                self.ignore_index)
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class MSELoss(LossBase):
    """Mean squared error (logits and labels broadcast)."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        return self.get_loss(ops.mse_loss(logits, labels, reduction="none"))


class L1Loss(LossBase):
    """Mean absolute error (logits and labels broadcast)."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        return self.get_loss(ops.l1_loss(logits, labels, reduction="none"))


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta. Default reduction 'none' (as MindSpore)."""

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"SmoothL1Loss: 'beta' must be > 0, but got {beta!r}.")
        self.beta = float(beta)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        self._same_shape(logits, labels)
        return self.get_loss(ops.smooth_l1_loss(logits, labels, self.beta, "none"))


class HuberLoss(LossBase):
    """0.5 d^2 where |d| <= delta, else delta * (|d| - 0.5 delta)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        if not isinstance(delta, (int, float)) or delta <= 0:
            raise ValueError(f"HuberLoss: 'delta' must be > 0, but got {delta!r}.")
        self.delta = float(delta)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        return self.get_loss(ops.huber_loss(logits, labels, "none", self.delta))


class BCELoss(LossBase):
    """Binary cross-entropy of probabilities in [0, 1]; ``weight`` is broadcast to the elements."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = as_tensor(weight)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        self._same_shape(logits, labels)
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Sigmoid + binary cross-entropy from logits; ``pos_weight`` weights the positive class (last axis)."""

    def __init__(self, reduction: str = "mean", weight: Tensor | None = None, pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        self.weight, self.pos_weight = as_tensor(weight), as_tensor(pos_weight)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        self._same_shape(logits, labels)
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


class KLDivLoss(LossBase):
    """KL divergence, ``logits`` being log-probabilities: labels * (log labels - logits).

    Args:
        reduction: 'mean' (default, over all elements), 'batchmean', 'sum' or 'none'.
    """

    def __init__(self, reduction: str = "mean") -> None:
        if reduction == "batchmean":
            super().__init__("sum")
            self.reduction = "batchmean"
        else:
            super().__init__(reduction)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self, logits=logits, labels=labels)
        return ops.kl_div(logits, labels, self.reduction)
