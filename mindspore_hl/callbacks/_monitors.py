"""Console and bookkeeping callbacks: LossMonitor, TimeMonitor, History, LambdaCallback, TerminateOnNaN."""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from ._callback import HOOKS, Callback, RunContext, handle_loss

__all__ = ["LossMonitor", "TimeMonitor", "History", "LambdaCallback", "TerminateOnNaN"]


def _check_non_negative_int(name: str, value: int, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{owner}', the argument '{name}' must be an int >= 0, but got {value!r}.")
    return value


def _step_in_epoch(cb_params: Any) -> int:
    return (cb_params.cur_step_num - 1) % cb_params.batch_num + 1


class LossMonitor(Callback):
    """Print the loss: ``epoch: 1 step: 2, loss is 0.6643077731132507``; raise on a NaN / Inf loss.

    In ``Model.fit`` it also prints ``Eval result: epoch 1, metrics: {...}`` after each evaluation.

    Args:
        per_print_times (int): print every this many steps (0: never). In sink mode the loss is printed at
            the sink boundary nearest to that.
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        self._per_print_times = _check_non_negative_int("per_print_times", per_print_times, "LossMonitor")
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = _step_in_epoch(cb_params)
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, training "
                             f"process cannot continue, terminating training.")
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            # a new train() restarted the step count: move the last print back before it
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.dataset_sink_mode else 1)
        if self._per_print_times != 0 and cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}", flush=True)


class TimeMonitor(Callback):
    """Print the epoch time: ``Train epoch time: 604.540 ms, per step time: 151.135 ms``.

    The time includes the device work of the epoch (the monitor waits for the last step's output). Under
    ``Model.fit`` the evaluation runs inside the training epoch, before it ends (so that epoch-end callbacks see
    its metrics), and gets a line of its own, ``Eval epoch time: ...``; the training line leaves the evaluation's
    time out, so its per-step time is the training steps'. (MindSpore's monitor keeps one start time for both,
    so there its training line repeats the evaluation's time.)

    Args:
        data_size (int): steps per epoch, used when ``cb_params.batch_num`` is unknown.
        data_time (bool): also print the mean time spent fetching a training batch (non-sink mode).
    """

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        if data_size is not None and (isinstance(data_size, bool) or not isinstance(data_size, int)
                                      or data_size <= 0):
            raise ValueError(f"For 'TimeMonitor', the argument 'data_size' must be a positive int, but got "
                             f"{data_size!r}.")
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', the argument 'data_time' must be a bool, but got "
                            f"{type(data_time).__name__}.")
        self.data_size, self.data_time = data_size, data_time
        self.epoch_time = time.time()
        self._epoch_start: dict[str, float] = {}  # per mode: an evaluation inside a training epoch has its own
        self._eval_in_epoch = 0.0  # seconds of evaluation since the training epoch began
        self.data_time_sum, self.data_time_start = 0.0, 0.0

    def _sink(self, run_context: RunContext) -> bool:
        return bool(run_context.original_args().get("dataset_sink_mode"))

    def on_train_step_begin(self, run_context: RunContext) -> None:
        if self.data_time and not self._sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self.data_time and not self._sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_time = time.time()
        mode = run_context.original_args().get("mode", "")
        self._epoch_start[mode] = self.epoch_time
        if mode == "eval":
            return
        self._eval_in_epoch = 0.0
        if self.data_time and not self._sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        jax.block_until_ready(cb_params.get("net_outputs"))
        mode = cb_params.get("mode", "")
        seconds = time.time() - self._epoch_start.get(mode, self.epoch_time)
        if mode == "eval":
            self._eval_in_epoch += seconds
        else:
            seconds -= self._eval_in_epoch
        epoch_ms = seconds * 1000
        steps = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        if not steps:
            raise ValueError("For 'TimeMonitor', the steps per epoch are unknown: pass data_size.")
        line = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: " \
               f"{epoch_ms / steps:5.3f} ms"
        if self.data_time and mode != "eval" and not self._sink(run_context):  # (timed for training steps)
            line += f" (data time: {self.data_time_sum * 1000 / steps:5.3f} ms)"
        print(line, flush=True)


class History(Callback):
    """Record the epochs and, per epoch, the last loss (``net_output``) and the eval metrics.

    After ``model.train(3, ...)``: ``history.epoch == {'epoch': [1, 2, 3]}`` and
    ``history.history == {'net_output': [loss_1, loss_2, loss_3]}`` (plus one list per metric in ``fit``).
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[Any]] = {}
        self.epoch: dict[str, list[int]] | None = None

    def begin(self, run_context: RunContext) -> None:
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if self.epoch is None:  # epoch_end without begin (a hook called by hand): start the record here
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        net_output = handle_loss(cb_params.net_outputs)
        if not isinstance(net_output, float) and hasattr(net_output, "asnumpy"):
            net_output = np.mean(net_output.asnumpy())
        elif isinstance(net_output, float):
            net_output = np.float32(net_output)
        current = {"net_output": net_output}
        current.update(cb_params.get("metrics") or {})
        for key, value in current.items():
            self.history.setdefault(key, []).append(value)


_Hook = Callable[[RunContext], object]


class LambdaCallback(Callback):
    """A callback made of functions: ``LambdaCallback(on_train_epoch_end=lambda run_context: ...)``.

    Args:
        on_train_begin, on_train_epoch_begin, ..., on_eval_end: any of the twelve hooks, each a function of
            ``run_context``.
    """

    def __init__(self, on_train_epoch_end: _Hook | None = None, on_train_epoch_begin: _Hook | None = None,
                 on_train_step_end: _Hook | None = None, on_train_step_begin: _Hook | None = None,
                 on_train_begin: _Hook | None = None, on_train_end: _Hook | None = None,
                 on_eval_epoch_begin: _Hook | None = None, on_eval_epoch_end: _Hook | None = None,
                 on_eval_step_begin: _Hook | None = None, on_eval_step_end: _Hook | None = None,
                 on_eval_begin: _Hook | None = None, on_eval_end: _Hook | None = None) -> None:
        super().__init__()
        given = dict(locals())
        for hook in HOOKS:
            fn = given[hook]
            if fn is not None:
                if not callable(fn):
                    raise TypeError(f"For 'LambdaCallback', '{hook}' must be callable, but got {type(fn).__name__}.")
                setattr(self, hook, fn)
        # user functions may read Parameters directly: keep them current after each step
        self._per_step = on_train_step_begin is not None or on_train_step_end is not None

    def _needs_param_sync_each_step(self) -> bool:
        return self._per_step


class TerminateOnNaN(Callback):
    """Stop training at the first step whose loss is NaN or Inf, printing which step it was."""

    def __init__(self) -> None:
        super().__init__()
        self.stopped_step: int | None = None

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        loss = handle_loss(cb_params.net_outputs)
        if hasattr(loss, "asnumpy"):
            loss = float(np.mean(loss.asnumpy()))
        if isinstance(loss, float) and not math.isfinite(loss):
            self.stopped_step = cb_params.cur_step_num
            print(f"TerminateOnNaN: epoch: {cb_params.cur_epoch_num} step: {_step_in_epoch(cb_params)} (global step "
                  f"{cb_params.cur_step_num}), loss is {loss}; terminating training.", flush=True)
            run_context.request_stop()
