"""MindSpore's ``LossLandscape`` summary value (``summary.proto``), built at import time, and its writer.

The messages follow MindSpore 2.10's ``summary.proto`` / ``anf_ir.proto`` field for field (numbers, labels, the
packed ``TensorProto.float_data``), so ``SerializeToString`` gives the bytes MindSpore writes. In an event file
the value is ``Summary.Value`` field 10 (``loss_landscape``); TensorBoard's ``Summary.Value`` has no field 10,
so it is carried as a field TensorBoard skips and MindSpore's readers decode.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from tensorboardX.proto.summary_pb2 import Summary

__all__ = ["LossLandscape", "TensorProto", "DATA_TYPES", "fill_array_to_tensor", "landscape_summary"]

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "mindspore_hl.irpb"
# anf_ir ``DataType`` codes of the NumPy dtypes MindSpore's landscape writer accepts.
DATA_TYPES = {np.dtype(np.bool_): 1, np.dtype(np.int8): 2, np.dtype(np.int16): 3, np.dtype(np.int32): 4,
              np.dtype(np.int64): 5, np.dtype(np.uint8): 6, np.dtype(np.uint16): 7, np.dtype(np.uint32): 8,
              np.dtype(np.uint64): 9, np.dtype(np.float16): 10, np.dtype(np.float32): 11,
              np.dtype(np.float64): 12}
_LOSS_LANDSCAPE_FIELD = 10  # Summary.Value.loss_landscape


def _build() -> descriptor_pb2.FileDescriptorProto:
    fdp = descriptor_pb2.FileDescriptorProto(name="mindspore_hl_landscape.proto", package=_PACKAGE, syntax="proto2")

    def field(msg, name, number, kind, repeated=False, type_name=None, packed=False):
        fd = msg.field.add(name=name, number=number, type=kind,
                           label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
        if type_name:
            fd.type_name = f".{_PACKAGE}.{type_name}"
        if packed:
            fd.options.packed = True

    tensor = fdp.message_type.add(name="TensorProto")
    field(tensor, "dims", 1, _F.TYPE_INT64, repeated=True)
    field(tensor, "data_type", 2, _F.TYPE_INT32)  # an enum in anf_ir.proto: the same varint on the wire
    for name, number, kind in (("float_data", 3, _F.TYPE_FLOAT), ("int32_data", 4, _F.TYPE_INT32),
                               ("int64_data", 5, _F.TYPE_INT64), ("double_data", 6, _F.TYPE_DOUBLE),
                               ("uint64_data", 7, _F.TYPE_UINT64)):
        field(tensor, name, number, kind, repeated=True, packed=True)
    field(tensor, "raw_data", 8, _F.TYPE_BYTES)

    landscape = fdp.message_type.add(name="LossLandscape")
    point = landscape.nested_type.add(name="Point")
    for name, number in (("x", 1), ("y", 2), ("z", 3)):
        field(point, name, number, _F.TYPE_MESSAGE, type_name="TensorProto")
    path = landscape.nested_type.add(name="LossPath")
    field(path, "intervals", 1, _F.TYPE_INT32, repeated=True)
    field(path, "points", 2, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    meta = landscape.nested_type.add(name="Metadata")
    field(meta, "decomposition", 1, _F.TYPE_STRING)
    field(meta, "unit", 2, _F.TYPE_STRING)
    field(meta, "step_per_epoch", 3, _F.TYPE_INT32)
    field(landscape, "landscape", 1, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    field(landscape, "loss_path", 2, _F.TYPE_MESSAGE, type_name="LossLandscape.LossPath")
    field(landscape, "metadata", 3, _F.TYPE_MESSAGE, type_name="LossLandscape.Metadata")
    field(landscape, "convergence_point", 4, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    return fdp


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_build())
TensorProto: Any = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.TensorProto"))
LossLandscape: Any = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.LossLandscape"))


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
