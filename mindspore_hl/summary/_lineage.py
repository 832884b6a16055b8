"""MindSpore's lineage records (``*_lineage`` files): ``LineageEvent`` with train / eval lineage and user data.

The schema follows MindSpore's ``lineage.proto`` (field numbers checked against a real MindSpore 2.10 lineage
file); MindInsight and the project's dashboard read these files. The classes are built at import time from a
descriptor, so no generated code is needed.
"""
from __future__ import annotations

import json
import time
from typing import Any

from ..common._proto_schema import message_classes

__all__ = ["train_lineage_event", "eval_lineage_event", "user_info_event"]

_PKG = "mindspore_hl.lineage"
# message -> [(field, number, type)]; "map:<value type>" fields are map<string, value type>
_SCHEMA = {
    "LineageEvent": [("wall_time", 1, "double"), ("step", 2, "int64"), ("version", 3, "string"),
                     ("train_lineage", 6, "TrainLineage"), ("evaluation_lineage", 7, "EvaluationLineage"),
                     ("user_defined_info", 10, "UserDefinedInfo")],
    "TrainLineage": [("hyper_parameters", 1, "HyperParameters"), ("train_dataset", 2, "TrainDataset"),
                     ("algorithm", 3, "Algorithm"), ("model", 4, "ModelInfo")],
    "HyperParameters": [("optimizer", 1, "string"), ("learning_rate", 2, "float"), ("loss_function", 3, "string"),
                        ("epoch", 4, "int32"), ("parallel_mode", 5, "string"), ("device_num", 6, "int32"),
                        ("batch_size", 8, "int32")],
    "TrainDataset": [("train_dataset_path", 1, "string"), ("train_dataset_size", 2, "int32")],
    "Algorithm": [("network", 1, "string"), ("loss", 2, "float")],
    "ModelInfo": [("path", 3, "string"), ("size", 4, "int64")],
    "EvaluationLineage": [("metric", 2, "string"), ("valid_dataset", 3, "ValidDataset")],
    "ValidDataset": [("valid_dataset_path", 1, "string"), ("valid_dataset_size", 2, "int32")],
    "UserDefinedInfo": [("map_int32", 3, "map:int32"), ("map_str", 4, "map:string"), ("map_double", 5, "map:double")],
}


LineageEvent = message_classes("mindspore_hl_lineage.proto", _PKG, {
    msg: [(name, number, "optional", kind) for name, number, kind in fields] for msg, fields in _SCHEMA.items()
})["LineageEvent"]


def _event(step: int) -> Any:
    return LineageEvent(wall_time=time.time(), step=int(step))


def train_lineage_event(info: dict[str, Any], step: int = 0) -> Any:
    """A ``LineageEvent`` with ``train_lineage`` from a dict (keys as in HyperParameters / TrainDataset /
    Algorithm, plus ``model_path`` and ``model_size``); missing keys are left unset."""
    e = _event(step)
    t = e.train_lineage
    hp = t.hyper_parameters
    for key in ("optimizer", "loss_function", "parallel_mode"):
        if info.get(key) is not None:
            setattr(hp, key, str(info[key]))
    for key in ("epoch", "device_num", "batch_size"):
        if info.get(key) is not None:
            setattr(hp, key, int(info[key]))
    if info.get("learning_rate") is not None:
        hp.learning_rate = float(info["learning_rate"])
    if info.get("train_dataset_size") is not None:
        t.train_dataset.train_dataset_size = int(info["train_dataset_size"])
    if info.get("train_dataset_path") is not None:
        t.train_dataset.train_dataset_path = str(info["train_dataset_path"])
    if info.get("network") is not None:
        t.algorithm.network = str(info["network"])
    if info.get("loss") is not None:
        t.algorithm.loss = float(info["loss"])
    if info.get("model_path") is not None:
        t.model.path = json.dumps({"ckpt": str(info["model_path"])})
    if info.get("model_size") is not None:
        t.model.size = int(info["model_size"])
    return e


def eval_lineage_event(metrics: dict[str, Any], valid_dataset_size: int | None = None,
                       valid_dataset_path: str | None = None, step: int = 0) -> Any:
    """A ``LineageEvent`` with ``evaluation_lineage``: the metrics as JSON and the validation dataset."""
    e = _event(step)
    ev = e.evaluation_lineage
    ev.metric = json.dumps({k: _plain(v) for k, v in metrics.items()})
    if valid_dataset_size is not None:
        ev.valid_dataset.valid_dataset_size = int(valid_dataset_size)
    if valid_dataset_path is not None:
        ev.valid_dataset.valid_dataset_path = str(valid_dataset_path)
    return e


def user_info_event(custom: dict[str, int | float | str], step: int = 0) -> Any:
    """A ``LineageEvent`` with ``user_defined_info`` from ``{str: int | float | str}``."""
    e = _event(step)
    u = e.user_defined_info
    for key, value in custom.items():
        if isinstance(value, bool) or isinstance(value, str):
            u.map_str[key] = str(value)
        elif isinstance(value, int):
            u.map_int32[key] = value
        else:
            u.map_double[key] = float(value)
    return e


def _plain(value: Any) -> Any:
    """A metric value as JSON-serialisable data (NumPy arrays become lists)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value
