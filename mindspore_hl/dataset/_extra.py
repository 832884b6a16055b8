"""More pipeline operations: filter, padded batching, bucketing by length, flat_map, and ``save`` to MindRecord."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..mindrecord import FileWriter
from ._block import nrows, object_column, rows, take
from ._context import ordered_map
from ._dataset import Dataset, check_workers, column_list, default_workers
from .transforms._ops import op_name

__all__ = ["FilterDataset", "BucketBatchByLengthDataset", "pad_batch", "check_pad_info", "flat_map", "save"]


def check_pad_info(op: str, pad_info: dict[str, Any] | None, names: Sequence[str]) -> dict[str, Any] | None:
    """``{column: (shape or None, value)}``; the columns must exist."""
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise TypeError(f"{op}: pad_info must be a dict, but got {pad_info!r}")
    for k, v in pad_info.items():
        if k not in names:
            raise ValueError(f"{op}: pad_info column {k!r} does not exist; the dataset has columns {names}")
        if not isinstance(v, (tuple, list)) or len(v) != 2 or not (v[0] is None or isinstance(v[0], (list, tuple))):
            raise TypeError(f"{op}: pad_info[{k!r}] must be a tuple (pad_shape or None, pad_value), got {v!r}")
    return dict(pad_info)


def pad_batch(values: Sequence[np.ndarray], name: str, spec: tuple[Sequence[int | None] | None, Any] | None,
              boundary: int | None = None) -> np.ndarray:
    """Stack rows of one column, padding each to ``spec[0]`` (None entries: the batch's longest) with ``spec[1]``.

    ``boundary``: with ``pad_to_bucket_boundary``, None entries pad to ``boundary - 1`` instead."""
    shape_spec, value = spec if spec is not None else (None, 0)
    first = values[0]
    if any(v.ndim != first.ndim for v in values):
        raise RuntimeError(f"padded batch: rows of column '{name}' have different ranks "
                           f"{sorted({v.ndim for v in values})}; padding keeps the rank")
    longest = [max(v.shape[d] for v in values) for d in range(first.ndim)]
    if shape_spec is None:
        target = [boundary - 1 if boundary is not None and d == 0 else longest[d] for d in range(first.ndim)]
    else:
        if len(shape_spec) != first.ndim:
            raise RuntimeError(f"padded batch: pad_shape {list(shape_spec)} of column '{name}' has rank "
                               f"{len(shape_spec)}, but its rows have rank {first.ndim}")
        target = [(boundary - 1 if boundary is not None else longest[d]) if s is None else int(s)
                  for d, s in enumerate(shape_spec)]
    dtype = np.result_type(*[v.dtype for v in values])
    out = np.full([len(values)] + target, value, dtype=dtype)
    for i, v in enumerate(values):
        if any(a > b for a, b in zip(v.shape, target)):
            raise RuntimeError(f"padded batch: a row of column '{name}' has shape {list(v.shape)}, larger than "
                               f"the pad shape {target}")
        out[(i,) + tuple(slice(0, s) for s in v.shape)] = v
    return out


class FilterDataset(Dataset):
    """The rows for which ``predicate(*input_columns)`` is true (see ``Dataset.filter``)."""

    def __init__(self, child: Dataset, predicate: Callable[..., Any], input_columns: str | Sequence[str] | None = None,
                 num_parallel_workers: int | None = None):
        super().__init__([child], check_workers("filter", num_parallel_workers))
        if not callable(predicate):
            raise TypeError(f"filter: predicate must be callable, but got {predicate!r}")
        self.predicate = predicate
        names = child.get_col_names()
        cols = names if input_columns is None else column_list("filter", input_columns, "input_columns")
        missing = [c for c in cols if c not in names]
        if missing:
            raise ValueError(f"filter: input column(s) {missing} do not exist; the dataset has columns {names}")
        self._idx = [names.index(c) for c in cols]
        self.column_names = names

    def _workers(self):
        return default_workers(self.num_parallel_workers)

    def _num_rows(self):
        return None   # only iterating can tell

    def _keep(self, block):
        n = nrows(block)
        keep = np.zeros(n, bool)
        cols = [rows(block[i]) for i in self._idx]
        for r in range(n):
            try:
                result = self.predicate(*[c[r] for c in cols])
            except Exception as e:  # noqa: BLE001 - re-raised naming the predicate
                raise RuntimeError(f"filter: predicate {op_name(self.predicate)} failed: Exception thrown from user "
                                   f"defined Python function in dataset. {type(e).__name__}: {e}") from e
            keep[r] = bool(np.asarray(result))
        return take(block, np.flatnonzero(keep))

    def _blocks(self, ctx, epoch, block_rows):
        for block in ordered_map(ctx, self._keep, self.children[0]._blocks(ctx, epoch, block_rows),
                                 self._workers()):
            if nrows(block):
                yield block


class BucketBatchByLengthDataset(Dataset):
    """Rows grouped by length into buckets, each bucket padded and batched when full
    (see ``Dataset.bucket_batch_by_length``)."""

    def __init__(self, child: Dataset, column_names: str | Sequence[str], bucket_boundaries: Sequence[int],
                 bucket_batch_sizes: Sequence[int], element_length_function: Callable[..., int] | None = None,
                 pad_info: dict[str, Any] | None = None, pad_to_bucket_boundary: bool = False,
                 drop_remainder: bool = False):
        super().__init__([child])
        names = child.get_col_names()
        cols = column_list("bucket_batch_by_length", column_names, "column_names")
        missing = [c for c in cols if c not in names]
        if missing:
            raise ValueError(f"bucket_batch_by_length: column(s) {missing} do not exist; the dataset has {names}")
        b: list[int] | None = list(bucket_boundaries) if isinstance(bucket_boundaries, (list, tuple)) else None
        if not b or not all(isinstance(x, numbers.Integral) and x > 0 for x in b) or \
                any(x >= y for x, y in zip(b, b[1:])):
            raise ValueError(f"bucket_batch_by_length: bucket_boundaries must be a non-empty, strictly increasing "
                             f"list of positive ints, but got {bucket_boundaries!r}")
        s: list[int] | None = list(bucket_batch_sizes) if isinstance(bucket_batch_sizes, (list, tuple)) else None
        if not s or len(s) != len(b) + 1 or not all(isinstance(x, numbers.Integral) and x > 0 for x in s):
            raise ValueError(f"bucket_batch_by_length: bucket_batch_sizes must be {len(b) + 1} positive ints "
                             f"(one more than bucket_boundaries), but got {bucket_batch_sizes!r}")
        if element_length_function is None and len(cols) != 1:
            raise ValueError("bucket_batch_by_length: without element_length_function, column_names must name "
                             "one column")
        self._idx = [names.index(c) for c in cols]
        self.boundaries, self.sizes = [int(x) for x in b], [int(x) for x in s]
        self.length_fn = element_length_function
        self.pad_info = check_pad_info("bucket_batch_by_length", pad_info, names)
        self.pad_to_boundary, self.drop_remainder = bool(pad_to_bucket_boundary), bool(drop_remainder)
        self.column_names = names

    def _num_rows(self):
        return None

    def _length(self, values):
        if self.length_fn is None:
            v = values[0]
            return 0 if v.ndim == 0 else v.shape[0]
        return int(self.length_fn(*values))

    def _batch(self, rows_, bucket):
        names = self.column_names
        boundary = self.boundaries[bucket] if self.pad_to_boundary and bucket < len(self.boundaries) else None
        if self.pad_to_boundary and bucket == len(self.boundaries):
            raise RuntimeError("bucket_batch_by_length: pad_to_bucket_boundary is True but a row fell into the "
                               "last bucket, which has no boundary to pad to")
        out = []
        for j, name in enumerate(names):
            values = [r[j] for r in rows_]
            if self.pad_info is not None and (name in self.pad_info or not self.pad_info):
                spec = self.pad_info.get(name)
                out.append(pad_batch(values, name, spec, boundary if spec is not None and
                                     (spec[0] is None or None in spec[0]) else None))
            else:
                try:
                    out.append(np.stack(values))
                except ValueError:
                    raise RuntimeError(f"bucket_batch_by_length: rows of column '{name}' differ in shape; give "
                                       f"pad_info to pad them") from None
        return [object_column([v]) for v in out]

    def _blocks(self, ctx, epoch, block_rows):
        buckets: list[list[list[np.ndarray]]] = [[] for _ in self.sizes]
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            cols = [rows(c) for c in block]
            for r in range(nrows(block)):
                values = [c[r] for c in cols]
                length = self._length([values[i] for i in self._idx])
                k = int(np.searchsorted(self.boundaries, length, side="right"))
                buckets[k].append(values)
                if len(buckets[k]) == self.sizes[k]:
                    yield self._batch(buckets[k], k)
                    buckets[k] = []
        if not self.drop_remainder:
            for k, rest in enumerate(buckets):
                if rest:
                    yield self._batch(rest, k)

    def get_batch_size(self) -> int:
        return -1 if self._batch_size is None else self._batch_size


def flat_map(dataset: Dataset, func: Callable[..., Dataset]) -> Dataset:
    """``func(*row)`` returns a Dataset for each row; their rows, concatenated (built eagerly, as MindSpore)."""
    if not callable(func):
        raise TypeError(f"flat_map: func must be a function, but got {func!r}")
    out: Dataset | None = None
    for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        part = func(*row)
        if not isinstance(part, Dataset):
            raise TypeError(f"flat_map: func must return a Dataset, but it returned {type(part).__name__}")
        out = part if out is None else out + part
    if out is None:
        raise ValueError("flat_map: the dataset is empty, so func returned no Dataset")
    return out


_MR_TYPES = {"int32": "int32", "int64": "int64", "float32": "float32", "float64": "float64",
             "uint8": "int32", "int8": "int32", "uint16": "int32", "int16": "int32", "uint32": "int64",
             "bool": "int32", "float16": "float32", "uint64": "int64"}


def save(dataset: Dataset, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
    """Write every row of one epoch to MindRecord file(s) (MindSpore's column-type mapping: narrow ints widen to
    int32/int64, float16 to float32, strings stay strings, 1-D uint8 ``bytes`` columns stay bytes)."""
    if file_type != "mindrecord":
        raise ValueError(f"save: file_type must be 'mindrecord', but got {file_type!r}")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or not 1 <= num_files <= 1000:
        raise ValueError(f"save: num_files must be an int in [1, 1000], but got {num_files!r}")
    names = dataset.get_col_names()
    writer: FileWriter | None = None
    schema: dict[str, dict[str, Any]] | None = None
    batch: list[dict[str, Any]] = []
    for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        if schema is None:
            schema = {}
            for name, v in zip(names, row):
                if v.dtype == np.uint8 and v.ndim == 1:
                    schema[name] = {"type": "bytes"}
                elif v.dtype.kind in "SU" or v.dtype == object:
                    schema[name] = {"type": "bytes" if v.dtype.kind == "S" else "string"}
                elif str(v.dtype) not in _MR_TYPES:
                    raise TypeError(f"save: column '{name}' has dtype {v.dtype}, which MindRecord cannot store")
                elif v.ndim == 0:
                    schema[name] = {"type": _MR_TYPES[str(v.dtype)]}
                else:
                    schema[name] = {"type": _MR_TYPES[str(v.dtype)], "shape": [-1] + list(v.shape[1:])}
            writer = FileWriter(file_name, num_files, overwrite=False)
            writer.add_schema(schema, "saved from a dataset pipeline")
        entry: dict[str, Any] = {}
        for name, v in zip(names, row):
            t = schema[name]
            if t["type"] == "bytes":
                entry[name] = v.tobytes()
            elif t["type"] == "string":
                entry[name] = str(v.item() if v.ndim == 0 else v)
            elif "shape" in t:
                entry[name] = v.astype(t["type"])
            else:
                entry[name] = v.item()
        batch.append(entry)
        if len(batch) == 1000:
            writer.write_raw_data(batch)  # type: ignore[union-attr]  # made with the schema on row one
            batch = []
    if writer is None:
        raise RuntimeError("save: the dataset is empty; nothing to write")
    if batch:
        writer.write_raw_data(batch)
    writer.commit()
