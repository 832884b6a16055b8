"""Samplers: which source rows an epoch reads, in which order (``mindspore.dataset.*Sampler``)."""
from __future__ import annotations

import copy
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler",
           "SubsetSampler", "WeightedRandomSampler", "PKSampler", "build_sampler"]


def _check_num_samples(name, num_samples):
    if num_samples is None:
        return None
    if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral) or num_samples < 0:
        raise ValueError(f"{name}: num_samples must be a non-negative int or None, but got {num_samples!r}")
    return int(num_samples) or None   # MindSpore: 0 means all rows


class Sampler:
    """Base class. Subclasses give ``indices(n, ctx, node, epoch)``: the row ids of one epoch."""

    child_sampler: Sampler | None = None   # add_child: this sampler then picks among its child's ids

    def __init__(self, num_samples: int | None = None) -> None:
        self.num_samples = _check_num_samples(type(self).__name__, num_samples)

    def add_child(self, sampler: Sampler | None) -> None:
        """Read the ids ``sampler`` picks, and pick among them (``get_child`` gives it back)."""
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        if sampler is not None and not isinstance(sampler, Sampler):
            raise TypeError(f"{type(self).__name__}.add_child: expected a Sampler, but got {sampler!r}")
        self.child_sampler = sampler

    def get_child(self) -> Sampler | None:
        """The child sampler given to ``add_child`` (None when none)."""
        return self.child_sampler

    def _cap(self, count):
        return count if self.num_samples is None else min(count, self.num_samples)

    def count(self, n: int) -> int | None:
        """Rows per epoch for a source of ``n`` rows (None when only reading the rows tells)."""
        return self._cap(n)

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}(num_samples={self.num_samples})"


