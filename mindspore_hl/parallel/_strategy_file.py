"""Reading MindSpore parallel strategy files: ``build_searched_strategy``, ``merge_pipeline_strategys``,
``restore_group_info_list`` and the per-parameter layout lists the checkpoint tools work on.

A strategy file is a serialized ``ParallelStrategyMap`` (``node_strategy.proto``; the schema is
``_engine._strategy_ckpt``) or, when its name ends in ``.json``, the same content as JSON. Pipeline-merged files
name parameters ``"<stage>-<name>"``.
"""
from __future__ import annotations

import glob
import json
import math
import os
from typing import Any

from .._engine._strategy_ckpt import ParallelGroupMap, ParallelLayouts, ParallelStrategyMap

__all__ = ["build_searched_strategy", "merge_pipeline_strategys", "restore_group_info_list", "layout_map",
           "load_strategy_map"]


def _check_file(path: Any, fn: str = "build_searched_strategy") -> None:
    if not isinstance(path, str):
        raise TypeError(f"For '{fn}', the argument 'strategy_filename' should be string, but got {type(path)}.")
    if not os.path.isfile(path):
        raise ValueError(f"For '{fn}', no such strategy file: {path}. Please check whether the "
                         f"'strategy_filename' exists.")
    if os.path.getsize(path) == 0:
        raise ValueError(f"For '{fn}', the strategy file {path} should not be empty.")


def load_strategy_map(path: str) -> Any:
    """The ``ParallelStrategyMap`` of a protobuf strategy file."""
    with open(path, "rb") as f:
        content = f.read()
    pm = ParallelStrategyMap()
    try:
        pm.ParseFromString(content)
    except Exception as e:  # protobuf's DecodeError (or RuntimeError from its C++ parser)
        raise TypeError(f"The strategy file {path} is neither JSON nor a ParallelStrategyMap protobuf: when the "
                        f"file name does not end in '.json' the file is read as protobuf ({e}).") from None
    return pm


