"""Which slice of a tensor each rank holds under a MindSpore layout, and which source ranks a re-layout reads.

A layout is ``(dev_matrix, tensor_map)``: ranks are row-major positions in the device matrix, and dimension ``d``
of the tensor is split over device-matrix axis ``dev_matrix[-1 - tensor_map[d]]`` (-1: not split; a list: several
axes, outermost first). Ranks with the same coordinates on the axes a tensor uses hold the same slice.

Which ranks a re-layout reads is MindSpore's redistribution rule: both device matrices are refined to common
"digits" (factors of the rank) and a digit that splits a dimension in the source layout but not at the same
place in the destination layout is gathered, i.e. read from every rank that differs from the destination rank
only in gathered digits.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["slice_bounds", "needed_ranks", "check_layout"]


def check_layout(name: str, dev_matrix: Sequence[int], tensor_map: Sequence[Any], opt_shard_size: int,
                 what: str) -> None:
    """Refuse what the checkpoint tools here do not handle (optimizer-shard layouts, field splits)."""
    if opt_shard_size:
        raise NotImplementedError(f"{what}: parameter '{name}' has an optimizer-sharded layout "
                                  f"(opt_weight_shard_size={opt_shard_size}), which is not supported.")
    for m in _flat(tensor_map):
        if m != -1 and not 0 <= m < len(dev_matrix):
            raise ValueError(f"{what}: parameter '{name}' has tensor_map {list(tensor_map)} that names an axis "
                             f"outside its dev_matrix {list(dev_matrix)}.")


def _flat(tensor_map):
    for m in tensor_map:
        yield from (m if isinstance(m, (list, tuple)) else (m,))


def _axes(entry) -> list[int]:
    items = entry if isinstance(entry, (list, tuple)) else [entry]
    return [m for m in items if m != -1]


def _coords(rank: int, dev_matrix: Sequence[int]) -> list[int]:
    out = []
    for size in reversed(dev_matrix):
        out.append(rank % size)
        rank //= size
    return out[::-1]


def strategy_of(dev_matrix: Sequence[int], tensor_map: Sequence[Any]) -> list[int]:
    """Split count of each dimension."""
    return [math.prod(dev_matrix[len(dev_matrix) - 1 - m] for m in _axes(e)) for e in tensor_map]


def slice_bounds(rank: int, dev_matrix: Sequence[int], tensor_map: Sequence[Any],
                 shape: Sequence[int]) -> tuple[slice, ...]:
    """The part of a tensor of ``shape`` that ``rank`` holds."""
    coords = _coords(rank % math.prod(dev_matrix), dev_matrix)
    out = []
    for entry, size in zip(tensor_map, shape):
        index, count = 0, 1
        for m in _axes(entry):
            axis = len(dev_matrix) - 1 - m
            index, count = index * dev_matrix[axis] + coords[axis], count * dev_matrix[axis]
        if size % count:
            raise ValueError(f"a dimension of size {size} cannot be split in {count} parts (dev_matrix "
                             f"{list(dev_matrix)}, tensor_map {list(tensor_map)}, shape {list(shape)}).")
        step = size // count
        out.append(slice(index * step, (index + 1) * step))
    return tuple(out)


def _refine(a: list[int], b: list[int]) -> list[int]:
    """Common refinement of two device matrices with the same product: digit sizes, outermost first."""
    def bounds(dev):
        acc, out = 1, {1}
        for d in reversed(dev):
            acc *= d
            out.add(acc)
        return out
    cuts = sorted(bounds(a) | bounds(b))
    if any(hi % lo for lo, hi in zip(cuts, cuts[1:])):
        raise ValueError(f"the device matrices {a} and {b} have no common refinement; this re-layout is not "
                         f"supported.")
    return [hi // lo for lo, hi in zip(cuts, cuts[1:])][::-1]


def _digits_of_axes(dev: list[int], digits: list[int]) -> list[list[int]]:
    """For each axis of ``dev``, the refined digits (indices, outermost first) it consists of."""
    out: list[list[int]] = []
    pos = len(digits)
    for size in reversed(dev):
        group: list[int] = []
        while size > 1:
            pos -= 1
            size //= digits[pos]
            group.insert(0, pos)
        out.insert(0, group)
    return out


def needed_ranks(rank: int, src: tuple[list[int], list[Any]], dst: tuple[list[int], list[Any]]) -> list[int]:
    """Source ranks (modulo the source device count) whose slices make up ``rank``'s slice under ``dst``."""
    src_dev, src_map = list(src[0]), list(src[1])
    dst_dev, dst_map = list(dst[0]), list(dst[1])
    n_src, n_dst = math.prod(src_dev), math.prod(dst_dev)
    if n_src > n_dst:
        if n_src % n_dst:
            raise ValueError(f"Cannot transform device_num from {n_src} to {n_dst}")
        dst_dev.insert(0, n_src // n_dst)
    elif n_dst > n_src:
        if n_dst % n_src:
            raise ValueError(f"Cannot transform device_num from {n_src} to {n_dst}")
        src_dev.insert(0, n_dst // n_src)
    n = math.prod(src_dev)
    digits = _refine(src_dev, dst_dev)
    src_axes, dst_axes = _digits_of_axes(src_dev, digits), _digits_of_axes(dst_dev, digits)

    def dims(dev, axes, tmap):
        return [[g for m in _axes(e) for g in axes[len(dev) - 1 - m]] for e in tmap]

    gathered: set[int] = set()
    for f, t in zip(dims(src_dev, src_axes, src_map), dims(dst_dev, dst_axes, dst_map)):
        keep = 0
        while keep < min(len(f), len(t)) and f[keep] == t[keep]:
            keep += 1
        gathered.update(f[keep:])
    mine = _coords(rank % n, digits)
    fixed = [g for g in range(len(digits)) if g not in gathered]
    ranks = {r % n_src for r in range(n) if all(_coords(r, digits)[g] == mine[g] for g in fixed)}
    return sorted(ranks)


def assemble(target: tuple[slice, ...], pieces: dict[int, tuple[tuple[slice, ...], np.ndarray]], name: str,
             dtype: Any) -> np.ndarray:
    """The block ``target`` of a tensor filled from source pieces ``{rank: (their block, data)}``."""
    shape = tuple(s.stop - s.start for s in target)
    out = np.empty(shape, dtype=dtype)
    covered = np.zeros(shape, dtype=bool)
    for bounds, data in pieces.values():
        lo = [max(a.start, b.start) for a, b in zip(target, bounds)]
        hi = [min(a.stop, b.stop) for a, b in zip(target, bounds)]
        if any(h <= low for low, h in zip(lo, hi)):
            continue
        dst = tuple(slice(low - t.start, h - t.start) for low, h, t in zip(lo, hi, target))
        src = tuple(slice(low - b.start, h - b.start) for low, h, b in zip(lo, hi, bounds))
        out[dst] = data[src]
        covered[dst] = True
    if not covered.all():
        raise ValueError(f"The checkpoint slices given for parameter '{name}' do not cover its slice {target}.")
    return out
