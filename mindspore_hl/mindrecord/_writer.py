"""``FileWriter``: write rows into MindRecord shard files and their SQLite indexes (readable by MindSpore)."""

from __future__ import annotations

import os
import re
import sqlite3
import struct
from typing import Any

import numpy as np

from ._format import ARRAY_TYPES, SCALAR_TYPES, blob_fields_of, compress_int, compresses_ints, header_json, pack

__all__ = ["FileWriter"]

_MIN_HEADER, _MAX_HEADER = 16 * 1024, 128 * 1024 * 1024
_MIN_PAGE, _MAX_PAGE = 32 * 1024, 256 * 1024 * 1024
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}


def check_schema(content: dict[str, dict[str, Any]]) -> None:
    """MindSpore's schema rules: field names of [0-9a-zA-Z_]; scalar types, or an array type with a shape."""
    if not content or not isinstance(content, dict):
        raise ValueError(f"FileWriter.add_schema: the schema must be a non-empty dict, but got {content!r}")
    for k, v in content.items():
        if not isinstance(k, str) or not re.match(r"^[0-9a-zA-Z_]+$", k):
            raise ValueError(f"FileWriter.add_schema: field {k!r} should be composed of '0-9' or 'a-z' or "
                             f"'A-Z' or '_'")
        if not isinstance(v, dict) or "type" not in v or set(v) - {"type", "shape"}:
            raise ValueError(f"FileWriter.add_schema: field {k!r} needs {{'type': ...}} or {{'type': ..., "
                             f"'shape': [...]}}, but got {v!r}")
        if "shape" in v:
            shape = v["shape"]
            if v["type"] not in ARRAY_TYPES or not isinstance(shape, list) or not shape or \
                    not all(isinstance(d, int) and (d > 0 or d == -1) for d in shape) or shape.count(-1) > 1:
                raise ValueError(f"FileWriter.add_schema: field {k!r}: an array needs a type in {ARRAY_TYPES} and "
                                 f"a shape list of positive ints with at most one -1, but got {v!r}")
        elif v["type"] not in SCALAR_TYPES:
            raise ValueError(f"FileWriter.add_schema: field {k!r} has type {v['type']!r}; expected one of "
                             f"{SCALAR_TYPES}")


