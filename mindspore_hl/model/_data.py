"""Feeding Model: the project's datasets and any re-iterable collection of batches, as lists of arrays.

A batch is a tuple / list of columns (NumPy arrays, Tensors, numbers), a dict of columns, or a single array.
Columns come out as NumPy arrays or JAX arrays (never Tensors), ready to be passed to a compiled step.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jax
import numpy as np

from ..common.tensor import Tensor

__all__ = ["DataSource"]


def _column(value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, (np.ndarray, jax.Array)):
        return value
    return np.asarray(value)


def as_columns(element: Any, where: str = "dataset") -> list[Any]:
    """One dataset element -> list of arrays."""
    if isinstance(element, dict):
        return [_column(v) for v in element.values()]
    if isinstance(element, (tuple, list)):
        return [_column(v) for v in element]
    if isinstance(element, (Tensor, np.ndarray, jax.Array)):
        return [_column(element)]
    raise TypeError(f"Model: every element of the {where} must be a tuple/list of columns (e.g. (data, label)), a "
                    f"dict or an array, but got {type(element).__name__}.")


class DataSource:
    """Uniform view of a training / evaluation dataset for Model.

    Args:
        dataset: a mindspore_hl dataset (``create_tuple_iterator``, ``get_dataset_size``) or a re-iterable
            (list, custom class with ``__iter__``) of batches.
        name: 'train_dataset' / 'valid_dataset', for error messages.
    """

    def __init__(self, dataset: Any, name: str = "train_dataset") -> None:
        self.dataset = dataset
        self.name = name
        self.is_ms = hasattr(dataset, "create_tuple_iterator") and hasattr(dataset, "get_dataset_size")
        if not self.is_ms:
            try:
                it = iter(dataset)
            except TypeError:
                raise TypeError(f"Model: '{name}' must be a mindspore_hl dataset or an iterable of batches, but got "
                                f"{type(dataset).__name__}.") from None
            if it is dataset:
                raise TypeError(f"Model: '{name}' is a one-shot iterator ({type(dataset).__name__}); it would be "
                                f"empty after the first epoch. Pass a list of batches, an object whose __iter__ "
                                f"starts over, or a GeneratorDataset.")
        self._size: int | None = None

    def size(self) -> int:
        """Batches per epoch (``get_dataset_size()``, ``len()``, or counted by iterating once)."""
        if self._size is None:
            if self.is_ms:
                self._size = int(self.dataset.get_dataset_size())
            elif hasattr(self.dataset, "__len__"):
                self._size = len(self.dataset)
            else:
                self._size = sum(1 for _ in self.dataset)
        return self._size

    def batch_size(self) -> int:
        """The batch size (``get_batch_size()``, else the leading dimension of the first batch's first column)."""
        if hasattr(self.dataset, "get_batch_size"):
            return int(self.dataset.get_batch_size())
        for element in self.dataset:
            cols = as_columns(element, self.name)
            return int(np.shape(cols[0])[0]) if cols and np.ndim(cols[0]) else 1
        return 0

    def epochs(self, num_epochs: int, steps_per_epoch: int | None = None) -> Iterator[Iterator[list[Any]]]:
        """Yield ``num_epochs`` iterators, each over one epoch's batches (lists of arrays).

        ``steps_per_epoch`` (sink_size) cuts a continuous stream into epochs of that many batches, continuing
        where the previous epoch stopped, as MindSpore does for ``sink_size > 0``.
        """
        if steps_per_epoch is not None and steps_per_epoch != self.size():
            stream = self._stream()
            for _ in range(num_epochs):
                yield _take(stream, steps_per_epoch)
            return
        if self.is_ms:
            it = self.dataset.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs)
            for _ in range(num_epochs):
                yield (list(row) for row in it)
            return
        for _ in range(num_epochs):
            yield (as_columns(e, self.name) for e in self.dataset)

    def _stream(self):
        if self.is_ms:
            it = self.dataset.create_tuple_iterator(output_numpy=True, num_epochs=-1)
            while True:
                n = 0
                for row in it:
                    n += 1
                    yield list(row)
                if n == 0:
                    return
        else:
            while True:
                n = 0
                for e in self.dataset:
                    n += 1
                    yield as_columns(e, self.name)
                if n == 0:
                    return


def _take(stream, n):
    for _ in range(n):
        try:
            yield next(stream)
        except StopIteration:
            return
