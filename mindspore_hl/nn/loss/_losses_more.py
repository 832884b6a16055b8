"""More losses with MindSpore 2.10's signatures: margin and embedding losses, Dice / focal losses, Poisson and
Gaussian negative log-likelihoods, RMSE / MAE and ``CTCLoss`` (on ``optax.ctc_loss``).

The elementwise maths is private JAX here (the functional ops do not exist yet); ``LossBase.get_loss`` applies
the reduction, so subclasses and ``reduction`` behave as for the other losses.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import optax

from ...common.tensor import Tensor, to_array, wrap
from ..layer._activation import get_activation
from ._base import LossBase, as_tensor

if TYPE_CHECKING:
    from typing import Callable

    from ..cell import Cell

__all__ = ["MAELoss", "RMSELoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss", "CosineEmbeddingLoss",
           "TripletMarginLoss", "MultiMarginLoss", "MultilabelMarginLoss", "MultiLabelSoftMarginLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "DiceLoss", "MultiClassDiceLoss", "FocalLoss", "CTCLoss"]


def _a(x):
    return to_array(x)


class MAELoss(LossBase):
    """|logits - labels|, reduced."""

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        return self.get_loss(jnp.abs(_a(logits) - _a(label)))


class RMSELoss(LossBase):
    """sqrt(mean((logits - labels)^2))."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        d = _a(logits) - _a(label)
        return wrap(jnp.sqrt(jnp.mean(jnp.square(d))))


class MarginRankingLoss(LossBase):
    """max(0, -target * (input1 - input2) + margin)."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = float(margin)

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:  # type: ignore[override]
        return self.get_loss(jax.nn.relu(-_a(target) * (_a(input1) - _a(input2)) + self.margin))


class HingeEmbeddingLoss(LossBase):
    """x where labels == 1, max(0, margin - x) where labels == -1."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise TypeError(f"HingeEmbeddingLoss: 'margin' must be a float, but got {margin!r}.")
        self.margin = float(margin)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        x, y = _a(logits), _a(labels)
        loss = jnp.where(y == 1, x, 0) + jnp.where(y == -1, jax.nn.relu(self.margin - x), 0)
        return self.get_loss(loss.astype(x.dtype))


class SoftMarginLoss(LossBase):
    """log(1 + exp(-labels * logits))."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss(jax.nn.softplus(-_a(labels) * _a(logits)))


class CosineEmbeddingLoss(LossBase):
    """1 - cos(x1, x2) where labels == 1, max(0, cos(x1, x2) - margin) where labels == -1 (cosine on the last
    axis)."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"CosineEmbeddingLoss: 'margin' must be in [-1, 1], but got {margin}.")
        self.margin = float(margin)

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:  # type: ignore[override]
        a, b, y = _a(logits_x1), _a(logits_x2), _a(labels)
        eps = jnp.asarray(1e-12, a.dtype)
        cos = jnp.sum(a * b, -1) / jnp.sqrt((jnp.sum(a * a, -1) + eps) * (jnp.sum(b * b, -1) + eps))
        loss = jnp.where(y == 1, 1 - cos, jax.nn.relu(cos - self.margin))
        return self.get_loss(loss)


def _pairwise(a, b, p, eps):
    return jnp.sum(jnp.abs(a - b + eps) ** p, -1) ** (1.0 / p)


class TripletMarginLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0) with the p-norm distance (``swap``: the smaller of
    d(x, negative) and d(positive, negative))."""

    def __init__(self, p: float = 2, swap: bool = False, eps: float = 1e-6, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, bool(swap), float(eps), float(margin)

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, x: Tensor,  # type: ignore[override]
                  positive: Tensor, negative: Tensor, margin: float = 1.0) -> Tensor:
        margin = self.margin if self.margin != 1.0 else margin
        a, pos, neg = _a(x), _a(positive), _a(negative)
        d_ap, d_an = _pairwise(a, pos, self.p, self.eps), _pairwise(a, neg, self.p, self.eps)
        if self.swap:
            d_an = jnp.minimum(d_an, _pairwise(pos, neg, self.p, self.eps))
        return self.get_loss(jax.nn.relu(d_ap - d_an + _a(margin).astype(a.dtype)))


class MultiMarginLoss(LossBase):
    """Multi-class hinge: sum over j != y of (weight[y] * max(0, margin - x[y] + x[j]))^p / C."""

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        if p not in (1, 2):
            raise ValueError(f"MultiMarginLoss: 'p' must be 1 or 2, but got {p!r}.")
        self.p, self.margin, self.weight = p, float(margin), as_tensor(weight)

    def construct(self, x: Tensor, target: Tensor, weight: Tensor | None = None) -> Tensor:
        x, t = _a(x), _a(target).astype(jnp.int32)
        w = self.weight if self.weight is not None else weight
        c = x.shape[-1]
        xy = jnp.take_along_axis(x, t[:, None], 1)  # type: ignore[arg-type]  # x: _a(x)
        m = jax.nn.relu(self.margin - xy + x)
        if self.p == 2:
            m = m * m
        if w is not None:
            m = m * _a(w).astype(x.dtype)[t][:, None]
        m = jnp.where(jnp.arange(c)[None, :] == t[:, None], 0, m)
        return self.get_loss(m.sum(-1) / c)


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge: target rows list class indices, ended by the first -1; for each listed class j and each
    unlisted class i, max(0, 1 - (x[j] - x[i])), summed and divided by C."""

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        x, t = _a(x), _a(target).astype(jnp.int32)
        squeeze = x.ndim == 1
        if squeeze:
            x, t = x[None], t[None]
        c = x.shape[-1]
        valid = jnp.cumprod(t >= 0, axis=-1).astype(bool)
        is_target = jnp.any(valid[..., None] & (t[..., None] == jnp.arange(c)), axis=-2)
        xt = jnp.take_along_axis(x, jnp.clip(t, 0), -1)  # type: ignore[arg-type]  # x: _a(x)
        hinge = jax.nn.relu(1 - xt[..., :, None] + x[..., None, :])
        hinge = hinge * valid[..., :, None] * (~is_target)[..., None, :]
        loss = hinge.sum((-1, -2)) / c
        return self.get_loss(loss[0] if squeeze else loss)


class MultiLabelSoftMarginLoss(LossBase):
    """-mean over classes of weight * (y log sigmoid(x) + (1 - y) log sigmoid(-x)), reduced over the batch."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = as_tensor(weight)

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        x, y = _a(x), _a(target).astype(_a(x).dtype)
        loss = -(y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x))  # type: ignore[arg-type]  # x: _a(x)
        if self.weight is not None:
            loss = loss * _a(self.weight).astype(x.dtype)
        return self.get_loss(loss.mean(-1))


class PoissonNLLLoss(LossBase):
    """exp(x) - target * x (``log_input``) or x - target * log(x + eps); ``full`` adds Stirling's term."""

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.log_input, self.full, self.eps = bool(log_input), bool(full), float(eps)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        x = _a(input)
        t = _a(target).astype(x.dtype)
        loss = jnp.exp(x) - t * x if self.log_input else x - t * jnp.log(x + self.eps)
        if self.full:
            tt = jnp.maximum(t, self.eps)
            stirling = (tt + 0.5) * jnp.log(tt) - tt + 0.5 * math.log(2 * math.pi)
            loss = loss + jnp.where(tt > 1, stirling, 0)
        return self.get_loss(loss)


class GaussianNLLLoss(LossBase):
    """0.5 * (log(max(var, eps)) + (logits - labels)^2 / max(var, eps)) (+ 0.5 log(2 pi) with ``full``)."""

    def __init__(self, *, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(eps, float) or eps <= 0:
            raise ValueError(f"GaussianNLLLoss: 'eps' must be a positive float, but got {eps!r}.")
        self.full, self.eps = bool(full), eps

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, logits: Tensor, labels: Tensor, var: Tensor) -> Tensor:  # type: ignore[override]
        x, y, v = _a(logits), _a(labels), _a(var)
        if x.shape != v.shape and x.shape[:-1] == v.shape:
            v = v[..., None]
        v = jnp.maximum(v, self.eps)
        loss = 0.5 * (jnp.log(v) + jnp.square(x - y) / v) + (0.5 * math.log(2 * math.pi) if self.full else 0.0)
        return self.get_loss(loss)


def _dice(p, y, smooth):
    p, y = p.reshape(-1), y.reshape(-1).astype(p.dtype)
    inter = jnp.sum(p * y)
    return 1 - 2 * inter / (jnp.sum(p * p) + jnp.sum(y * y) + smooth)


class DiceLoss(LossBase):
    """1 - 2 |X * Y| / (|X|^2 + |Y|^2 + smooth) over all elements."""

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        self.smooth = float(smooth)

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        self._same_shape(logits, label)
        return wrap(_dice(_a(logits), _a(label), self.smooth))


