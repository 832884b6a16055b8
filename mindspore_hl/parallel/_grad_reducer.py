"""``nn.DistributedGradReducer``: MindSpore's gradient AllReduce, for the global-view SPMD step.

A parallel step here is one program over the global batch: the loss is the mean over all devices' samples,
and the gradient XLA computes for a replicated weight already includes the all-reduce over the 'data' axis
(GSPMD inserts it while partitioning the batch-split computation). That gradient equals MindSpore's
AllReduce-then-mean of the per-device gradients, so with ``mean=True`` this Cell returns the gradients as
they are (reducing again would double-count). With ``mean=False`` MindSpore sums the per-device gradients of
per-device mean losses, i.e. ``degree`` times the mean; this Cell multiplies by ``degree`` to match.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _parallel_context as _context
from .._engine._plan import active_plan
from ..common.tensor import Tensor, wrap
from ..nn.cell import Cell

if TYPE_CHECKING:
    from typing import Any, Iterable

__all__ = ["DistributedGradReducer", "default_grad_reducer"]


class DistributedGradReducer(Cell):
    """Aggregate gradients across data-parallel devices (see the module docstring for the exact semantics).

    Args:
        parameters: the Parameters whose gradients are reduced (the optimizer's parameters).
        mean: average (True) or sum (False); None reads ``gradients_mean`` from the auto parallel context.
        degree: number of data-parallel devices; None uses the size of the mesh's 'data' axis of the step
            being compiled (1 outside a parallel step).
        fusion_type, group: accepted for compatibility (XLA fuses the collectives; one world group).
    """

    def __init__(self, parameters: Iterable[Any], mean: float | None = None, degree: int | None = None,
                 fusion_type: int = 1, group: str = "hccl_world_group") -> None:
        super().__init__(auto_prefix=False)
        if degree is not None and (not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0):
            raise ValueError(f"DistributedGradReducer: degree must be a positive int, but got {degree!r}.")
        if mean is not None and not isinstance(mean, bool):
            raise TypeError(f"DistributedGradReducer: mean must be a bool or None, but got {type(mean).__name__}.")
        self.n_params = len(tuple(parameters))
        self.mean = _context._ctx["gradients_mean"] if mean is None else mean
        self.degree = degree
        self.fusion_type, self.group = fusion_type, group

    def construct(self, grads: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        grads = tuple(grads)
        if len(grads) != self.n_params:
            raise ValueError(f"DistributedGradReducer: expected {self.n_params} gradients (one per parameter), "
                             f"but got {len(grads)}.")
        if self.mean:
            return grads
        degree = self.degree
        if degree is None:
            plan = active_plan()
            degree = getattr(plan, "data", 1)  # 1 alone, and while a _Recorder traces abstractly
        if degree == 1:
            return grads
        return tuple(wrap(g._value * degree) if isinstance(g, Tensor) else g * degree for g in grads)


def default_grad_reducer(parameters: Iterable[Any]) -> DistributedGradReducer | None:
    """The reducer MindSpore's TrainOneStepCell installs by itself: a ``DistributedGradReducer`` in
    DATA_PARALLEL / HYBRID_PARALLEL mode (with ``gradients_mean`` from the context), else None."""
    if _context.mode() in (_context.ParallelMode.DATA_PARALLEL, _context.ParallelMode.HYBRID_PARALLEL):
        return DistributedGradReducer(parameters)
    return None
