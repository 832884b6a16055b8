"""``FileReader`` and the shard reader under ``MindDataset``: rows of MindRecord files located through their
SQLite indexes (see ``_format`` for the layout)."""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import threading
from typing import Any, Iterator, Sequence

import numpy as np

from ._format import FormatError, blob_fields_of, compresses_ints, uncompress_int, unpack

__all__ = ["FileReader", "ShardSet"]

_NP = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


def read_header(path: str) -> dict[str, Any]:
    """The header document of one shard file. Raises FormatError naming ``path``."""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise FormatError(f"{path}: not a MindRecord file ({len(head)} bytes, no header length)")
            n = struct.unpack("<Q", head)[0]
            body = f.read(n) if n < (1 << 28) else b""
    except OSError as e:
        raise FormatError(f"{path}: cannot read the MindRecord file: {e}") from e
    if len(body) != n:
        raise FormatError(f"{path}: not a MindRecord file (its header says {n} bytes of header JSON)")
    try:
        doc = json.loads(body)
        doc["schema"][0]["schema"], doc["page_size"], doc["header_size"], doc["shard_addresses"]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise FormatError(f"{path}: not a MindRecord file (bad header: {type(e).__name__}: {e})") from e
    return doc


class _Shard:
    def __init__(self, path):
        self.path = path
        self.header = read_header(path)
        db_path = path + ".db"
        if not os.path.isfile(db_path):
            raise FormatError(f"{path}: its index file {db_path} is missing (MindRecord shards need their .db)")
        try:
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            try:
                self.index = db.execute("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, "
                                        "PAGE_ID_BLOB, PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END FROM INDEXES "
                                        "ORDER BY ROW_ID").fetchall()
            finally:
                db.close()
        except sqlite3.Error as e:
            raise FormatError(f"{db_path}: not a MindRecord index ({e})") from e
        self._local = threading.local()

    def _file(self):
        f = getattr(self._local, "f", None)
        if f is None:
            f = self._local.f = open(self.path, "rb")
        return f

    def _entry(self, page_id, start, end):
        off = self.header["header_size"] + page_id * self.header["page_size"] + start
        f = self._file()
        f.seek(off)
        data = f.read(end - start)
        if len(data) != end - start or struct.unpack_from("<Q", data)[0] != end - start - 8:
            raise FormatError(f"{self.path}: truncated or corrupt page {page_id} at bytes {start}-{end}")
        return memoryview(data)[8:]

    def row(self, i):
        _, p_raw, s_raw, e_raw, p_blob, s_blob, e_blob = self.index[i]
        return self._entry(p_raw, s_raw, e_raw), self._entry(p_blob, s_blob, e_blob)


