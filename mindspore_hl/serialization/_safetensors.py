"""The safetensors format (https://github.com/huggingface/safetensors), written with json + NumPy.

Layout: 8-byte little-endian header length N, N bytes of UTF-8 JSON (padded with spaces to a multiple of 8),
then the raw little-endian C-order tensor bytes. The header maps each name to ``{"dtype", "shape",
"data_offsets": [begin, end]}`` (offsets relative to the data section, which must be covered with no holes or
overlaps) plus an optional ``"__metadata__"`` str -> str map. MindSpore writes ``{"format": "ms"}`` there.
"""
from __future__ import annotations

import json
import math
import os
import zlib
from collections.abc import Iterable
from typing import Any, NoReturn

import ml_dtypes
import numpy as np

from ._atomic import atomic_open

__all__ = ["SafetensorsError", "read", "write", "ST_TO_NP"]

ST_TO_NP = {
    "BOOL": np.dtype("?"), "U8": np.dtype("u1"), "I8": np.dtype("i1"), "I16": np.dtype("<i2"),
    "U16": np.dtype("<u2"), "F16": np.dtype("<f2"), "BF16": np.dtype(ml_dtypes.bfloat16),
    "I32": np.dtype("<i4"), "U32": np.dtype("<u4"), "F32": np.dtype("<f4"), "F64": np.dtype("<f8"),
    "I64": np.dtype("<i8"), "U64": np.dtype("<u8"),
}
_NP_TO_ST = {dt: name for name, dt in ST_TO_NP.items()}
_MAX_HEADER = 100 * 1024 * 1024  # the reference implementation's limit
_METADATA = "__metadata__"


class SafetensorsError(ValueError):
    """A safetensors file is truncated, corrupt or not a safetensors file."""


def write(path: str | os.PathLike[str], tensors: Iterable[tuple[str, Any]], metadata: dict[str, str] | None = None,
          crc_key: str | None = None) -> None:
    """Write a safetensors file atomically.

    Args:
        path: the file name.
        tensors: iterable of ``(name, NumPy array)``; they are stored sorted by name.
        metadata: optional str -> str dict for ``__metadata__``.
        crc_key: if given, also store ``str(crc32 of the tensors' bytes in name order)`` under this metadata key
            (MindSpore's ``crc_num``).
    """
    entries: list[tuple[str, str, np.ndarray]] = []
    for name, value in tensors:
        arr = np.asarray(value)
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        code = _NP_TO_ST.get(arr.dtype)
        if code is None:
            raise TypeError(f"safetensors entry {name!r}: dtype {arr.dtype} is not supported; "
                            f"supported: {', '.join(str(d) for d in _NP_TO_ST)}.")
        if name == _METADATA:
            raise ValueError(f"safetensors entry name {_METADATA!r} is reserved for metadata.")
        entries.append((name, code, arr))
    entries.sort(key=lambda e: e[0])
    if len({e[0] for e in entries}) != len(entries):
        raise ValueError("safetensors entries must have distinct names.")
    metadata = dict(metadata or {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise TypeError("safetensors metadata must map str to str.")
    bufs = [np.ascontiguousarray(arr).reshape(-1).view(np.uint8).data for _, _, arr in entries]
    if crc_key is not None:
        crc = 0
        for buf in bufs:
            crc = zlib.crc32(buf, crc)
        metadata[crc_key] = str(crc)
    header: dict[str, Any] = {_METADATA: metadata} if metadata else {}
    offset = 0
    for name, code, arr in entries:
        header[name] = {"dtype": code, "shape": list(arr.shape), "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    head += b" " * (-len(head) % 8)
    with atomic_open(path) as f:
        f.write(len(head).to_bytes(8, "little"))
        f.write(head)
        for buf in bufs:
            f.write(buf)


def read(path: str | os.PathLike[str],
         with_crc: bool = False) -> tuple[list[tuple[str, np.ndarray]], dict[str, str], int | None]:
    """Read a safetensors file.

    Args:
        path: the file name.
        with_crc: also compute the crc32 of the tensors' bytes in name order (MindSpore's ``crc_num``).

    Returns:
        ``(tensors, metadata, crc)``: list of ``(name, read-only NumPy array)`` sorted by name (MindSpore's
        order), the ``__metadata__`` dict (empty when absent), and the crc32 (None unless ``with_crc``).

    Raises:
        SafetensorsError (a ValueError) naming the file and the broken part.
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()

    def fail(msg: str) -> NoReturn:
        raise SafetensorsError(f"{path}: {msg}")

    if len(data) < 8:
        fail(f"only {len(data)} bytes; a safetensors file starts with an 8-byte header length.")
    n = int.from_bytes(data[:8], "little")
    if n > _MAX_HEADER:
        fail(f"header length {n} exceeds the {_MAX_HEADER}-byte limit (not a safetensors file?).")
    if 8 + n > len(data):
        fail(f"header length {n} runs past the end of the {len(data)}-byte file (truncated?).")
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        fail(f"header is not valid UTF-8 JSON ({e}).")
    if not isinstance(header, dict):
        fail(f"header must be a JSON object, got {type(header).__name__}.")
    metadata = header.pop(_METADATA, None)
    metadata = {} if metadata is None else metadata
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        fail(f"'{_METADATA}' must map str to str.")
    body = memoryview(data)[8 + n:]
    spans, out = [], []
    for name in sorted(header):
        info = header[name]
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            fail(f"tensor {name!r}: entry must have exactly 'dtype', 'shape' and 'data_offsets'.")
        dtype = ST_TO_NP.get(info["dtype"]) if isinstance(info["dtype"], str) else None
        if dtype is None:
            fail(f"tensor {name!r}: unsupported dtype {info['dtype']!r}; known: {', '.join(ST_TO_NP)}.")
        shape, offs = info["shape"], info["data_offsets"]
        if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape) or len(shape) > 64:
            fail(f"tensor {name!r}: shape {shape!r} must be a list of at most 64 non-negative integers.")
        if (not isinstance(offs, list) or len(offs) != 2 or not all(type(o) is int for o in offs)
                or not 0 <= offs[0] <= offs[1] <= len(body)):
            fail(f"tensor {name!r}: data_offsets {offs!r} must be [begin, end] within the "
                 f"{len(body)}-byte data section (truncated file?).")
        need = math.prod(shape) * dtype.itemsize
        if offs[1] - offs[0] != need:
            fail(f"tensor {name!r}: data_offsets span {offs[1] - offs[0]} bytes, but shape {shape} of "
                 f"{info['dtype']} needs {need}.")
        spans.append(offs)
        raw = body[offs[0]:offs[1]]
        arr = np.frombuffer(raw, np.uint8) != 0 if info["dtype"] == "BOOL" else np.frombuffer(raw, dtype)
        out.append((name, arr.reshape(shape)))
    pos = 0
    for begin, end in sorted(spans):
        if begin != pos:
            fail(f"data section has a {'hole' if begin > pos else 'overlap'} at byte {min(begin, pos)}.")
        pos = end
    if pos != len(body):
        fail(f"data section has {len(body) - pos} trailing bytes no tensor refers to.")
    crc = None
    if with_crc:
        crc = 0
        for begin, end in spans:  # name order, as written
            crc = zlib.crc32(body[begin:end], crc)
    return out, metadata, crc
