"""MindSpore ``.ckpt`` files: a hand-written codec for the ``Checkpoint`` protobuf (proto2), byte-identical
to what MindSpore writes.

Schema (``mindspore/ccsrc/utils/checkpoint.proto``)::

    message Checkpoint { message Value { required string tag = 1;
                                         oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }
                         repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2; required bytes tensor_content = 3; }

A file is one serialized ``Checkpoint`` per record, concatenated (protobuf merges them), optionally followed by
the trailer ``b'crc_num' + crc32(all preceding bytes).to_bytes(10, 'big')``. Tensors over 512 MB are
``np.array_split`` along axis 0 into consecutive records with the same tag, each carrying the full dims.

Hand-written rather than built with protobuf so that errors can say which record and field is broken and
so that tensor contents stay zero-copy views into the file buffer. Pure: no Tensor dependency.
"""
from __future__ import annotations

import math
import os
import stat
import zlib
from collections.abc import Iterable
from typing import Any, NoReturn

import ml_dtypes
import numpy as np

from ._atomic import atomic_open

__all__ = ["CheckpointError", "SLICE_BYTES", "TYPE_TO_NP", "read", "parse", "write", "encode_str", "file_kind"]

SLICE_BYTES = 512 * 1024 * 1024  # MindSpore's SLICE_SIZE (512 * 1024 KB)
CRC_MAGIC = b"crc_num"
_TRAILER = len(CRC_MAGIC) + 10

TYPE_TO_NP = {
    "Float32": np.dtype("<f4"), "Float16": np.dtype("<f2"), "Float64": np.dtype("<f8"),
    "BFloat16": np.dtype(ml_dtypes.bfloat16),
    "Int8": np.dtype("i1"), "UInt8": np.dtype("u1"), "Int16": np.dtype("<i2"), "UInt16": np.dtype("<u2"),
    "Int32": np.dtype("<i4"), "UInt32": np.dtype("<u4"), "Int64": np.dtype("<i8"), "UInt64": np.dtype("<u8"),
    "Bool": np.dtype("?"),
}
_NP_TO_TYPE = {dt: name for name, dt in TYPE_TO_NP.items()}
_STR, _RANDOM_OP = "str", "random_op"


class CheckpointError(ValueError):
    """A checkpoint file is truncated, corrupt or not a MindSpore checkpoint."""


# ---------------------------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _record_header(tag: bytes, dims: list[int], tensor_type: bytes, content_len: int) -> bytes:
    """Bytes of one serialized ``Checkpoint`` up to (not including) the tensor_content payload."""
    tensor_head = b"".join(b"\x08" + _varint(d) for d in dims)
    tensor_head += b"\x12" + _varint(len(tensor_type)) + tensor_type + b"\x1a" + _varint(content_len)
    value_head = b"\x0a" + _varint(len(tag)) + tag + b"\x12" + _varint(len(tensor_head) + content_len) + tensor_head
    return b"\x0a" + _varint(len(value_head) + content_len) + value_head


def encode_str(text: str) -> bytes:
    """MindSpore's str payload: ``np.array(text).tobytes()``, i.e. UTF-32LE, an empty str as one NUL char."""
    return (text or "\0").encode("utf-32-le")


def _prepare(name: str, value: Any, slice_bytes: int) -> tuple[bytes, list[int], bytes, list[bytes | memoryview]]:
    """One item -> (tag bytes, dims, type bytes, list of byte buffers, one per record)."""
    if not isinstance(name, str):
        raise TypeError(f"Checkpoint entry names must be str, but got {type(name).__name__} {name!r:.60}.")
    try:
        tag = name.encode("utf-8")
        if isinstance(value, str):
            return tag, [0], b"str", [encode_str(value)]
    except UnicodeEncodeError as e:
        bad = e.object[e.start:e.end]
        raise ValueError(f"Checkpoint entry {name!r}: cannot encode {bad!r} ({e.reason}).") from None
    arr = np.asarray(value)
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    tensor_type = _NP_TO_TYPE.get(arr.dtype)
    if tensor_type is None:
        raise TypeError(f"Checkpoint entry {name!r}: dtype {arr.dtype} has no MindSpore checkpoint type; "
                        f"supported: {', '.join(str(d) for d in _NP_TO_TYPE)}.")
    dims = [int(d) for d in arr.shape]
    parts = [arr]
    if arr.ndim and arr.nbytes > slice_bytes:
        parts = np.array_split(arr, math.ceil(arr.nbytes / slice_bytes))
    bufs: list[bytes | memoryview] = [np.ascontiguousarray(p).reshape(-1).view(np.uint8).data for p in parts]
    return tag, dims, tensor_type.encode(), bufs


