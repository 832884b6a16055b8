"""``load_distributed_checkpoint(format='safetensors')``: each rank's parameters cut from a ``unified_safetensors``
directory (MindSpore 2.10's ``_load_parallel_checkpoint``).

Without a network every rank's (or ``rank_id``'s) slices under ``predict_strategy`` are written to
``dst_safetensors_dir/rank_<id>/net.<output_format>``. With a network the whole parameters are loaded: a Parameter
here holds the whole value and the engine lays it out over the devices (as with ``format='ckpt'``).
"""
from __future__ import annotations

import json
import math
import os
from typing import Any

from ..common.parameter import Parameter
from ..nn.cell import Cell
from ..serialization import _safetensors
from ..serialization._load import load_param_into_net
from ..serialization._save import save_checkpoint
from ._layout_math import check_layout, slice_bounds
from ._strategy_file import layout_map

__all__ = ["load_unified"]

_HYPER = "hyper_param.safetensors"


def _weight_map(folder: str, files: list[str], name_map: dict[str, str] | None) -> dict[str, str]:
    if len(files) == 1:  # one weight file: every name in it
        path = os.path.join(folder, files[0])
        if not os.path.isfile(path):
            raise ValueError("For 'load_parallel_checkpoint', weight files must be included in the "
                             "`unified_safetensors_dir`.")
        flipped = {v: k for k, v in (name_map or {}).items()}
        return {flipped.get(name, name): files[0] for name, _ in _safetensors.read(path)[0]}
    index = os.path.join(folder, "param_name_map.json")
    if not os.path.isfile(index):
        raise ValueError("For 'load_parallel_checkpoint', there must be a JSON file named 'param_name_map.json' in "
                         "the 'total_safetensors_dir'.")
    with open(index) as f:
        content = json.load(f)
    return content.get("weight_map", content)


def _rank_params(folder: str, strategy: Any, rank_id: int, name_map: dict[str, str] | None) -> dict[str, Parameter]:
    """``{name: Parameter}`` of ``rank_id``'s slices (whole values with no strategy), then the hyper parameters."""
    names = sorted(os.listdir(folder))
    weight_map = _weight_map(folder, [n for n in names if n.endswith(".safetensors")], name_map)
    layouts = layout_map(strategy, rank_id) if strategy is not None else None
    if layouts is not None:
        devices = math.prod(next(iter(layouts.values()))[0]) if layouts else 1
        layouts = {k: v for k, v in layouts.items() if rank_id // devices in v[6]}
    wanted = list(layouts) if layouts is not None else list(weight_map)
    cache: dict[str, dict[str, Any]] = {}
    out: dict[str, Parameter] = {}
    for name in wanted:
        if name not in weight_map:
            continue
        file = weight_map[name]
        if file not in cache:
            cache[file] = dict(_safetensors.read(os.path.join(folder, file))[0])
        stored = (name_map or {}).get(name, name)
        if stored not in cache[file]:
            continue
        value = cache[file][stored]
        if layouts is not None:
            dev, tmap = layouts[name][0], layouts[name][1]
            check_layout(name, dev, tmap, layouts[name][5], "load_distributed_checkpoint")
            value = value[slice_bounds(rank_id % math.prod(dev), dev, tmap, value.shape)]
        out[name] = Parameter(value.copy(), name=name)
    if _HYPER in names:
        for name, value in _safetensors.read(os.path.join(folder, _HYPER))[0]:
            out[name] = Parameter(value.copy(), name=name)
    return out


def load_unified(network: Cell | None, folder: str | None, predict_strategy: Any, dst_dir: str | None,
                 rank_id: int | None, output_format: str, name_map: dict[str, str] | None,
                 return_param_dict: bool, ckpt_args: tuple[Any, ...] = (None, None, None, False, "AES-GCM")) -> Any:
    """The ``format='safetensors'`` branch of ``load_distributed_checkpoint``; ``ckpt_args``: its
    ``(checkpoint_filenames, train_strategy_filename, dec_key, strict_load, dec_mode)``, which must stay unset."""
    if folder is None:
        raise ValueError("For 'load_distributed_checkpoint', 'unified_safetensors_dir' can not be None when format "
                         "is 'safetensors'.")
    for unsupported in ckpt_args[:3]:
        if unsupported is not None:
            raise ValueError(f"For 'load_distributed_checkpoint', {unsupported} must be None when format is "
                             f"'safetensors'.")
    if ckpt_args[3] or ckpt_args[4] != "AES-GCM":
        raise ValueError("For 'load_distributed_checkpoint', strict_load and dec_mode must be default when format is "
                         "'safetensors'.")
    if not isinstance(folder, str) or not os.path.isdir(folder):
        raise ValueError(f"For 'load_distributed_checkpoint', 'unified_safetensors_dir' must be the directory "
                         f"written by unified_safetensors, but got {folder!r}.")
    if network is not None:
        if not isinstance(network, Cell):
            raise TypeError(f"For 'load_distributed_checkpoint', the argument 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        params = _rank_params(folder, None, 0, name_map)
        return params if return_param_dict else load_param_into_net(network, params)
    if dst_dir is None:
        raise ValueError("For 'load_distributed_checkpoint', 'dst_safetensors_dir' can not be None when network is "
                         "None.")
    layouts = layout_map(predict_strategy)
    if rank_id is not None:
        ranks = [rank_id]
    else:
        devices = math.prod(next(iter(layouts.values()))[0]) if layouts else 1
        stages = len({s for v in layouts.values() for s in v[6]}) if layouts else 1
        ranks = list(range(devices * stages))
    for rank in ranks:
        params = _rank_params(folder, predict_strategy, rank, name_map)
        out = os.path.join(dst_dir, f"rank_{rank}")
        if os.path.exists(out) and not os.path.isdir(out):
            raise NotADirectoryError(f"The path({out}) is a file path, it should be a directory path.")
        os.makedirs(out, mode=0o700, exist_ok=True)
        save_checkpoint(params, os.path.join(out, f"net.{output_format}"), format=output_format)
    return True
