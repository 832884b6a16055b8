"""Distributed checkpoints: ``rank_list_for_transform``, ``transform_checkpoint_by_rank``,
``transform_checkpoints`` and ``load_distributed_checkpoint`` (MindSpore 2.10 behaviour, ``.ckpt`` files).

A distributed checkpoint is one file per rank holding that rank's slices (``rank_<id>/*.ckpt``); a strategy file
(``strategy_ckpt_save_file``) says which slice each rank holds. A transform reads the source ranks a destination
rank needs (``rank_list_for_transform``), puts the full parameter's overlapping parts together and cuts the
destination slice; parameters that are in no strategy (``learning_rate``, ``global_step``) are copied from the
rank's own file. Pipeline-merged strategies (``merge_pipeline_strategys``) are followed as MindSpore does.
Directories of ``.safetensors`` files are transformed the same way (``output_format`` picks what is written), except
with pipeline-parallel strategies. Optimizer-sharded layouts (``opt_weight_shard_size`` != 0) are not supported.
"""
from __future__ import annotations

import glob
import math
import os
from collections import defaultdict
from typing import Any

import ml_dtypes
import numpy as np

from .._engine._parallel_context import get_auto_parallel_context
from ..common.parameter import Parameter
from ..nn.cell import Cell
from ..serialization import _ckpt_format, _safetensors
from ..serialization._load import load_param_into_net
from ._layout_math import assemble, check_layout, needed_ranks, slice_bounds, strategy_of
from ._rank_files import collect_rank_files, save_safetensors
from ._strategy_file import layout_map, load_strategy_map
from ._unified_load import load_unified

__all__ = ["rank_list_for_transform", "transform_checkpoint_by_rank", "transform_checkpoints",
           "load_distributed_checkpoint"]

_FROZEN = ("accu_grads", "adam_v", "adam_m")


def _stage_devices(layouts: dict[str, list[Any]] | None) -> int:
    return math.prod(next(iter(layouts.values()))[0]) if layouts else 1


def _src_dst_layouts(rank_id: int, src: Any, dst: Any) -> tuple[Any, Any]:
    """MindSpore's ``_extract_src_dst_layout_map``: the layouts of the parameters in ``rank_id``'s stage."""
    src_map, dst_map = layout_map(src), layout_map(dst, rank_id)
    if dst_map is None:
        return src_map, None
    stage = rank_id // _stage_devices(dst_map)
    for name in list(dst_map):
        if stage not in dst_map[name][6]:
            dst_map.pop(name)
            if src_map is not None:
                src_map.pop(name, None)
    return src_map, dst_map


def _to_layout(entry: list[Any] | None, ndim: int) -> tuple[list[int], list[Any]]:
    return ([1], [-1] * ndim) if entry is None else (list(entry[0]), list(entry[1]))


def _local_ranks(rank: int, src: dict[str, list[Any]], dst: dict[str, list[Any]] | None, what: str) -> list[int]:
    """Source ranks (inside a stage) ``rank`` needs, over every parameter of the source strategy."""
    out: set[int] = set()
    for name, entry in src.items():
        if dst is not None and name not in dst:
            continue
        check_layout(name, entry[0], entry[1], entry[5], what)
        to = _to_layout(None if dst is None else dst[name], len(entry[1]))
        if dst is not None:
            check_layout(name, to[0], to[1], dst[name][5], what)
        out.update(needed_ranks(rank, (entry[0], entry[1]), to))
    return sorted(out)


def rank_list_for_transform(rank_id: int, src_strategy_file: str | None = None,
                            dst_strategy_file: str | None = None) -> list[int]:
    """The source ranks whose checkpoints make up ``rank_id``'s checkpoint under ``dst_strategy_file``
    (largest first, as MindSpore lists them). No source strategy: ``[0]``."""
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    src, dst = _src_dst_layouts(rank_id, src_strategy_file, dst_strategy_file)
    if not src:
        raise ValueError("The src_strategy_file is empty.")
    src_n, dst_n = _stage_devices(src), _stage_devices(dst)
    local = rank_id % dst_n if dst_n > 1 else rank_id
    needed = _local_ranks(local, src, dst, "rank_list_for_transform")
    result: set[int] = set()
    done: list[int] = []
    for entry in src.values():
        for stage in entry[6]:
            if stage not in done:
                result.update(stage * src_n + r for r in needed)
                done.append(stage)
    return sorted(result, reverse=True)


