"""The MindRecord file format, as MindSpore 2.x writes it (``mindspore/ccsrc/minddata/mindrecord``).

A shard file is a header area of ``header_size`` bytes -- an 8-byte little-endian length, then a JSON document
(schema, pages, index fields, the names of every shard) -- followed by pages of ``page_size`` bytes. BLOB_DATA
pages hold each row's array and bytes fields, RAW_DATA pages hold its scalar fields as a MessagePack map; every
entry starts with its 8-byte little-endian length. Row ``i`` of a shard is found through a SQLite file beside it
(``<shard>.db``, table ``INDEXES``): page id and byte range of its raw and blob entries. Inside a blob entry
with several blob fields, each field is an 8-byte *big-endian* length and the bytes; with one blob field the
entry is just that field. When the schema has an int32/int64 array, every integer blob field is stored
narrowed: a 4-byte big-endian element count, a bitmap of 2-bit widths (int8/16/32/64, first element in the high
bits), then each element little-endian in its own width.
"""

from __future__ import annotations

import json
import struct
from typing import Any

import numpy as np

__all__ = ["SCALAR_TYPES", "ARRAY_TYPES", "pack", "unpack", "compress_int", "uncompress_int", "header_json"]

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
WIDTH_DTYPES = (np.dtype("<i1"), np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"))


class FormatError(RuntimeError):
    """A MindRecord file or its index is not in the layout MindSpore writes (the message names the file)."""


# ---------------------------------------------------------------------------------------------- MessagePack
def _pack_int(v, out):
    if v >= 0:
        if v < 0x80:
            out.append(v)
        elif v < 0x100:
            out += b"\xcc" + struct.pack(">B", v)
        elif v < 0x10000:
            out += b"\xcd" + struct.pack(">H", v)
        elif v < 0x100000000:
            out += b"\xce" + struct.pack(">I", v)
        else:
            out += b"\xcf" + struct.pack(">Q", v)
    elif v >= -32:
        out += struct.pack(">b", v)
    elif v >= -0x80:
        out += b"\xd0" + struct.pack(">b", v)
    elif v >= -0x8000:
        out += b"\xd1" + struct.pack(">h", v)
    elif v >= -0x80000000:
        out += b"\xd2" + struct.pack(">i", v)
    else:
        out += b"\xd3" + struct.pack(">q", v)


def _pack(value, out):
    if value is None:
        out.append(0xC0)
    elif isinstance(value, (bool, np.bool_)):
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, (int, np.integer)):
        _pack_int(int(value), out)
    elif isinstance(value, (float, np.floating)):
        v = float(value)
        # nlohmann::json (MindSpore's encoder) stores a double as float32 when that loses nothing
        if np.isnan(v) or float(np.float32(v)) == v:
            out += b"\xca" + struct.pack(">f", v)
        else:
            out += b"\xcb" + struct.pack(">d", v)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        n = len(raw)
        if n < 32:
            out.append(0xA0 | n)
        elif n < 0x100:
            out += b"\xd9" + struct.pack(">B", n)
        elif n < 0x10000:
            out += b"\xda" + struct.pack(">H", n)
        else:
            out += b"\xdb" + struct.pack(">I", n)
        out += raw
    elif isinstance(value, dict):
        n = len(value)
        if n < 16:
            out.append(0x80 | n)
        elif n < 0x10000:
            out += b"\xde" + struct.pack(">H", n)
        else:
            out += b"\xdf" + struct.pack(">I", n)
        for k in sorted(value):   # nlohmann objects are sorted maps
            _pack(k, out)
            _pack(value[k], out)
    elif isinstance(value, (list, tuple)):
        n = len(value)
        if n < 16:
            out.append(0x90 | n)
        elif n < 0x10000:
            out += b"\xdc" + struct.pack(">H", n)
        else:
            out += b"\xdd" + struct.pack(">I", n)
        for v in value:
            _pack(v, out)
    else:
        raise TypeError(f"MindRecord: cannot store a {type(value).__name__} in a raw field")


def pack(value: Any) -> bytes:
    """MessagePack bytes of ``value`` (None, bool, int, float, str, list, dict), as nlohmann::json writes them."""
    out = bytearray()
    _pack(value, out)
    return bytes(out)


_FIXED = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q",
          0xCA: ">f", 0xCB: ">d"}


