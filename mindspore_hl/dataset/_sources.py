"""Base of the index-addressable sources: a sampler picks row ids, blocks of them are read (in parallel when
reading is costly), and every epoch draws a fresh, seeded order."""
from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Sequence

import numpy as np

from ._context import ordered_map
from ._dataset import Dataset, check_workers, default_workers
from ._dataset_sampling import add_sampler, chain_count, chain_indices, use_sampler
from ._samplers import DistributedSampler, RandomSampler, Sampler, SubsetRandomSampler, build_sampler

__all__ = ["MappableSource", "DatasetFormatError", "check_dir", "check_usage"]


class DatasetFormatError(RuntimeError):
    """A dataset file is missing, truncated, or not in the format its reader expects (the message names it)."""


def check_dir(dataset_dir: str | os.PathLike[str]) -> str:
    """MindSpore's check on ``dataset_dir``: an existing, readable folder. Returns the real path."""
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"dataset_dir must be a str or path, but got {dataset_dir!r}")
    path = os.fspath(dataset_dir)
    if not os.path.isdir(path) or not os.access(path, os.R_OK | os.X_OK):
        raise ValueError(f"The folder {path} does not exist or is not a directory or permission denied!")
    return os.path.realpath(path)


def check_usage(usage: str | None, valid: Sequence[str] = ("train", "test", "all")) -> str:
    if usage is None:
        return "all"
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}, but got {usage!r}")
    return usage


class MappableSource(Dataset):
    """A source whose rows are addressed by index: subclasses give ``_length()`` and ``_read(ids) -> block``."""

    _parallel_read = False   # True where reading a block costs more than handing it to a thread

    def __init__(self, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, default_shuffle: bool = True):
        super().__init__((), check_workers(type(self).__name__, num_parallel_workers))
        self._sampler = build_sampler(type(self).__name__, num_samples, shuffle, sampler, num_shards, shard_id,
                                      default_shuffle)

    def _length(self):
        raise NotImplementedError

    def _read(self, ids):
        raise NotImplementedError

    def _workers(self):
        return default_workers(self.num_parallel_workers) if self._parallel_read else 1

    def _num_rows(self):
        return chain_count(self._sampler, self._length())

    def _blocks(self, ctx, epoch, block_rows):
        ids = chain_indices(self._sampler, self._length(), ctx, self, epoch)
        chunks = (ids[s:s + block_rows] for s in range(0, len(ids), block_rows))
        yield from ordered_map(ctx, self._read, chunks, self._workers())

    def _label_values(self, column):
        """Every value of ``column`` (for PKSampler); sources with cheap labels override this."""
        if column not in self.column_names:
            return None
        k = self.column_names.index(column)
        return np.asarray(list(self._read(np.arange(self._length(), dtype=np.int64))[k]))

    def is_shuffled(self) -> bool:
        sampler = self._sampler
        return isinstance(sampler, (RandomSampler, SubsetRandomSampler)) or \
            (isinstance(sampler, DistributedSampler) and sampler.shuffle)

    def is_sharded(self) -> bool:
        return isinstance(self._sampler, DistributedSampler)

    @property
    def num_samples(self) -> int:
        """The row cap given to the source (0: all rows, as MindSpore reports it)."""
        return self._sampler.num_samples or 0

    @property
    def num_shards(self) -> int | None:
        return self._sampler.num_shards if isinstance(self._sampler, DistributedSampler) else None

    @property
    def shard_id(self) -> int | None:
        return self._sampler.shard_id if isinstance(self._sampler, DistributedSampler) else None

    @property
    def sampler(self) -> Sampler:
        """The sampler choosing this source's rows."""
        return self._sampler

    def add_sampler(self, new_sampler: Sampler) -> None:
        """Chain ``new_sampler`` on top: it picks among the ids the current sampler picks, and becomes
        ``self.sampler``.

        >>> import mindspore_hl.dataset as ds
        >>> d = ds.NumpySlicesDataset([0, 1, 2, 3, 4, 5], "x", shuffle=False)
        >>> d.add_sampler(ds.DistributedSampler(2, 1, shuffle=False))
        >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
        [1, 3, 5]
        """
        add_sampler(self, new_sampler)

    def use_sampler(self, new_sampler: Sampler) -> None:
        """Replace the top sampler by ``new_sampler`` (the samplers chained below it stay)."""
        use_sampler(self, new_sampler)

    def _is_random_access(self):
        return True

    def _with_sampler(self, sampler: Sampler) -> MappableSource:
        """A copy of this source reading through ``sampler`` (used by ``split``)."""
        clone = copy.copy(self)
        clone._sampler = sampler
        clone._size_cache = clone._shape_cache = None
        return clone
