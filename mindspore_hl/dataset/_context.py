"""Per-iterator execution state: seeds, the worker pool, and the ordered parallel map used by operations."""
from __future__ import annotations

import collections
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from . import config

if TYPE_CHECKING:
    from ._dataset import Dataset

__all__ = ["Context", "ordered_map"]

_T = TypeVar("_T")
_R = TypeVar("_R")


class Context:
    """What one iterator's pipeline run shares: seed, worker pool, stop flag, node numbering.

    Nodes are numbered in depth-first order so that two equal pipelines draw the same random streams whatever
    order their Python objects were created in."""

    def __init__(self, root: Dataset):
        seed = config.effective_seed()
        # No seed set: fresh randomness for every iterator (MindSpore uses std::random_device then).
        self.seed = int(seed) if seed is not None else int.from_bytes(os.urandom(4), "little")
        self.shared_seed = config.get_seed()   # DistributedSampler: same order in every shard / process
        self.stop = threading.Event()
        self.uids: dict[int, int] = {}
        self.max_workers = 1
        self._number(root)
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _number(self, node):
        if id(node) in self.uids:
            return
        self.uids[id(node)] = len(self.uids)
        self.max_workers = max(self.max_workers, node._workers())
        for child in node.children:
            self._number(child)

    def rng(self, node: Dataset, *key: Any) -> np.random.Generator:
        """Generator for ``node`` at ``key`` (epoch, repeat, block...): independent of thread timing."""
        return np.random.default_rng([self.seed, self.uids[id(node)], *key])

    def shared_rng(self, *key: Any) -> np.random.Generator:
        return np.random.default_rng([self.shared_seed, *key])

    @property
    def pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.max_workers,
                                                thread_name_prefix="mindspore_hl-dataset-worker")
            return self._pool

    def close(self) -> None:
        self.stop.set()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def ordered_map(ctx: Context, fn: Callable[[_T], _R], items: Iterable[_T], workers: int) -> Iterator[_R]:
    """``map(fn, items)`` on the context's pool with up to ``2 * workers`` items in flight, results in order.

    Runs inline when ``workers <= 1``. An exception in ``fn`` surfaces when its result is due."""
    if workers <= 1:
        for item in items:
            yield fn(item)
        return
    pool = ctx.pool
    pending: collections.deque[Future[_R]] = collections.deque()
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()
