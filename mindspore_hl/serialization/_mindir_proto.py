"""MindSpore's MindIR protobuf schema (``mind_ir.proto``, package ``mind_ir``), built at import with protobuf.

Only the messages and fields that a network's forward graph uses are declared; protobuf keeps any other field of
a real file as unknown fields, so nothing is lost when a file is read. Field numbers and enum values are
MindSpore's: a file written with these classes is read by real MindSpore, and the reverse.
"""
from __future__ import annotations

from ..common._proto_schema import message_classes

__all__ = ["ModelProto", "GraphProto", "NodeProto", "AttributeProto", "TensorProto", "ValueInfoProto",
           "PrimitiveProto", "ATTR", "DTYPE"]

_OPT, _REP = "optional", "repeated"

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
_ENUMS = {"AttributeProto": {"AttributeType": ATTR},
          "PrimitiveProto": {"PrimType": {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2}}}
# ExternalDataProto is nested in TensorProto in MindSpore's schema; its wire format is the same at top level.

_CLASSES = message_classes("mindspore_hl_mind_ir.proto", "mind_ir", _MESSAGES, _ENUMS)
ModelProto = _CLASSES["ModelProto"]
GraphProto = _CLASSES["GraphProto"]
NodeProto = _CLASSES["NodeProto"]
AttributeProto = _CLASSES["AttributeProto"]
TensorProto = _CLASSES["TensorProto"]
ValueInfoProto = _CLASSES["ValueInfoProto"]
PrimitiveProto = _CLASSES["PrimitiveProto"]
