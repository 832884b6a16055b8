"""``GeneratorDataset`` (rows from Python code) and ``NumpySlicesDataset`` (rows sliced from arrays)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._batch_sampler import batch_blocks, batch_count, check_batch_sampler, wrap_collate_fn
from ._block import as_array, column_from_rows
from ._generator_prepare import PreparedSource
from ._samplers import Sampler
from ._sources import MappableSource
from .transforms._base import to_numpy_dtype

if TYPE_CHECKING:
    from ._tfrecord import Schema

__all__ = ["GeneratorDataset", "NumpySlicesDataset"]


def _default_names(n):
    return [f"column_{i}" for i in range(n)]


class GeneratorDataset(PreparedSource, MappableSource):
    """Rows from a Python source: random-access (``__getitem__`` + ``__len__``, lists included), iterable
    (``__iter__``), or a callable returning a fresh iterator each epoch. Each row is a tuple of arrays (one per
    column) or a single array.

    Args: source, column_names (str | list), column_types (list of dtypes to cast to), schema (unused),
        num_samples, num_parallel_workers (threads fetching rows of a random-access source), shuffle (default
        True for random-access sources), sampler, num_shards, shard_id (random-access only),
        python_multiprocessing / max_rowsize (accepted; workers are threads), batch_sampler (iterable of lists of
        row ids: one batch row per list), collate_fn (``f(*column_lists) -> tuple``, merges a batch_sampler's
        rows)."""

    _parallel_read = True
    has_batch_sampler = False   # MindSpore's attributes: whether batch_sampler was given, and its collate_fn
    collate_fn: Callable[..., Any] | None = None

    def __init__(self, source: Any, column_names: str | Sequence[str] | None = None,
                 column_types: Sequence[Any] | None = None, schema: Schema | str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, python_multiprocessing: bool = True,
                 max_rowsize: int | Sequence[int] | None = None, batch_sampler: Any = None,
                 collate_fn: Callable[..., Any] | None = None):
        self.source = source
        # kept as MindSpore reports them; rows are produced by threads here, so they change nothing
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = -1 if max_rowsize is None else max_rowsize
        self._random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        check_batch_sampler(batch_sampler, collate_fn, self._random_access,
                            {"num_samples": num_samples, "shuffle": shuffle, "num_shards": num_shards,
                             "shard_id": shard_id, "sampler": sampler})
        self.has_batch_sampler = batch_sampler is not None
        self._batch_sampler, self.collate_fn = batch_sampler, wrap_collate_fn(collate_fn)
        self._collate = self.collate_fn
        if self.has_batch_sampler:
            shuffle = False   # the batch sampler orders the rows
        if not self._random_access:
            if not (callable(source) or hasattr(source, "__iter__")):
                raise TypeError(f"GeneratorDataset: source must be random-accessible (__getitem__ and __len__), "
                                f"iterable, or a callable returning an iterator, but got {type(source).__name__}")
            for name, value in (("sampler", sampler), ("num_shards", num_shards)):
                if value is not None:
                    raise ValueError(f"GeneratorDataset: {name} needs a random-accessible source "
                                     f"(__getitem__ and __len__), but got {type(source).__name__}")
            if shuffle:
                raise ValueError("GeneratorDataset: shuffle=True needs a random-accessible source (__getitem__ "
                                 "and __len__); use .shuffle(buffer_size) on an iterable source")
            shuffle = False
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        if column_names is None:
            column_names = _default_names(1)
        self.column_names = [column_names] if isinstance(column_names, str) else list(column_names)
        if not self.column_names or not all(isinstance(c, str) for c in self.column_names):
            raise TypeError(f"GeneratorDataset: column_names must be a str or a list of str, got {column_names!r}")
        if len(set(self.column_names)) != len(self.column_names):
            raise ValueError(f"GeneratorDataset: column_names {self.column_names} are not unique")
        self._types = None
        if column_types is not None:
            if len(column_types) != len(self.column_names):
                raise ValueError(f"GeneratorDataset: column_types has {len(column_types)} entries for columns "
                                 f"{self.column_names}")
            self._types = [to_numpy_dtype(t, "GeneratorDataset") for t in column_types]

    def _workers(self):
        return (self.num_parallel_workers or 1) if self._random_access else 1

    def _is_random_access(self):
        return self._random_access

    # ------------------------------------------------------------------ rows
    def _row(self, item, where):
        n = len(self.column_names)
        if isinstance(item, (tuple, list)) and (len(item) == n and (n > 1 or isinstance(item, tuple))):
            values = [as_array(v) for v in item]
        elif n == 1 and not isinstance(item, tuple):
            values = [as_array(item)]
        else:
            got = len(item) if isinstance(item, (tuple, list)) else 1
            raise RuntimeError(f"GeneratorDataset: {where} returned {got} column(s), but column_names "
                               f"{self.column_names} expects {n}")
        if self._types is not None:
            values = [v.astype(t, copy=False) for v, t in zip(values, self._types)]
        return values

    def _to_block(self, rows):
        return [column_from_rows([r[j] for r in rows]) for j in range(len(self.column_names))]

    def _user_error(self, e, where):
        return RuntimeError(f"GeneratorDataset: Exception thrown from user defined Python function in dataset: "
                            f"{where} raised {type(e).__name__}: {e}")

    # ------------------------------------------------------------------ random access
    def _length(self):
        return len(self.source)

    def _read(self, ids):
        rows = []
        for i in ids:
            i = int(i)
            try:
                item = self.source[i]
            except Exception as e:  # noqa: BLE001 - re-raised naming the row
                raise self._user_error(e, f"source[{i}]") from e
            rows.append(self._row(item, f"source[{i}]"))
        return self._to_block(rows)

    # ------------------------------------------------------------------ iterable
    def get_batch_size(self) -> int:
        if self.has_batch_sampler and self._batch_size is None:
            return -1   # MindSpore's batch(batch_size=-1) after a batch sampler: sizes vary
        return super().get_batch_size()

    def _num_rows(self):
        if self.has_batch_sampler:
            return batch_count(self._batch_sampler)
        if self._random_access:
            return super()._num_rows()
        if hasattr(self.source, "__len__"):
            return self._sampler.count(len(self.source))
        return None

    def _blocks(self, ctx, epoch, block_rows):
        if self.has_batch_sampler:
            yield from batch_blocks(self)
            return
        if self._random_access:
            yield from super()._blocks(ctx, epoch, block_rows)
            return
        limit = self._sampler.num_samples
        try:
            it = iter(self.source() if callable(self.source) and not hasattr(self.source, "__iter__")
                      else self.source)
        except Exception as e:  # noqa: BLE001
            raise self._user_error(e, "calling the source") from e
        rows, count = [], 0
        while limit is None or count < limit:
            try:
                item = next(it)
            except StopIteration:
                break
            except Exception as e:  # noqa: BLE001
                raise self._user_error(e, f"the source iterator (after {count} rows)") from e
            rows.append(self._row(item, f"row {count} of the source iterator"))
            count += 1
            if len(rows) == block_rows:
                yield self._to_block(rows)
                rows = []
        if rows:
            yield self._to_block(rows)


class NumpySlicesDataset(PreparedSource, MappableSource):
    """Rows sliced along the first axis of in-memory data.

    Args: data (tuple: one column per element | list or ndarray: one column | dict: column name -> values),
        column_names (list; default ``column_0``, ``column_1``, ... or the dict keys), num_samples,
        num_parallel_workers, shuffle (default True), sampler, num_shards, shard_id."""

    has_batch_sampler = False   # MindSpore's NumpySlicesDataset is a GeneratorDataset without batch_sampler
    collate_fn = None

    def __init__(self, data: Any, column_names: str | Sequence[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None):
        self.python_multiprocessing, self.max_rowsize = True, -1   # MindSpore's GeneratorDataset defaults
        if isinstance(data, dict):
            names, values = [str(k) for k in data], list(data.values())
        elif isinstance(data, tuple):
            names, values = None, list(data)
        elif isinstance(data, (list, np.ndarray)):
            names, values = None, [data]
        else:
            raise TypeError(f"NumpySlicesDataset: data must be a list, tuple, dict or numpy.ndarray, but got "
                            f"{type(data).__name__}")
        cols = []
        for k, v in enumerate(values):
            try:
                arr = v if isinstance(v, np.ndarray) else np.asarray(v)
            except ValueError as e:
                raise ValueError(f"NumpySlicesDataset: column {k} is ragged (its rows differ in shape): {e}") from e
            if arr.ndim == 0:
                raise ValueError(f"NumpySlicesDataset: column {k} is a scalar; it needs a first axis to slice")
            cols.append(arr)
        if not cols:
            raise ValueError("NumpySlicesDataset: data has no columns")
        lengths = {len(c) for c in cols}
        if len(lengths) != 1:
            raise ValueError(f"NumpySlicesDataset: all columns need the same number of rows, got "
                             f"{[len(c) for c in cols]}")
        if column_names is not None:
            names = [column_names] if isinstance(column_names, str) else list(column_names)
        names = names or _default_names(len(cols))
        if len(names) != len(cols):
            raise ValueError(f"NumpySlicesDataset: {len(names)} column_names {names} for {len(cols)} columns")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.column_names = names
        self._cols = cols

    def _length(self):
        return len(self._cols[0])

    def _source_item(self, index):   # MindSpore's source: one row, a tuple of one value per column
        return tuple(c[index] for c in self._cols)

    def _source_length(self):
        return self._length()

    def _read(self, ids):
        return [c[ids] for c in self._cols]
