"""MindSpore's parallel strategy file (``node_strategy.proto``, package ``mindspore.straspb``): schema and writer.

``set_auto_parallel_context(strategy_ckpt_save_file=path)`` (or ``strategy_ckpt_config={"save_file": path}``) makes
every step compiled outside STAND_ALONE / DATA_PARALLEL write the layout of its Parameters there, as MindSpore does
when it compiles a sharded graph. The file is a serialized ``ParallelStrategyMap``; MindSpore's own readers
(``build_searched_strategy``, ``transform_checkpoints``...) and this project's read it.

How a layout is written: the mesh ``('data', 'model')`` of ``data x model`` devices is the device matrix
``[data, model]`` (rank = row-major position in the mesh, as MindSpore numbers ranks in its device matrix) and
a dimension split over 'model' / 'data' maps to 0 / 1 (MindSpore's tensor_map counts device-matrix axes from the
right). A dimension split over both axes is written with the one-axis matrix ``[data * model]`` (the same ranks
in the same order). ``parallel_strategy_item`` holds one entry per parameter (``node_name`` the parameter name,
its split counts): this engine shards Parameters, not individual operators.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..common._proto_schema import message_classes
from . import _state

__all__ = ["ParallelStrategyMap", "ParallelLayouts", "ParallelGroupMap", "layout_of_spec", "save_plan_strategy"]

_REQ, _REP = "required", "repeated"

# MindSpore's node_strategy.proto (proto2): message -> [(field, number, label, type)]
_MESSAGES = {
    "ParallelStrategy": [("dim", 1, _REP, "uint32")],
    "ParallelStrategys": [("stage", 1, _REQ, "uint32"), ("parallel_strategy", 2, _REP, "ParallelStrategy")],
    "ParallelStrategyItem": [("node_name", 1, _REQ, "string"), ("parallel_strategys", 2, _REQ, "ParallelStrategys")],
    "DevMatrix": [("dim", 1, _REP, "uint32")],
    "TensorMap": [("dim", 1, _REP, "int32")],
    "ParamSplitShape": [("dim", 1, _REP, "int64")],
    "IndicesOffset": [("dim", 1, _REP, "int64")],
    "ParallelLayouts": [
        ("dev_matrix", 1, _REP, "DevMatrix"), ("tensor_map", 2, _REP, "TensorMap"),
        ("param_split_shape", 3, _REP, "ParamSplitShape"), ("indices_offset", 4, _REP, "IndicesOffset"),
        ("field", 5, _REQ, "int32"), ("opt_weight_shard_step", 6, _REQ, "int32"),
        ("opt_weight_shard_size", 7, _REQ, "int32")],
    "ParallelLayoutItem": [("param_name", 1, _REQ, "string"), ("parallel_layouts", 2, _REQ, "ParallelLayouts")],
    "ParallelGroupRanks": [("dim", 1, _REP, "uint32")],
    "ParallelGroupItem": [("group_name", 1, _REQ, "string"), ("parallel_group_ranks", 2, _REQ, "ParallelGroupRanks")],
    "ParallelGroupMap": [("parallel_group_item", 1, _REP, "ParallelGroupItem"),
                         ("ckpt_restore_rank_list", 2, _REQ, "ParallelGroupRanks")],
    "ParallelStrategyMap": [("current_stage", 1, _REQ, "uint32"),
                            ("parallel_strategy_item", 2, _REP, "ParallelStrategyItem"),
                            ("parallel_layout_item", 3, _REP, "ParallelLayoutItem")],
}


_CLASSES = message_classes("mindspore_hl_node_strategy.proto", "mindspore.straspb", _MESSAGES)
ParallelStrategyMap = _CLASSES["ParallelStrategyMap"]
ParallelLayouts = _CLASSES["ParallelLayouts"]
ParallelGroupMap = _CLASSES["ParallelGroupMap"]


def layout_of_spec(spec: Sequence[Any], ndim: int, data: int, model: int) -> tuple[list[int], list[int]]:
    """``(dev_matrix, tensor_map)`` of a ``PartitionSpec`` over the ``('data', 'model')`` mesh."""
    entries = list(spec) + [None] * (ndim - len(spec))
    axis = {"model": 0, "data": 1}
    if any(isinstance(e, tuple) and len(e) > 1 for e in entries):
        # one dimension over both axes: the flat device index is its slice index
        return [data * model], [0 if isinstance(e, tuple) and len(e) > 1 else -1 for e in entries]
    tensor_map = []
    for e in entries:
        name = e[0] if isinstance(e, tuple) and e else e
        tensor_map.append(-1 if name is None else axis[name])
    return [data, model], tensor_map


def _only_trainable() -> bool:
    return bool(_state.parallel.get("strategy_ckpt_config", {}).get("only_trainable_params", True))


def save_plan_strategy(params: Sequence[Any], specs: Sequence[Any], data: int, model: int) -> None:
    """Write the strategy file the context asks for (nothing when ``strategy_ckpt_save_file`` is empty).

    ``only_trainable_params`` (``strategy_ckpt_config``, default True) leaves out Parameters that do not require
    grad (optimizer state, statistics), as MindSpore does; 0-d Parameters are never written.
    """
    path = _state.parallel.get("strategy_ckpt_save_file", "")
    if not path:
        return
    only_trainable = _only_trainable()
    pm = ParallelStrategyMap(current_stage=1)   # MindSpore counts saves from 1
    # Scalars (learning_rate, global_step) have no layout: MindSpore's readers fail on an empty tensor_map.
    chosen = sorted(((p.name, tuple(p.shape), s) for p, s in zip(params, specs)
                     if len(p.shape) and (not only_trainable or getattr(p, "requires_grad", True))),
                    key=lambda t: t[0])
    for name, shape, spec in chosen:
        dev_matrix, tensor_map = layout_of_spec(tuple(spec), len(shape), data, model)
        item = pm.parallel_strategy_item.add(node_name=name)
        item.parallel_strategys.stage = 0
        item.parallel_strategys.parallel_strategy.add().dim.extend(
            [1 if m == -1 else dev_matrix[len(dev_matrix) - 1 - m] for m in tensor_map])
    for name, shape, spec in chosen:
        dev_matrix, tensor_map = layout_of_spec(tuple(spec), len(shape), data, model)
        layout = pm.parallel_layout_item.add(param_name=name).parallel_layouts
        layout.dev_matrix.add().dim.extend(dev_matrix)
        layout.tensor_map.add().dim.extend(tensor_map)
        layout.param_split_shape.add()
        layout.indices_offset.add()
        layout.field, layout.opt_weight_shard_step, layout.opt_weight_shard_size = 0, 0, 0
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    with open(path, "wb") as f:
        f.write(pm.SerializeToString())
