"""MindSpore's MindIR protobuf schema (``mind_ir.proto``, package ``mind_ir``), built at import with protobuf.

Only the messages and fields that a network's forward graph uses are declared; protobuf keeps any other field of
a real file as unknown fields, so nothing is lost when a file is read. Field numbers and enum values are
MindSpore's: a file written with these classes is read by real MindSpore, and the reverse.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["ModelProto", "GraphProto", "NodeProto", "AttributeProto", "TensorProto", "ValueInfoProto",
           "PrimitiveProto", "ATTR", "DTYPE"]

_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED
_SCALAR = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "int64": _F.TYPE_INT64, "int32": _F.TYPE_INT32,
           "uint64": _F.TYPE_UINT64, "float": _F.TYPE_FLOAT, "double": _F.TYPE_DOUBLE, "bool": _F.TYPE_BOOL}

#: AttributeProto.AttributeType (the kind of value an attribute or constant holds).
ATTR = {name: i for i, name in enumerate(
    "UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 UINT64 COMPLEX64 "
    "COMPLEX128 BFLOAT16 TENSOR GRAPH TENSORS TUPLE LIST DICT UMONAD IOMONAD NONE".split())}
#: TensorProto.DataType.
DTYPE = {name: i for i, name in enumerate(
    "UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 UINT64 COMPLEX64 "
    "COMPLEX128 BFLOAT16 FLOAT64".split())}

# message name -> [(field name, number, label, type: scalar name, message name or "enum:<Enum>")]
_MESSAGES = {
    "AttributeProto": [
        ("name", 1, _OPT, "string"), ("f", 2, _OPT, "float"), ("i", 3, _OPT, "int64"), ("d", 4, _OPT, "double"),
        ("s", 5, _OPT, "bytes"), ("t", 6, _OPT, "TensorProto"), ("g", 7, _OPT, "GraphProto"),
        ("floats", 8, _REP, "float"), ("doubles", 9, _REP, "double"), ("ints", 10, _REP, "int64"),
        ("strings", 11, _REP, "bytes"), ("tensors", 12, _REP, "TensorProto"), ("graphs", 13, _REP, "GraphProto"),
        ("doc_string", 14, _OPT, "string"), ("ref_attr_name", 15, _OPT, "string"),
        ("type", 16, _OPT, "enum:AttributeType"), ("values", 17, _REP, "AttributeProto")],
    "ValueInfoProto": [
        ("name", 1, _OPT, "string"), ("tensor", 2, _REP, "TensorProto"), ("doc_string", 3, _OPT, "string"),
        ("denotation", 4, _OPT, "string"), ("attr_info", 5, _OPT, "AttributeProto")],
    "NodeProto": [
        ("input", 1, _REP, "string"), ("output", 2, _REP, "string"), ("name", 3, _OPT, "string"),
        ("op_type", 4, _OPT, "string"), ("attribute", 5, _REP, "AttributeProto"),
        ("doc_string", 6, _OPT, "string"), ("domain", 7, _OPT, "string"),
        ("node_attr", 8, _REP, "AttributeProto"), ("primal_attr", 9, _REP, "AttributeProto")],
    "ModelProto": [
        ("ir_version", 1, _OPT, "string"), ("producer_name", 2, _OPT, "string"),
        ("producer_version", 3, _OPT, "string"), ("domain", 4, _OPT, "string"),
        ("model_version", 5, _OPT, "string"), ("doc_string", 6, _OPT, "string"), ("graph", 7, _OPT, "GraphProto"),
        ("functions", 8, _REP, "GraphProto"), ("little_endian", 10, _OPT, "bool"),
        ("primitives", 12, _REP, "PrimitiveProto"), ("mind_ir_version", 13, _OPT, "int64")],
    "GraphProto": [
        ("node", 1, _REP, "NodeProto"), ("name", 2, _OPT, "string"), ("parameter", 3, _REP, "TensorProto"),
        ("doc_string", 4, _OPT, "string"), ("input", 5, _REP, "ValueInfoProto"),
        ("output", 6, _REP, "ValueInfoProto"), ("bprop_hash", 7, _OPT, "string"),
        ("attribute", 8, _REP, "AttributeProto"), ("bprop_filepath", 9, _OPT, "string")],
    "TensorProto": [
        ("dims", 1, _REP, "int64"), ("data_type", 2, _OPT, "int32"), ("float_data", 3, _REP, "float"),
        ("int32_data", 4, _REP, "int32"), ("string_data", 5, _REP, "bytes"), ("int64_data", 6, _REP, "int64"),
        ("name", 7, _OPT, "string"), ("doc_string", 8, _OPT, "string"), ("raw_data", 9, _OPT, "bytes"),
        ("double_data", 10, _REP, "double"), ("uint64_data", 11, _REP, "uint64"),
        ("external_data", 12, _OPT, "ExternalDataProto"), ("ref_key", 13, _OPT, "string")],
    "ExternalDataProto": [("location", 1, _OPT, "string"), ("offset", 2, _OPT, "int64"),
                          ("length", 3, _OPT, "int64")],
    "PrimitiveProto": [
        ("name", 1, _OPT, "string"), ("op_type", 2, _OPT, "string"), ("attribute", 3, _REP, "AttributeProto"),
        ("instance_name", 4, _OPT, "string"), ("prim_type", 5, _OPT, "enum:PrimType")],
}
_ENUMS = {"AttributeType": ("AttributeProto", ATTR),
          "PrimType": ("PrimitiveProto", {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2})}
# ExternalDataProto is nested in TensorProto in MindSpore's schema; its wire format is the same at top level.


def _build() -> dict[str, type]:
    fdp = descriptor_pb2.FileDescriptorProto(name="mindspore_hl_mind_ir.proto", package="mind_ir",
                                             syntax="proto2")
    for msg_name, fields in _MESSAGES.items():
        msg = fdp.message_type.add(name=msg_name)
        for enum_name, (owner, values) in _ENUMS.items():
            if owner == msg_name:
                enum = msg.enum_type.add(name=enum_name)
                for value_name, number in values.items():
                    enum.value.add(name=value_name, number=number)
        for name, number, label, kind in fields:
            field = msg.field.add(name=name, number=number, label=label)
            if kind in _SCALAR:
                field.type = _SCALAR[kind]
            elif kind.startswith("enum:"):
                field.type = _F.TYPE_ENUM
                field.type_name = f".mind_ir.{msg_name}.{kind[5:]}"
            else:
                field.type = _F.TYPE_MESSAGE
                field.type_name = f".mind_ir.{kind}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"mind_ir.{name}"))
            for name in _MESSAGES}


_CLASSES = _build()
ModelProto = _CLASSES["ModelProto"]
GraphProto = _CLASSES["GraphProto"]
NodeProto = _CLASSES["NodeProto"]
AttributeProto = _CLASSES["AttributeProto"]
TensorProto = _CLASSES["TensorProto"]
ValueInfoProto = _CLASSES["ValueInfoProto"]
PrimitiveProto = _CLASSES["PrimitiveProto"]
