"""``GeneratorDataset.prepare_multiprocessing`` and what it sets: ``prepared_source``, the function MindSpore hands
its engine to read rows (given an array of row ids for a random-access source, nothing for an iterable one), and
``sample_fn``, the worker pool reading a random-access source when ``num_parallel_workers > 1``.

Rows come out as MindSpore's engine receives them: tuples of NumPy arrays (a dict stays a dict). Workers are threads
here, so ``python_multiprocessing=True`` neither starts processes nor wraps the source for pickling. Unlike
MindSpore, preparing an iterable source leaves its ``sampler`` and ``source_len`` as they were (MindSpore drops the
sampler there), since this project's iterators still read them.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

__all__ = ["PreparedSource", "SamplerFn", "convert_row"]

_SCALARS = (int, float, str, bytes, np.ndarray, np.number, np.bool_)


def _as_array(value: Any, where: str) -> Any:
    if isinstance(value, dict):
        return value
    if hasattr(value, "asnumpy"):   # a Tensor
        return value.asnumpy()
    item = np.asarray(value)
    if item.dtype == object:
        raise TypeError(f"Data type of {where} or its converted Numpy array is expected to be int or float or str, "
                        f"but got {item.dtype}.")
    return item


def convert_row(row: Any) -> tuple[Any, ...]:
    """One row of the source as a tuple of arrays: a scalar, array or Tensor is a one-column row.

    >>> convert_row((1, [2.5, 3.5]))
    (array(1), array([2.5, 3.5]))
    """
    if isinstance(row, _SCALARS) or hasattr(row, "asnumpy") or isinstance(row, dict):
        return (_as_array(row, "the input"),)
    return tuple(_as_array(x, f"{i}th item of the input") for i, x in enumerate(row, 1))


def _check_ids(sample_ids: Any) -> None:
    if not isinstance(sample_ids, np.ndarray):
        raise RuntimeError("Sample IDs are not in a numpy array.")
    if sample_ids.size == 0:
        raise RuntimeError("Sampler passed an empty sample IDs list.")


def _sampler_rows(read: Callable[[int], Any], sample_ids: np.ndarray) -> Iterator[tuple[Any, ...]]:
    """The rows of ``sample_ids``, read one by one (one worker)."""
    _check_ids(sample_ids)
    for i in sample_ids:
        yield convert_row(read(int(i)))


def _pool_rows(sample_fn: SamplerFn, sample_ids: np.ndarray) -> Iterator[tuple[Any, ...]]:
    _check_ids(sample_ids)
    return sample_fn.process(sample_ids)


def _iter_rows(source: Any, num_samples: int, call: bool) -> Iterator[tuple[Any, ...]]:
    """The first ``num_samples`` rows (0: all) of an iterable source, or of the iterator a callable returns."""
    it = iter(source() if call else source)
    count = 0
    for value in it:
        yield convert_row(value)
        count += 1
        if num_samples and count >= num_samples:
            return


class SamplerFn:
    """The pool of ``num_worker`` workers reading rows of a random-access source; ``process(ids)`` yields them in
    the order of ``ids``."""

    def __init__(self, dataset: Callable[[int], Any], num_worker: int, multi_process: bool, max_rowsize: Any):
        self.dataset = dataset
        self.num_worker = num_worker
        self.multi_process = multi_process
        self.max_rowsize = max_rowsize
        self._pool: ThreadPoolExecutor | None = None

    def process(self, indices: np.ndarray) -> Iterator[tuple[Any, ...]]:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.num_worker, thread_name_prefix="GeneratorDataset-worker")
        futures = [self._pool.submit(self.dataset, int(i)) for i in indices]
        for future in futures:
            yield convert_row(future.result())

    def terminate(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __del__(self) -> None:
        self.terminate()


class PreparedSource:
    """Mixin of GeneratorDataset (and NumpySlicesDataset, which MindSpore builds on it)."""

    prepared_source: Callable[..., Iterator[tuple[Any, ...]]] | None = None
    sample_fn: SamplerFn | None = None

    def _source_item(self, index: int) -> Any:
        return self.source[index]  # type: ignore[attr-defined]

    def _source_length(self) -> int:
        try:
            return len(self.source)  # type: ignore[attr-defined]
        except TypeError:
            return -1

    def prepare_multiprocessing(self) -> None:
        """Set ``prepared_source`` (and ``sample_fn``, the worker pool when a random-access source has
        ``num_parallel_workers > 1``), as MindSpore does before building the pipeline.

        >>> import numpy as np
        >>> import mindspore_hl.dataset as ds
        >>> d = ds.GeneratorDataset([1, 2, 3], "x", shuffle=False)
        >>> d.prepare_multiprocessing()
        >>> list(d.prepared_source(np.array([2, 0])))
        [(array(3),), (array(1),)]
        """
        source = getattr(self, "source", None)
        if source is None or hasattr(source, "__getitem__"):
            if self._source_length() == -1:
                raise RuntimeError("Attempt to construct a random access dataset, '__len__' method is required!")
            workers = getattr(self, "num_parallel_workers", None) or 1
            if workers > 1:
                self.sample_fn = SamplerFn(self._source_item, workers,
                                           bool(getattr(self, "python_multiprocessing", False)),
                                           getattr(self, "max_rowsize", -1))
                self.prepared_source = functools.partial(_pool_rows, self.sample_fn)
            else:
                self.sample_fn = None
                self.prepared_source = functools.partial(_sampler_rows, self._source_item)
            return
        self.sample_fn = None
        call = not hasattr(source, "__iter__")
        self.prepared_source = functools.partial(_iter_rows, source, getattr(self, "num_samples", 0) or 0, call)