class _Shard:
    """One shard file being written. Each ``write_raw_data`` batch is laid out as MindSpore's ShardWriter does:
    rows are cut into row groups that fit a page, the first group goes on the open blob page, each further group
    on a new blob page, and then the raw entries of all groups go on raw pages (a new one when full)."""

    def __init__(self, path, header_size, page_size):
        self.path = path
        self.f = open(path, "wb")
        self.header_size, self.page_size = header_size, page_size
        self.pages: list[dict[str, Any]] = []   # header entries, by page id
        self.blob: Any = None    # the last blob page: [entry, bytearray]
        self.raw: Any = None     # the last raw page
        self.last_group = -1     # the last row group id given out on a raw page
        self.rows: list[Any] = []   # index rows
        self.end = header_size

    def _open(self, kind, type_id, **fields):
        entry = {"end_row_id": 0, "page_id": len(self.pages), "page_size": 0, "page_type": kind,
                 "page_type_id": type_id, "row_group_ids": [], "shard_id": 0, "start_row_id": 0}
        entry.update(fields)
        self.pages.append(entry)
        return [entry, bytearray()]

    def _flush(self, page):
        entry, data = page
        entry["page_size"] = len(data)
        off = self.header_size + entry["page_id"] * self.page_size
        self.f.seek(off)
        self.f.write(data)
        self.end = max(self.end, off + len(data))

    def add_batch(self, entries):
        """``entries``: (blob, raw, index values) per row, in order."""
        if not entries:
            return
        blobs = [struct.pack("<Q", len(b)) + b for b, _, _ in entries]
        raws = [struct.pack("<Q", len(r)) + r for _, r, _ in entries]
        for b, r in zip(blobs, raws):
            if len(b) > self.page_size or len(r) > self.page_size:
                raise ValueError(f"FileWriter: a row of {max(len(b), len(r))} bytes does not fit a page of "
                                 f"{self.page_size} bytes; call set_page_size with a larger size")
        # cut into row groups; group 0 continues the open blob page (empty when there is none)
        n_blob = len(self.blob[1]) if self.blob else 0
        n_raw = len(self.raw[1]) - self.raw[0]["row_group_ids"][-1]["offset"] \
            if self.raw and self.raw[0]["row_group_ids"] else (len(self.raw[1]) if self.raw else 0)
        groups, start = [], 0
        for i, (b, r) in enumerate(zip(blobs, raws)):
            if n_blob == 0 or n_blob + len(b) > self.page_size or n_raw + len(r) > self.page_size:
                groups.append((start, i))
                start, n_blob, n_raw = i, len(b), len(r)
            else:
                n_blob += len(b)
                n_raw += len(r)
        groups.append((start, len(entries)))
        if groups[0][1] > groups[0][0] and self.raw is not None and \
                len(self.raw[1]) + sum(len(r) for r in raws[slice(*groups[0])]) > self.page_size:
            # MindSpore would move the open raw row group to a new page; starting a new group is equivalent
            groups = [(0, 0), (0, groups[0][1])] + groups[1:]
        first_row = self.blob[0]["end_row_id"] if self.blob else 0
        placed = {}              # row -> (blob page entry, offset)
        for k, (a, z) in enumerate(groups):
            if a == z:
                continue
            if k > 0:
                if self.blob is not None:
                    self._flush(self.blob)
                type_id = self.blob[0]["page_type_id"] + 1 if self.blob else 0
                row0 = self.blob[0]["end_row_id"] if self.blob else first_row
                self.blob = self._open("BLOB_DATA", type_id, start_row_id=row0, end_row_id=row0,
                                       row_group_ids=[{"id": 0, "offset": 0}])
            entry, data = self.blob
            for i in range(a, z):
                placed[i] = (entry, len(data))
                data += blobs[i]
            entry["end_row_id"] += z - a
        for k, (a, z) in enumerate(groups):
            if a == z:
                continue
            size = sum(len(r) for r in raws[a:z])
            if self.raw is None or len(self.raw[1]) + size > self.page_size:
                if self.raw is not None:
                    self._flush(self.raw)
                self.raw = self._open("RAW_DATA", self.raw[0]["page_id"] + 1 if self.raw else 0)
            entry, data = self.raw
            if k > 0:
                self.last_group += 1
                entry["row_group_ids"].append({"id": self.last_group, "offset": len(data)})
            for i in range(a, z):
                b_entry, b_off = placed[i]
                self.rows.append((len(self.rows), entry["page_id"], len(data), len(data) + len(raws[i]),
                                  b_entry["page_type_id"], b_entry["page_id"], b_off, b_off + len(blobs[i]),
                                  entries[i][2]))
                data += raws[i]

    def finish(self):
        """Write the open pages (their sizes go into the header)."""
        for page in (self.blob, self.raw):
            if page is not None:
                self._flush(page)
        self.blob = self.raw = None

    def close(self, header):
        if len(header) + 8 > self.header_size:
            raise ValueError(f"FileWriter: the header of {self.path} needs {len(header) + 8} bytes, more than "
                             f"header_size {self.header_size}; call set_header_size with a larger size")
        self.f.seek(0)
        self.f.write(struct.pack("<Q", len(header)) + header)
        self.f.truncate(self.end)
        self.f.close()


