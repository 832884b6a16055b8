"""``unified_safetensors``: merge the per-rank sliced ``.safetensors`` files of a sharded run into whole
parameters (MindSpore 2.10 behaviour and file layout).

``src_dir/rank_<id>/*.safetensors`` hold each rank's slices; the strategy file says which slice. The output in
``dst_dir`` is MindSpore's: the whole parameters in ``part<i>.safetensors`` files of about 3 GiB each (parameters
dealt largest first to the lightest part), ``param_name_map.json`` (``{"metadata": {"total_size": bytes},
"weight_map": {name: part file}}``) and ``hyper_param.safetensors`` with rank 0's entries that are no strategy
parameter (``learning_rate``, ``global_step``, ``accu_grads*``, and what ``choice_func`` drops).
De-duplicated sources (``save_checkpoint(..., remove_redundancy=True)``: each parameter stored by one rank of
its redundancy group) are merged reading every slice from a rank of its group.
"""
from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from ..serialization import _safetensors
from ._ckpt_transform import _transform_rank, rank_list_for_transform
from ._rank_files import collect_rank_files, header_order, save_safetensors
from ._redundancy import parameter_redundancy
from ._strategy_file import layout_map

__all__ = ["unified_safetensors"]

#: A part file holds about this many bytes of parameters (MindSpore: 3 GiB).
PART_BYTES = 3 * 1024 ** 3
_ITEM_BYTES = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8,
               "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}  # others count 4, as in MS


class _Source:
    """One rank's file, read once: its tensors, metadata and key order."""

    def __init__(self, path: str) -> None:
        items, self.metadata, _ = _safetensors.read(path)
        self.tensors = dict(items)
        self.keys = header_order(path)


def _merged_with_redundancy(merge: bool, metadata: dict[str, str]) -> bool:
    """A file's own ``remove_redundancy`` flag wins over ``merge_with_redundancy`` (MindSpore warns and follows it)."""
    flag = metadata.get("remove_redundancy")
    if flag == "True" and merge:
        return False
    if flag == "False" and not merge:
        return True
    return merge


def _choice(choice_func: Callable[[str], Any] | None, name: str) -> Any:
    out = True if choice_func is None else choice_func(name)
    if not isinstance(out, (bool, str)):
        raise ValueError(f"For 'unified_safetensors', the return value type of the function 'choice_func' must be "
                         f"bool or str, but got {type(out)}.")
    return out


def _deal(sizes: dict[str, int], groups: int) -> list[list[str]]:
    """MindSpore's ``_split_weight_dict``: largest first, each to the part with the fewest bytes so far."""
    parts: list[list[str]] = [[] for _ in range(groups)]
    totals = [0] * groups
    for name, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        i = totals.index(min(totals))
        parts[i].append(name)
        totals[i] += size
    return parts


def _subtask(split_dst_file: Any, n_parts: int) -> range:
    if not split_dst_file:
        return range(n_parts)
    if (not isinstance(split_dst_file, (tuple, list)) or len(split_dst_file) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in split_dst_file)
            or not 1 <= split_dst_file[0] <= split_dst_file[1]):
        raise ValueError(f"For 'unified_safetensors', 'split_dst_file' must be () or (current task, total tasks) with "
                         f"1 <= current <= total, but got {split_dst_file}.")
    current, total = split_dst_file
    avg, rem = divmod(n_parts, total)
    start = avg * (current - 1) + min(current - 1, rem)
    return range(start, start + avg + (1 if current <= rem else 0))


def _dedup_file(name: str, needed: int, files: dict[int, _Source], groups: dict[str, Any], device_num: int) -> int:
    """The file to read ``name``'s slice of rank ``needed`` from: the last rank of its redundancy group that has it."""
    group: set[int] = set()
    for ranks in groups[name]:
        if any(needed % device_num == r % device_num for r in ranks):
            group = set(ranks)
            break
    holders = sorted(r for r, f in files.items() if name in f.tensors)
    found = None
    for real in holders:
        if any(real % device_num == r % device_num for r in group):
            found = real
    if found is None:
        raise ValueError(f"For _transform_safetensors_single, {name} should be in {group}, but in {set(holders)}.")
    return found


