"""Pipeline operations that only move rows: repeat, take, skip, project, rename, zip, concat, split."""
from __future__ import annotations

import itertools
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._block import nrows, slice_block
from ._dataset import Dataset, column_list
from ._dataset_sampling import chain_count, chain_indices
from ._samplers import SubsetRandomSampler, SubsetSampler

__all__ = ["RepeatDataset", "TakeDataset", "SkipDataset", "ProjectDataset", "RenameDataset", "ZipDataset",
           "ConcatDataset", "split"]


def _check_count(op: str, count: int, allow_minus_one: bool) -> int:
    if isinstance(count, bool) or not isinstance(count, numbers.Integral) or \
            not (count >= 0 or (allow_minus_one and count == -1)):
        raise ValueError(f"{op}: count must be a non-negative int{' or -1' if allow_minus_one else ''}, "
                         f"but got {count!r}")
    return int(count)


class RepeatDataset(Dataset):
    """The child's epochs back to back; each repetition reshuffles like a new epoch."""

    def __init__(self, child: Dataset, count: int | None = None):
        super().__init__([child])
        self.count = -1 if count is None else _check_count("repeat", count, True)
        if self.count == 0:
            raise ValueError("repeat: count must be positive or -1 (forever), but got 0")
        self.column_names = child.get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if n is None:
            return None
        return -1 if self.count == -1 else n * self.count

    def get_repeat_count(self) -> int:
        return self.count

    def _blocks(self, ctx, epoch, block_rows):
        reps = itertools.count() if self.count == -1 else range(self.count)
        for r in reps:
            yield from self.children[0]._blocks(ctx, epoch + (r,), block_rows)


class TakeDataset(Dataset):
    """The first ``count`` rows of each epoch."""

    def __init__(self, child: Dataset, count: int = -1):
        super().__init__([child])
        self.count = _check_count("take", count, True)
        self.column_names = child.get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if self.count == -1:
            return n
        return None if n is None else (self.count if n == -1 else min(n, self.count))

    def _blocks(self, ctx, epoch, block_rows):
        left = self.count
        if left == 0:
            return
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            n = nrows(block)
            if 0 <= left <= n:
                yield slice_block(block, 0, left)
                return
            if left > 0:
                left -= n
            yield block


class SkipDataset(Dataset):
    """Each epoch without its first ``count`` rows."""

    def __init__(self, child: Dataset, count: int):
        super().__init__([child])
        self.count = _check_count("skip", count, False)
        self.column_names = child.get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        return None if n is None else (n if n == -1 else max(0, n - self.count))

    def _blocks(self, ctx, epoch, block_rows):
        left = self.count
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            n = nrows(block)
            if left >= n:
                left -= n
                continue
            yield slice_block(block, left, n) if left else block
            left = 0


class ProjectDataset(Dataset):
    """Only the named columns, in the given order."""

    def __init__(self, child: Dataset, columns: str | Sequence[str]):
        super().__init__([child])
        cols = column_list("project", columns, "columns")
        names = child.get_col_names()
        missing = [c for c in cols if c not in names]
        if missing:
            raise ValueError(f"project: column(s) {missing} do not exist; the dataset has columns {names}")
        self._idx = [names.index(c) for c in cols]
        self.column_names = cols

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _blocks(self, ctx, epoch, block_rows):
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            yield [block[i] for i in self._idx]


class RenameDataset(Dataset):
    """The same rows with some columns renamed."""

    def __init__(self, child: Dataset, input_columns: str | Sequence[str], output_columns: str | Sequence[str]):
        super().__init__([child])
        src = column_list("rename", input_columns, "input_columns")
        dst = column_list("rename", output_columns, "output_columns")
        if len(src) != len(dst):
            raise ValueError(f"rename: input_columns {src} and output_columns {dst} differ in length")
        names = child.get_col_names()
        missing = [c for c in src if c not in names]
        if missing:
            raise ValueError(f"rename: column(s) {missing} do not exist; the dataset has columns {names}")
        mapping = dict(zip(src, dst))
        self._renamed = (src, dst)
        self.column_names = [mapping.get(c, c) for c in names]
        if len(set(self.column_names)) != len(self.column_names):
            raise ValueError(f"rename: the new names {self.column_names} are not unique")

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _blocks(self, ctx, epoch, block_rows):
        return self.children[0]._blocks(ctx, epoch, block_rows)