def _unpack(buf, pos):
    b = buf[pos]
    pos += 1
    if b < 0x80:
        return b, pos
    if b >= 0xE0:
        return b - 0x100, pos
    if 0xA0 <= b < 0xC0 or b in (0xD9, 0xDA, 0xDB, 0xC4, 0xC5, 0xC6):
        if 0xA0 <= b < 0xC0:
            n = b & 0x1F
        else:
            fmt = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}[b]
            n = struct.unpack_from(fmt, buf, pos)[0]
            pos += struct.calcsize(fmt)
        raw = bytes(buf[pos:pos + n])
        return (raw if b in (0xC4, 0xC5, 0xC6) else raw.decode("utf-8")), pos + n
    if b in _FIXED:
        fmt = _FIXED[b]
        return struct.unpack_from(fmt, buf, pos)[0], pos + struct.calcsize(fmt)
    if b == 0xC0:
        return None, pos
    if b in (0xC2, 0xC3):
        return b == 0xC3, pos
    if 0x80 <= b < 0x90 or b in (0xDE, 0xDF):
        if b < 0x90:
            n = b & 0x0F
        else:
            fmt = ">H" if b == 0xDE else ">I"
            n = struct.unpack_from(fmt, buf, pos)[0]
            pos += struct.calcsize(fmt)
        out = {}
        for _ in range(n):
            k, pos = _unpack(buf, pos)
            out[k], pos = _unpack(buf, pos)
        return out, pos
    if 0x90 <= b < 0xA0 or b in (0xDC, 0xDD):
        if b < 0xA0:
            n = b & 0x0F
        else:
            fmt = ">H" if b == 0xDC else ">I"
            n = struct.unpack_from(fmt, buf, pos)[0]
            pos += struct.calcsize(fmt)
        items: list[Any] = []
        for _ in range(n):
            v, pos = _unpack(buf, pos)
            items.append(v)
        return items, pos
    raise ValueError(f"unsupported MessagePack byte 0x{b:02x} at offset {pos - 1}")


def unpack(buf: bytes) -> Any:
    """The value encoded in MessagePack ``buf``."""
    value, pos = _unpack(memoryview(buf), 0)
    if pos != len(buf):
        raise ValueError(f"{len(buf) - pos} trailing bytes after a MessagePack value")
    return value


# ---------------------------------------------------------------------------------------------- integers
def compress_int(values: np.ndarray) -> bytes:
    """MindSpore's narrowed integer encoding of a 1-D int32/int64 array (see the module docstring)."""
    v = np.asarray(values).reshape(-1).astype(np.int64)
    width = np.full(v.shape, 3, np.uint8)
    width[(v >= -(1 << 31)) & (v < (1 << 31))] = 2
    width[(v >= -(1 << 15)) & (v < (1 << 15))] = 1
    width[(v >= -(1 << 7)) & (v < (1 << 7))] = 0
    n = len(v)
    padded = np.zeros(-(-n // 4) * 4, np.uint8)
    padded[:n] = width
    quads = padded.reshape(-1, 4)
    bitmap = (quads[:, 0] << 6) | (quads[:, 1] << 4) | (quads[:, 2] << 2) | quads[:, 3]
    parts = [struct.pack(">I", n), bitmap.astype(np.uint8).tobytes()]
    for x, w in zip(v.tolist(), width.tolist()):
        parts.append(struct.pack("<" + "bhiq"[w], x))
    return b"".join(parts)


def uncompress_int(buf: bytes, dtype: np.dtype | type) -> np.ndarray:
    """Inverse of ``compress_int``: the 1-D array of ``dtype`` (int32 or int64)."""
    n = struct.unpack_from(">I", buf, 0)[0]
    nbit = -(-n // 4)
    bitmap = np.frombuffer(bytes(buf[4:4 + nbit]), np.uint8)
    widths = np.stack([(bitmap >> s) & 3 for s in (6, 4, 2, 0)], axis=1).reshape(-1)[:n]
    out = np.empty(n, dtype)
    pos = 4 + nbit
    for i, w in enumerate(widths.tolist()):
        dt = WIDTH_DTYPES[w]
        out[i] = np.frombuffer(buf, dt, 1, pos)[0]
        pos += dt.itemsize
    if pos != len(buf):
        raise ValueError(f"compressed integer field: {len(buf) - pos} bytes left after {n} elements")
    return out


# ---------------------------------------------------------------------------------------------- header
def header_json(header_size: int, page_size: int, index_fields: list[str], pages: list[dict[str, Any]],
                compression_size: int, schema: dict[str, dict[str, Any]], desc: str, blob_fields: list[str],
                shard_addresses: list[str], shard_id: int) -> bytes:
    """The header document, keys in the order MindSpore 2.x writes them."""
    doc = {
        "header_size": header_size,
        "index_fields": [{"index_field": f, "schema_id": 0} for f in index_fields],
        "page": pages,
        "page_size": page_size,
        "compression_size": compression_size,
        "schema": [{"blob_fields": blob_fields, "desc": desc, "schema": {
            k: dict(sorted(schema[k].items())) for k in sorted(schema)}}],
        "shard_addresses": shard_addresses,
        "shard_id": shard_id,
        "statistics": None,
        "version": "3.0",
    }
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")


def blob_fields_of(schema: dict[str, dict[str, Any]]) -> list[str]:
    """Fields stored in blob pages: bytes and arrays (those with a shape), in sorted order."""
    return [k for k in sorted(schema) if schema[k]["type"] == "bytes" or "shape" in schema[k]]


def compresses_ints(schema: dict[str, dict[str, Any]]) -> bool:
    return any("shape" in v and v["type"] in ("int32", "int64") for v in schema.values())