class FileWriter:
    """Write rows into MindRecord files that real MindSpore (and ``MindDataset`` / ``FileReader``) reads.

    Args: file_name (str): the file, or with ``shard_num > 1`` the prefix of ``file_name0``, ``file_name1``...
        shard_num (int): 1 to 1000 shard files; rows of each ``write_raw_data`` call are spread over them in
        contiguous runs. overwrite (bool): replace existing files (otherwise an existing file is an error).

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "demo.mindrecord")
    >>> w = FileWriter(path)
    >>> _ = w.add_schema({"label": {"type": "int32"}, "x": {"type": "float32", "shape": [2]}}, "demo")
    >>> w.write_raw_data([{"label": 3, "x": np.array([1.5, 2.0], np.float32)}])
    >>> w.commit()
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False) -> None:
        if not isinstance(file_name, str) or not file_name:
            raise ValueError(f"FileWriter: file_name must be a non-empty str, but got {file_name!r}")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or not 1 <= shard_num <= 1000:
            raise ValueError(f"FileWriter: shard_num should be an int between 1 and 1000, but got {shard_num!r}")
        if not isinstance(overwrite, bool):
            raise ValueError(f"FileWriter: overwrite must be a bool, but got {overwrite!r}")
        width = len(str(shard_num - 1))
        self._paths = [file_name] if shard_num == 1 else \
            [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)]
        for p in self._paths:
            for q in (p, p + ".db"):
                if os.path.exists(q):
                    if not overwrite:
                        raise RuntimeError(f"FileWriter: {q} already exists; pass overwrite=True to replace it")
                    os.remove(q)
        self._header_size, self._page_size = 1 << 24, 1 << 25
        # None until add_schema / add_index / the first write: typed as what the writing code reads
        self._schema: dict[str, dict[str, Any]] = None  # type: ignore[assignment]
        self._desc = ""
        self._index_fields: list[str] = None  # type: ignore[assignment]
        self._shards: list[_Shard] = None  # type: ignore[assignment]
        self._compression = 0
        self._committed = False

    def set_header_size(self, header_size: int) -> None:
        """Header area of each shard in bytes, 16 KB to 128 MB (default 16 MB)."""
        if isinstance(header_size, bool) or not isinstance(header_size, int) or \
                not _MIN_HEADER <= header_size <= _MAX_HEADER:
            raise ValueError(f"FileWriter.set_header_size: header_size should be between 16KB and 128MB, but got "
                             f"{header_size!r}")
        self._check_not_started("set_header_size")
        self._header_size = header_size

    def set_page_size(self, page_size: int) -> None:
        """Page size in bytes, 32 KB to 256 MB (default 32 MB)."""
        if isinstance(page_size, bool) or not isinstance(page_size, int) or not _MIN_PAGE <= page_size <= _MAX_PAGE:
            raise ValueError(f"FileWriter.set_page_size: page_size should be between 32KB and 256MB, but got "
                             f"{page_size!r}")
        self._check_not_started("set_page_size")
        self._page_size = page_size

    def _check_not_started(self, what):
        if self._shards is not None:
            raise RuntimeError(f"FileWriter.{what}: rows were already written")

    def add_schema(self, content: dict, desc: str | None = None) -> int:
        """Describe the fields: ``{name: {"type": t}}`` or ``{name: {"type": t, "shape": [...]}}``. Returns 0."""
        if self._schema is not None:
            raise RuntimeError("FileWriter.add_schema: a MindRecord file holds one schema; it was already added")
        check_schema(content)
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = "" if desc is None else str(desc)
        return 0

    def add_index(self, index_fields: list) -> None:
        """Fields (scalar int, float or string) to index; by default every scalar field is."""
        if not index_fields or not isinstance(index_fields, list):
            raise TypeError(f"FileWriter.add_index: index_fields must be a non-empty list, but got {index_fields!r}")
        if self._schema is None:
            raise RuntimeError("FileWriter.add_index: call add_schema first")
        blob = blob_fields_of(self._schema)
        for f in index_fields:
            if not isinstance(f, str) or f not in self._schema:
                raise ValueError(f"FileWriter.add_index: {f!r} is not a field of the schema {sorted(self._schema)}")
            if f in blob or self._schema[f]["type"] == "bytes":
                raise ValueError(f"FileWriter.add_index: failed to set field {f} since it's not primitive type")
        self._index_fields = list(index_fields)

    def _start(self):
        if self._schema is None:
            raise RuntimeError("FileWriter.write_raw_data: call add_schema first")
        self._blob_fields = blob_fields_of(self._schema)
        self._raw_fields = [k for k in sorted(self._schema) if k not in self._blob_fields]
        if self._index_fields is None:
            self._index_fields = list(self._raw_fields)
        self._compress = compresses_ints(self._schema)
        self._shards = [_Shard(p, self._header_size, self._page_size) for p in self._paths]

    def _encode_field(self, name, value, i):
        spec = self._schema[name]
        t = spec["type"]
        if "shape" not in spec:
            if t == "bytes":
                if not isinstance(value, (bytes, bytearray)):
                    raise TypeError(f"FileWriter.write_raw_data: row {i}, field {name!r}: expected bytes, but got "
                                    f"{type(value).__name__}")
                return bytes(value)
            if t == "string":
                if not isinstance(value, str):
                    raise TypeError(f"FileWriter.write_raw_data: row {i}, field {name!r}: expected str, but got "
                                    f"{type(value).__name__}")
                return value
            ok = isinstance(value, (int, np.integer)) if t.startswith("int") else \
                isinstance(value, (int, float, np.integer, np.floating))
            if isinstance(value, bool) or not ok:
                raise TypeError(f"FileWriter.write_raw_data: row {i}, field {name!r}: expected a {t} number, but "
                                f"got {value!r}")
            if t.startswith("int"):
                info = np.iinfo(t)
                if not info.min <= int(value) <= info.max:
                    raise ValueError(f"FileWriter.write_raw_data: row {i}, field {name!r}: {value} is out of "
                                     f"range for {t}")
                return int(value)
            return float(value)
        if not isinstance(value, np.ndarray) or value.dtype != np.dtype(t):
            got = f"ndarray of {value.dtype}" if isinstance(value, np.ndarray) else type(value).__name__
            raise TypeError(f"FileWriter.write_raw_data: row {i}, field {name!r}: expected an ndarray of {t}, "
                            f"but got {got}")
        try:
            np.reshape(value, spec["shape"])
        except ValueError:
            raise ValueError(f"FileWriter.write_raw_data: row {i}, field {name!r}: shape {value.shape} does not "
                             f"match the schema shape {spec['shape']}") from None
        data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False).tobytes()
        if self._compress and t in ("int32", "int64"):
            packed = compress_int(value)
            self._row_saving += len(data) - len(packed)
            return packed
        return data

    def _encode_row(self, row, i):
        if not isinstance(row, dict):
            raise TypeError(f"FileWriter.write_raw_data: row {i} must be a dict, but got {type(row).__name__}")
        missing = [k for k in self._schema if k not in row]
        if missing:
            raise ValueError(f"FileWriter.write_raw_data: row {i} has no field(s) {missing} of the schema")
        self._row_saving = 0
        raw = {k: self._encode_field(k, row[k], i) for k in self._raw_fields}
        blobs = [self._encode_field(k, row[k], i) for k in self._blob_fields]
        if not blobs:
            blob = bytes(4)   # what MindSpore stores for a schema without blob fields
        elif len(blobs) == 1:
            blob = blobs[0]
        else:
            blob = b"".join(struct.pack(">Q", len(b)) + b for b in blobs)
        self._compression += self._row_saving
        return blob, pack(raw), [raw[k] for k in self._index_fields]

    def write_raw_data(self, raw_data: list, parallel_writer: bool = False) -> None:
        """Append rows (dicts of field -> value: int/float/str/bytes, or ndarrays of the schema dtype)."""
        if self._committed:
            raise RuntimeError("FileWriter.write_raw_data: the writer was already committed")
        if isinstance(raw_data, dict):
            raw_data = [raw_data]
        if not isinstance(raw_data, list):
            raise TypeError(f"FileWriter.write_raw_data: raw_data must be a list of dicts, but got "
                            f"{type(raw_data).__name__}")
        if self._shards is None:
            self._start()
        encoded = [self._encode_row(r, i) for i, r in enumerate(raw_data)]
        n, k = len(encoded), len(self._shards)
        start = 0
        for s, shard in enumerate(self._shards):
            count = n // k + (1 if s < n % k else 0)
            shard.add_batch(encoded[start:start + count])
            start += count

    def commit(self) -> None:
        """Write the headers and the SQLite index files; the shards are complete afterwards."""
        if self._committed:
            raise RuntimeError("FileWriter.commit: already committed")
        if self._shards is None:
            self._start()
        names = [os.path.basename(p) for p in self._paths]
        for sid, shard in enumerate(self._shards):
            shard.finish()
            for page in shard.pages:
                page["shard_id"] = sid
            header = header_json(self._header_size, self._page_size, self._index_fields, shard.pages,
                                 max(self._compression, 0), self._schema, self._desc, self._blob_fields, names, sid)
            shard.close(header)
            self._write_index(shard)
        self._committed = True

    def _write_index(self, shard):
        cols = "".join(f",INC_{i} INT, {f}_0 {_SQL_TYPES[self._schema[f]['type']]}"
                       for i, f in enumerate(self._index_fields))
        keys = "".join(f",INC_{i}" for i in range(len(self._index_fields)))
        db = sqlite3.connect(shard.path + ".db")
        try:
            db.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT "
                       "NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID  "
                       "       INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT "
                       f"NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL{cols}, PRIMARY KEY(ROW_ID{keys}))")
            db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
            db.execute("INSERT INTO SHARD_NAME VALUES (?)", (os.path.basename(shard.path),))
            width = 8 + 2 * len(self._index_fields)
            rows = [r[:8] + tuple(x for v in r[8] for x in (0, v)) for r in shard.rows]
            db.executemany(f"INSERT INTO INDEXES VALUES ({','.join('?' * width)})", rows)
            db.commit()
        finally:
            db.close()
