"""``nn.LossBase``: the base of every loss Cell; subclasses compute an elementwise loss and call ``get_loss``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ...common.tensor import Tensor, to_array, wrap
from ..cell import Cell

if TYPE_CHECKING:
    from typing import Any

__all__ = ["LossBase"]

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base class for losses.

    Args:
        reduction: 'mean' (default), 'sum' or 'none', applied by ``get_loss``.

    Example:
        >>> class MAE(nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(ops.abs(logits - labels))
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: 'reduction' must be one of {list(_REDUCTIONS)}, but got "
                             f"{reduction!r}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x: Tensor) -> tuple[int, ...]:
        """All axes of ``x`` (the reduction covers every element)."""
        return tuple(range(len(x.shape)))

    def get_loss(self, x: Tensor | jnp.ndarray, weights: float | Tensor = 1.0) -> Tensor:
        """Weight the elementwise loss ``x`` (computed in float32) and reduce it; returns x's dtype.

        Args:
            x: the elementwise loss. weights: a number or a Tensor broadcastable to ``x``.
        """
        arr = to_array(x)
        dtype = arr.dtype
        out = arr.astype(jnp.float32) * to_array(weights).astype(jnp.float32)
        if self.reduce:
            out = jnp.mean(out) if self.average else jnp.sum(out)
        return wrap(out.astype(dtype))

    def _same_shape(self, logits, labels, what=("logits", "labels")):
        a, b = tuple(logits.shape), tuple(labels.shape)
        if a != b:
            raise ValueError(f"{type(self).__name__}: '{what[0]}' and '{what[1]}' must have the same shape, but got "
                             f"{a} and {b}.")

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} must define construct(logits, labels).")


def as_tensor(x: Any) -> Tensor | None:
    return x if x is None or isinstance(x, Tensor) else Tensor(x)
