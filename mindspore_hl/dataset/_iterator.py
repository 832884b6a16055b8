"""Iterators: a producer thread runs the pipeline and hands finished blocks to the training thread through a
bounded queue; the iterator cuts blocks into rows (views, no copies) and wraps them as Tensors if asked."""
from __future__ import annotations

import collections
import threading
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import config
from ._block import nrows, slice_block
from ._context import Context

if TYPE_CHECKING:
    from ._dataset import Dataset

__all__ = ["TupleIterator", "DictIterator"]

_EPOCH_END = object()
_DONE = object()


class _Failure:
    def __init__(self, exc: BaseException):
        self.exc = exc


class _Execution:
    """One run of a pipeline over ``num_epochs`` epochs (-1: unbounded) on a daemon producer thread.

    The hand-off holds at most ``ds.config.get_prefetch_size()`` rows (batches, after ``batch``) beyond the
    block being added, so memory stays bounded whatever the block size."""

    def __init__(self, root: Dataset, num_epochs: int, skip: int = 0):
        self.ctx = Context(root)
        self._skip = skip
        self.root, self.num_epochs = root, num_epochs
        self._limit = config.get_prefetch_size()
        self._items: collections.deque[tuple[Any, int]] = collections.deque()
        self._rows = 0
        self._cond = threading.Condition()
        self.thread = threading.Thread(target=self._produce, name="mindspore_hl-dataset-pipeline", daemon=True)
        self.thread.start()

    def _put(self, item, rows=0):
        with self._cond:
            while self._items and self._rows + rows > self._limit and not self.ctx.stop.is_set():
                self._cond.wait(0.05)
            if self.ctx.stop.is_set():
                return False
            self._items.append((item, rows))
            self._rows += rows
            self._cond.notify_all()
            return True

    def _produce(self):
        try:
            epoch = 0
            skip = self._skip   # resuming (``set_init_step``): the first epoch starts at step ``skip``
            while self.num_epochs < 0 or epoch < self.num_epochs:
                for block in self.root._blocks(self.ctx, (epoch,), self.root._preferred_rows()):
                    n = nrows(block)
                    if skip:
                        cut = min(skip, n)
                        skip -= cut
                        block, n = slice_block(block, cut, n), n - cut
                    if n and not self._put(block, n):
                        return
                if not self._put(_EPOCH_END):
                    return
                epoch += 1
            self._put(_DONE)
        except BaseException as e:  # noqa: BLE001 - every failure must reach the consumer, never hang it
            self._put(_Failure(e))
        finally:
            self.ctx.close()

    def get(self) -> Any:
        with self._cond:
            while not self._items:
                if not self.thread.is_alive():
                    return _Failure(RuntimeError("dataset: the pipeline thread stopped without a result"))
                self._cond.wait(0.1)
            item, rows = self._items.popleft()
            self._rows -= rows
            self._cond.notify_all()
            return item

    def stop(self) -> None:
        self.ctx.close()
        with self._cond:
            self._items.clear()
            self._cond.notify_all()


def _to_tensor(array):
    from mindspore_hl.common.tensor import Tensor  # imported lazily: the Tensor module is optional here
    if array.dtype == object or array.dtype.kind in "USV":
        return array
    return Tensor(array)


class TupleIterator:
    """Yields each row as a list of Tensors (or ndarrays with ``output_numpy``). One ``for`` loop runs one
    epoch; loop again for the next, up to ``num_epochs``."""

    def __init__(self, dataset: Dataset, columns: str | Sequence[str] | None = None, num_epochs: int = -1,
                 output_numpy: bool = False, do_copy: bool = False, *, _resume: bool = True):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or (num_epochs < 1 and num_epochs != -1):
            raise ValueError(f"create_tuple_iterator: num_epochs must be a positive int or -1, got {num_epochs!r}")
        names = dataset.get_col_names()
        if columns is None:
            self._cols: list[int] | None = None
        else:
            columns = [columns] if isinstance(columns, str) else list(columns)
            missing = [c for c in columns if c not in names]
            if missing:
                raise ValueError(f"create_tuple_iterator: columns {missing} do not exist; the dataset has "
                                 f"columns {names}")
            self._cols = [names.index(c) for c in columns]
        self._names = names if columns is None else columns
        self._numpy = bool(output_numpy)
        self._do_copy = bool(do_copy)
        self._exec = _Execution(dataset, num_epochs, dataset.get_init_step() if _resume else 0)
        self._finalizer = weakref.finalize(self, self._exec.stop)
        self._block: list[np.ndarray] | None = None
        self._pos, self._n = 0, 0
        self._finished = False

    def __iter__(self) -> TupleIterator:
        return self

    def _next_row(self) -> list[Any]:
        while self._block is None or self._pos >= self._n:
            if self._finished:
                raise StopIteration
            item = self._exec.get()
            if item is _EPOCH_END:
                self._block = None
                raise StopIteration
            if item is _DONE:
                self._finished = True
                self.stop()
                raise StopIteration
            if isinstance(item, _Failure):
                self._finished = True
                self.stop()
                raise item.exc
            self._block = item if self._cols is None else [item[i] for i in self._cols]
            self._pos, self._n = 0, nrows(self._block)
        i = self._pos
        self._pos += 1
        row = [c[i] if c.dtype == object else c[i, ...] for c in self._block]
        if self._do_copy:
            row = [np.array(v) for v in row]
        return row if self._numpy else [_to_tensor(v) for v in row]

    def __next__(self) -> list[Any]:
        return self._next_row()

    def stop(self) -> None:
        """End the pipeline thread now (it also ends when the iterator is garbage collected)."""
        self._exec.stop()

    def get_next(self) -> Any:
        return next(self)


class DictIterator(TupleIterator):
    """Yields each row as ``{column name: Tensor}`` (or ndarray with ``output_numpy``)."""

    def __next__(self) -> dict[str, Any]:  # type: ignore[override]  # MindSpore's DictIterator yields dicts
        return dict(zip(self._names, self._next_row()))