def unified_safetensors(src_dir: str, src_strategy_file: str, dst_dir: str, merge_with_redundancy: bool = True,
                        file_suffix: str | None = None, max_process_num: int = 64,
                        choice_func: Callable[[str], Any] | None = None, split_dst_file: tuple[int, ...] = ()) -> None:
    """Merge the sliced safetensors of every rank in ``src_dir`` (``rank_<id>/``) into whole parameters in
    ``dst_dir``, as MindSpore does. ``choice_func(name)`` returns False to leave a parameter out (it goes to
    ``hyper_param.safetensors``) or a str to rename it; ``split_dst_file=(i, n)`` writes only the i-th of n shares
    of the part files (the first share also writes the JSON index and the hyper parameters). The parts are written
    one after another here (``max_process_num`` is accepted for compatibility)."""
    if src_strategy_file and os.path.dirname(src_strategy_file) and not os.path.exists(
            os.path.dirname(src_strategy_file)):
        raise ValueError(f"The director of src_strategy_file: {os.path.dirname(src_strategy_file)} is not exists.")
    if not isinstance(dst_dir, str) or not dst_dir.strip():
        raise (TypeError if not isinstance(dst_dir, str) else ValueError)(
            "For 'unified_safetensors', 'dst_dir' must be a non-blank str (the output directory).")
    if os.path.exists(dst_dir) and not os.path.isdir(dst_dir):
        raise NotADirectoryError(f"The path({os.path.realpath(dst_dir)}) is a file path, it should be a directory "
                                 f"path.")
    os.makedirs(dst_dir, mode=0o700, exist_ok=True)
    if os.path.isfile(src_dir):
        raise ValueError("For 'unified_safetensors', the 'src_dir' can not be a file.")
    paths = collect_rank_files(src_dir, "safetensors", file_suffix)
    if paths and collect_rank_files(src_dir, "ckpt"):
        raise ValueError("For 'unified_safetensors', the 'src_dir' cannot contain both ckpt file and safetensors "
                         "file simultaneously")
    src = layout_map(src_strategy_file) or {}
    src_n = math.prod(next(iter(src.values()))[0]) if src else 1
    needed = rank_list_for_transform(0, src_strategy_file, None)
    for rank in needed:
        if rank not in paths:
            raise ValueError(f"The safetensor file of rank{rank} is needed for converting rank[0]'s safetensor, "
                             f"but it is missing.")
    files = {rank: _Source(paths[rank]) for rank in sorted(paths)}
    keys: set[str] = set()
    for f in files.values():
        keys.update(f.keys)
        merge_with_redundancy = _merged_with_redundancy(merge_with_redundancy, f.metadata)
    names = [n for n in sorted(keys & set(src)) if not n.startswith("accu_grads")]
    sizes: dict[str, int] = {}
    for f in files.values():  # sizes in file order: equal sizes keep it when the parts are dealt
        for name in f.keys:
            if name not in names:
                continue
            if choice_func is not None and choice_func(name) is False:
                names.remove(name)
                continue
            if name not in sizes:
                dev, tmap = src[name][0], src[name][1]
                shape = _whole_shape(f.tensors[name].shape, dev, tmap, src[name][5])
                sizes[name] = math.prod(shape) * _ITEM_BYTES.get(str(f.tensors[name].dtype), 4)
    n_parts = min(math.ceil(sum(sizes.values()) / PART_BYTES), len(names))
    parts = _deal(sizes, n_parts)
    todo = _subtask(split_dst_file, n_parts)
    if not split_dst_file or split_dst_file[0] == 1:
        if 0 not in files:
            raise ValueError("For 'unified_safetensors', the safetensors file of rank 0 is missing: the hyper "
                             "parameters are taken from it.")
        hyper = {k: files[0].tensors[k] for k in files[0].keys if k not in names}
        if hyper:
            save_safetensors(os.path.join(dst_dir, "hyper_param.safetensors"), hyper, {"format": "ms"})
        weight_map = {}
        for i, part in enumerate(parts):
            for name in part:
                out = choice_func(name) if choice_func is not None else name
                weight_map[out if isinstance(out, str) else name] = f"part{i}.safetensors"
        with open(os.path.join(dst_dir, "param_name_map.json"), "w") as fp:
            fp.write(json.dumps({"metadata": {"total_size": sum(sizes.values())}, "weight_map": weight_map},
                                indent=4))
    if not isinstance(max_process_num, int) or max_process_num < 1:
        raise ValueError(f"For 'unified_safetensors', 'max_process_num' must be a positive int, but got "
                         f"{max_process_num!r}; number sections must be larger than 0.")
    if not todo:
        raise ValueError(f"For 'unified_safetensors', there is no part file to write: {n_parts} part(s) of "
                         f"parameters shared by the tasks of split_dst_file={split_dst_file}; number sections must "
                         f"be larger than 0.")
    dedup_groups = None if merge_with_redundancy else parameter_redundancy(src_strategy_file, initial_rank=0)
    for i in todo:
        _write_part(i, parts[i], needed, files, src, src_n, dedup_groups, choice_func, dst_dir)


def _whole_shape(shape: tuple[int, ...], dev: list[int], tmap: list[Any], opt_size: int) -> list[int]:
    axes = [m if isinstance(m, (list, tuple)) else [m] for m in tmap]
    out = [int(n * math.prod(dev[len(dev) - 1 - a] for a in ax if a != -1)) for n, ax in zip(shape, axes)]
    if opt_size > 0 and out:
        out[0] *= opt_size
    return out


def _write_part(index: int, names: list[str], needed: list[int], files: dict[int, _Source], src: dict[str, Any],
                src_n: int, dedup_groups: dict[str, Any] | None, choice_func: Any, dst_dir: str) -> None:
    metadata = {"format": "ms"}
    total: dict[str, dict[int, np.ndarray]] = defaultdict(dict)
    if dedup_groups is not None:
        for f in files.values():
            metadata.update(f.metadata)
        first = next(iter(dedup_groups.values()))
        device_num = max(max(first)) + 1
    for rank in needed:
        if dedup_groups is None:
            metadata.update(files[rank].metadata)
        for name in names:
            if dedup_groups is None:
                holder = rank
                if name not in files[rank].tensors:
                    continue
            else:
                if not any(name in f.tensors for f in files.values()):
                    continue
                holder = _dedup_file(name, rank, files, dedup_groups, device_num)
            if _choice(choice_func, name) is False:
                continue
            total[name][rank % src_n] = files[holder].tensors[name]
    if not total:
        return
    merged = {}
    for name, value in _transform_rank(0, total, {n: src[n] for n in total}, None):
        out = choice_func(name) if choice_func is not None else name
        merged[out if isinstance(out, str) else name] = value
    if "remove_redundancy" in metadata:
        metadata["remove_redundancy"] = "False"
    save_safetensors(os.path.join(dst_dir, f"part{index}.safetensors"), merged, metadata)