def _from_json(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        content = json.load(f)
    strategy = {}
    for name, item in content.get("parallel_layout_item", {}).items():
        layout = ParallelLayouts(field=item.get("field"), opt_weight_shard_size=item.get("opt_weight_shard_size"),
                                 opt_weight_shard_step=item.get("opt_weight_shard_step"))
        layout.dev_matrix.add().dim.extend(item.get("dev_matrix"))
        layout.tensor_map.add().dim.extend(item.get("tensor_map"))
        layout.param_split_shape.add().dim.extend(item.get("param_split_shape", []))
        layout.indices_offset.add().dim.extend(item.get("indices_offset", []))
        strategy[name] = layout
    return strategy


def build_searched_strategy(strategy_filename: str) -> dict[str, Any]:
    """``{parameter name: ParallelLayouts}`` of a strategy file (``dev_matrix``, ``tensor_map``, ``field``,
    ``opt_weight_shard_step`` / ``_size``... as in MindSpore's ``node_strategy.proto``).

    >>> import mindspore_hl as ms
    >>> ms.build_searched_strategy(None) is None
    True
    """
    if strategy_filename is None:
        return None  # type: ignore[return-value]
    _check_file(strategy_filename)
    if strategy_filename[-5:] == ".json":
        return _from_json(strategy_filename)
    pm = load_strategy_map(strategy_filename)
    return {item.param_name: item.parallel_layouts for item in pm.parallel_layout_item}


def layout_map(strategy: Any, rank_id: int | None = None) -> dict[str, list[Any]] | None:
    """``{name: [dev_matrix, tensor_map, param_split_shape, field, opt_shard_step, opt_shard_size, [stages]]}`` of a
    strategy file name or of a ``build_searched_strategy`` dict (None for None).

    Pipeline-merged names ``"<stage>-<name>"`` fold into ``name`` with the list of stages holding it; with
    ``rank_id`` the layout kept is that of the rank's stage (MindSpore's ``_convert_to_list``).
    """
    if strategy is None:
        return None
    if not isinstance(strategy, dict):
        strategy = build_searched_strategy(strategy)
    out: dict[str, list[Any]] = {}
    for name, layout in strategy.items():
        try:
            dev = list(layout.dev_matrix[0].dim)
            if len(layout.tensor_map) > 1:
                tmap: list[Any] = [list(t.dim) for t in layout.tensor_map if list(t.dim)]
            else:
                tmap = list(layout.tensor_map[0].dim)
            split = list(layout.param_split_shape[0].dim)
            entry = [dev, tmap, split, int(layout.field), int(layout.opt_weight_shard_step),
                     int(layout.opt_weight_shard_size)]
        except (IndexError, AttributeError) as e:
            raise ValueError(f"{e}. Convert layout strategy to list failed for parameter {name!r}: the strategy does "
                             f"not match node_strategy.proto; check 'train_strategy_filename'.") from e
        stage, origin = 0, name
        if "-" in name:
            head, origin = name.split("-")
            stage = int(head)
        if origin not in out:
            out[origin] = entry + [[stage]]
            continue
        stages = out[origin][6] + [stage]
        if rank_id is not None:
            first = rank_id // math.prod(dev) == 0
            take = (first and stage == 0) or (not first and stage > 0)
        else:
            take = all(stage <= s for s in stages)
        if take:
            out[origin] = entry + [stages]
        else:
            out[origin][6] = stages
    return out


def _stage_of(pm: Any) -> int:
    return int(pm.parallel_strategy_item[0].parallel_strategys.stage)


def merge_pipeline_strategys(src_strategy_dirs: str, dst_strategy_file: str) -> None:
    """Merge the strategy files of every pipeline stage in ``src_strategy_dirs`` (all ``*.ckpt`` or all ``*.json``)
    into ``dst_strategy_file``: each parameter is renamed ``"<stage>-<name>"``."""
    dst_strategy_file = os.path.abspath(os.path.normpath(dst_strategy_file))
    os.makedirs(os.path.dirname(dst_strategy_file), mode=0o700, exist_ok=True)
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    pb_files = glob.glob(os.path.join(src_strategy_dirs, "*.ckpt"))
    json_files = glob.glob(os.path.join(src_strategy_dirs, "*.json"))
    if pb_files and json_files:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    if not pb_files:
        _merge_json(json_files, dst_strategy_file)
        return
    dst = ParallelStrategyMap()
    merged: list[int] = []
    seen: set[bytes] = set()
    for path in pb_files:
        with open(path, "rb") as f:
            content = f.read()
        if content in seen:  # identical files (several ranks of one stage) are read once
            continue
        seen.add(content)
        src = load_strategy_map(path)
        if not src.parallel_strategy_item or not src.parallel_layout_item:
            raise ValueError(f"The strategy file {path} is empty")
        stage = _stage_of(src)
        if stage in merged:
            continue
        for item in src.parallel_layout_item:
            item.param_name = f"{stage}-{item.param_name}"
        dst.parallel_strategy_item.extend(src.parallel_strategy_item)
        dst.parallel_layout_item.extend(src.parallel_layout_item)
        merged.append(stage)
    dst.current_stage = 1
    with open(dst_strategy_file, "wb") as f:
        f.write(dst.SerializeToString())


def _merge_json(paths: list[str], dst_file: str) -> None:
    dst: dict[str, Any] = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    merged: list[int] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        layouts, strategies = content.get("parallel_layout_item"), content.get("parallel_strategy_item")
        if not strategies or not layouts:
            raise ValueError(f"The strategy file {path} is empty")
        stage = strategies[next(iter(strategies))].get("stage")
        if stage in merged:
            continue
        dst["parallel_layout_item"].update({f"{stage}-{name}": item for name, item in layouts.items()})
        dst["parallel_strategy_item"].update(strategies)
        merged.append(stage)
    with open(dst_file, "w", encoding="utf-8") as f:
        json.dump(dst, f)


def restore_group_info_list(group_info_file_name: str) -> list[int]:
    """The ``ckpt_restore_rank_list`` of a communication-group file (a ``ParallelGroupMap`` protobuf)."""
    if not isinstance(group_info_file_name, str):
        raise TypeError(f"For 'restore_group_info_list', the argument 'group_info_file_name' should be str, but got "
                        f"{type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError(f"For 'restore_group_info_list', no such group information file: {group_info_file_name}.")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError("For 'restore_group_info_list', the group information file should not be empty.")
    gm = ParallelGroupMap()
    with open(group_info_file_name, "rb") as f:
        try:
            gm.ParseFromString(f.read())
        except Exception as e:  # protobuf's DecodeError
            raise ValueError(f"For 'restore_group_info_list', {group_info_file_name} is not a ParallelGroupMap "
                             f"protobuf ({e}).") from None
    return list(gm.ckpt_restore_rank_list.dim)