class SequentialSampler(Sampler):
    """Rows in order from ``start_index``. Args: start_index (int), num_samples (int)."""

    def __init__(self, start_index: int | None = None, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        start_index = 0 if start_index is None else start_index
        if isinstance(start_index, bool) or not isinstance(start_index, numbers.Integral) or start_index < 0:
            raise ValueError(f"SequentialSampler: start_index must be a non-negative int, got {start_index!r}")
        self.start_index: int = int(start_index)

    def count(self, n: int) -> int:
        if n and self.start_index >= n:
            raise ValueError(f"SequentialSampler: start_index {self.start_index} is not less than the number of "
                             f"rows {n}")
        return self._cap(max(n - self.start_index, 0))

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        return np.arange(self.start_index, self.start_index + self.count(n), dtype=np.int64)


class RandomSampler(Sampler):
    """A fresh random order each epoch. Args: replacement (bool), num_samples (int)."""

    def __init__(self, replacement: bool = False, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: replacement must be a bool, got {replacement!r}")
        self.replacement = replacement

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        rng = ctx.rng(node, *epoch)
        if self.replacement:
            return rng.integers(0, n, size=self.count(n), dtype=np.int64) if n else np.zeros(0, np.int64)
        return rng.permutation(n).astype(np.int64)[:self.count(n)]


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: shard k takes every ``num_shards``-th row of the epoch order starting
    at k. As in MindSpore, every shard gets the same number of rows, ceil(rows / num_shards): the epoch order is
    padded by wrapping around to its start, so the processes of a data-parallel job run the same number of steps.
    With an ``offset`` (which shard the first row goes to, used when concatenating) the shards partition the rows
    exactly instead, and their sizes may differ by one.

    With ``shuffle`` every shard shuffles with the same seed (``ds.config.get_seed()`` and the epoch), which is
    what keeps them disjoint across processes.
    Args: num_shards (int), shard_id (int), shuffle (bool), num_samples (int): cap per shard, offset (int)."""

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True, num_samples: int | None = None,
                 offset: int = -1) -> None:
        super().__init__(num_samples)
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                raise TypeError(f"DistributedSampler: {name} must be an int, got {v!r}")
        if num_shards < 1:
            raise ValueError(f"DistributedSampler: num_shards must be positive, got {num_shards}")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"DistributedSampler: shard_id must be in [0, {num_shards - 1}], got {shard_id}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"DistributedSampler: shuffle must be a bool, got {shuffle!r}")
        self.num_shards, self.shard_id, self.shuffle = int(num_shards), int(shard_id), shuffle
        self.offset = int(offset)

    def _start(self):
        # With an offset, row 0 goes to shard ``offset``: shard k starts at row (k - offset) mod num_shards.
        return self.shard_id if self.offset < 0 else (self.shard_id - self.offset) % self.num_shards

    def count(self, n: int) -> int:
        if self.offset < 0:
            return self._cap(-(-n // self.num_shards))
        start = self._start()
        return self._cap(max(0, (n - start + self.num_shards - 1) // self.num_shards))

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        order = ctx.shared_rng(*epoch).permutation(n) if self.shuffle else np.arange(n)
        if self.offset < 0 and n % self.num_shards:
            order = np.resize(order, -(-n // self.num_shards) * self.num_shards)  # wraps around to the start
        return order[self._start()::self.num_shards].astype(np.int64)[:self.count(n)]


class SubsetSampler(Sampler):
    """The given row ids, in the given order. Args: indices (sequence of int), num_samples (int)."""

    def __init__(self, indices: Sequence[int] | np.ndarray, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        try:
            arr = np.asarray(list(indices) if not isinstance(indices, np.ndarray) else indices)
        except TypeError:
            raise TypeError(f"{type(self).__name__}: indices must be a sequence of ints, got {indices!r}") from None
        if arr.size and arr.dtype.kind not in "iu":
            raise TypeError(f"{type(self).__name__}: indices must be ints, got dtype {arr.dtype}")
        self._ids = arr.astype(np.int64).reshape(-1)

    def count(self, n: int) -> int:
        return self._cap(len(self._ids))

    def _checked(self, n):
        if len(self._ids) and (self._ids.min() < -n or self._ids.max() >= n):
            bad = self._ids[(self._ids < -n) | (self._ids >= n)][0]
            raise ValueError(f"{type(self).__name__}: index {bad} is out of range for a dataset of {n} rows")
        return self._ids % n if n else self._ids

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        return self._checked(n)[:self.count(n)]


class SubsetRandomSampler(SubsetSampler):
    """The given row ids in a fresh random order each epoch. Args: indices, num_samples (int)."""

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        ids = self._checked(n)
        return ids[ctx.rng(node, *epoch).permutation(len(ids))][:self.count(n)]


class WeightedRandomSampler(Sampler):
    """``num_samples`` row ids drawn with probability proportional to ``weights`` (one weight per row).

    Args: weights (list of float >= 0, not all zero), num_samples (int, default len(weights)),
        replacement (bool, default True: ids may repeat)."""

    def __init__(self, weights: Sequence[float] | np.ndarray, num_samples: int | None = None,
                 replacement: bool = True) -> None:
        super().__init__(num_samples)
        w = np.asarray(weights, dtype=np.float64).reshape(-1) if isinstance(weights, (list, tuple, np.ndarray)) \
            else None
        if w is None or not w.size:
            raise TypeError(f"WeightedRandomSampler: weights must be a non-empty list of numbers, got {weights!r}")
        if (w < 0).any() or not np.isfinite(w).all() or w.sum() == 0:
            raise ValueError(f"WeightedRandomSampler: weights must be finite, non-negative and not all zero, got "
                             f"{list(weights)}")
        if not isinstance(replacement, bool):
            raise TypeError(f"WeightedRandomSampler: replacement must be a bool, got {replacement!r}")
        if not replacement and self.num_samples is not None and self.num_samples > int((w > 0).sum()):
            raise ValueError(f"WeightedRandomSampler: cannot draw {self.num_samples} distinct ids from "
                             f"{int((w > 0).sum())} positive weights without replacement")
        self.weights, self.replacement = w, replacement

    def count(self, n: int) -> int:
        return self.num_samples if self.num_samples is not None else len(self.weights)

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        if len(self.weights) > n:
            raise ValueError(f"WeightedRandomSampler: {len(self.weights)} weights for a dataset of {n} rows")
        rng = ctx.rng(node, *epoch)
        return rng.choice(len(self.weights), size=self.count(n), replace=self.replacement,
                          p=self.weights / self.weights.sum()).astype(np.int64)


class PKSampler(Sampler):
    """P classes x K rows: for each class (label of the source's ``label`` column), ``num_val`` row ids, repeated
    when a class has fewer rows. Needs a source with a label column (mappable sources).

    Args: num_val (int): K, num_class: unused (every class is taken), shuffle (bool): classes and rows in random
        order, class_column (str): the label column, num_samples (int)."""

    def __init__(self, num_val: int, num_class: int | None = None, shuffle: bool = False, class_column: str = "label",
                 num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        if isinstance(num_val, bool) or not isinstance(num_val, numbers.Integral) or num_val < 1:
            raise ValueError(f"PKSampler: num_val must be a positive int, got {num_val!r}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"PKSampler: shuffle must be a bool, got {shuffle!r}")
        self.num_val: int = int(num_val)
        self.shuffle: bool = shuffle
        self.class_column: str = class_column

    def _order(self, node, rng):
        labels = node._label_values(self.class_column) if hasattr(node, "_label_values") else None
        if labels is None:
            raise RuntimeError(f"PKSampler: {type(node).__name__} has no label column {self.class_column!r}")
        labels = np.asarray(labels).reshape(-1)
        classes = np.unique(labels)
        if rng is not None:
            classes = classes[rng.permutation(len(classes))]
        out = []
        for c in classes:
            ids = np.flatnonzero(labels == c)
            if rng is not None:
                ids = ids[rng.permutation(len(ids))]
            out.extend(np.resize(ids, self.num_val).tolist())
        return np.asarray(out, np.int64)

    def count(self, n: int) -> int | None:  # None: the number of rows depends on the labels
        return None if self.num_samples is None else self.num_samples

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        ids = self._order(node, ctx.rng(node, *epoch) if self.shuffle else None)
        return ids[:self._cap(len(ids))]


class _IterableSampler(Sampler):
    """A user object with ``__iter__`` yielding row ids (MindSpore accepts any such sampler)."""

    def __init__(self, source: Iterable[int]) -> None:
        super().__init__(None)
        self._source = source

    def count(self, n: int) -> int:
        length = getattr(self._source, "__len__", None)
        return length() if length is not None else len(list(iter(self._source)))

    def indices(self, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
        ids = np.asarray(list(iter(self._source)), dtype=np.int64).reshape(-1)
        if len(ids) and (ids.min() < 0 or ids.max() >= n):
            raise ValueError(f"sampler: index {ids[(ids < 0) | (ids >= n)][0]} is out of range for a dataset "
                             f"of {n} rows")
        return ids


def build_sampler(op: str, num_samples: int | None, shuffle: bool | None, sampler: Any, num_shards: int | None,
                  shard_id: int | None, default_shuffle: bool = True) -> Sampler:
    """MindSpore's rules for combining the source arguments into one sampler."""
    if shuffle is not None and not isinstance(shuffle, bool):
        raise TypeError(f"{op}: shuffle must be a bool or None, but got {shuffle!r}")
    num_samples = _check_num_samples(op, num_samples)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"{op}: num_shards and shard_id must be given together "
                         f"(got num_shards={num_shards!r}, shard_id={shard_id!r})")
    if sampler is not None:
        if shuffle is not None:
            raise ValueError(f"{op}: sampler and shuffle cannot be specified at the same time")
        if num_shards is not None:
            raise ValueError(f"{op}: sampler and num_shards/shard_id cannot be specified at the same time")
        if isinstance(sampler, Sampler):
            if num_samples is not None:
                sampler = copy.copy(sampler)
                sampler.num_samples = num_samples if sampler.num_samples is None else \
                    min(num_samples, sampler.num_samples)
            return sampler
        if isinstance(sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(sampler, num_samples)
        if hasattr(sampler, "__iter__"):
            return _IterableSampler(sampler)
        raise TypeError(f"{op}: sampler must be a Sampler, a list of indices or an iterable, got {sampler!r}")
    shuffle = default_shuffle if shuffle is None else shuffle
    if num_shards is not None:
        if isinstance(num_shards, bool) or not isinstance(num_shards, numbers.Integral) or num_shards < 1:
            raise ValueError(f"{op}: num_shards must be a positive int, but got {num_shards!r}")
        if isinstance(shard_id, bool) or not isinstance(shard_id, numbers.Integral) or \
                not 0 <= shard_id < num_shards:
            raise ValueError(f"{op}: shard_id must be in [0, {num_shards - 1}], but got {shard_id!r}")
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    if shuffle:
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)
