"""Column blocks: how rows travel through a pipeline.

A block is a list of columns with the same number of rows. A column is either a *stacked* ndarray whose first
axis is the row axis (every row has one shape and dtype: the fast, vectorised case) or a 1-D *object* ndarray
holding one ndarray per row (ragged rows, undecoded bytes, or whole batches after ``batch``). Both kinds support
fancy indexing, so samplers, shuffles and slicing treat them alike.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["FileBytes", "file_bytes", "source_file", "as_array", "column_from_rows", "object_column", "concat",
           "nrows", "row", "rows", "is_stacked"]


class FileBytes(np.ndarray):
    """Undecoded file contents (1-D uint8) that remember the file they came from, so that a transform failing
    on them (a corrupt image given to ``vision.Decode``) can name the file."""

    source_file: str | None = None

    def __array_finalize__(self, obj: Any) -> None:
        self.source_file = getattr(obj, "source_file", None)


def file_bytes(data: bytes, path: str | os.PathLike[str]) -> FileBytes:
    """``data`` (bytes) as a 1-D uint8 ``FileBytes`` array naming ``path``."""
    arr = np.frombuffer(data, dtype=np.uint8).view(FileBytes)
    arr.source_file = str(path)
    return arr


def source_file(value: Any) -> str | None:
    """The file a row value was read from, or None."""
    return getattr(value, "source_file", None)


def as_array(value: Any) -> np.ndarray:
    """One row value as an ndarray (Python scalars follow NumPy's default dtypes)."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(value), dtype=np.uint8)
    tensor_value = getattr(value, "asnumpy", None)  # a mindspore_hl Tensor returned by a user function
    if callable(tensor_value):
        return np.asarray(tensor_value())
    return np.asarray(value)


def object_column(values: Sequence[Any]) -> np.ndarray:
    """A 1-D object array holding ``values`` (one ndarray per row) without NumPy trying to stack them."""
    col = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        col[i] = v
    return col


def column_from_rows(values: Sequence[np.ndarray]) -> np.ndarray:
    """Stack per-row ndarrays into a column: stacked if shapes and dtypes agree, else an object column."""
    if not values:
        return np.empty((0,), dtype=object)
    first = values[0]
    shape, dtype = first.shape, first.dtype
    if dtype.kind != "O" and all(v.shape == shape and v.dtype == dtype for v in values):
        return np.stack(values)
    return object_column(values)


def is_stacked(col: np.ndarray) -> bool:
    return col.dtype != object


def nrows(block: Sequence[np.ndarray]) -> int:
    return len(block[0])


def row(block: Sequence[np.ndarray], i: int) -> list[np.ndarray]:
    """Row ``i`` of a block as a list of ndarrays (views, never copies; 0-d arrays for scalars)."""
    return [c[i] if c.dtype == object else c[i, ...] for c in block]


def rows(col: np.ndarray) -> list[np.ndarray]:
    """All rows of one column as a list of ndarrays."""
    if col.dtype == object:
        return list(col)
    return [col[i, ...] for i in range(len(col))]


def _concat_column(parts: Sequence[np.ndarray]) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    if all(p.dtype != object for p in parts):
        p0 = parts[0]
        if all(p.dtype == p0.dtype and p.shape[1:] == p0.shape[1:] for p in parts):
            return np.concatenate(parts)
    values: list[np.ndarray] = []
    for p in parts:
        values.extend(rows(p))
    return object_column(values)


def concat(blocks: Sequence[list[np.ndarray]]) -> list[np.ndarray]:
    """Concatenate blocks with the same columns along the row axis."""
    if len(blocks) == 1:
        return blocks[0]
    return [_concat_column([b[j] for b in blocks]) for j in range(len(blocks[0]))]


def slice_block(block: Sequence[np.ndarray], start: int, stop: int) -> list[np.ndarray]:
    return [c[start:stop] for c in block]


def take(block: Sequence[np.ndarray], idx: np.ndarray | slice | int) -> list[np.ndarray]:
    return [c[idx] for c in block]


def rechunk(blocks: Iterable[list[np.ndarray]], size: int) -> Iterator[list[np.ndarray]]:
    """Re-cut a stream of blocks into blocks of exactly ``size`` rows (the last one may be shorter)."""
    pending: list[list[np.ndarray]] = []
    count = 0
    for b in blocks:
        n = nrows(b)
        if n == 0:
            continue
        if count == 0 and n == size:
            yield b
            continue
        start = 0
        while start < n:
            take_n = min(size - count, n - start)
            pending.append(slice_block(b, start, start + take_n))
            count += take_n
            start += take_n
            if count == size:
                yield concat(pending)
                pending, count = [], 0
    if count:
        yield concat(pending)
