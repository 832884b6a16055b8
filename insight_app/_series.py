"""In-memory containers for one run's data: scalar series, histograms, image references, texts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


class ScalarSeries:
    """All points of one (run, tag) scalar, in arrival order, in growable numpy arrays."""

    def __init__(self) -> None:
        self._n = 0
        self._step = np.zeros(16, np.int64)
        self._wall = np.zeros(16, np.float64)
        self._value = np.zeros(16, np.float64)

    def __len__(self) -> int:
        return self._n

    def extend(self, step: np.ndarray, wall: np.ndarray, value: np.ndarray) -> None:
        """Append points (array-likes of equal length)."""
        k = len(step)
        need = self._n + k
        if need > self._step.size:
            cap = max(need, 2 * self._step.size)
            for name in ("_step", "_wall", "_value"):
                old = getattr(self, name)
                new = np.zeros(cap, old.dtype)
                new[: self._n] = old[: self._n]
                setattr(self, name, new)
        # Readers only look at [:n], so writing past n before bumping n is safe without a lock.
        self._step[self._n:need] = step
        self._wall[self._n:need] = wall
        self._value[self._n:need] = value
        self._n = need

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Returns (step int64, wall_time float64, value float64) views of the points so far."""
        n = self._n
        return self._step[:n], self._wall[:n], self._value[:n]

    def frozen(self) -> FrozenSeries:
        """The points so far; later appends never change it (they write past its end or into new arrays)."""
        return FrozenSeries(*self.arrays())


class FrozenSeries:
    """A fixed-length view of a ScalarSeries, with the same ``arrays()`` / ``len()`` interface."""

    __slots__ = ("_a",)

    def __init__(self, step: np.ndarray, wall: np.ndarray, value: np.ndarray) -> None:
        self._a = (step, wall, value)

    def __len__(self) -> int:
        return self._a[0].size

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(step, wall_time, value)."""
        return self._a


@dataclass
class Histogram:
    """One histogram: bucket edges and counts, plus the summary statistics the writer stored."""

    step: int
    wall_time: float
    left: np.ndarray
    right: np.ndarray
    counts: np.ndarray
    vmin: float
    vmax: float
    total: float


@dataclass
class ImageRef:
    """Where an image lives on disk; the PNG bytes are read back only when shown."""

    step: int
    wall_time: float
    height: int
    width: int
    path: str
    offset: int      # file offset of the record's data
    length: int      # data length
    value_index: int  # index of the Summary.Value within the event
    fmt: str


@dataclass
class PRCurve:
    """One precision-recall curve: ``data`` rows are TP, FP, TN, FN, precision, recall per threshold."""

    step: int
    wall_time: float
    data: np.ndarray


@dataclass
class Text:
    """A text summary."""

    step: int
    wall_time: float
    text: str


def tb_histogram(step: int, wall: float, h: Any) -> Histogram:
    """Convert a TensorBoard HistogramProto the way TensorBoard's data_compat does.

    Empty outer buckets are dropped; the first bucket starts at ``min`` and the last ends at ``max``
    (bucket_limit[i] is the right edge of bucket i).
    """
    counts = np.asarray(h.bucket, np.float64)
    limits = np.asarray(h.bucket_limit, np.float64)
    nz = np.flatnonzero(counts > 0)
    if nz.size == 0:
        e = np.zeros(0)
        return Histogram(step, wall, e, e, e, h.min, h.max, h.num)
    s, t = int(nz[0]), int(nz[-1])
    inner = limits[s:t]
    left = np.concatenate([[h.min], inner])
    right = np.concatenate([inner, [h.max]])
    return Histogram(step, wall, left, right, counts[s:t + 1], h.min, h.max, h.num)


def ms_histogram(step: int, wall: float, h: Any) -> Histogram:
    """Convert a MindSpore Summary.Histogram (buckets of left, width, count)."""
    left = np.array([b.left for b in h.buckets], np.float64)
    width = np.array([b.width for b in h.buckets], np.float64)
    counts = np.array([b.count for b in h.buckets], np.float64)
    return Histogram(step, wall, left, left + width, counts, h.min, h.max, h.count)
