"""``ProgressBar``: a tqdm bar per epoch with the loss, throughput and ETA (an addition over MindSpore)."""
from __future__ import annotations

import time
from typing import IO, Any

from ._callback import Callback, RunContext, handle_loss

__all__ = ["ProgressBar"]


class ProgressBar(Callback):
    """Show training progress in a terminal or notebook: one tqdm bar per epoch.

    The bar shows steps done, the ETA of the epoch, samples per second and the latest loss. Reading the loss
    waits for the device, so it is refreshed at most every ``refresh_seconds``. Not added by default.

    Args:
        refresh_seconds (float): minimum time between loss / throughput updates.
        file: where the bar is written (default ``sys.stderr``, as tqdm).
        leave (bool): keep each epoch's finished bar on screen.
    """

    def __init__(self, refresh_seconds: float = 0.5, file: IO[str] | None = None, leave: bool = True) -> None:
        super().__init__()
        if not isinstance(refresh_seconds, (int, float)) or refresh_seconds < 0:
            raise ValueError(f"For 'ProgressBar', 'refresh_seconds' must be a number >= 0, but got "
                             f"{refresh_seconds!r}.")
        self.refresh_seconds, self.file, self.leave = float(refresh_seconds), file, leave
        self._bar: Any = None

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        from tqdm.auto import tqdm
        cb_params = run_context.original_args()
        self._close()
        self._bar = tqdm(total=cb_params.batch_num, unit="step", file=self.file, leave=self.leave,
                         desc=f"Epoch {cb_params.cur_epoch_num}/{cb_params.get('epoch_num', '?')}")
        self._batch = _batch_size(cb_params)
        self._start = self._last = time.time()
        self._epoch_start_step = cb_params.cur_step_num
        self._shown_step = cb_params.cur_step_num

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self._bar is None:
            return
        cb_params = run_context.original_args()
        now = time.time()
        done = cb_params.cur_step_num - self._shown_step
        if now - self._last < self.refresh_seconds and cb_params.cur_step_num - self._epoch_start_step \
                < cb_params.batch_num:
            return
        loss = handle_loss(cb_params.net_outputs)
        if hasattr(loss, "asnumpy"):
            loss = float(loss.asnumpy().mean())
        steps = cb_params.cur_step_num - self._epoch_start_step
        postfix = {"loss": f"{loss:.4f}" if isinstance(loss, float) else str(loss)}
        if self._batch:
            postfix["samples/s"] = f"{steps * self._batch / max(now - self._start, 1e-9):.0f}"
        self._bar.set_postfix(postfix, refresh=False)
        self._bar.update(done)
        self._shown_step, self._last = cb_params.cur_step_num, now

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        if self._bar is not None:
            cb_params = run_context.original_args()
            self._bar.update(cb_params.cur_step_num - self._shown_step)
            self._shown_step = cb_params.cur_step_num
        self._close()

    def on_train_end(self, run_context: RunContext) -> None:
        self._close()

    def __exit__(self, *err: object) -> None:
        self._close()

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _batch_size(cb_params: Any) -> int | None:
    element = cb_params.get("train_dataset_element")
    dataset = cb_params.get("train_dataset")
    if hasattr(dataset, "get_batch_size"):
        try:
            return int(dataset.get_batch_size())
        except Exception:  # noqa: BLE001 - a dataset that cannot tell: fall back to the batch itself
            pass
    if element:
        shape = getattr(element[0], "shape", ())
        return int(shape[0]) if shape else 1
    return None
