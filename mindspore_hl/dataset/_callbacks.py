"""``DSCallback``: hooks a ``map`` operation calls as rows pass through it (``Dataset.map(..., callbacks=...)``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["DSCallback", "RunContext", "run_callbacks"]


class RunContext:
    """What a callback learns: ``cur_epoch_num`` (1-based), ``cur_step_num_in_epoch`` and ``cur_step_num``
    (1-based, rows through the map operation)."""

    def __init__(self) -> None:
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    """Base class of dataset callbacks. Override ``ds_begin``, ``ds_epoch_begin``, ``ds_epoch_end``,
    ``ds_step_begin`` and ``ds_step_end`` (each gets a RunContext); step hooks run every ``step_size`` rows.

    >>> import numpy as np, mindspore_hl.dataset as ds
    >>> class Count(ds.DSCallback):
    ...     def __init__(self):
    ...         super().__init__(step_size=2)
    ...         self.steps = []
    ...     def ds_step_end(self, ds_run_context):
    ...         self.steps.append(ds_run_context.cur_step_num)
    >>> cb = Count()
    >>> _ = list(ds.NumpySlicesDataset([1, 2, 3, 4, 5], shuffle=False).map(lambda x: x, callbacks=cb))
    >>> cb.steps
    [1, 3, 5]
    """

    def __init__(self, step_size: int = 1) -> None:
        if isinstance(step_size, bool) or not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"DSCallback: step_size must be a positive int, but got {step_size!r}")
        self.step_size = step_size

    def ds_begin(self, ds_run_context: RunContext) -> None:
        """Called once, before the first row."""

    def ds_epoch_begin(self, ds_run_context: RunContext) -> None:
        """Called at the start of each epoch."""

    def ds_epoch_end(self, ds_run_context: RunContext) -> None:
        """Called at the end of each epoch."""

    def ds_step_begin(self, ds_run_context: RunContext) -> None:
        """Called before every ``step_size``-th row of an epoch (counting from its first)."""

    def ds_step_end(self, ds_run_context: RunContext) -> None:
        """Called after every ``step_size``-th row of an epoch (counting from its first)."""


def run_callbacks(callbacks: Sequence[DSCallback], blocks: Iterable[list[np.ndarray]], epoch_index: int,
                  state: dict[str, Any], nrows: Callable[[list[np.ndarray]], int]) -> Iterator[list[np.ndarray]]:
    """Yield ``blocks`` (one epoch of a map), calling the hooks of ``callbacks`` around them in order.

    ``state`` keeps the RunContext and whether ds_begin ran, across epochs of one iterator."""
    ctx = state.setdefault("ctx", RunContext())
    if not state.get("begun"):
        state["begun"] = True
        for cb in callbacks:
            cb.ds_begin(ctx)
    ctx.cur_epoch_num = epoch_index + 1
    ctx.cur_step_num_in_epoch = 0
    for cb in callbacks:
        cb.ds_epoch_begin(ctx)
    for block in blocks:
        for _ in range(nrows(block)):
            ctx.cur_step_num += 1
            ctx.cur_step_num_in_epoch += 1
            due = [cb for cb in callbacks if (ctx.cur_step_num_in_epoch - 1) % cb.step_size == 0]
            for cb in due:
                cb.ds_step_begin(ctx)
            for cb in due:
                cb.ds_step_end(ctx)
        yield block
    for cb in callbacks:
        cb.ds_epoch_end(ctx)
