"""``parameter_broadcast``: give every rank of a redundancy group (ranks holding the same slice of a parameter)
the value of the one rank that owns it, as MindSpore 2.10 does.

The owners are MindSpore's ``remove_param_redundancy``: the parameters of each group are dealt to its ranks in
turn (sorted by name). Each group's ranks zero the parameters they do not own and sum them over the group
(``all_reduce``), so every member ends with the owner's value. Used after each rank loaded only its share of a
de-duplicated checkpoint (``save_checkpoint(..., remove_redundancy=True)``). Here a process holds whole parameter
values and a sharded step takes from each rank the slice that rank holds, so syncing whole values over each group
gives every rank its owner's slice.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine._parallel_context import get_auto_parallel_context
from ..common.tensor import Tensor
from ..communication import create_group, get_group_size, get_process_group_ranks, get_rank
from ..nn.cell import Cell
from ..ops._comm import all_reduce
from ._redundancy import parameter_redundancy

__all__ = ["parameter_broadcast", "owned_parameters", "layout_redundancy"]


def layout_redundancy(layout: str | dict[str, Any], initial_rank: int | None = None) -> dict[str, Any]:
    """MindSpore's ``get_parameter_redundancy`` of a strategy file name or a ``parameter_layout_dict``-style dict
    (``{name: [dev_matrix, tensor_map, slice_shape, field, uniform_split, opt_shard_group, ...]}``)."""
    if isinstance(layout, str):
        return parameter_redundancy(layout, initial_rank)
    out = parameter_redundancy(layout, initial_rank)
    for name, value in layout.items():
        if len(value) > 5 and value[5]:  # optimizer shard: each group splits into every n-th of its ranks
            n = get_group_size(value[5])
            out[name] = tuple(ranks[i::n] for ranks in out[name] if len(ranks) % n == 0 for i in range(n))
    return out


def _deal(groups: dict[tuple[int, ...], list[str]]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for ranks, names in groups.items():
        for i, name in enumerate(names):
            out.setdefault(ranks[i % len(ranks)], []).append(name)
    return out


def owned_parameters(redundancy: dict[str, Any]) -> dict[int, set[str]]:
    """MindSpore's ``remove_param_redundancy``: ``{rank: parameters it owns}``, the parameters of each rank group
    dealt to the group's ranks in turn."""
    by_group: dict[tuple[int, ...], list[str]] = {}
    for name, groups in redundancy.items():
        for ranks in groups:
            by_group.setdefault(ranks, []).append(name)
    return {rank: set(names) for rank, names in _deal(by_group).items()}


def _ensure_group(name: str, ranks: list[int]) -> None:
    try:
        existing = get_process_group_ranks(name)
    except ValueError:
        create_group(name, ranks)
        return
    if list(existing) != ranks:
        raise ValueError(f"For parameter broadcast, the communication group {name!r} already exists with ranks "
                         f"{existing}, not {ranks}.")


def parameter_broadcast(net: Cell, layout: str | dict[str, Any], cur_rank: int = 0, initial_rank: int = 0) -> None:
    """Broadcast each parameter from the rank that owns it to the other ranks holding the same slice (``layout``: a
    strategy file name or a ``{name: [dev_matrix, tensor_map, ...]}`` dict). Needs ``init()``; with one process or
    an empty layout it does nothing."""
    if not layout or get_group_size() <= 1:
        return
    if not isinstance(net, Cell):
        raise TypeError(f"For parameter broadcast, 'net' must be a Cell, but got {type(net).__name__}.")
    if cur_rank != get_rank():
        raise ValueError(f"For parameter broadcast, the cur_rank: {cur_rank} is wrong.")
    stages = get_auto_parallel_context("pipeline_stages")
    if initial_rank % (get_group_size() / stages) != 0:
        raise ValueError(f"For parameter broadcast, the initial_rank: {initial_rank} is wrong.")
    redundancy = layout_redundancy(layout, initial_rank)
    if not redundancy:
        return
    owned = owned_parameters(redundancy)
    mine: dict[tuple[int, ...], list[str]] = {}
    for name, groups in redundancy.items():
        for ranks in groups:
            if len(ranks) > 1 and cur_rank in ranks:
                mine.setdefault(ranks, []).append(name)
    if not mine or cur_rank not in owned:
        return
    params = net.parameters_dict()
    for ranks, names in mine.items():
        group = str(ranks)
        _ensure_group(group, list(ranks))
        for name in names:
            if name not in params:
                raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
            param = params[name]
            value = param.asnumpy() if name in owned[cur_rank] else np.zeros(param.shape, param.asnumpy().dtype)
            summed = Tensor(value)
            all_reduce(summed, "sum", group)
            param.set_data(summed)
