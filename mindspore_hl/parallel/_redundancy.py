"""Which ranks hold the same copy of each parameter (``get_parameter_redundancy`` of a strategy file), and
``get_ckpt_path_with_strategy``, which finds a checkpoint of a rank holding the same slices as this one.
"""
from __future__ import annotations

import os
import re
from typing import Any

from ..communication._management import get_rank
from ._strategy_file import load_strategy_map

__all__ = ["parameter_redundancy", "get_ckpt_path_with_strategy"]


def _layouts(path: str) -> dict[str, tuple[list[int], list[int], int, int]]:
    pm = load_strategy_map(path)
    out = {}
    for item in pm.parallel_layout_item:
        lay = item.parallel_layouts
        dev, tmap = list(lay.dev_matrix[0].dim), list(lay.tensor_map[0].dim)
        if not dev or not tmap:  # MindSpore reads the first set field of each and fails on an empty one
            raise IndexError(f"list index out of range (parameter '{item.param_name}' of {path} has an empty "
                             f"{'dev_matrix' if not dev else 'tensor_map'})")
        out[item.param_name] = (dev, tmap, int(lay.opt_weight_shard_step), int(lay.opt_weight_shard_size))
    return out


def parameter_redundancy(strategy_file: str | dict[str, Any],
                         initial_rank: int | None = None) -> dict[str, tuple[tuple[int, ...], ...]]:
    """``{parameter: groups of ranks holding identical slices}``, sorted by name; each group's ranks ascending,
    groups in slice order. ``initial_rank`` (default: the first rank of this rank's pipeline stage) offsets them.
    ``strategy_file`` may also be a layout dict ``{name: [dev_matrix, tensor_map, ...]}`` (no optimizer shard)."""
    layouts = _layouts(strategy_file) if isinstance(strategy_file, str) else \
        {k: (list(v[0]), list(v[1]), 0, 0) for k, v in strategy_file.items()}
    if initial_rank is None:
        n = 1
        for d in next(iter(layouts.values()))[0] if layouts else []:
            n *= d
        initial_rank = get_rank() // n * n
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for name, (dev, tmap, opt_step, opt_size) in layouts.items():
        groups: dict[tuple[int, ...], list[int]] = {}
        total = 1
        for d in dev:
            total *= d
        for rank in range(total):
            coords, r = [], rank
            for size in reversed(dev):
                coords.append(r % size)
                r //= size
            # MindSpore's key: entry m is the coordinate on axis m counted from the right, if the tensor uses it
            key = tuple(coords[m] if m in tmap else 0 for m in range(len(dev)))
            groups.setdefault(key, []).append(rank + initial_rank)
        redundancy = tuple(tuple(groups[k]) for k in sorted(groups))
        if opt_size:  # the optimizer shard splits each group further, every opt_size-th rank together
            step = opt_size if opt_size != -1 else len(redundancy) * len(redundancy[0]) // opt_step
            redundancy = tuple(ranks[i::step] for ranks in redundancy if len(ranks) % step == 0 for i in range(step))
        out[name] = redundancy
    return {k: out[k] for k in sorted(out)}


def _current_rank_group(strategy_file: str) -> tuple[int, ...]:
    """The smallest group of ranks that hold the same slices as this rank for every parameter (MindSpore's
    ``_get_cur_rank_dp``): just this rank when no group is contained in all the others."""
    rank = get_rank()
    best: tuple[int, ...] = ()
    best_set: set[int] = set()
    best_len = float("inf")
    for name, groups in parameter_redundancy(strategy_file).items():
        if name.startswith(("accu_grads", "inputs")):
            continue
        for group in groups:
            if rank not in group:
                continue
            if len(group) < best_len:
                if best_set and not set(group).issubset(best_set):
                    return (rank,)
                best, best_set, best_len = group, set(group), len(group)
            elif not best_set.issubset(group):
                return (rank,)
    return best


def get_ckpt_path_with_strategy(cur_ckpt_path: str, cur_strategy_path: str) -> Any:
    """A checkpoint file with this rank's slices: ``cur_ckpt_path`` when it names this rank (``rank_<id>``) and
    exists, else the first existing path with ``rank_<id>`` replaced by a rank holding the same slices; None if
    none exists. Needs the communication initialised (``init()``), as in MindSpore."""
    rank = get_rank()
    if f"rank_{rank}" in cur_ckpt_path and os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    for other in _current_rank_group(cur_strategy_path):
        path = re.sub(r"rank_\d+", f"rank_{other}", cur_ckpt_path)
        if os.path.isfile(path):
            return path
    return None