def write(path: str | os.PathLike[str], items: Iterable[tuple[str, Any]], crc_check: bool = False,
          slice_bytes: int = SLICE_BYTES) -> None:
    """Write ``items`` as a MindSpore checkpoint, atomically (temp file, fsync, ``os.replace``).

    Args:
        path: the file name (written exactly as given).
        items: iterable of ``(name, value)``; value is a NumPy array / scalar of a supported dtype or a ``str``.
        crc_check: append MindSpore's ``crc_num`` trailer.
        slice_bytes: tensors larger than this are split into several records (MindSpore: 512 MB).
    """
    # Convert everything first so that a bad entry fails before the file is touched.
    records = [_prepare(name, value, slice_bytes) for name, value in items]
    crc = 0
    with atomic_open(path) as f:
        for tag, dims, tensor_type, bufs in records:
            for buf in bufs:
                head = _record_header(tag, dims, tensor_type, len(buf))
                f.write(head)
                f.write(buf)
                if crc_check:
                    crc = zlib.crc32(buf, zlib.crc32(head, crc))
        if crc_check:
            f.write(CRC_MAGIC + crc.to_bytes(10, "big"))


# ---------------------------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------------------------
class _Reader:
    """Cursor over one buffer; every error names the file, the record and the field."""

    def __init__(self, data: memoryview, source: str) -> None:
        self.data, self.source = data, source
        self.where = ""

    def fail(self, msg: str) -> NoReturn:
        raise CheckpointError(f"{self.source}: {self.where}{msg}")

    def varint(self, pos: int, end: int, field: str) -> tuple[int, int]:
        result = shift = 0
        data = self.data
        while True:
            if pos >= end:
                self.fail(f"field '{field}': varint runs past the end of its message (truncated file?).")
            b = data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
            if shift >= 70:
                self.fail(f"field '{field}': varint longer than 10 bytes (corrupt data).")
        if result >> 64:
            self.fail(f"field '{field}': varint does not fit in 64 bits (corrupt data).")
        return result, pos

    def length(self, pos: int, end: int, field: str) -> tuple[int, int]:
        n, pos = self.varint(pos, end, field)
        if pos + n > end:
            self.fail(f"field '{field}' declares {n} bytes but only {end - pos} remain in its message "
                      f"(truncated file?).")
        return pos, pos + n

    def skip(self, key: int, pos: int, end: int, msg_name: str) -> int:
        wt = key & 7
        field = f"{msg_name} field #{key >> 3}"
        if wt == 0:
            return self.varint(pos, end, field)[1]
        if wt == 2:
            return self.length(pos, end, field)[1]
        if wt in (1, 5):
            size = 8 if wt == 1 else 4
            if pos + size > end:
                self.fail(f"{field}: fixed-size value runs past the end of its message (truncated file?).")
            return pos + size
        self.fail(f"{field} has wire type {wt}, which a checkpoint never contains (corrupt data).")

    def text(self, start: int, stop: int, field: str) -> str:
        try:
            return bytes(self.data[start:stop]).decode("utf-8")
        except UnicodeDecodeError as e:
            self.fail(f"field '{field}' is not valid UTF-8 ({e.reason} at byte {e.start}).")


