"""MindSpore's JSON form of a pipeline (``Dataset.to_json``, ``ds.serialize``, ``ds.show``, ``ds.compare``):
one dict per node with ``op_type``, the operation's arguments and its ``children``."""
import json
import os

import numpy as np

from ._dataset import Dataset, default_workers
from ._dataset_attrs import CONNECTOR_QUEUE_SIZE, JSON_FIELDS
from ._generator import GeneratorDataset, NumpySlicesDataset
from ._ops import BatchDataset, MapDataset, ShuffleDataset
from ._structure import ProjectDataset, RenameDataset, RepeatDataset, SkipDataset, TakeDataset, ZipDataset
from .transforms._base import TensorOperation

__all__ = ["serialize", "show", "compare"]


def _workers(node, value):
    return {"num_parallel_workers": value, "connector_queue_size": CONNECTOR_QUEUE_SIZE}


def _json_value(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (type, np.dtype)):
        return np.dtype(v).name
    raise TypeError


def _operation(op):
    """A transform: its class and (JSON-able) public settings; a Python callable: its name, as MindSpore
    writes a ``pyfunc`` (under MindSpore's own wrapper module)."""
    if isinstance(op, TensorOperation):
        params = {}
        for key, value in sorted(vars(op).items()):
            if key.startswith("_"):
                continue
            try:
                params[key] = _json_value(value)
            except TypeError:
                continue
        return {"tensor_op_name": type(op).__name__, "tensor_op_params": params}
    return {"python_module": "mindspore.dataset.transforms.py_transforms_util",
            "tensor_op_name": getattr(op, "__name__", type(op).__name__)}


def _map(node):
    given_in, given_out = getattr(node, "_given_columns", (node.input_columns, node.output_columns))
    return {"op_type": "Map", **_workers(node, default_workers(node.num_parallel_workers)), "callback": [],
            "input_columns": [] if given_in is None else list(node.input_columns),
            "output_columns": list(node.output_columns) if given_in is not None or given_out is not None else [],
            "operations": [_operation(op) for op in node.operations]}


def _batch(node):
    return {"op_type": "Batch", **_workers(node, default_workers(node.num_parallel_workers)),
            "batch_size": node.batch_size, "drop_remainder": node.drop_remainder,
            "input_columns": list(node._in_cols) if node.per_batch_map is not None else [],
            "output_columns": list(node._out_cols) if node.per_batch_map is not None else []}


JSON_FIELDS.update({
    GeneratorDataset: lambda n: {"op_type": "GeneratorDataset", **_workers(n, n.num_parallel_workers or 1)},
    NumpySlicesDataset: lambda n: {"op_type": "GeneratorDataset", **_workers(n, n.num_parallel_workers or 1)},
    MapDataset: _map,
    BatchDataset: _batch,
    ShuffleDataset: lambda n: {"op_type": "Shuffle", "buffer_size": n.buffer_size, "reset_each_epoch": True},
    RepeatDataset: lambda n: {"op_type": "Repeat", "count": n.count},
    TakeDataset: lambda n: {"op_type": "Take", "count": n.count},
    SkipDataset: lambda n: {"op_type": "Skip", "count": n.count},
    ProjectDataset: lambda n: {"op_type": "Project", "columns": list(n.column_names)},
    RenameDataset: lambda n: {"op_type": "Rename", "input_columns": list(n._renamed[0]),
                              "output_columns": list(n._renamed[1])},
    ZipDataset: lambda n: {"op_type": "Zip", **_workers(n, default_workers(None))},
})


def serialize(dataset: Dataset, json_filepath: str = "") -> dict:
    """The pipeline ending at ``dataset`` as MindSpore's JSON dict (``dataset.to_json(json_filepath)``).

    >>> import mindspore_hl.dataset as ds
    >>> ds.serialize(ds.NumpySlicesDataset([1, 2], "x", shuffle=False).skip(1))["op_type"]
    'Skip'
    """
    if not isinstance(dataset, Dataset):
        raise TypeError(f"serialize: dataset must be a Dataset, but got {type(dataset).__name__}")
    if json_filepath and os.path.isdir(json_filepath):
        raise ValueError(f"serialize: json_filepath {json_filepath!r} is a folder, expected a file path")
    return dataset.to_json(json_filepath)


def show(dataset: Dataset, indentation: int = 2) -> None:
    """Print the pipeline's JSON form, indented by ``indentation`` spaces (None: on one line)."""
    if indentation is not None and (isinstance(indentation, bool) or not isinstance(indentation, int)
                                    or indentation < 0):
        raise TypeError(f"show: indentation must be a non-negative int or None, but got {indentation!r}")
    print(json.dumps(serialize(dataset), indent=indentation))


def compare(pipeline1: Dataset, pipeline2: Dataset) -> bool:
    """Whether two pipelines have the same JSON form (same operations, arguments and order)."""
    return serialize(pipeline1) == serialize(pipeline2)
