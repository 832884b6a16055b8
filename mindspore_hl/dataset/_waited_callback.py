"""``WaitedDSCallback``: a dataset callback that waits, before each dataset step (epoch), for the training step
(epoch) before it to end, so it can tune the pipeline from what training just produced (e.g. the loss)."""
from __future__ import annotations

import threading

from ..callbacks._callback import Callback
from ..callbacks._callback import RunContext as TrainRunContext
from ._callbacks import DSCallback, RunContext
from ._sync import CALLBACK_TIMEOUT

__all__ = ["WaitedDSCallback"]


class WaitedDSCallback(Callback, DSCallback):
    """Give it to both ``Dataset.map(callbacks=...)`` and ``Model.train(callbacks=...)``; override
    ``sync_step_begin`` and/or ``sync_epoch_begin``. From the second step (epoch) on, the dataset waits for the
    training's ``step_end`` (``epoch_end``), then calls the hook with the training's run context.

    Args: step_size (int): rows per step, usually the batch size. Default: 1.

    >>> import mindspore_hl.dataset as ds
    >>> class Log(ds.WaitedDSCallback):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.seen = []
    ...     def sync_step_begin(self, train_run_context, ds_run_context):
    ...         self.seen.append((train_run_context, ds_run_context.cur_step_num))
    >>> cb = Log()
    >>> it = ds.NumpySlicesDataset([1, 2, 3], "x", shuffle=False).map(lambda x: x, callbacks=cb)
    >>> it = it.create_tuple_iterator(num_epochs=1)
    >>> _ = next(it)
    >>> cb.step_end("step 1 done")       # what Model.train calls after its step
    >>> _ = next(it)
    >>> cb.end("training over")          # the end of training releases every wait
    >>> _ = next(it)
    >>> cb.seen
    [('step 1 done', 2), ('training over', 3)]
    """

    waits_for_training = True   # its map runs the hooks before mapping each row (see MapDataset)

    def __init__(self, step_size: int = 1) -> None:
        DSCallback.__init__(self, step_size)
        self.step_event = threading.Event()
        self.step_run_context: TrainRunContext | None = None
        self.epoch_event = threading.Event()
        self.epoch_run_context: TrainRunContext | None = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context: TrainRunContext | None, ds_run_context: RunContext) -> None:
        """Called before a dataset epoch (from the second), after the previous training epoch ended."""

    def sync_step_begin(self, train_run_context: TrainRunContext | None, ds_run_context: RunContext) -> None:
        """Called before a dataset step (from the second), after the previous training step ended."""

    def _wait(self, event: threading.Event, hook: str) -> None:
        if not self.training_ended:
            ok = event.wait(timeout=CALLBACK_TIMEOUT)
            event.clear()
            if not ok:
                raise RuntimeError(f"WaitedDSCallback: {hook} timed out after {CALLBACK_TIMEOUT} second(s) "
                                   f"waiting for the training to end its step/epoch.")

    # training side (mindspore.train.Callback hooks)
    def epoch_end(self, run_context: TrainRunContext) -> None:
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def step_end(self, run_context: TrainRunContext) -> None:
        self.step_run_context = run_context
        self.step_event.set()

    def end(self, run_context: TrainRunContext) -> None:
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True

    # dataset side (DSCallback hooks)
    def ds_epoch_begin(self, ds_run_context: RunContext) -> None:
        if type(self).sync_epoch_begin is not WaitedDSCallback.sync_epoch_begin and ds_run_context.cur_epoch_num > 1:
            self._wait(self.epoch_event, "ds_epoch_begin")
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def ds_step_begin(self, ds_run_context: RunContext) -> None:
        if type(self).sync_step_begin is not WaitedDSCallback.sync_step_begin and \
                ds_run_context.cur_step_num > self.step_size:
            self._wait(self.step_event, "ds_step_begin")
            self.sync_step_begin(self.step_run_context, ds_run_context)