class ShardSet:
    """Every row of a MindRecord dataset: one file (with all shards it names) or an explicit list of shards."""

    def __init__(self, dataset_files: str | os.PathLike | Sequence[str | os.PathLike], op: str = "MindDataset") -> None:
        if isinstance(dataset_files, (str, os.PathLike)):
            first = os.fspath(dataset_files)
            if not os.path.isfile(first):
                raise ValueError(f"{op}: the MindRecord file {first} does not exist")
            names = read_header(first)["shard_addresses"]
            folder = os.path.dirname(os.path.abspath(first))
            paths = [os.path.join(folder, os.path.basename(n)) for n in names]
        elif isinstance(dataset_files, (list, tuple)) and dataset_files and \
                all(isinstance(p, (str, os.PathLike)) for p in dataset_files):
            paths = [os.fspath(p) for p in dataset_files]
        else:
            raise TypeError(f"{op}: dataset_files must be a str or a non-empty list of str, but got "
                            f"{dataset_files!r}")
        for p in paths:
            if not os.path.isfile(p):
                raise ValueError(f"{op}: the MindRecord shard {p} does not exist")
        self.shards = [_Shard(p) for p in paths]
        spec = self.shards[0].header["schema"][0]
        self.schema = spec["schema"]
        self.blob_fields = spec.get("blob_fields", blob_fields_of(self.schema))
        for s in self.shards[1:]:
            if s.header["schema"][0]["schema"] != self.schema:
                raise FormatError(f"{op}: {s.path} has a different schema than {self.shards[0].path}")
        self.compressed = compresses_ints(self.schema)
        self.locations = [(k, i) for k, s in enumerate(self.shards) for i in range(len(s.index))]

    def __len__(self):
        return len(self.locations)

    def _blob_parts(self, blob):
        if len(self.blob_fields) == 1:
            return {self.blob_fields[0]: blob}
        out, pos = {}, 0
        for name in self.blob_fields:
            n = struct.unpack_from(">Q", blob, pos)[0]
            out[name] = blob[pos + 8:pos + 8 + n]
            pos += 8 + n
        return out

    def _value(self, name, raw, blobs, path, numpy):
        spec = self.schema[name]
        t = spec["type"]
        if name in blobs:
            data = blobs[name]
            if t == "bytes":
                return np.frombuffer(bytes(data), np.uint8) if numpy else bytes(data)
            if self.compressed and t in ("int32", "int64"):
                arr = uncompress_int(bytes(data), _NP[t])
            else:
                arr = np.frombuffer(bytes(data), np.dtype(_NP[t]).newbyteorder("<")).astype(_NP[t], copy=False)
            shape = spec.get("shape", [-1])
            try:
                return arr.reshape(shape)
            except ValueError:
                raise FormatError(f"{path}: field {name!r} holds {arr.size} values, not shape {shape}") from None
        if name not in raw:
            raise FormatError(f"{path}: a row has no value for field {name!r}")
        v = raw[name]
        if t == "string":
            return np.array(v) if numpy else v
        if t == "bytes":
            return np.frombuffer(v if isinstance(v, bytes) else str(v).encode(), np.uint8) if numpy else v
        return np.array(v, dtype=_NP[t]) if numpy else _NP[t](v).item()

    def read(self, j: int, columns: Sequence[str], numpy: bool = True) -> list[Any]:
        """Row ``j`` (over all shards) as a list of values for ``columns``."""
        k, i = self.locations[j]
        shard = self.shards[k]
        try:
            raw_bytes, blob = shard.row(i)
            raw = unpack(raw_bytes)
            blobs = self._blob_parts(blob) if self.blob_fields else {}
        except (ValueError, struct.error, IndexError) as e:
            raise FormatError(f"{shard.path}: row {i} is corrupt: {e}") from e
        return [self._value(c, raw, blobs, shard.path, numpy) for c in columns]


class FileReader:
    """Read the rows of MindRecord files as dicts.

    Args: file_name (str | list[str]): one shard (every shard its header names is read) or a list of shards.
        num_consumer (int): accepted for compatibility (rows are read on the calling thread).
        columns (list[str]): the fields to return (default: all). operator: unused.

    >>> import os, tempfile, numpy as np
    >>> from mindspore_hl.mindrecord import FileWriter
    >>> path = os.path.join(tempfile.mkdtemp(), "demo.mindrecord")
    >>> w = FileWriter(path); _ = w.add_schema({"label": {"type": "int32"}}); w.write_raw_data([{"label": 7}])
    >>> w.commit()
    >>> [row["label"] for row in FileReader(path).get_next()]
    [7]
    """

    def __init__(self, file_name: str | list[str], num_consumer: int = 4, columns: list[str] | None = None,
                 operator: Any = None) -> None:
        self._set = ShardSet(file_name, "FileReader")
        names = list(self._set.schema)
        if columns is not None:
            if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
                raise TypeError(f"FileReader: columns must be a list of str, but got {columns!r}")
            bad = [c for c in columns if c not in self._set.schema]
            if bad:
                raise ValueError(f"FileReader: columns {bad} are not fields of the schema {sorted(names)}")
            names = columns
        self._columns = names

    def get_next(self) -> Iterator[dict[str, Any]]:
        """Yield each row as ``{field: value}`` (ints, floats, str, bytes, ndarrays)."""
        for j in range(len(self._set)):
            yield dict(zip(self._columns, self._set.read(j, self._columns, numpy=False)))

    def schema(self) -> dict:
        return {k: dict(v) for k, v in self._set.schema.items()}

    def len(self) -> int:
        return len(self._set)

    def close(self) -> None:
        """Nothing to release: files are opened per read."""
