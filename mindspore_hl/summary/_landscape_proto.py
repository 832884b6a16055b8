"""MindSpore's ``LossLandscape`` summary value (``summary.proto``), built at import time, and its writer.

The messages follow MindSpore 2.10's ``summary.proto`` / ``anf_ir.proto`` field for field (numbers, labels, the
packed ``TensorProto.float_data``), so ``SerializeToString`` gives the bytes MindSpore writes. In an event file
the value is ``Summary.Value`` field 10 (``loss_landscape``); TensorBoard's ``Summary.Value`` has no field 10,
so it is carried as a field TensorBoard skips and MindSpore's readers decode.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from tensorboardX.proto.summary_pb2 import Summary

from ..common._proto_schema import message_classes

__all__ = ["LossLandscape", "TensorProto", "DATA_TYPES", "fill_array_to_tensor", "landscape_summary"]

_PACKAGE = "mindspore_hl.irpb"
# anf_ir ``DataType`` codes of the NumPy dtypes MindSpore's landscape writer accepts.
DATA_TYPES = {np.dtype(np.bool_): 1, np.dtype(np.int8): 2, np.dtype(np.int16): 3, np.dtype(np.int32): 4,
              np.dtype(np.int64): 5, np.dtype(np.uint8): 6, np.dtype(np.uint16): 7, np.dtype(np.uint32): 8,
              np.dtype(np.uint64): 9, np.dtype(np.float16): 10, np.dtype(np.float32): 11,
              np.dtype(np.float64): 12}
_LOSS_LANDSCAPE_FIELD = 10  # Summary.Value.loss_landscape


_MESSAGES = {
    "TensorProto": [
        ("dims", 1, "repeated", "int64"),
        ("data_type", 2, "optional", "int32"),  # an enum in anf_ir.proto: the same varint on the wire
        ("float_data", 3, "packed", "float"), ("int32_data", 4, "packed", "int32"),
        ("int64_data", 5, "packed", "int64"), ("double_data", 6, "packed", "double"),
        ("uint64_data", 7, "packed", "uint64"), ("raw_data", 8, "optional", "bytes")],
    "LossLandscape": [
        ("landscape", 1, "optional", "LossLandscape.Point"), ("loss_path", 2, "optional", "LossLandscape.LossPath"),
        ("metadata", 3, "optional", "LossLandscape.Metadata"),
        ("convergence_point", 4, "optional", "LossLandscape.Point")],
    "LossLandscape.Point": [("x", 1, "optional", "TensorProto"), ("y", 2, "optional", "TensorProto"),
                            ("z", 3, "optional", "TensorProto")],
    "LossLandscape.LossPath": [("intervals", 1, "repeated", "int32"), ("points", 2, "optional", "LossLandscape.Point")],
    "LossLandscape.Metadata": [("decomposition", 1, "optional", "string"), ("unit", 2, "optional", "string"),
                               ("step_per_epoch", 3, "optional", "int32")],
}
_CLASSES = message_classes("mindspore_hl_landscape.proto", _PACKAGE, _MESSAGES)
TensorProto: Any = _CLASSES["TensorProto"]
LossLandscape: Any = _CLASSES["LossLandscape"]


def fill_array_to_tensor(array: np.ndarray, tensor: Any) -> Any:
    """Fill ``tensor`` (a TensorProto) as MindSpore does: the dtype code, the values as ``float_data``, dims."""
    array = np.asarray(array)
    code = DATA_TYPES.get(array.dtype)
    if code is None:
        raise TypeError(f"LossLandscape: no anf_ir data type for arrays of dtype {array.dtype}.")
    tensor.data_type = code
    tensor.float_data.extend(array.reshape(-1).tolist())
    tensor.dims.extend(array.shape)
    return tensor


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def landscape_summary(tag: str, landscape: Any) -> Summary:
    """A ``Summary`` with one value: ``tag`` and ``landscape`` (a LossLandscape) as field 10, as MindSpore writes."""
    body = landscape.SerializeToString()
    tag_bytes = tag.encode("utf-8")
    raw = (_varint(1 << 3 | 2) + _varint(len(tag_bytes)) + tag_bytes
           + _varint(_LOSS_LANDSCAPE_FIELD << 3 | 2) + _varint(len(body)) + body)
    return Summary(value=[Summary.Value.FromString(raw)])
