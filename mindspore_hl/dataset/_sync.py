"""``Dataset.sync_wait`` / ``sync_update``: a barrier in the pipeline that lets ``num_batch`` batches through,
then holds the producer until the training loop calls ``sync_update`` (e.g. to feed the loss back into an
augmentation policy)."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ._block import nrows, slice_block
from ._dataset import Dataset

__all__ = ["SyncWaitDataset", "BlockReleasePair", "notify_batch_size"]

# MindSpore's default ``ds.config.get_callback_timeout()``: after it the barrier opens for good (with a warning)
# rather than hanging a pipeline whose loop never calls sync_update.
CALLBACK_TIMEOUT = 60

_log = logging.getLogger(__name__)


class BlockReleasePair:
    """The barrier's counter: ``block`` lets a row pass when fewer rows passed than were released;
    ``release`` releases ``pass_rows`` more (default: ``num_batch`` batches) and calls ``callback(data)``."""

    def __init__(self, init_release_rows: int, callback: Callable[[Any], Any] | None = None):
        if init_release_rows <= 0:
            raise ValueError(f"sync_wait: num_batch must be greater than 0, but got {init_release_rows}")
        self.row_count = -init_release_rows
        self.default_rows = init_release_rows
        self.callback = callback
        self.disable = False
        self.cv = threading.Condition()

    def reset(self) -> None:
        with self.cv:
            self.row_count = -self.default_rows
            self.cv.notify_all()

    def update_batched_size(self, batch_size: int) -> None:
        """A ``batch`` after the barrier: count rows, ``batch_size`` per released batch."""
        self.row_count *= batch_size
        self.default_rows *= batch_size

    def block(self, stop_event: threading.Event | None = None) -> None:
        with self.cv:
            deadline: float = CALLBACK_TIMEOUT
            while not (self.row_count < 0 or self.disable):
                if stop_event is not None and stop_event.is_set():
                    return
                waited = 0.1 if deadline > 0.1 else deadline
                self.cv.wait(waited)
                deadline -= waited
                if deadline <= 0 and not (self.row_count < 0 or self.disable):
                    _log.warning("Timeout happened in sync_wait, maybe dataset.sync_update(condition=...) is not "
                                 "added after dataset.create_dict_iterator(...), now disabling lock.")
                    self.disable = True
            self.row_count += 1

    def release(self, pass_rows: int | None = None, data: Any = None) -> None:
        with self.cv:
            self.row_count -= self.default_rows if pass_rows is None else pass_rows
            if self.callback is not None:
                self.callback(data)
            self.cv.notify_all()

    def disable_lock(self) -> None:
        with self.cv:
            self.disable = True
            self.cv.notify_all()


class SyncWaitDataset(Dataset):
    """The rows of ``child``, each one waiting at the barrier named ``condition_name`` (see ``sync_wait``)."""

    def __init__(self, child: Dataset, condition_name: str, num_batch: int = 1,
                 callback: Callable[[Any], Any] | None = None):
        super().__init__([child])
        if not isinstance(condition_name, str):
            raise TypeError(f"sync_wait: condition_name must be a str, but got {condition_name!r}")
        if isinstance(num_batch, bool) or not isinstance(num_batch, int):
            raise TypeError(f"sync_wait: num_batch must be an int, but got {num_batch!r}")
        if callback is not None and not callable(callback):
            raise TypeError(f"sync_wait: callback must be callable, but got {callback!r}")
        if condition_name in child.get_sync_notifiers():
            raise RuntimeError(f"sync_wait: condition name {condition_name!r} is already in use.")
        self.column_names = child.get_col_names()
        self._condition_name = condition_name
        self._pair = BlockReleasePair(num_batch, callback)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _preferred_rows(self):
        return 1

    def _blocks(self, ctx, epoch, block_rows):
        if not any(epoch):   # a new iterator's first epoch: the barrier starts afresh (MindSpore's bootstrap)
            self.iterator_bootstrap()
        # one row at a time: each must pass the barrier before the next is read on
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            for i in range(nrows(block)):
                self._pair.block(ctx.stop)
                if ctx.stop.is_set():
                    return
                yield slice_block(block, i, i + 1)

    def iterator_bootstrap(self) -> None:
        """The barrier starts afresh: ``num_batch`` batches may pass before the next ``sync_update``."""
        self._pair.reset()

    def get_sync_notifiers(self) -> dict[str, Callable[[int | None, Any], None]]:
        return {**self.children[0].get_sync_notifiers(), self._condition_name: self._pair.release}

    def is_sync(self) -> bool:
        return True

    def disable_sync(self) -> None:
        self._pair.disable_lock()


def notify_batch_size(node: Dataset, batch_size: int) -> None:
    """Tell the barriers below a new ``batch`` that one release lets ``batch_size`` rows through."""
    if isinstance(node, SyncWaitDataset):
        node._pair.update_batched_size(batch_size)
    for child in node.children:
        notify_batch_size(child, batch_size)