def _as_float(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype == ml_dtypes.bfloat16 else array


def _transform_rank(rank: int, total: dict[str, dict[int, np.ndarray]], src: Any, dst: Any) -> list[tuple[str, Any]]:
    """The ``(name, value)`` items of destination rank ``rank`` (its index inside its stage)."""
    out: dict[str, Any] = {}
    src_n = -1
    for name, by_rank in total.items():
        first = next(iter(by_rank.values()))
        if isinstance(first, (str, bytes)):
            continue
        ndim = first.ndim
        if src is not None and name not in src:
            continue
        if dst is not None and name not in dst:
            continue
        s_dev, s_map = _to_layout(None if src is None else src[name], ndim)
        d_dev, d_map = _to_layout(None if dst is None else dst[name], ndim)
        for entry, layout in ((None if src is None else src[name], (s_dev, s_map)),
                              (None if dst is None else dst[name], (d_dev, d_map))):
            check_layout(name, layout[0], layout[1], 0 if entry is None else entry[5], "transform_checkpoints")
        src_n = math.prod(s_dev)
        if rank % src_n not in by_rank:
            raise ValueError(f"The checkpoint of rank {rank % src_n} is missing.")
        full = tuple(n * s for n, s in zip(by_rank[rank % src_n].shape, strategy_of(s_dev, s_map)))
        pieces = {}
        for r in sorted(needed_ranks(rank, (s_dev, s_map), (d_dev, d_map)), reverse=True):
            if r not in by_rank:
                raise ValueError(f"The checkpoint file of rank {r} is missing.")
            pieces[r] = (slice_bounds(r, s_dev, s_map, full), _as_float(by_rank[r]))
        target = slice_bounds(rank, d_dev, d_map, full)
        value = assemble(target, pieces, name, _as_float(first).dtype)
        out[name] = value.astype(first.dtype) if first.dtype == ml_dtypes.bfloat16 else value
    if src_n < 1:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or dst strategy. "
                         "Please check correctness of strategy files.")
    for name, by_rank in total.items():  # learning_rate, global_step...: the rank's own copy
        if name not in out:
            out[name] = by_rank[rank % src_n]
    return list(out.items())


def _read(path: str, total: dict[str, dict[int, Any]], src_rank: int, keep: Any = None) -> None:
    for name, value in _ckpt_format.read(path):
        if keep is None or keep(name):
            total[name][src_rank] = value


def _keep_in_stage(src_all: Any, src: Any, dst_all: Any, dst: Any):
    def out_of_stage(name, origin, local):
        return origin is None or local is None or (name in origin and name not in local)
    return lambda name: not (out_of_stage(name, src_all, src) and out_of_stage(name, dst_all, dst))


def _check_ckpt_name(name: Any) -> None:
    if not isinstance(name, str):
        raise TypeError("The save_checkpoint_file_name should be a str.")
    if name[-5:] != ".ckpt":
        raise ValueError(f"The save_checkpoint_file_name {name} should end with .ckpt")


def transform_checkpoint_by_rank(rank_id: int, checkpoint_files_map: dict[int, str], save_checkpoint_file_name: str,
                                 src_strategy_file: str | None = None, dst_strategy_file: str | None = None) -> None:
    """Write ``rank_id``'s checkpoint under ``dst_strategy_file`` from the source ranks' checkpoints
    (``checkpoint_files_map``: ``{source rank: file}``, at least the ranks ``rank_list_for_transform`` lists)."""
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError("The checkpoint_files_map should be a dict.")
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    _check_ckpt_name(save_checkpoint_file_name)
    if dst_strategy_file and os.path.dirname(dst_strategy_file) and not os.path.exists(
            os.path.dirname(dst_strategy_file)):
        raise ValueError(f"The director of dst_strategy_file: {dst_strategy_file} is not exists.")
    for rank, path in checkpoint_files_map.items():
        if not os.path.exists(path):
            raise ValueError(f"Checkpoint file {path} in rank {rank} not exits: ")
    src, dst = _src_dst_layouts(rank_id, src_strategy_file, dst_strategy_file)
    src_n, dst_n = _stage_devices(src), _stage_devices(dst)
    keep = _keep_in_stage(layout_map(src_strategy_file), src, layout_map(dst_strategy_file), dst)
    total: dict[str, dict[int, Any]] = defaultdict(dict)
    for rank, path in checkpoint_files_map.items():
        _read(path, total, rank % src_n, keep)
    _ckpt_format.write(save_checkpoint_file_name, _transform_rank(rank_id % dst_n, total, src, dst))


