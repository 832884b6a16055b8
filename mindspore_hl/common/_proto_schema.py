"""Protobuf message classes built at import from a compact schema.

MindSpore's file formats (MindIR, parallel strategy files, lineage records) are protobuf messages. Declaring the
fields this project reads and writes as data, and building the classes with protobuf's descriptor pool, needs
neither ``protoc`` nor generated modules; fields a real file holds beyond these stay as unknown fields, so
nothing is lost on reading.

A schema maps each message name to its fields ``(name, number, label, kind)``: ``label`` is ``"optional"``,
``"repeated"``, ``"packed"`` (repeated, packed on the wire) or ``"required"``; ``kind`` is a scalar type
(``"int64"``, ``"string"``...), another message's name, ``"enum:<Name>"`` for an enum declared in ``enums`` for
this message, or ``"map:<scalar>"`` for a ``map<string, scalar>``. A dotted message name (``"Outer.Inner"``)
declares a message nested in an earlier one.

>>> classes = message_classes("demo.proto", "demo", {"Point": [("x", 1, "optional", "int32"),
...                                                            ("tags", 2, "repeated", "string")]})
>>> point = classes["Point"](x=3, tags=["a"])
>>> classes["Point"].FromString(point.SerializeToString()).x
3
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["message_classes"]

_F = descriptor_pb2.FieldDescriptorProto
_LABELS = {"optional": _F.LABEL_OPTIONAL, "repeated": _F.LABEL_REPEATED, "packed": _F.LABEL_REPEATED,
           "required": _F.LABEL_REQUIRED}
_SCALARS = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "int64": _F.TYPE_INT64, "int32": _F.TYPE_INT32,
            "uint64": _F.TYPE_UINT64, "uint32": _F.TYPE_UINT32, "float": _F.TYPE_FLOAT, "double": _F.TYPE_DOUBLE,
            "bool": _F.TYPE_BOOL}

Field = tuple[str, int, str, str]


def message_classes(file_name: str, package: str, messages: Mapping[str, Sequence[Field]],
                    enums: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
                    syntax: str = "proto2") -> dict[str, Any]:
    """The message classes of one ``.proto`` file, by message name.

    Args:
        file_name, package: the file's name in the descriptor pool and its package.
        messages: message name -> fields ``(name, number, label, kind)`` (see the module docstring).
        enums: message name -> {enum name: {value name: number}}, the enums nested in that message.
    """
    fdp = descriptor_pb2.FileDescriptorProto(name=file_name, package=package, syntax=syntax)
    declared: dict[str, descriptor_pb2.DescriptorProto] = {}
    for msg_name, fields in messages.items():
        outer, _, inner = msg_name.rpartition(".")
        msg = declared[outer].nested_type.add(name=inner) if outer else fdp.message_type.add(name=msg_name)
        declared[msg_name] = msg
        for enum_name, values in (enums or {}).get(msg_name, {}).items():
            enum = msg.enum_type.add(name=enum_name)
            for value_name, number in values.items():
                enum.value.add(name=value_name, number=number)
        for name, number, label, kind in fields:
            field = msg.field.add(name=name, number=number, label=_LABELS[label])
            if label == "packed":
                field.options.packed = True
            if kind in _SCALARS:
                field.type = _SCALARS[kind]
            elif kind.startswith("enum:"):
                field.type, field.type_name = _F.TYPE_ENUM, f".{package}.{msg_name}.{kind[5:]}"
            elif kind.startswith("map:"):
                entry = msg.nested_type.add(name="".join(w.capitalize() for w in name.split("_")) + "Entry")
                entry.options.map_entry = True
                entry.field.add(name="key", number=1, label=_F.LABEL_OPTIONAL, type=_F.TYPE_STRING)
                entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL, type=_SCALARS[kind[4:]])
                field.label, field.type = _F.LABEL_REPEATED, _F.TYPE_MESSAGE
                field.type_name = f".{package}.{msg_name}.{entry.name}"
            else:
                field.type, field.type_name = _F.TYPE_MESSAGE, f".{package}.{kind}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{name}"))
            for name in messages}
