"""``MindDataset``: rows of MindRecord files (see ``mindspore_hl.mindrecord``)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..mindrecord._format import FormatError
from ..mindrecord._reader import ShardSet
from ._block import column_from_rows
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource

__all__ = ["MindDataset"]


class MindDataset(MappableSource):
    """Rows of MindRecord files written by ``mindrecord.FileWriter`` (here or in MindSpore).

    Columns: the schema's fields in sorted order (or ``columns_list``): scalars as 0-d arrays of their type,
    strings as 0-d str arrays, bytes fields as a (1,) array of dtype ``S<n>`` (as MindSpore gives them; ``Decode``
    takes it), arrays in their schema shape.
    Args: dataset_files (str: one shard, every shard it names is read | list of shards), columns_list (list),
        num_parallel_workers, shuffle (bool, default True), num_shards, shard_id, sampler, padded_sample (dict:
        a row appended ``num_padded`` times, to even out shards), num_padded (int), num_samples, cache (unused)."""

    _parallel_read = True

    def __init__(self, dataset_files: str | Sequence[str], columns_list: Sequence[str] | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, sampler: Sampler | Iterable[int] | None = None,
                 padded_sample: dict[str, Any] | None = None, num_padded: int | None = None,
                 num_samples: int | None = None, cache: Any = None):
        try:
            self._set = ShardSet(dataset_files, "MindDataset")
        except FormatError as e:
            raise DatasetFormatError(f"MindDataset: {e}") from e
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        names = sorted(self._set.schema)
        if columns_list is not None:
            if not isinstance(columns_list, list) or not columns_list or \
                    not all(isinstance(c, str) for c in columns_list):
                raise TypeError(f"MindDataset: columns_list must be a non-empty list of str, but got "
                                f"{columns_list!r}")
            bad = [c for c in columns_list if c not in self._set.schema]
            if bad:
                raise ValueError(f"MindDataset: columns_list {bad} are not fields of the schema {names}")
            names = list(columns_list)
        self.column_names = names
        if (padded_sample is None) != (num_padded is None or num_padded == 0):
            raise ValueError("MindDataset: padded_sample and num_padded must be given together")
        self._padded: tuple[list[Any], int] | None = None
        if padded_sample is not None:
            if not isinstance(padded_sample, dict) or set(names) - set(padded_sample):
                raise ValueError(f"MindDataset: padded_sample must be a dict with the columns {names}")
            if isinstance(num_padded, bool) or not isinstance(num_padded, int) or num_padded < 0:
                raise ValueError(f"MindDataset: num_padded must be a non-negative int, but got {num_padded!r}")
            self._padded = ([self._pad_value(c, padded_sample[c]) for c in names], num_padded)

    def _pad_value(self, name, value):
        if self._set.schema[name]["type"] == "bytes":
            data = bytes(value)
            return np.array([data], dtype=f"S{max(len(data), 1)}")
        return np.asarray(value)

    def _length(self):
        return len(self._set) + (self._padded[1] if self._padded else 0)

    def _value(self, j):
        if j >= len(self._set):
            return self._padded[0]  # type: ignore[index]  # rows past the files exist only when padded
        values = self._set.read(j, self.column_names)
        for k, c in enumerate(self.column_names):
            if self._set.schema[c]["type"] == "bytes":
                data = values[k].tobytes()
                values[k] = np.array([data], dtype=f"S{max(len(data), 1)}")
        return values

    def _read(self, ids):
        try:
            rows = [self._value(int(j)) for j in ids]
        except FormatError as e:
            raise DatasetFormatError(f"MindDataset: {e}") from e
        return [column_from_rows([r[k] for r in rows]) for k in range(len(self.column_names))]
