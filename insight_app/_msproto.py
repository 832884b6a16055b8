"""Protobuf classes for MindSpore's summary, graph (anf_ir) and lineage files, built at import time.

MindSpore's ``Event`` shares TensorBoard's framing and its fields 1, 2 and 5, but its ``Summary.Value``
uses scalar_value=3 / image=4 / tensor=8 / histogram=9 (buckets of left, width, count), its ``graph_def``
(field 4) holds an anf_ir ``GraphProto`` rather than a TensorFlow ``GraphDef``, and its ``*_lineage``
files hold ``LineageEvent`` records. The schemas below follow MindSpore's ``summary.proto``,
``anf_ir.proto`` and ``lineage.proto`` (the field numbers were checked against the bytes of a real
MindSpore 2.10 summary in ``fixtures/lenet5/summary``). Required fields are declared optional so a
partial record still decodes. Enums are read as plain integers.

Not shown by the dashboard (decoded or skipped, never an error): ``Event.explain`` (field 6, model
explanation records), ``Summary.Value.loss_landscape`` (field 10), TensorSummary values (``tensor``, listed
as other tags), graph node attributes and constants, and the sampler / per-operation details of a
lineage ``DatasetGraph`` (only the chain of op types with their main arguments is shown).
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED
_SCALARS = {
    "double": _F.TYPE_DOUBLE, "float": _F.TYPE_FLOAT, "int64": _F.TYPE_INT64, "uint64": _F.TYPE_UINT64,
    "int32": _F.TYPE_INT32, "bool": _F.TYPE_BOOL, "string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES,
}
_PACKAGE = "mindspore_hl_insight.ms"

# message name -> [(field name, number, type, repeated?)]; a type that is not a scalar names a message.
_MESSAGES = {
    # summary.proto
    "Event": [("wall_time", 1, "double", 0), ("step", 2, "int64", 0), ("version", 3, "string", 0),
              ("graph_def", 4, "GraphProto", 0), ("summary", 5, "Summary", 0)],
    "Summary": [("value", 1, "Summary.Value", 1)],
    "Summary.Image": [("height", 1, "int32", 0), ("width", 2, "int32", 0), ("colorspace", 3, "int32", 0),
                      ("encoded_image", 4, "bytes", 0)],
    "Summary.Histogram": [("buckets", 1, "Summary.Histogram.bucket", 1), ("nan_count", 2, "int64", 0),
                          ("pos_inf_count", 3, "int64", 0), ("neg_inf_count", 4, "int64", 0),
                          ("max", 5, "double", 0), ("min", 6, "double", 0), ("sum", 7, "double", 0),
                          ("count", 8, "int64", 0)],
    "Summary.Histogram.bucket": [("left", 1, "double", 0), ("width", 2, "double", 0), ("count", 3, "int64", 0)],
    "Summary.Value": [("tag", 1, "string", 0), ("scalar_value", 3, "float", 0), ("image", 4, "Summary.Image", 0),
                      ("tensor", 8, "TensorProto", 0), ("histogram", 9, "Summary.Histogram", 0)],
    # anf_ir.proto
    "ValueProto": [("dtype", 1, "int32", 0), ("bool_val", 2, "bool", 0), ("int_val", 3, "int64", 0),
                   ("uint_val", 4, "uint64", 0), ("float_val", 5, "float", 0), ("double_val", 6, "double", 0),
                   ("str_val", 7, "string", 0), ("tensor_val", 8, "TensorProto", 0), ("graph", 9, "GraphProto", 0),
                   ("bool_vals", 10, "bool", 1), ("int_vals", 11, "int64", 1), ("uint_vals", 12, "uint64", 1),
                   ("float_vals", 13, "float", 1), ("double_vals", 14, "double", 1), ("str_vals", 15, "string", 1),
                   ("tensor_vals", 16, "TensorProto", 1), ("graphs", 17, "GraphProto", 1),
                   ("values", 18, "ValueProto", 1), ("dict_val", 19, "NamedValueProto", 1),
                   ("type_val", 20, "TypeProto", 0)],
    "AttributeProto": [("name", 1, "string", 0), ("value", 2, "ValueProto", 0)],
    "NamedValueProto": [("key", 1, "string", 0), ("value", 2, "ValueProto", 0)],
    "TensorShapeProto": [("dim", 1, "TensorShapeProto.Dimension", 1)],
    "TensorShapeProto.Dimension": [("size", 1, "int64", 0), ("name", 2, "string", 0)],
    "TypeProto": [("data_type", 1, "int32", 0), ("tensor_type", 2, "TypeProto.Tensor", 0),
                  ("sequence_type", 3, "TypeProto.Sequence", 0)],
    "TypeProto.Tensor": [("elem_type", 1, "int32", 0), ("shape", 2, "TensorShapeProto", 0)],
    "TypeProto.Sequence": [("elem_types", 1, "TypeProto", 1)],
    "ParameterProto": [("name", 1, "string", 0), ("type", 2, "TypeProto", 0), ("default_val", 3, "ValueProto", 0)],
    "OutputProto": [("name", 1, "string", 0), ("type", 2, "TypeProto", 0)],
    "InputProto": [("name", 1, "string", 0), ("type", 2, "int32", 0)],
    "NodeProto": [("input", 1, "InputProto", 1), ("name", 2, "string", 0), ("op_type", 3, "string", 0),
                  ("scope", 4, "string", 0), ("attribute", 5, "AttributeProto", 1),
                  ("output_type", 6, "TypeProto", 0), ("output_i", 7, "uint64", 0),
                  ("full_name", 8, "string", 0), ("instance_name", 10, "string", 0)],
    "GraphProto": [("node", 1, "NodeProto", 1), ("name", 2, "string", 0), ("parameters", 3, "ParameterProto", 1),
                   ("outputs", 4, "OutputProto", 1), ("const_vals", 5, "NamedValueProto", 1)],
    "TensorProto": [("dims", 1, "int64", 1), ("data_type", 2, "int32", 0), ("float_data", 3, "float", 1),
                    ("int32_data", 4, "int32", 1), ("int64_data", 5, "int64", 1), ("double_data", 6, "double", 1),
                    ("uint64_data", 7, "uint64", 1), ("raw_data", 8, "bytes", 0)],
    # lineage.proto
    "LineageEvent": [("wall_time", 1, "double", 0), ("step", 2, "int64", 0), ("version", 3, "string", 0),
                     ("train_lineage", 6, "TrainLineage", 0), ("evaluation_lineage", 7, "EvaluationLineage", 0),
                     ("dataset_graph", 9, "DatasetGraph", 0), ("user_defined_info", 10, "UserDefinedInfo", 0)],
    "TrainLineage": [("hyper_parameters", 1, "TrainLineage.HyperParameters", 0),
                     ("train_dataset", 2, "TrainLineage.TrainDataset", 0),
                     ("algorithm", 3, "TrainLineage.Algorithm", 0), ("model", 4, "TrainLineage.Model", 0)],
    "TrainLineage.HyperParameters": [("optimizer", 1, "string", 0), ("learning_rate", 2, "float", 0),
                                     ("loss_function", 3, "string", 0), ("epoch", 4, "int32", 0),
                                     ("parallel_mode", 5, "string", 0), ("device_num", 6, "int32", 0),
                                     ("batch_size", 8, "int32", 0)],
    "TrainLineage.TrainDataset": [("train_dataset_path", 1, "string", 0), ("train_dataset_size", 2, "int32", 0)],
    "TrainLineage.Algorithm": [("network", 1, "string", 0), ("loss", 2, "float", 0)],
    "TrainLineage.Model": [("path", 3, "string", 0), ("size", 4, "int64", 0)],
    "EvaluationLineage": [("metric", 2, "string", 0), ("valid_dataset", 3, "EvaluationLineage.ValidDataset", 0)],
    "EvaluationLineage.ValidDataset": [("valid_dataset_path", 1, "string", 0),
                                       ("valid_dataset_size", 2, "int32", 0)],
    "DatasetGraph": [("children", 1, "DatasetGraph", 1), ("parameter", 2, "OperationParameter", 0),
                     ("operations", 3, "Operation", 1), ("sampler", 4, "Operation", 0)],
    "Operation": [("operationParam", 1, "OperationParameter", 0), ("size", 2, "int32", 1),
                  ("weights", 3, "float", 1)],
    "OperationParameter": [("mapStr", 1, "map:string:string", 0), ("mapStrList", 2, "map:string:StrList", 0),
                           ("mapBool", 3, "map:string:bool", 0), ("mapInt", 4, "map:string:int32", 0),
                           ("mapDouble", 5, "map:string:double", 0)],
    "StrList": [("strValue", 1, "string", 1)],
    "UserDefinedInfo": [("user_info", 1, "UserDefinedInfo", 1), ("map_dict", 2, "map:string:UserDefinedInfo", 0),
                        ("map_int32", 3, "map:string:int32", 0), ("map_str", 4, "map:string:string", 0),
                        ("map_double", 5, "map:string:double", 0)],
}


def _set_type(fd, type_name: str) -> None:
    if type_name in _SCALARS:
        fd.type = _SCALARS[type_name]
    else:
        fd.type = _F.TYPE_MESSAGE
        fd.type_name = f".{_PACKAGE}.{type_name}"


def _build_file() -> descriptor_pb2.FileDescriptorProto:
    fdp = descriptor_pb2.FileDescriptorProto(name="mindspore_hl_insight_ms.proto", package=_PACKAGE,
                                             syntax="proto2")
    protos: dict[str, descriptor_pb2.DescriptorProto] = {}
    for full in _MESSAGES:  # parents are listed before their nested messages
        parent, _, leaf = full.rpartition(".")
        container = protos[parent].nested_type if parent else fdp.message_type
        protos[full] = container.add(name=leaf)
    for full, fields in _MESSAGES.items():
        msg = protos[full]
        for name, number, type_name, repeated in fields:
            fd = msg.field.add(name=name, number=number, label=_REP if repeated else _OPT)
            if type_name.startswith("map:"):
                _, key_t, val_t = type_name.split(":")
                entry = "".join(p.capitalize() for p in name.split("_")) + "Entry"
                em = msg.nested_type.add(name=entry)
                em.options.map_entry = True
                _set_type(em.field.add(name="key", number=1, label=_OPT), key_t)
                _set_type(em.field.add(name="value", number=2, label=_OPT), val_t)
                fd.label = _REP
                fd.type = _F.TYPE_MESSAGE
                fd.type_name = f".{_PACKAGE}.{full}.{entry}"
            else:
                _set_type(fd, type_name)
    return fdp


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_build_file())


def _cls(name: str):
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


Event = _cls("Event")
GraphProto = _cls("GraphProto")
LineageEvent = _cls("LineageEvent")

# anf_ir DataType codes -> MindSpore dtype names (the tensor element types that appear in graphs).
DTYPE_NAMES = {1: "Bool", 2: "Int8", 3: "Int16", 4: "Int32", 5: "Int64", 6: "UInt8", 7: "UInt16",
               8: "UInt32", 9: "UInt64", 10: "Float16", 11: "Float32", 12: "Float64", 13: "String"}