def _rank_files(src_dir: str) -> dict[int, str]:
    """``{rank: last *.ckpt in src_dir/rank_<rank>}``."""
    files = {}
    for folder in glob.glob(os.path.join(src_dir, "rank_[0-9]*")):
        tail = folder.split("rank_")[-1]
        if not os.path.isdir(folder) or not tail.isdigit():
            continue
        ckpts = sorted(p for p in glob.glob(os.path.join(folder, "*.ckpt")) if os.path.isfile(p))
        if ckpts:
            files[int(tail)] = ckpts[-1]
    return files


def _stages(layouts: Any) -> int:
    if layouts is None:
        return 1
    stages = sorted({s for entry in layouts.values() for s in entry[6]})
    if stages != list(range(len(stages))):
        raise ValueError("The strategy file for pipeline parallel does not contains all stages.")
    return len(stages)


def transform_checkpoints(src_checkpoints_dir: str, dst_checkpoints_dir: str, ckpt_prefix: str,
                          src_strategy_file: str | None = None, dst_strategy_file: str | None = None,
                          process_num: int = 1, output_format: str = "ckpt") -> None:
    """Re-slice every rank's checkpoint of ``src_checkpoints_dir/rank_<id>/`` from the source strategy to the
    destination one, writing ``dst_checkpoints_dir/rank_<id>/<ckpt_prefix><id>.ckpt`` (``.safetensors`` sources:
    ``.<output_format>``)."""
    st_files = collect_rank_files(src_checkpoints_dir, "safetensors")
    if st_files and collect_rank_files(src_checkpoints_dir, "ckpt"):
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' cannot contain both ckpt file and "
                         "safetensors file simultaneously")
    if st_files:
        _transform_safetensors(st_files, dst_checkpoints_dir, ckpt_prefix, src_strategy_file, dst_strategy_file,
                               output_format)
        return
    if not os.path.isdir(src_checkpoints_dir):
        raise NotADirectoryError(f"src_checkpoints_dir {src_checkpoints_dir} is not a directory.")
    files = _rank_files(src_checkpoints_dir)
    if not files:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' can not be empty.")
    if output_format != "ckpt":
        raise ValueError("For 'transform_checkpoints', 'output_format' can not be 'safetensors' when "
                         "'src_checkpoints_dir' only contains ckpt file.")
    if os.path.exists(dst_checkpoints_dir) and not os.path.isdir(dst_checkpoints_dir):
        raise NotADirectoryError(f"The path({dst_checkpoints_dir}) is a file path, it should be a directory path.")
    os.makedirs(dst_checkpoints_dir, mode=0o700, exist_ok=True)
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    for strategy, which in ((src_strategy_file, "src"), (dst_strategy_file, "dst")):
        if strategy and os.path.dirname(strategy) and not os.path.exists(os.path.dirname(strategy)):
            raise ValueError(f"The director of {which}_strategy_file: {strategy} is not exists.")
    src_all, dst_all = layout_map(src_strategy_file), layout_map(dst_strategy_file)
    src_stages, dst_stages = _stages(src_all), _stages(dst_all)
    if src_all and dst_all and src_stages == 1 and dst_stages == 1:
        src_keys = {n for n in src_all if not n.startswith(_FROZEN)}
        dst_keys = {n for n in dst_all if not n.startswith(_FROZEN)}
        if src_keys < dst_keys:  # the source is one pipeline stage of the destination
            _transform_stage(files, dst_checkpoints_dir, ckpt_prefix, src_strategy_file, src_all, dst_all)
            return
    src_n, dst_n = _stage_devices(src_all), _stage_devices(dst_all)
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for rank in range(dst_n * dst_stages):
        needed = rank_list_for_transform(rank, src_strategy_file, dst_strategy_file)
        for r in needed:
            if r not in files:
                raise ValueError(f"The checkpoint file of rank{r} is needed for converting rank{rank}'s checkpoint, "
                                 f"but it is missing.")
        groups[tuple(needed)].append(rank)
    for group, ranks in groups.items():
        total: dict[str, dict[int, Any]] = defaultdict(dict)
        for r in group:
            _read(files[r], total, r % src_n)
        for rank in ranks:
            src, dst = _src_dst_layouts(rank, src_strategy_file, dst_strategy_file)
            keep = _keep_in_stage(src_all, src, dst_all, dst)
            local = {name: v for name, v in total.items() if keep(name)}
            folder = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
            os.makedirs(folder, mode=0o700, exist_ok=True)
            _ckpt_format.write(os.path.join(folder, f"{ckpt_prefix}{rank}.ckpt"),
                               _transform_rank(rank % dst_n, local, src, dst))


