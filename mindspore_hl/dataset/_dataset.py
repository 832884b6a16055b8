"""``Dataset``: the pipeline API every source and operation shares (map, batch, shuffle, iterate, sizes)."""
from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import config
from ._block import nrows
from ._dataset_attrs import DatasetAttrs
from ._dataset_comm import recv as _recv
from ._iterator import DictIterator, TupleIterator

if TYPE_CHECKING:
    from ._callbacks import DSCallback
    from .text._vocab import Vocab

__all__ = ["Dataset", "BatchInfo"]


def check_workers(op: str, num_parallel_workers: int | None) -> int | None:
    if num_parallel_workers is None:
        return None
    if isinstance(num_parallel_workers, bool) or not isinstance(num_parallel_workers, numbers.Integral) or \
            not 1 <= num_parallel_workers <= 1024:
        raise ValueError(f"{op}: num_parallel_workers must be an int in [1, 1024], got {num_parallel_workers!r}")
    return int(num_parallel_workers)


def column_list(op: str, arg: str | Sequence[str] | None, name: str) -> list[str]:
    """A column argument (str or list of str) as a list."""
    if isinstance(arg, str):
        return [arg]
    if isinstance(arg, (list, tuple)) and arg and all(isinstance(c, str) for c in arg):
        return list(arg)
    raise TypeError(f"{op}: {name} must be a str or a non-empty list of str, but got {arg!r}")


