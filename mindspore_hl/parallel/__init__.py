"""``mindspore_hl.parallel``: data, semi-auto and auto parallel training on JAX's SPMD engine.

``set_auto_parallel_context(parallel_mode=...)`` switches how every step runs (GRAPH_MODE Cells, ``ms.jit``,
``Model``'s train step, eager PYNATIVE steps): on a ``('data', 'model')`` device mesh with ``NamedSharding``
layouts, whose collectives XLA inserts. The machinery is the engine's (``mindspore_hl._engine``: ``_plan``
the shardings of a step, ``_layout`` strategies and ``Cell.shard``, ``_auto`` the AUTO_PARALLEL search,
``_parallel_context`` the context); ``parallel._context`` / ``_layout`` / ``_plan`` / ``_auto`` name them (``_compat``
registers those module paths).

Distributed checkpoints: a sharded step compiled with ``strategy_ckpt_save_file`` writes MindSpore's strategy
file (``_engine._strategy_ckpt``); ``build_searched_strategy`` / ``merge_pipeline_strategys`` /
``restore_group_info_list`` read such files (``_strategy_file``) and ``rank_list_for_transform`` /
``transform_checkpoint_by_rank`` / ``transform_checkpoints`` / ``load_distributed_checkpoint`` re-slice per-rank
``.ckpt`` / ``.safetensors`` files with them (``_ckpt_transform``, ``_unified_load``); ``unified_safetensors`` merges
per-rank safetensors into whole parameters (``_unified_safetensors``); ``parameter_broadcast`` gives the ranks of a
redundancy group their owner's values (``_parameter_broadcast``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _auto, _layout, _plan
from .._engine import _parallel_context as _context
from .._engine._auto import last_strategy
from .._engine._layout import shard_cell as _shard_cell
from .._engine._parallel_context import (
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)
from ..nn.cell import Cell as _Cell
from ._ckpt_transform import (
    load_distributed_checkpoint,
    rank_list_for_transform,
    transform_checkpoint_by_rank,
    transform_checkpoints,
)
from ._grad_reducer import DistributedGradReducer
from ._layout_api import Layout
from ._parameter_broadcast import parameter_broadcast
from ._strategy_file import build_searched_strategy, merge_pipeline_strategys, restore_group_info_list
from ._unified_safetensors import unified_safetensors

if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
           "DistributedGradReducer", "shard", "last_strategy", "Layout", "build_searched_strategy",
           "merge_pipeline_strategys", "restore_group_info_list", "rank_list_for_transform",
           "transform_checkpoint_by_rank", "transform_checkpoints", "load_distributed_checkpoint",
           "unified_safetensors", "parameter_broadcast"]


def shard(fn: Callable[..., Any], in_strategy: tuple[Any, ...], out_strategy: tuple[Any, ...] | None = None,
          parameter_plan: dict[str, Any] | None = None, device: str = "Ascend", level: int = 0) -> Any:
    """``mindspore.parallel.shard``: set the input/output/parameter layouts of a Cell (see ``Cell.shard``).

    Returns the Cell, which runs with those layouts under SEMI_AUTO_PARALLEL / AUTO_PARALLEL.
    """
    if not isinstance(fn, _Cell):
        raise TypeError(f"shard: fn must be a Cell (functions are not supported), but got {type(fn).__name__}.")
    return _shard_cell(fn, in_strategy, out_strategy, parameter_plan)