def _transform_safetensors(files: dict[int, str], dst_dir: str, prefix: Any, src_file: Any, dst_file: Any,
                           output_format: str) -> None:
    """MindSpore's ``_transform_safetensors`` (strategies without pipeline stages)."""
    if not isinstance(prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    for strategy, which in ((src_file, "src"), (dst_file, "dst")):
        if strategy and os.path.dirname(strategy) and not os.path.exists(os.path.dirname(strategy)):
            raise ValueError(f"The director of {which}_strategy_file: {os.path.dirname(strategy)} is not exists.")
    if output_format not in ("safetensors", "ckpt"):
        raise ValueError(f"For 'transform_safetensors', the output_format must be 'safetensors' or 'ckpt', but got "
                         f"{output_format}.")
    if os.path.exists(dst_dir) and not os.path.isdir(dst_dir):
        raise NotADirectoryError(f"The path({dst_dir}) is a file path, it should be a directory path.")
    os.makedirs(dst_dir, mode=0o700, exist_ok=True)
    src_all, dst_all = layout_map(src_file), layout_map(dst_file)
    if _stages(src_all) > 1 or _stages(dst_all) > 1:
        raise NotImplementedError("transform_checkpoints: safetensors checkpoints with pipeline-parallel strategies "
                                  "are not supported; use .ckpt files or strategies of one stage.")
    src_n, dst_n = _stage_devices(src_all), _stage_devices(dst_all)
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for rank in range(dst_n):
        groups[tuple(rank_list_for_transform(rank, src_file, dst_file))].append(rank)
    for group, ranks in groups.items():
        for r in group:
            if r not in files:
                raise ValueError(f"The safetensor file of rank{r} is needed for converting rank{ranks}'s "
                                 f"safetensor, but it is missing.")
    for group, ranks in groups.items():
        total: dict[str, dict[int, Any]] = defaultdict(dict)
        for r in group:
            for name, value in _safetensors.read(files[r])[0]:
                total[name][r % src_n] = value
        for rank in ranks:
            folder = os.path.join(dst_dir, f"rank_{rank}")
            os.makedirs(folder, mode=0o700, exist_ok=True)
            items = dict(_transform_rank(rank, total, src_all, dst_all))
            path = os.path.join(folder, f"{prefix}{rank}.{output_format}")
            if output_format == "ckpt":
                _ckpt_format.write(path, list(items.items()))
            elif items:
                save_safetensors(path, items, {"format": "ms"})


def _transform_stage(files: dict[int, str], dst_dir: str, prefix: str, src_file: Any, src: dict[str, Any],
                     dst: dict[str, Any]) -> None:
    """MindSpore's ``_transform_checkpoint_by_stage``: every destination rank's part of this source stage,
    written as ``rank_<r>/<prefix><r>_part<stage>.ckpt``."""
    dst = {name: entry for name, entry in dst.items() if name in src}
    if src_file[-5:] == ".json":
        raise NotImplementedError("transform_checkpoints: JSON strategy files of one pipeline stage are not "
                                  "supported; use the protobuf (.ckpt) strategy file.")
    items = load_strategy_map(src_file).parallel_strategy_item
    if not items:
        raise ValueError(f"The strategy file {src_file} if empty.")
    stage = int(items[0].parallel_strategys.stage)
    src_n, dst_n = _stage_devices(src), _stage_devices(dst)
    total: dict[str, dict[int, Any]] = defaultdict(dict)
    for rank in range(stage * src_n, (stage + 1) * src_n):
        if rank in files:
            _read(files[rank], total, rank % src_n)
    for rank in range(dst_n):
        folder = os.path.join(dst_dir, f"rank_{rank}")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        _ckpt_format.write(os.path.join(folder, f"{prefix}{rank}_part{stage}.ckpt"),
                           _transform_rank(rank, total, src, dst))


def _check_predict_strategy(predict_strategy: Any) -> None:
    if predict_strategy is None:
        return
    if not isinstance(predict_strategy, dict):
        raise TypeError(f"For 'load_distributed_checkpoint', the argument 'predict_strategy' must be dict, but got "
                        f"{type(predict_strategy).__name__}.")
    def ints(v):
        return isinstance(v, list) and all(isinstance(i, int) for i in v)
    for key, value in predict_strategy.items():
        ok = isinstance(key, str) and isinstance(value, (list, tuple)) and len(value) >= 4
        if ok:
            dev, tmap, split, field = value[:4]
            ok = ints(dev) and ints(tmap) and (ints(split) or not split) and isinstance(field, int) and field == 0
        if not ok:
            raise ValueError("For 'load_distributed_checkpoint', the argument 'predict_strategy' is dict, the key of "
                             "it must be string, and the value of it must be list or tuple that the first four "
                             "elements must be dev_matrix (list[int]), tensor_map (list[int]), param_split_shape "
                             "(list[int]) and field_size (int, which value is 0).")


def load_distributed_checkpoint(network: Cell, checkpoint_filenames: list[str] | None = None,
                                predict_strategy: dict[str, Any] | None = None,
                                train_strategy_filename: str | None = None, strict_load: bool = False,
                                dec_key: bytes | None = None, dec_mode: str = "AES-GCM", format: str = "ckpt",
                                unified_safetensors_dir: str | None = None, dst_safetensors_dir: str | None = None,
                                rank_id: int | None = None, output_format: str = "safetensors",
                                name_map: dict[str, str] | None = None, max_process_num: int = 64,
                                return_param_dict: bool = False) -> Any:
    """Load the per-rank checkpoints of a sharded training run (one file per training rank, in rank order) into
    ``network``: each parameter is put together from its slices with ``train_strategy_filename``.

    The network's Parameters hold whole values here (the engine lays them out over the devices itself), so a
    ``predict_strategy`` is checked as MindSpore checks it and the whole value is loaded. ``format='safetensors'``
    reads a ``unified_safetensors`` directory: into ``network`` (whole values; returns ``load_param_into_net``'s
    result, or the parameter dict with ``return_param_dict``), or, with no network, writes each rank's slices under
    ``predict_strategy`` to ``dst_safetensors_dir/rank_<id>/net.<output_format>``. Encrypted checkpoints are not
    supported. Returns True.
    """
    if format not in ("safetensors", "ckpt") or output_format not in ("safetensors", "ckpt"):
        raise ValueError(f"For 'load_distributed_checkpoint', 'format' and 'output_format' must be 'ckpt' or "
                         f"'safetensors', but got {format}.")
    if format == "safetensors":
        return load_unified(network, unified_safetensors_dir, predict_strategy, dst_safetensors_dir, rank_id,
                            output_format, name_map, return_param_dict,
                            (checkpoint_filenames, train_strategy_filename, dec_key, strict_load, dec_mode))
    if not isinstance(network, Cell):
        raise TypeError(f"For 'load_distributed_checkpoint', the argument 'network' must be a Cell, but got "
                        f"{type(network).__name__}.")
    names = checkpoint_filenames or []
    for index, path in enumerate(names):
        if not isinstance(path, str) or not os.path.exists(path) or path[-5:] != ".ckpt" or \
                os.path.getsize(path) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {path} at index {index} is a valid checkpoint file, it must be a string ending "
                             f"with '.ckpt', and the checkpoint file it represents must be exist and not empty.")
    _check_predict_strategy(predict_strategy)
    if dec_key is not None:
        raise NotImplementedError("load_distributed_checkpoint: encrypted checkpoints (dec_key) are not supported.")
    if train_strategy_filename is None:
        train_strategy_filename = get_auto_parallel_context("strategy_ckpt_load_file")
    train = layout_map(train_strategy_filename)
    if not train:
        return True
    devices = math.prod(next(iter(train.values()))[0])
    if devices != len(names):
        raise ValueError(f"For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be equal "
                         f"to the device count of training process. But got the length of 'checkpoint_filenames' "
                         f"is {len(names)} and the device count is {devices}.")
    total: dict[str, dict[int, Any]] = defaultdict(dict)
    for index, path in enumerate(names):
        _read(path, total, index)
    params = {}
    for _, param in network.parameters_and_names():
        if param.name not in train or param.name not in total:
            continue
        dev, tmap = train[param.name][0], train[param.name][1]
        check_layout(param.name, dev, tmap, train[param.name][5], "load_distributed_checkpoint")
        by_rank = total[param.name]
        first = by_rank[0]
        full_shape = tuple(n * s for n, s in zip(first.shape, strategy_of(dev, tmap)))
        whole = tuple(slice(0, n) for n in full_shape)
        pieces = {r: (slice_bounds(r, dev, tmap, full_shape), _as_float(a)) for r, a in by_rank.items()}
        value = assemble(whole, pieces, param.name, _as_float(first).dtype)
        if first.dtype == ml_dtypes.bfloat16:
            value = value.astype(first.dtype)
        params[param.name] = Parameter(value, name=param.name)
    load_param_into_net(network, params, strict_load=strict_load)
    return True