def _parse_tensor(r: _Reader, pos: int, end: int, t: dict[str, Any]) -> None:
    """Merge one TensorProto into dict ``t`` (protobuf merge semantics: dims append, scalars overwrite)."""
    while pos < end:
        key, pos = r.varint(pos, end, "TensorProto field key")
        if key == 0x08:
            d, pos = r.varint(pos, end, "dims")
            t["dims"].append(d - (1 << 64) if d >> 63 else d)
        elif key == 0x0A:  # packed dims, legal protobuf for a repeated scalar
            start, pos = r.length(pos, end, "dims")
            while start < pos:
                d, start = r.varint(start, pos, "dims")
                t["dims"].append(d - (1 << 64) if d >> 63 else d)
        elif key == 0x12:
            start, pos = r.length(pos, end, "tensor_type")
            t["type"] = r.text(start, pos, "tensor_type")
        elif key == 0x1A:
            start, pos = r.length(pos, end, "tensor_content")
            t["content"] = r.data[start:pos]
        elif key >> 3 in (1, 2, 3):
            r.fail(f"TensorProto field #{key >> 3} has wire type {key & 7}, expected "
                   f"{0 if key >> 3 == 1 else 2} (corrupt data).")
        else:
            pos = r.skip(key, pos, end, "TensorProto")


def _parse_value(r: _Reader, pos: int, end: int) -> dict[str, Any]:
    """One ``Checkpoint.Value`` -> dict(tag, kind, dims, type, content)."""
    v: dict[str, Any] = {"tag": None, "kind": None}
    t: dict[str, Any] | None = None
    while pos < end:
        key, pos = r.varint(pos, end, "Value field key")
        if key == 0x0A:
            start, pos = r.length(pos, end, "tag")
            v["tag"] = r.text(start, pos, "tag")
            r.where += f"(tag {v['tag']!r}) "
        elif key == 0x12:
            start, pos = r.length(pos, end, "tensor")
            if v["kind"] != "tensor" or t is None:  # (t is set whenever kind is "tensor")
                t = {"dims": [], "type": None, "content": None}
            v["kind"] = "tensor"
            _parse_tensor(r, start, pos, t)
        elif key == 0x1A:
            pos = r.length(pos, end, "maptensor")[1]
            v["kind"], t = "maptensor", None
        elif key >> 3 in (1, 2, 3):
            r.fail(f"Value field #{key >> 3} has wire type {key & 7}, expected 2 (corrupt data).")
        else:
            pos = r.skip(key, pos, end, "Value")
    if v["tag"] is None:
        r.fail("missing required field 'tag'.")
    if v["kind"] is None:
        r.fail("has neither a 'tensor' nor a 'maptensor' field.")
    if t is not None:
        if t["type"] is None:
            r.fail("missing required field 'tensor_type'.")
        if t["content"] is None:
            r.fail("missing required field 'tensor_content'.")
        v.update(t)
    return v


def _records(r: _Reader, end: int) -> list[dict[str, Any]]:
    """Split the buffer into Value records (the top level may only hold Checkpoint.value, field 1)."""
    out: list[dict[str, Any]] = []
    pos = 0
    while pos < end:
        r.where = f"record {len(out)} at byte {pos} "
        key, body = r.varint(pos, end, "Checkpoint field key")
        if key != 0x0A:
            hint = ""
            if pos == 0 and bytes(r.data[8:10]) in (b'{"', b"{}"):
                hint = " It looks like a safetensors file: load it with format='safetensors'."
            r.fail(f"expected Checkpoint field 'value' (key byte 0x0a), found key {key:#x}: "
                   f"not a MindSpore checkpoint, or corrupt data.{hint}")
        start, pos = r.length(body, end, "value")
        out.append(_parse_value(r, start, pos))
    return out


