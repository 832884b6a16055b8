"""Line-based file sources: ``TextFileDataset`` and ``CSVDataset``.

Like MindSpore's non-mappable readers, the file list is sorted and, without shuffling, rows come round-robin
from ``num_parallel_workers`` readers (worker ``k`` reads files ``k, k + W, ...`` one after the other), so two
files read with the default workers interleave row by row while one worker reads them back to back.
"""
from __future__ import annotations

import csv
import glob
import io
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import config
from ._sources import DatasetFormatError, MappableSource

__all__ = ["TextFileDataset", "CSVDataset", "expand_files", "interleave"]


def expand_files(op: str, dataset_files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """A pattern or a list of files -> the sorted list of existing files (errors name what is missing)."""
    if isinstance(dataset_files, (str, os.PathLike)):
        pattern = os.fspath(dataset_files)
        files = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
    elif isinstance(dataset_files, (list, tuple)) and dataset_files and \
            all(isinstance(f, (str, os.PathLike)) for f in dataset_files):
        files = sorted(os.fspath(f) for f in dataset_files)
    else:
        raise TypeError(f"{op}: dataset_files must be a str or a non-empty list of str, but got {dataset_files!r}")
    if not files:
        raise ValueError(f"{op}: no file matches {dataset_files!r}")
    for f in files:
        if not os.path.isfile(f):
            raise ValueError(f"{op}: the file {f} does not exist or is not a regular file")
    return files


def interleave(per_file: Sequence[list[Any]], workers: int) -> list[Any]:
    """Rows of each file (lists) in MindSpore's non-shuffled order for ``workers`` reader threads."""
    workers = max(1, min(workers, len(per_file)))
    streams = [[r for f in per_file[k::workers] for r in f] for k in range(workers)]
    out, pos = [], [0] * workers
    while True:
        progressed = False
        for k, s in enumerate(streams):
            if pos[k] < len(s):
                out.append(s[pos[k]])
                pos[k] += 1
                progressed = True
        if not progressed:
            return out


def _read_text(op, path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DatasetFormatError(f"{op}: cannot read {path}: {e}") from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DatasetFormatError(f"{op}: {path} is not UTF-8 text ({e})") from e


class _LineSource(MappableSource):
    """Rows read up front from small text files, addressed by index (shuffle default: True, as Shuffle.GLOBAL)."""

    def __init__(self, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id):
        op = type(self).__name__
        self.dataset_files = expand_files(op, dataset_files)
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True   # Shuffle.GLOBAL / Shuffle.FILES / Shuffle.INFILE: rows are shuffled globally here
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        self._rows = interleave([self._parse(f) for f in self.dataset_files], workers)

    def _parse(self, path):
        raise NotImplementedError

    def _length(self):
        return len(self._rows)

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        return [np.array([r[k] for r in picked]) for k in range(len(self.column_names))]


class TextFileDataset(_LineSource):
    """One row per non-empty line of text files. Column: text (str).

    Args: dataset_files (str: file or glob pattern | list of str), num_samples, num_parallel_workers,
        shuffle (bool or Shuffle, default True), num_shards, shard_id, cache (unused)."""

    def __init__(self, dataset_files: str | Sequence[str], num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        self.column_names = ["text"]
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        return [(line,) for line in _read_text("TextFileDataset", path).splitlines() if line]


class CSVDataset(_LineSource):
    """Rows of CSV files. Without ``column_names`` the first line of each file is its header.

    Columns: strings, or with ``column_defaults`` the type of each default (int -> int32, float -> float32,
    str -> str); an empty field takes its default.
    Args: dataset_files, field_delim (str, default ','), column_defaults (list), column_names (list of str),
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache (unused)."""

    def __init__(self, dataset_files: str | Sequence[str], field_delim: str = ",",
                 column_defaults: Sequence[Any] | None = None, column_names: Sequence[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in "\"\r\n":
            raise ValueError(f"CSVDataset: field_delim must be one character other than a quote or newline, but "
                             f"got {field_delim!r}")
        if column_defaults is not None and (not isinstance(column_defaults, list) or not all(
                isinstance(d, (int, float, str)) and not isinstance(d, bool) for d in column_defaults)):
            raise TypeError(f"CSVDataset: column_defaults must be a list of int, float or str, but got "
                            f"{column_defaults!r}")
        if column_names is not None and (not isinstance(column_names, list) or
                                         not all(isinstance(c, str) for c in column_names)):
            raise TypeError(f"CSVDataset: column_names must be a list of str, but got {column_names!r}")
        self.field_delim, self.column_defaults = field_delim, column_defaults
        self._given_names = column_names
        self.column_names = None  # type: ignore[assignment]  # set from the header by _parse
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        if self.column_names is None:
            raise DatasetFormatError(f"CSVDataset: {self.dataset_files[0]} is empty; it has no header line")

    def _convert(self, path, line_no, k, text):
        if self.column_defaults is None:
            return text
        default = self.column_defaults[k]
        if text == "":
            value = default
        elif isinstance(default, str):
            return text
        else:
            try:
                value = int(text) if isinstance(default, int) else float(text)
            except ValueError:
                raise DatasetFormatError(f"CSVDataset: {path} line {line_no}: field {k} {text!r} is not a "
                                         f"{type(default).__name__} like its column default") from None
        return np.int32(value) if isinstance(default, int) else np.float32(value) \
            if isinstance(default, float) else value

    def _parse(self, path):
        reader = csv.reader(io.StringIO(_read_text("CSVDataset", path)), delimiter=self.field_delim)
        lines = [(n + 1, r) for n, r in enumerate(reader) if r]
        if self._given_names is None:
            if not lines:
                return []
            names = lines.pop(0)[1]
        else:
            names = self._given_names
        if self.column_names is None:
            self.column_names = list(names)
        elif list(names) != self.column_names:
            raise DatasetFormatError(f"CSVDataset: {path} has columns {names}, but the first file has "
                                     f"{self.column_names}")
        if self.column_defaults is not None and len(self.column_defaults) != len(names):
            raise ValueError(f"CSVDataset: {len(self.column_defaults)} column_defaults for {len(names)} columns "
                             f"{list(names)}")
        out = []
        for line_no, fields in lines:
            if len(fields) != len(names):
                raise DatasetFormatError(f"CSVDataset: {path} line {line_no} has {len(fields)} fields, but there "
                                         f"are {len(names)} columns {list(names)}")
            out.append(tuple(self._convert(path, line_no, k, f) for k, f in enumerate(fields)))
        return out