class MultiClassDiceLoss(LossBase):
    """Mean over the classes (axis 1) of DiceLoss, after ``activation`` (a name or None) on the logits;
    ``ignore_indiex`` (MindSpore's spelling) skips one class, ``weights`` (2-D) weights each class's loss."""

    def __init__(self, weights: Tensor | None = None, ignore_indiex: int | None = None,
                 activation: str | Cell | Callable[..., Tensor] = "softmax") -> None:
        super().__init__()
        names = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")
        if isinstance(activation, str) and activation not in names:
            raise ValueError(f"MultiClassDiceLoss: 'activation' must be one of {list(names)}, but got "
                             f"{activation!r}.")
        if weights is not None and (not isinstance(weights, Tensor) or weights.ndim != 2):
            raise ValueError("MultiClassDiceLoss: 'weights' must be a 2-D Tensor or None.")
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.activation = get_activation(activation, "MultiClassDiceLoss") if isinstance(activation, str) \
            else activation

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        self._same_shape(logits, label)
        if logits.ndim < 2:
            raise ValueError(f"MultiClassDiceLoss: the inputs must have at least 2 dims, but got {logits.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        p, y = _a(logits), _a(label)
        total = 0.0
        for i in range(y.shape[1]):
            if i != self.ignore_indiex:
                d = _dice(p[:, i], y[:, i], 1e-5)
                if self.weights is not None:
                    d = d * _a(self.weights)[i]
                total = total + d
        return wrap(total / y.shape[1])


class FocalLoss(LossBase):
    """Focal loss: -(1 - p)^gamma * log p of the target class (labels one-hot (N, C, ...) or indices (N, 1, ...)),
    optionally class-weighted, averaged over the spatial positions, then reduced."""

    def __init__(self, weight: Tensor | None = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"FocalLoss: 'gamma' must be a float, but got {gamma!r}.")
        if weight is not None and (not isinstance(weight, Tensor) or weight.ndim != 1):
            raise ValueError("FocalLoss: 'weight' must be a 1-D Tensor or None.")
        self.weight, self.gamma = weight, gamma

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        x, y = _a(logits), _a(labels)
        if x.ndim != y.ndim or x.ndim < 2 or y.shape[1] not in (1, x.shape[1]):
            raise ValueError(f"FocalLoss: 'logits' (N, C, ...) and 'labels' (N, C, ...) or (N, 1, ...) must have "
                             f"matching ranks, but got {x.shape} and {y.shape}.")
        x = x.reshape(x.shape[0], x.shape[1], -1)
        y = y.reshape(y.shape[0], y.shape[1], -1)
        logp = jax.nn.log_softmax(x, axis=1)
        index = y.shape[1] == 1
        if index:
            logp = jnp.squeeze(jnp.take_along_axis(logp, y.astype(jnp.int32), 1))
        prob = jnp.exp(logp)
        if self.weight is not None:
            w = jnp.broadcast_to(_a(self.weight).astype(x.dtype)[None, :, None], x.shape)
            if index:
                w = jnp.squeeze(jnp.take_along_axis(w, y.astype(jnp.int32), 1))
            logp = logp * w
        focus = (1 - prob) ** self.gamma
        loss = (-focus * logp).mean(axis=1) if index else (-focus * y.astype(x.dtype) * logp).mean(axis=-1)
        return self.get_loss(loss)


class CTCLoss(LossBase):
    """Connectionist temporal classification loss of ``log_probs`` (T, N, C) (or (T, C)), padded ``targets``
    (N, S), ``input_lengths`` (N,) and ``target_lengths`` (N,); 'mean' divides each loss by its target length
    before averaging; ``zero_infinity`` zeroes impossible alignments. Computed by ``optax.ctc_loss``."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction)
        self.blank, self.zero_infinity = int(blank), bool(zero_infinity)

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, log_probs: Tensor,  # type: ignore[override]
                  targets: Tensor, input_lengths: Tensor, target_lengths: Tensor) -> Tensor:
        lp, t = _a(log_probs), _a(targets).astype(jnp.int32)
        unbatched = lp.ndim == 2
        if unbatched:
            lp, t = lp[:, None], t.reshape(1, -1)
        il = _a(input_lengths).reshape(-1).astype(jnp.int32)
        tl = _a(target_lengths).reshape(-1).astype(jnp.int32)
        logits = jnp.swapaxes(lp, 0, 1).astype(jnp.float32)
        steps, labels = logits.shape[1], t.shape[1]
        logit_pad = (jnp.arange(steps)[None, :] >= il[:, None]).astype(jnp.float32)
        label_pad = (jnp.arange(labels)[None, :] >= tl[:, None]).astype(jnp.float32)
        # optax's log_epsilon (-1e5) stands for log 0: a loss that large is an impossible alignment (inf).
        loss = optax.ctc_loss(logits, logit_pad, t, label_pad, blank_id=self.blank, log_epsilon=-1e5)
        impossible = loss > 1e4
        loss = jnp.where(impossible, 0.0 if self.zero_infinity else jnp.inf, loss).astype(lp.dtype)
        if self.reduction == "mean":
            out = jnp.mean(loss / jnp.maximum(tl, 1).astype(loss.dtype))
        elif self.reduction == "sum":
            out = jnp.sum(loss)
        else:
            out = loss[0] if unbatched else loss
        return wrap(out)
