"""``TripletMarginWithDistanceLoss``: the triplet margin loss with any distance function."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ._base import LossBase

if TYPE_CHECKING:
    from typing import Callable

    from ...common.tensor import Tensor

__all__ = ["TripletMarginWithDistanceLoss"]


def _pairwise_distance(x, y):
    """MindSpore's default distance: the 2-norm of ``|x - y|`` along axis 1."""
    d = ops.abs(x - y)
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be "
                         "positive, but got 0")
    return ops.sqrt(ops.sum(d * d, 1))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with ``distance_function`` (default: the 2-norm along
    axis 1); ``swap`` uses ``min(d(x, negative), d(positive, negative))``."""

    def __init__(self, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None, swap: bool = False,
                 reduction: str = "mean", margin: float = 1.0) -> None:
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', 'margin' must be a float, but got "
                            f"{type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', 'swap' must be a bool, but got "
                            f"{type(swap).__name__}.")
        self.distance_function = _pairwise_distance if distance_function is None else distance_function
        self.swap, self.margin = swap, margin

    # MindSpore's inputs, not LossBase's (logits, labels)
    def construct(self, x: Tensor, positive: Tensor, negative: Tensor) -> Tensor:  # type: ignore[override]
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.maximum(d1 - d2 + self.margin, 0))