class BatchInfo:
    """What ``per_batch_map`` learns about the batch it is building."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self) -> int:
        return self._batch_num

    def get_epoch_num(self) -> int:
        return self._epoch_num


class Dataset(DatasetAttrs):
    """Base of every dataset: sources and the operations chained on them.

    Subclasses set ``children`` and ``column_names`` and implement ``_blocks`` (yield column blocks of one
    epoch) and ``_num_rows`` (rows per epoch, or None when only iterating can tell)."""

    _batch_size: int | None = None   # copy_batch_size's value (nodes that skip __init__ see None)
    _recv_iter: TupleIterator | None = None   # recv's iterator, made on the first call

    def __init__(self, children: Iterable[Dataset] = (), num_parallel_workers: int | None = None):
        self.children = list(children)
        self.num_parallel_workers = check_workers(type(self).__name__, num_parallel_workers)
        self._size_cache = None
        self._shape_cache = None
        self._batch_size = None
        self._recv_iter = None

    # ----------------------------------------------------------------- internal protocol
    def _workers(self):
        return self.num_parallel_workers or 1

    def _preferred_rows(self):
        return 256

    def _blocks(self, ctx, epoch, block_rows):
        raise NotImplementedError

    def _num_rows(self):
        raise NotImplementedError

    # ----------------------------------------------------------------- pipeline operations
    def map(self, operations: Callable[..., Any] | Sequence[Callable[..., Any]] | None = None,
            input_columns: str | Sequence[str] | None = None, output_columns: str | Sequence[str] | None = None,
            num_parallel_workers: int | None = None, python_multiprocessing: bool = False, cache: Any = None,
            callbacks: DSCallback | Sequence[DSCallback] | None = None,
            max_rowsize: int | Sequence[int] | None = None, offload: bool | None = None,
            column_order: str | Sequence[str] | None = None) -> Dataset:
        """Apply transforms / Python callables to columns.

        Args: operations (transform, callable or list of them), input_columns (str | list): default the first
            column, output_columns (str | list): default input_columns, num_parallel_workers (int): worker threads
            (default ``ds.config.get_num_parallel_workers()``), callbacks (DSCallback or list): hooks called as
            rows pass. ``python_multiprocessing``, ``cache``, ``max_rowsize`` and ``offload`` are accepted for
            compatibility; workers are threads.
            column_order (list, MindSpore 1.x): the columns to keep afterwards, in order.
        Returns: MapDataset (a ProjectDataset over it with ``column_order``)."""
        mapped = _ops.MapDataset(self, operations, input_columns, output_columns, num_parallel_workers, callbacks)
        mapped._given_columns = (input_columns, output_columns)
        mapped.python_multiprocessing = python_multiprocessing
        mapped.max_rowsize = [-1, -1] if max_rowsize is None else \
            ([max_rowsize] * 2 if isinstance(max_rowsize, int) else list(max_rowsize))
        return mapped if column_order is None else mapped.project(column_order)

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
              per_batch_map: Callable[..., Any] | None = None, input_columns: str | Sequence[str] | None = None,
              output_columns: str | Sequence[str] | None = None, **kwargs: Any) -> _ops.BatchDataset:
        """Stack ``batch_size`` consecutive rows into one row per column.

        Args: batch_size (int), drop_remainder (bool): drop a last short batch, per_batch_map (callable):
            ``f(*column_lists, BatchInfo) -> tuple of lists``, input_columns / output_columns for it.
        Returns: BatchDataset."""
        unknown = set(kwargs) - {"python_multiprocessing", "max_rowsize", "pad_info"}
        if unknown:
            raise TypeError(f"batch() got unexpected keyword arguments {sorted(unknown)}")
        batched = _ops.BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map,
                                    input_columns, output_columns, pad_info=kwargs.get("pad_info"))
        batched.python_multiprocessing = bool(kwargs.get("python_multiprocessing", False))
        rowsize = kwargs.get("max_rowsize")   # MindSpore keeps it per batch: MB per row times batch_size
        batched.max_rowsize = [-1, -1] if rowsize is None else (
            ([rowsize * batched.batch_size] * 2 if rowsize != -1 else [-1, -1]) if isinstance(rowsize, int)
            else [rowsize[0] * batched.batch_size, rowsize[1] * batched.batch_size])
        return batched

    def padded_batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
                     pad_info: dict[str, tuple[Sequence[int | None] | None, Any]] | None = None
                     ) -> _ops.BatchDataset:
        """``batch`` that first pads each column to one shape: ``pad_info`` maps a column to (pad_shape, value)
        (None shape entries: the batch's longest); columns not named pad to the longest with 0; ``pad_info=None``
        pads nothing. Returns: BatchDataset."""
        return _ops.BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                                 pad_info={} if pad_info is None else pad_info, pad_all=pad_info is not None)

    def bucket_batch_by_length(self, column_names: str | Sequence[str], bucket_boundaries: Sequence[int],
                               bucket_batch_sizes: Sequence[int],
                               element_length_function: Callable[..., int] | None = None,
                               pad_info: dict[str, tuple[Sequence[int | None] | None, Any]] | None = None,
                               pad_to_bucket_boundary: bool = False,
                               drop_remainder: bool = False) -> _extra.BucketBatchByLengthDataset:
        """Bucket rows by length (``element_length_function(*columns)``, default the first axis of the one
        column), pad and batch each bucket when it holds its batch size. Returns: BucketBatchByLengthDataset."""
        return _extra.BucketBatchByLengthDataset(self, column_names, bucket_boundaries, bucket_batch_sizes,
                                                 element_length_function, pad_info, pad_to_bucket_boundary,
                                                 drop_remainder)

    def filter(self, predicate: Callable[..., Any], input_columns: str | Sequence[str] | None = None,
               num_parallel_workers: int | None = None) -> _extra.FilterDataset:
        """Keep the rows where ``predicate(*input_columns)`` is true (all columns by default)."""
        return _extra.FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def flat_map(self, func: Callable[..., Dataset]) -> Dataset:
        """Concatenate the datasets ``func(*row)`` returns for each row (built eagerly, as in MindSpore)."""
        return _extra.flat_map(self, func)

    def apply(self, apply_func: Callable[[Dataset], Dataset]) -> Dataset:
        """``apply_func(self)``, which must return a Dataset."""
        if not callable(apply_func):
            raise TypeError(f"apply: apply_func must be a function, but got {apply_func!r}")
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"apply: apply_func must return a Dataset, but it returned {type(out).__name__}")
        return out

    def save(self, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
        """Write one epoch of rows to MindRecord file(s) readable by ``MindDataset`` (and real MindSpore)."""
        _extra.save(self, file_name, num_files, file_type)

    def get_class_indexing(self) -> dict[str, Any]:
        """Class name -> label of the source (``{}`` where the source has no classes)."""
        if self.children:
            return self.children[0].get_class_indexing()
        return {}

    def build_vocab(self, columns: str | Sequence[str] | None, freq_range: tuple[int | None, int | None] | None,
                    top_k: int | None, special_tokens: Sequence[str] | None, special_first: bool) -> Vocab:
        """A ``text.Vocab`` of the words in ``columns`` over one epoch (most frequent first; ``freq_range`` =
        (min, max) counts kept, ``top_k`` words at most, ``special_tokens`` first or last)."""
        return _text_vocab.Vocab.from_dataset(self, columns, freq_range, top_k, special_tokens, special_first)

    def build_sentencepiece_vocab(self, columns: list[str], vocab_size: int, character_coverage: float,
                                  model_type: Any, params: dict[str, Any]) -> Any:
        """Deprecated (as in MindSpore 2.x, with its DeprecationWarning): ``text.SentencePieceVocab.from_dataset``
        of this dataset, which this returns (MindSpore 2.10's body only warns and returns None)."""
        warnings.warn("mindspore.dataset.Dataset.build_sentencepiece_vocab is deprecated from version 2.0 and will be "
                      "removed in a future version. Use mindspore.dataset.text.SentencePieceVocab.from_dataset "
                      "instead.", DeprecationWarning, stacklevel=2)
        return _text_sp.SentencePieceVocab.from_dataset(self, columns, vocab_size, character_coverage, model_type,
                                                        params)

    def recv(self, src: int | list[int] = 0, group: str | None = None) -> Any:
        """The next row of this dataset (MindSpore's dataset communication), for each rank in ``src``; a
        one-column row comes as one Tensor. Only this process's own rank can be read (no transfer between
        processes here).

        >>> import mindspore_hl.dataset as ds
        >>> d = ds.NumpySlicesDataset([5, 6], "x", shuffle=False)
        >>> int(d.recv()), int(d.recv()), int(d.recv())
        (5, 6, 5)
        """
        return _recv(self, src, group)

    def device_que(self, send_epoch_end: bool = True, create_data_info_queue: bool = False,
                   queue_name: str = "") -> _dataset_transfer.TransferDataset:
        """A TransferDataset whose ``send(num_epochs=-1)`` starts a thread moving the batches onto the device ahead
        of use (``stop_send``, ``continue_send``, ``get_data_info``, ``get_mbuf_queue_size``, ``release``)."""
        return _dataset_transfer.device_que(self, send_epoch_end, create_data_info_queue, queue_name)

    def pre_parse(self, getter_mode: bool) -> None:
        """MindSpore's step before building a pipeline: in ``getter_mode`` (reading sizes, shapes or types) the
        node runs on one worker, without Python multiprocessing."""
        if getter_mode:
            self.python_multiprocessing = False
            self.num_parallel_workers = 1

    def iterator_bootstrap(self) -> None:
        """Per-iterator set-up, run as an iterator starts: nothing for most nodes (``sync_wait`` resets its
        barrier)."""

    def is_shuffled(self) -> bool:
        """Whether a shuffle (or a shuffling source) is in the pipeline."""
        return any(c.is_shuffled() for c in self.children)

    def is_sharded(self) -> bool:
        """Whether a source reads one shard of its rows."""
        return any(c.is_sharded() for c in self.children)

    def sync_wait(self, condition_name: str, num_batch: int = 1,
                  callback: Callable[[Any], Any] | None = None) -> _sync.SyncWaitDataset:
        """A barrier: ``num_batch`` batches pass at the start, then each ``sync_update(condition_name)`` lets
        ``num_batch`` more through and calls ``callback(data)``. Returns: SyncWaitDataset.

        >>> import mindspore_hl.dataset as ds
        >>> seen = []
        >>> d = ds.NumpySlicesDataset([0, 1, 2, 3], "x", shuffle=False).sync_wait("step", callback=seen.append)
        >>> d = d.batch(2)
        >>> for i, row in enumerate(d.create_tuple_iterator(output_numpy=True, num_epochs=1)):
        ...     d.sync_update("step", data=i)
        >>> seen
        [0, 1]
        """
        return _sync.SyncWaitDataset(self, condition_name, num_batch, callback)

    def shuffle(self, buffer_size: int) -> _ops.ShuffleDataset:
        """Shuffle rows through a buffer of ``buffer_size`` rows (reshuffled every epoch). Returns: ShuffleDataset."""
        return _ops.ShuffleDataset(self, buffer_size)

    def repeat(self, count: int | None = None) -> _structure.RepeatDataset:
        """Repeat the dataset ``count`` times (None or -1: forever). Returns: RepeatDataset."""
        return _structure.RepeatDataset(self, count)

    def take(self, count: int = -1) -> _structure.TakeDataset:
        """The first ``count`` rows (-1: all). Returns: TakeDataset."""
        return _structure.TakeDataset(self, count)

    def skip(self, count: int) -> _structure.SkipDataset:
        """Drop the first ``count`` rows. Returns: SkipDataset."""
        return _structure.SkipDataset(self, count)

    def project(self, columns: str | Sequence[str]) -> _structure.ProjectDataset:
        """Keep only ``columns``, in that order. Returns: ProjectDataset."""
        return _structure.ProjectDataset(self, columns)

    def rename(self, input_columns: str | Sequence[str],
               output_columns: str | Sequence[str]) -> _structure.RenameDataset:
        """Rename columns. Returns: RenameDataset."""
        return _structure.RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets: Dataset | Sequence[Dataset]) -> _structure.ZipDataset:
        """Join the columns of this and ``datasets`` row by row (stops at the shortest). Returns: ZipDataset."""
        # anything else is reported by the node ("expected datasets")
        others: list[Dataset] = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]  # type: ignore[list-item]
        return _structure.ZipDataset([self] + others)

    def concat(self, datasets: Dataset | Sequence[Dataset]) -> _structure.ConcatDataset:
        """Rows of this dataset followed by those of ``datasets``. Returns: ConcatDataset."""
        # anything else is reported by the node ("expected datasets")
        others: list[Dataset] = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]  # type: ignore[list-item]
        return _structure.ConcatDataset([self] + others)

    def __add__(self, other: Dataset | Sequence[Dataset]) -> _structure.ConcatDataset:
        return self.concat(other)

    def split(self, sizes: Sequence[int] | Sequence[float], randomize: bool = True) -> list[Dataset]:
        """Split into datasets of the given sizes (ints, or fractions summing to 1).

        ``randomize`` draws the rows of each part at random (mappable sources only). Returns: list of datasets."""
        return _structure.split(self, sizes, randomize)

    # ----------------------------------------------------------------- iteration
    def create_tuple_iterator(self, columns: Sequence[str] | None = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = False) -> TupleIterator:
        """Iterator over rows as lists of Tensors (ndarrays with ``output_numpy``). Args: columns (list of str),
        num_epochs (int, -1 for unbounded), output_numpy (bool), do_copy (bool)."""
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = False) -> DictIterator:
        """Iterator over rows as ``{column: Tensor}`` dicts (ndarrays with ``output_numpy``)."""
        return DictIterator(self, None, num_epochs, output_numpy, do_copy)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.create_tuple_iterator(num_epochs=1))

    # ----------------------------------------------------------------- information
    def get_col_names(self) -> list[str]:
        """Column names, in order."""
        return list(self.column_names)

    def get_dataset_size(self) -> int:
        """Rows per epoch; after ``batch`` that is the number of batches."""
        if self._size_cache is None:
            n = self._num_rows()
            if n is None:   # e.g. a generator without __len__: count one epoch, as MindSpore does
                it = TupleIterator(self, None, 1, True, _resume=False)
                n = 0
                try:
                    while True:
                        block = it._exec.get()
                        if not isinstance(block, list):
                            if hasattr(block, "exc"):
                                raise block.exc
                            break
                        n += nrows(block)
                finally:
                    it.stop()
            self._size_cache = n
        return self._size_cache

    def _first_row(self):
        if self._shape_cache is None:
            it = TupleIterator(self, None, 1, True, _resume=False)
            try:
                row = next(it)
            except StopIteration:
                raise RuntimeError(f"{type(self).__name__}: the dataset is empty, it has no shapes or types") from None
            finally:
                it.stop()
            self._shape_cache = row
        return self._shape_cache

    def output_shapes(self, estimate: bool = False) -> list[list[int]]:
        """Shapes of the first row, one list per column (e.g. ``[[32, 1, 32, 32], [32]]``)."""
        shapes = [list(v.shape) for v in self._first_row()]
        self._estimated = self._estimated or bool(estimate)
        return shapes

    def output_types(self) -> list[np.dtype]:
        """NumPy dtypes of the first row, one per column."""
        return [v.dtype for v in self._first_row()]

    @property
    def parent(self) -> list[Dataset]:
        return []

    def copy_batch_size(self, value: int) -> None:
        """Make ``get_batch_size()`` of this node answer ``value`` (MindSpore copies a known batch size so)."""
        self._batch_size = value

    def get_batch_size(self) -> int:
        """Batch size of the nearest ``batch`` (1 when unbatched), or the one ``copy_batch_size`` gave."""
        if self._batch_size is not None:
            return self._batch_size
        for child in self.children:
            return child.get_batch_size()
        return 1

    def get_repeat_count(self) -> int:
        """Count of the nearest ``repeat`` (1 when none)."""
        for child in self.children:
            return child.get_repeat_count()
        return 1

    def num_classes(self) -> int | None:
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(columns={self.column_names})"


def default_workers(num_parallel_workers: int | None) -> int:
    return num_parallel_workers if num_parallel_workers is not None else config.get_num_parallel_workers()


from . import _dataset_transfer, _extra, _ops, _structure, _sync  # noqa: E402
from .text import _sentencepiece as _text_sp  # noqa: E402
from .text import _vocab as _text_vocab  # noqa: E402  (the operation classes subclass Dataset)