def _convert(r: _Reader, group: list[dict[str, Any]]) -> np.ndarray | str | bytes:
    """Consecutive records of one tag -> NumPy array, str, or bytes (``random_op``)."""
    if any(rec["kind"] == "maptensor" for rec in group):
        r.fail("is a MapTensor (MapParameter) record, which mindspore_hl does not support.")
    last = group[-1]
    tensor_type, dims = last["type"], last["dims"]
    for rec in group[:-1]:
        if rec["type"] != tensor_type:
            r.fail(f"split tensor slices disagree on tensor_type ({rec['type']!r} vs {tensor_type!r}).")
    content = last["content"] if len(group) == 1 else b"".join(rec["content"] for rec in group)
    if tensor_type == _STR:
        if len(content) % 4:
            r.fail(f"str tensor_content has {len(content)} bytes, not a multiple of 4 (UTF-32).")
        try:
            return bytes(content).decode("utf-32-le").rstrip("\0")
        except UnicodeDecodeError as e:
            r.fail(f"str tensor_content is not valid UTF-32LE ({e.reason}).")
    if tensor_type == _RANDOM_OP:
        return bytes(content)
    np_dtype = TYPE_TO_NP.get(tensor_type)
    if np_dtype is None:
        r.fail(f"unknown tensor_type {tensor_type!r}; known: {', '.join(list(TYPE_TO_NP) + [_STR])}.")
    if any(d < 0 for d in dims):
        r.fail(f"dims {dims} contain a negative size.")
    if len(dims) > 64:
        r.fail(f"dims have {len(dims)} entries; at most 64 are supported.")
    count = math.prod(dims)
    if dims == [0] and len(content) == np_dtype.itemsize:
        dims, count = [], 1  # older writers stored scalars with dims [0]
    if count * np_dtype.itemsize != len(content):
        r.fail(f"tensor_content has {len(content)} bytes, but dims {dims} of {tensor_type} need "
               f"{count * np_dtype.itemsize}.")
    try:
        if tensor_type == "Bool":  # any non-zero byte is True; keeps NumPy bools canonical
            return np.frombuffer(content, np.uint8).reshape(dims) != 0
        return np.frombuffer(content, np_dtype).reshape(dims)
    except (ValueError, OverflowError) as e:  # e.g. an empty tensor whose other dims overflow NumPy's index
        r.fail(f"dims {dims} of {tensor_type} cannot form an array ({e}).")


def parse(data: bytes | bytearray | memoryview, source: str = "<bytes>",
          crc_check: bool = False) -> list[tuple[str, Any]]:
    """Decode checkpoint bytes.

    Args:
        data: the file contents (bytes-like).
        source: the file name used in error messages.
        crc_check: verify the ``crc_num`` trailer; a missing trailer is an error (MindSpore only warns), since a
            file cut at a record boundary would otherwise load as a silent prefix.

    Returns:
        list of ``(name, value)`` in file order; value is a read-only NumPy array (a view into ``data``), a
        ``str``, or ``bytes`` for MindSpore's ``random_op`` records. Split tensors come back joined.

    Raises:
        CheckpointError (a ValueError): truncated, corrupt or not-a-checkpoint data, unknown tensor_type.
    """
    data = memoryview(data).cast("B")
    r = _Reader(data, source)
    end = len(data)
    if end >= _TRAILER and data[end - _TRAILER:end - 10] == CRC_MAGIC:
        stored = int.from_bytes(data[end - 10:], "big")
        end -= _TRAILER
        if crc_check and zlib.crc32(data[:end]) != stored:
            r.fail(f"crc check failed: the trailer says {stored} but the content's crc32 is "
                   f"{zlib.crc32(data[:end])}; the file is damaged.")
    elif crc_check:
        # A file cut at a record boundary parses as a shorter valid file: without the trailer nothing would tell.
        r.fail("crc_check=True but the file does not end with a crc_num trailer: it was cut short (an "
               "interrupted copy or write) or saved without crc_check. Load it with crc_check=False only if it "
               "was saved without one.")
    records = _records(r, end)
    out: list[tuple[str, Any]] = []
    i = 0
    while i < len(records):
        j = i + 1
        while j < len(records) and records[j]["tag"] == records[i]["tag"]:
            j += 1
        r.where = f"record {j - 1} (tag {records[i]['tag']!r}) "
        out.append((records[i]["tag"], _convert(r, records[i:j])))
        i = j
    return out


def file_kind(path: str | os.PathLike[str]) -> str | None:
    """``None`` for a regular file (or a link to one), else what ``path`` is: 'a directory', 'a FIFO'... ."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return what
    return "not a regular file"


def read(path: str | os.PathLike[str], crc_check: bool = False) -> list[tuple[str, Any]]:
    """Read a MindSpore ``.ckpt`` file; see :func:`parse` for the result and errors.

    Raises:
        CheckpointError: ``path`` is not a regular file (reading a FIFO would block) or its data is broken.
        OSError: the file cannot be read (the message names it).
    """
    path = os.fspath(path)
    try:
        kind = file_kind(path)
        if kind is not None:
            raise CheckpointError(f"{path}: is {kind}, not a checkpoint file.")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        if e.filename is not None or e.errno is None:
            raise
        raise OSError(e.errno, f"{e.strerror} while reading", path) from e
    return parse(data, source=path, crc_check=crc_check)
