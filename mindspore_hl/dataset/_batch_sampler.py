"""``GeneratorDataset(batch_sampler=..., collate_fn=...)``: each list of row ids the batch sampler yields becomes
one batch row, stacked per column or merged by ``collate_fn(*column_lists)`` (MindSpore inserts a
``batch(per_batch_map=collate_fn)`` after such a source; here the source emits the batches itself)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ._block import as_array, column_from_rows, is_stacked, rows
from ._samplers import Sampler

__all__ = ["check_batch_sampler", "wrap_collate_fn", "batch_count", "batch_blocks"]


def check_batch_sampler(batch_sampler: Any, collate_fn: Any, random_access: bool, others: dict[str, Any]) -> None:
    """MindSpore's argument rules for ``batch_sampler`` / ``collate_fn`` (the errors name the argument)."""
    if batch_sampler is not None:
        given = [k for k, v in others.items() if v is not None]
        if given:
            raise ValueError(f"GeneratorDataset: batch_sampler is mutually exclusive with num_samples, shuffle, "
                             f"num_shards, shard_id and sampler, but {given} were also given")
        if isinstance(batch_sampler, Sampler):
            raise TypeError("GeneratorDataset: batch_sampler must be an iterable of lists of row ids (a "
                            "mindspore_hl Sampler yields single ids; pass it as sampler= instead)")
        if not isinstance(batch_sampler, Iterable):
            raise TypeError(f"GeneratorDataset: batch_sampler should have __getitem__ or __iter__ method, but got "
                            f"{type(batch_sampler).__name__}")
        if not random_access:
            raise ValueError("GeneratorDataset: batch_sampler is not supported if source does not have attribute "
                             "'__getitem__'.")
    if collate_fn is not None:
        if batch_sampler is None:
            raise ValueError("GeneratorDataset: collate_fn can be specified only when batch_sampler is set.")
        if not callable(collate_fn):
            raise TypeError(f"GeneratorDataset: collate_fn should be callable, but got {type(collate_fn).__name__}")


def wrap_collate_fn(collate_fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
    """MindSpore's ``GeneratorDataset.collate_fn``: a per_batch_map that drops its last (BatchInfo) argument."""
    if collate_fn is None:
        return None

    def per_batch_map(*args: Any) -> Any:
        return collate_fn(*args[:-1])
    return per_batch_map


def batch_count(batch_sampler: Iterable[Any]) -> int | None:
    """Batches per epoch: ``len(batch_sampler)``, None when it has no length."""
    return len(batch_sampler) if hasattr(batch_sampler, "__len__") else None  # type: ignore[arg-type]


def _batch_row(source: Any, ids: Any, number: int) -> list[np.ndarray]:
    ids_arr = np.asarray(list(ids) if not isinstance(ids, np.ndarray) else ids)
    if ids_arr.ndim != 1 or (ids_arr.size and ids_arr.dtype.kind not in "iu"):
        raise TypeError(f"GeneratorDataset: batch_sampler must yield lists of int row ids, but batch {number} is "
                        f"{ids!r}")
    n = source._length()
    if ids_arr.size and (ids_arr.min() < 0 or ids_arr.max() >= n):
        raise ValueError(f"GeneratorDataset: batch {number} of batch_sampler has row ids outside [0, {n})")
    block = source._read(ids_arr.astype(np.int64))
    names = source.column_names
    if source._collate is not None:
        out = source._collate(*[rows(col) for col in block], None)
        if not isinstance(out, (tuple, list)) or len(out) != len(names):
            raise RuntimeError(f"GeneratorDataset: collate_fn must return a tuple of {len(names)} value(s), one per "
                               f"column {names}, but returned {type(out).__name__}"
                               f"{f' of {len(out)}' if isinstance(out, (tuple, list)) else ''}")
        return [column_from_rows([as_array(v)]) for v in out]
    for name, col in zip(names, block):
        if not is_stacked(col):
            raise RuntimeError(f"GeneratorDataset: batch {number} of batch_sampler has rows of different shapes "
                               f"or types in column {name!r}; give a collate_fn to merge them")
    return [col[None] for col in block]


def batch_blocks(source: Any) -> Iterator[list[np.ndarray]]:
    """One block of one row per batch the batch sampler yields this epoch."""
    for number, ids in enumerate(iter(source._batch_sampler)):
        yield _batch_row(source, ids, number)
