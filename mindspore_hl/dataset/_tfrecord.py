"""``TFRecordDataset`` and ``Schema``: ``tf.train.Example`` records read without TensorFlow.

A TFRecord file is a run of records: an 8-byte little-endian length, its masked CRC-32C, the data and the data's
masked CRC-32C. The data is a protobuf ``Example { Features features = 1; }``, ``Features { map<string, Feature>
feature = 1; }``, ``Feature { oneof { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list
= 3; } }``, each list a ``repeated`` field 1 (floats and ints usually packed). The wire format is decoded here.
"""
from __future__ import annotations

import gzip
import json
import os
import struct
import zlib
from collections.abc import Sequence
from typing import Any

import google_crc32c
import numpy as np

from . import config
from ._block import column_from_rows
from ._sources import DatasetFormatError, MappableSource
from ._text_sources import expand_files, interleave

__all__ = ["TFRecordDataset", "Schema", "parse_example"]

_DE_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
             "float32", "float64", "string", "bytes")


def _masked_crc(data):
    c = google_crc32c.value(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a protobuf message; length-delimited values as memoryviews."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
            if pos > len(buf):
                raise ValueError("truncated length-delimited field")
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield num, wire, value


def _feature(buf):
    for kind, _, body in _fields(buf):
        if kind == 1:
            return "bytes", [bytes(v) for n, w, v in _fields(body) if n == 1]
        if kind == 2:
            vals: list[float] = []
            for n, w, v in _fields(body):
                if n == 1:
                    vals.extend(np.frombuffer(bytes(v), "<f4").tolist() if w == 2 else
                                [struct.unpack("<f", bytes(v))[0]])
            return "float", np.asarray(vals, np.float32)
        if kind == 3:
            vals = []
            for n, w, v in _fields(body):
                if n != 1:
                    continue
                if w == 2:
                    p = 0
                    while p < len(v):
                        x, p = _varint(v, p)
                        vals.append(x)
                else:
                    vals.append(v)
            arr = np.asarray(vals, np.uint64).astype(np.int64)   # two's complement of negative values
            return "int", arr
    return "int", np.zeros(0, np.int64)   # an empty Feature


def parse_example(data: bytes) -> dict[str, tuple[str, Any]]:
    """``{name: ("bytes", [bytes]) | ("float", float32 array) | ("int", int64 array)}`` of one Example."""
    out: dict[Any, tuple[str, Any]] = {}
    for num, _, features in _fields(memoryview(data)):
        if num != 1:
            continue
        for n, _, entry in _fields(features):
            if n != 1:
                continue
            name, value = None, b""
            for k, _, v in _fields(entry):
                if k == 1:
                    name = bytes(v).decode("utf-8")
                elif k == 2:
                    value = v
            out[name] = _feature(value)
    return out


class Schema:
    """Column names, types and shapes for ``TFRecordDataset`` / ``RandomDataset``.

    Args: schema_file (str): a JSON file ``{"columns": {name: {"type": t, "rank": r, "shape": [...]}}}``
        (or a list of ``{"name": ...}`` entries), as ``to_json`` writes."""

    def __init__(self, schema_file: str | None = None):
        self.columns: list[dict[str, Any]] = []
        self.num_rows: int | None = None
        self.dataset_type = ""
        if schema_file is not None:
            if not os.path.isfile(schema_file):
                raise ValueError(f"Schema: the schema file {schema_file} does not exist")
            with open(schema_file) as f:
                try:
                    self.from_json(json.load(f))
                except ValueError as e:
                    raise ValueError(f"Schema: {schema_file}: {e}") from e

    def add_column(self, name: str, de_type: Any, shape: list[int] | None = None) -> None:
        """Add a column. Args: name (str), de_type (str or mindspore dtype), shape (list of int, optional)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"Schema.add_column: name must be a non-empty str, but got {name!r}")
        t = de_type if isinstance(de_type, str) else str(np.dtype(getattr(de_type, "to_numpy", lambda: de_type)()))
        if t not in _DE_TYPES:
            raise TypeError(f"Schema.add_column: de_type {de_type!r} is not one of {list(_DE_TYPES)}")
        col: dict[str, Any] = {"name": name, "type": t}
        if shape is not None:
            if not isinstance(shape, list) or not all(isinstance(d, int) for d in shape):
                raise TypeError(f"Schema.add_column: shape must be a list of int, but got {shape!r}")
            col["shape"] = list(shape)
        col["rank"] = len(shape) if shape is not None else 1
        self.columns.append(col)

    def parse_columns(self, columns: dict[str, dict[str, Any]] | Sequence[dict[str, Any]]) -> None:
        """Replace the columns from a dict ``{name: {"type", "shape"}}`` or a list of ``{"name", ...}``."""
        self.columns = []
        items = columns.items() if isinstance(columns, dict) else [(c.get("name"), c) for c in columns]
        for name, spec in items:
            if "type" not in spec:
                raise ValueError(f"column {name!r} has no type")
            self.add_column(name, spec["type"], spec.get("shape"))  # type: ignore[arg-type]  # it checks name

    def from_json(self, json_obj: dict[str, Any]) -> None:
        if "columns" not in json_obj:
            raise ValueError("the schema JSON has no 'columns'")
        self.parse_columns(json_obj["columns"])
        self.num_rows = json_obj.get("numRows")
        self.dataset_type = json_obj.get("datasetType", "")

    def to_json(self) -> str:
        cols = [dict(sorted(c.items())) for c in self.columns]
        doc: dict[str, Any] = {"columns": cols}
        if self.num_rows is not None:
            doc["numRows"] = self.num_rows
        return json.dumps(doc, indent=2)

    def __str__(self):
        return self.to_json()


def _load_schema(schema):
    if schema is None:
        return None
    if isinstance(schema, str):
        return Schema(schema)
    if isinstance(schema, Schema):
        return schema
    raise TypeError(f"TFRecordDataset: schema must be a Schema or a JSON file path, but got {schema!r}")


def read_records(path: str, compression_type: str = "") -> list[bytes]:
    """The record payloads of one TFRecord file (length CRCs checked; a bad file is named)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise DatasetFormatError(f"TFRecordDataset: cannot read {path}: {e}") from e
    try:
        if compression_type == "GZIP":
            raw = gzip.decompress(raw)
        elif compression_type == "ZLIB":
            raw = zlib.decompress(raw)
    except (OSError, zlib.error, EOFError) as e:
        raise DatasetFormatError(f"TFRecordDataset: {path} is not {compression_type} data: {e}") from e
    out, pos = [], 0
    while pos < len(raw):
        if pos + 12 > len(raw):
            raise DatasetFormatError(f"TFRecordDataset: {path}: truncated record header at byte {pos}")
        head = raw[pos:pos + 8]
        n = struct.unpack("<Q", head)[0]
        if struct.unpack("<I", raw[pos + 8:pos + 12])[0] != _masked_crc(head):
            raise DatasetFormatError(f"TFRecordDataset: {path}: bad length checksum at byte {pos}; not a TFRecord "
                                     f"file{' (or compressed: set compression_type)' if pos == 0 else ''}")
        start, end = pos + 12, pos + 12 + n
        if end + 4 > len(raw):
            raise DatasetFormatError(f"TFRecordDataset: {path}: record at byte {pos} is truncated")
        data = raw[start:end]
        if struct.unpack("<I", raw[end:end + 4])[0] != _masked_crc(data):
            raise DatasetFormatError(f"TFRecordDataset: {path}: bad data checksum in the record at byte {pos}")
        out.append(data)
        pos = end + 4
    return out


class TFRecordDataset(MappableSource):
    """Rows of TFRecord files of ``tf.train.Example``.

    Without a schema the columns are the features of the first record (sorted): bytes -> uint8 1-D (one value),
    floats -> float32 1-D, ints -> int64 1-D. A schema picks columns, their order, type and shape.
    Args: dataset_files (str | list), schema (Schema | str JSON file), columns_list (list), num_samples,
        num_parallel_workers, shuffle (default True), num_shards, shard_id, shard_equal_rows (accepted),
        cache (unused), compression_type ('' | 'GZIP' | 'ZLIB')."""

    def __init__(self, dataset_files: str | Sequence[str], schema: Schema | str | None = None,
                 columns_list: Sequence[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, shard_equal_rows: bool = False, cache: Any = None,
                 compression_type: str | None = None):
        self.dataset_files = expand_files("TFRecordDataset", dataset_files)
        compression_type = compression_type or ""
        if compression_type not in ("", "GZIP", "ZLIB"):
            raise ValueError(f"TFRecordDataset: compression_type must be '', 'GZIP' or 'ZLIB', but got "
                             f"{compression_type!r}")
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True
        self.schema = _load_schema(schema)
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        per_file = [[(f, r) for r in read_records(f, compression_type)] for f in self.dataset_files]
        self._records = interleave(per_file, workers)
        if self.schema is not None and self.schema.columns:
            self._specs = {c["name"]: c for c in self.schema.columns}
            names = [c["name"] for c in self.schema.columns]
        else:
            first = parse_example(self._records[0][1]) if self._records else {}
            self._specs = {k: None for k in first}
            names = sorted(first)
        if columns_list is not None:
            if not isinstance(columns_list, list) or not all(isinstance(c, str) for c in columns_list):
                raise TypeError(f"TFRecordDataset: columns_list must be a list of str, but got {columns_list!r}")
            bad = [c for c in columns_list if c not in names]
            if bad:
                raise ValueError(f"TFRecordDataset: columns_list {bad} are not among the columns {names}")
            names = list(columns_list)
        if self.schema is not None and self.schema.num_rows:
            self._records = self._records[:self.schema.num_rows]
        self.column_names = names

    def _length(self):
        return len(self._records)

    def _value(self, path, feats, name):
        if name not in feats:
            raise DatasetFormatError(f"TFRecordDataset: {path}: a record has no feature {name!r}")
        kind, v = feats[name]
        spec = self._specs.get(name)
        t = spec["type"] if spec else None
        if kind == "bytes":
            if t in ("string", "bytes"):
                arr = np.array([x.decode("utf-8", "replace") if t == "string" else x for x in v])
                return arr[0] if len(v) == 1 and not spec.get("shape") else arr  # type: ignore[union-attr]
            if len(v) != 1 and (t is None or t == "uint8"):
                raise DatasetFormatError(f"TFRecordDataset: {path}: feature {name!r} holds {len(v)} byte strings; "
                                         f"give it type 'string' in the schema")
            arr = np.frombuffer(v[0], np.uint8) if t in (None, "uint8") else \
                np.frombuffer(v[0], np.dtype(t).newbyteorder("<")).astype(t)
        else:
            arr = v if t is None else v.astype(t)
        if spec and spec.get("shape"):
            try:
                arr = arr.reshape(spec["shape"])
            except ValueError:
                raise DatasetFormatError(f"TFRecordDataset: {path}: feature {name!r} has {arr.size} values, not "
                                         f"the schema shape {spec['shape']}") from None
        return arr

    def _read(self, ids):
        out: list[list[Any]] = [[] for _ in self.column_names]
        for i in ids:
            path, data = self._records[int(i)]
            try:
                feats = parse_example(data)
            except (ValueError, UnicodeDecodeError) as e:
                raise DatasetFormatError(f"TFRecordDataset: {path}: record {int(i)} is not a tf.train.Example: "
                                         f"{e}") from e
            for k, name in enumerate(self.column_names):
                out[k].append(self._value(path, feats, name))
        return [column_from_rows(c) for c in out]
