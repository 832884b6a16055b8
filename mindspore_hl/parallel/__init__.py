"""``mindspore_hl.parallel``: data, semi-auto and auto parallel training on JAX's SPMD engine.

``set_auto_parallel_context(parallel_mode=...)`` switches how every compiled step (GRAPH_MODE Cells, ``ms.jit``,
``Model``'s train step) is built: one ``jax.jit`` program over a ``('data', 'model')`` device mesh with
``NamedSharding`` layouts, whose collectives XLA inserts. See ``_plan`` (the hook used by
``mindspore_hl._jit``), ``_layout`` (strategies and ``Cell.shard``) and ``_auto`` (the AUTO_PARALLEL search).
"""
from ._context import ParallelMode, set_auto_parallel_context, get_auto_parallel_context, reset_auto_parallel_context
from ._auto import last_strategy
from ._grad_reducer import DistributedGradReducer
from ._layout import shard_cell as _shard_cell

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
           "DistributedGradReducer", "shard", "last_strategy"]


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """``mindspore.parallel.shard``: set the input/output/parameter layouts of a Cell (see ``Cell.shard``).

    Returns the Cell, which runs with those layouts under SEMI_AUTO_PARALLEL / AUTO_PARALLEL.
    """
    from ..nn.cell import Cell
    if not isinstance(fn, Cell):
        raise TypeError(f"shard: fn must be a Cell (functions are not supported), but got {type(fn).__name__}.")
    return _shard_cell(fn, in_strategy, out_strategy, parameter_plan)