class ZipDataset(Dataset):
    """Columns of several datasets side by side; as many rows as the shortest."""

    def __init__(self, datasets: Sequence[Dataset]):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"zip: expected datasets, but got {d!r}")
        super().__init__(datasets)
        names = [c for d in datasets for c in d.get_col_names()]
        dup = sorted({c for c in names if names.count(c) > 1})
        if dup:
            raise ValueError(f"zip: column names {dup} appear in more than one dataset; rename them first")
        self.column_names = names

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        if any(s is None for s in sizes):
            return None
        finite = [s for s in sizes if s != -1]
        return min(finite) if finite else -1

    def get_batch_size(self) -> int:
        return self.children[0].get_batch_size() if self._batch_size is None else self._batch_size

    def _blocks(self, ctx, epoch, block_rows):
        its = [d._blocks(ctx, epoch, block_rows) for d in self.children]
        bufs: list[Any] = [None] * len(its)   # a block, or None before the first / after the last
        while True:
            for i, it in enumerate(its):
                while bufs[i] is None or nrows(bufs[i]) == 0:
                    bufs[i] = next(it, None)
                    if bufs[i] is None:
                        return
            m = min(nrows(b) for b in bufs)
            yield [c for b in bufs for c in slice_block(b, 0, m)]
            bufs = [slice_block(b, m, nrows(b)) for b in bufs]


class ConcatDataset(Dataset):
    """Rows of each dataset in turn (the column names must match)."""

    def __init__(self, datasets: Sequence[Dataset]):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"concat: expected datasets, but got {d!r}")
        super().__init__(datasets)
        names = datasets[0].get_col_names()
        for d in datasets[1:]:
            if d.get_col_names() != names:
                raise ValueError(f"concat: all datasets need the same columns, but got {names} and "
                                 f"{d.get_col_names()}")
        self.column_names = names

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        if any(s is None for s in sizes):
            return None
        return -1 if -1 in sizes else sum(sizes)

    def get_batch_size(self) -> int:
        return self.children[0].get_batch_size() if self._batch_size is None else self._batch_size

    def _blocks(self, ctx, epoch, block_rows):
        for d in self.children:
            yield from d._blocks(ctx, epoch, block_rows)


def _split_sizes(sizes: Sequence[int] | Sequence[float], total: int | None) -> list[int]:
    """MindSpore's split sizes: ints summing to ``total``, or fractions rounded (Python ``round``) with the
    shortfall added to the first part and any excess removed from the first part large enough to keep a row."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"split: sizes must be a non-empty list of ints or floats, but got {sizes!r}")
    if total is None or total <= 0:
        raise RuntimeError("split: dataset_size is unknown, unable to split.")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"split: int sizes must be positive, got {sizes}")
        if sum(sizes) != total:
            raise RuntimeError(f"split: sum of split sizes {sum(sizes)} is not equal to dataset size {total}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, numbers.Real) and not isinstance(s, bool) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"split: float sizes must be in (0, 1] and sum to 1, got {sizes}")
        out = []
        for s in sizes:
            n = int(round(s * total))
            if n == 0:
                raise RuntimeError(f"split: split percentage {s} is too small for {total} rows.")
            out.append(n)
        diff = total - sum(out)
        if diff > 0:
            out[0] += diff
        else:
            for i, n in enumerate(out):
                if n + diff > 0:
                    out[i] += diff
                    break
        return out
    raise TypeError(f"split: sizes must be all ints or all floats, but got {sizes!r}")


def split(dataset: Dataset, sizes: Sequence[int] | Sequence[float], randomize: bool = True) -> list[Dataset]:
    """Split ``dataset`` into parts (see ``Dataset.split``)."""
    from ._sources import MappableSource  # sources import the pipeline; the reverse import is lazy
    total = dataset.get_dataset_size()
    parts = _split_sizes(sizes, total)
    if isinstance(dataset, MappableSource) and dataset._is_random_access():
        n = dataset._length()
        base = chain_indices(dataset._sampler, n, _FixedOrder(), dataset, (0,)) \
            if chain_count(dataset._sampler, n) != n else np.arange(n, dtype=np.int64)
        if randomize:
            from . import config
            seed = config.effective_seed()
            base = base[np.random.default_rng(seed).permutation(len(base))]
        out: list[Dataset] = []
        start = 0
        for p in parts:
            ids = base[start:start + p]
            start += p
            sampler = SubsetRandomSampler(ids) if randomize else SubsetSampler(ids)
            out.append(dataset._with_sampler(sampler))
        return out
    if randomize:
        raise ValueError("split: randomize=True needs a mappable source (MnistDataset, GeneratorDataset with "
                         "__getitem__, ...) directly; use randomize=False for a pipeline")
    out = []
    start = 0
    for p in parts:
        out.append(dataset.skip(start).take(p))
        start += p
    return out


class _FixedOrder:
    """A stand-in context for reading a sampler's order once, outside an iterator."""

    def rng(self, node: Any, *key: Any) -> np.random.Generator:
        return np.random.default_rng(0)

    def shared_rng(self, *key: Any) -> np.random.Generator:
        from . import config
        return np.random.default_rng([config.get_seed(), *key])
