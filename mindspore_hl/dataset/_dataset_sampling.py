"""Sampler chains (MindSpore's ``add_sampler`` / ``use_sampler``): a sampler with a child picks among the ids its
child picked, so ``DistributedSampler`` over ``SubsetSampler`` shards the subset."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._samplers import Sampler

__all__ = ["chain_count", "chain_indices", "add_sampler", "use_sampler"]


def chain_count(sampler: Sampler, n: int) -> int | None:
    """Rows per epoch of ``sampler`` and its children over a source of ``n`` rows (None: only reading tells)."""
    child = sampler.child_sampler
    if child is None:
        return sampler.count(n)
    inner = chain_count(child, n)
    return None if inner is None else sampler.count(inner)


def chain_indices(sampler: Sampler, n: int, ctx: Any, node: Any, epoch: tuple[int, ...]) -> np.ndarray:
    """Row ids of one epoch: the child's ids first, then this sampler's picks among them (by position)."""
    child = sampler.child_sampler
    if child is None:
        return sampler.indices(n, ctx, node, epoch)
    inner = chain_indices(child, n, ctx, node, epoch)
    return inner[sampler.indices(len(inner), ctx, node, epoch)]


def add_sampler(source: Any, new_sampler: Sampler) -> None:
    """``new_sampler`` becomes the source's sampler, reading the ids of the current one (its new child)."""
    if not isinstance(new_sampler, Sampler):
        raise TypeError(f"add_sampler: expected a Sampler, but got {new_sampler!r}")
    new_sampler.add_child(source._sampler)
    source._sampler = new_sampler
    source._size_cache = source._shape_cache = None


def use_sampler(source: Any, new_sampler: Sampler) -> None:
    """Replace the source's top sampler by ``new_sampler``, keeping the chain below it (as MindSpore does)."""
    if new_sampler is None:
        raise TypeError("Input sampler can not be None.")
    if not isinstance(new_sampler, Sampler):
        raise TypeError(f"Input sampler is not an instance of a sampler, got {new_sampler!r}")
    below = source._sampler.child_sampler
    new_sampler.add_child(below)
    source._sampler = new_sampler
    source._size_cache = source._shape_cache = None
