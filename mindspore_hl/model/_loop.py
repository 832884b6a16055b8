"""The train and eval loops of Model, with MindSpore's callback order and ``cb_params`` bookkeeping.

Non-sink: one compiled step per batch; ``on_train_step_begin/end`` around each. Sink (GRAPH_MODE): the
epoch's batches (or ``sink_size`` of them) run as scans of the step, and the step hooks fire once per sink
with ``cur_step_num`` advanced by the number of steps and ``net_outputs`` the last step's output, as
MindSpore does when it sinks data to a device.

Nothing here reads device values: the host waits on the device only where a callback or a metric asks.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine._parallel_context import is_parallel
from ..callbacks._callback import RunContext
from ..common._device_arrays import default_platform
from ..common.tensor import to_device, wrap

if TYPE_CHECKING:
    from ..callbacks._callback import CallbackManager, CallbackParam
    from ._data import DataSource
    from ._model import Model
    from ._runner import StepRunner

__all__ = ["train_loop", "eval_loop"]


def _tensors(columns: Sequence[Any]) -> list[Any]:
    return [wrap(c) for c in _placed(columns)]


def _signature(columns: Sequence[Any]) -> tuple[tuple[Any, Any], ...]:
    return tuple((c.shape, c.dtype) for c in columns)


def train_loop(model: Model, source: DataSource, epoch: int, initial_epoch: int, sink: bool,
               steps_per_epoch: int | None, cbs: CallbackManager, cb: CallbackParam,
               valid_infos: tuple[Any, int | list[int], bool]) -> None:
    """Run epochs ``initial_epoch+1 .. epoch``; ``sink``: scan-based sink mode (GRAPH_MODE only)."""
    runner = model._train_runner()
    net = model._train_network
    rc = RunContext(cb)
    cb.set_sync_hook(model._push_state)
    cb.model = model  # for callbacks that need the Model itself (SummaryCollector draws its train step)
    sync_each_step = cbs.needs_param_sync_each_step()
    cb.cur_step_num = 0
    cb.dataset_sink_mode = bool(sink or cb.get("dataset_sink_mode"))
    try:
        cbs.on_train_begin(rc)
        start = initial_epoch
        resume = cb.pop("_resume", None)  # (epochs done, steps done), set by BackupAndRestore
        if resume is not None and resume[0] > initial_epoch:
            start, cb.cur_step_num = min(resume[0], epoch), resume[1]
            cb.initial_step = resume[1]
        epochs = source.epochs(epoch - initial_epoch, steps_per_epoch)
        for _ in range(start - initial_epoch):  # replay the data order of the epochs already done
            for _ in next(epochs):
                pass
        for i in range(start, epoch):
            cb.cur_epoch_num = i + 1
            model._current_epoch_num = i + 1
            cbs.on_train_epoch_begin(rc)
            batches = next(epochs)
            net.set_train(True)
            if sink and runner is not None:  # (sink is only set when steps compile)
                _sink_epoch(model, runner, batches, cbs, cb, rc)
            else:
                _step_epoch(model, runner, net, batches, cbs, cb, rc, sync_each_step)
            model._push_state()
            model._eval_during_train(valid_infos, cb, cbs)
            cbs.on_train_epoch_end(rc)
            cb.pop("metrics", None)
            cb.pop("eval_results", None)
            if rc.get_stop_requested():
                break
        model._push_state()
        cbs.on_train_end(rc)
    finally:
        model._push_state()


def _copies_ahead() -> bool:
    """Whether batches are copied to the device a batch ahead: on an accelerator, outside the parallel modes
    (whose executables place each batch's shards on their devices themselves)."""
    return default_platform() != "cpu" and not is_parallel()


def _placed_ahead(batches: Iterable[Sequence[Any]]) -> Iterator[list[Any]]:
    """The batches with their NumPy columns on the device, each batch copied there before the step ahead of it
    is dispatched.

    On a GPU a step handed NumPy columns waits for their copy. On an H100, ResNet50's step (224x224, batch 256,
    bfloat16) took 50.3 ms given NumPy batches and 44.9 ms given batches already on the device; ``Model.train``
    copying each batch while the step before it runs, as a data loader with pinned memory does, took 45.2 ms.
    """
    ahead = None
    for columns in batches:
        placed = _placed(columns)
        if ahead is not None:
            yield ahead
        ahead = placed
    if ahead is not None:
        yield ahead


def _placed(columns: Sequence[Any]) -> list[Any]:
    return [to_device(c) if isinstance(c, np.ndarray) else c for c in columns]


def _step_epoch(model: Model, runner: StepRunner | None, net: Any, batches: Iterable[Any], cbs: CallbackManager,
                cb: CallbackParam, rc: RunContext, sync_each_step: bool) -> None:
    # With no callback to read ``train_dataset_element`` the compiled step takes the columns as they come.
    # On the CPU those are the NumPy columns: making Tensors first costs a host copy per column that the step
    # waits for (deep MLP: ~8% of a step), so only the epoch's last batch is made into Tensors. Elsewhere
    # they are already on the device, placed one batch ahead.
    direct = runner is not None and not cbs.callbacks
    columns = None
    if _copies_ahead():
        batches = _placed_ahead(batches)
    for columns in batches:
        cb.cur_step_num += 1
        model._current_step_num = (cb.cur_step_num - 1) % cb.batch_num + 1
        if direct and runner is not None:
            cbs.on_train_step_begin(rc)
            outputs = runner.step(columns)
        else:
            tensors = _tensors(columns)
            cb.train_dataset_element = tensors
            cbs.on_train_step_begin(rc)
            outputs = runner.step([t._value for t in tensors]) if runner is not None else net(*tensors)
        cb.net_outputs = outputs
        if sync_each_step:
            model._push_state()
        cbs.on_train_step_end(rc)
        if rc.get_stop_requested():
            break
    if direct and columns is not None:
        cb.train_dataset_element = _tensors(columns)


def _sink_epoch(model: Model, runner: StepRunner, batches: Iterable[Any], cbs: CallbackManager, cb: CallbackParam,
                rc: RunContext) -> None:
    """One sink: step hooks once, the batches as a few scans (split where shapes change or memory runs out)."""
    expected = cb.batch_num
    cb.cur_step_num += expected
    model._current_step_num = expected
    cbs.on_train_step_begin(rc)
    done, outputs, sig, cap = 0, None, None, 0  # (sig and cap are set with the first batch of a chunk)
    chunk: list[Any] = []
    ahead = _copies_ahead()
    for columns in batches:
        if chunk and (_signature(columns) != sig or len(chunk) >= cap):
            outputs = runner.sink(chunk)
            done += len(chunk)
            chunk = []
        if not chunk:
            sig, cap = _signature(columns), runner.steps_per_sink_call(columns)
        # A batch too large to stack runs alone, after the next one is drawn: placed now, its copy overlaps the
        # step before it, as in the per-step loop. Stacked chunks stay NumPy, copied once per call.
        chunk.append(_placed(columns) if ahead and cap == 1 else columns)
    if chunk:
        outputs = runner.sink(chunk)
        done += len(chunk)
        cb.train_dataset_element = _tensors(chunk[-1])
    if done == 0:
        raise ValueError("Model.train: the train dataset produced no batches in this epoch.")
    cb.cur_step_num += done - expected
    cb.net_outputs = outputs
    cbs.on_train_step_end(rc)


def eval_loop(model: Model, source: DataSource, cbs: CallbackManager, cb: CallbackParam,
              add_eval_loss: bool = False) -> dict[str, Any]:
    """One pass over ``source``: metrics updated per batch (one batch behind the device), dict of results."""
    from ..metrics import Loss
    runner = model._eval_runner()
    net: Any = model._eval_network  # (a Cell whenever the Model has metrics, which evaluating requires)
    rc = RunContext(cb)
    cb.set_sync_hook(model._push_state)
    cb.model = model  # for callbacks that need the Model itself (SummaryCollector draws its train step)
    cb.dataset_sink_mode = False
    model._clear_metrics()
    eval_loss = Loss() if add_eval_loss else None
    pending = None
    try:
        cbs.on_eval_begin(rc)
        net.set_train(False)
        net.phase = "eval"  # (MindSpore's name for the compiled eval step)
        cbs.on_eval_epoch_begin(rc)
        batches = next(source.epochs(1))
        for columns in _placed_ahead(batches) if _copies_ahead() else batches:
            cb.cur_step_num += 1
            tensors = _tensors(columns)
            cb.eval_dataset_element = tensors
            cbs.on_eval_step_begin(rc)
            outputs = runner.step([t._value for t in tensors]) if runner is not None else net(*tensors)
            cb.net_outputs = outputs
            cbs.on_eval_step_end(rc)
            if pending is not None:  # the host reads step i while the device computes step i + 1
                model._update_metrics(pending, eval_loss)
            pending = outputs
            if rc.get_stop_requested():
                break
        if pending is not None:
            model._update_metrics(pending, eval_loss)
        model._push_state()
        cbs.on_eval_epoch_end(rc)
        metrics = model._get_metrics()
        cb.metrics = metrics
        if eval_loss is not None:
            cb.eval_results = dict(metrics)
            cb.eval_results["eval_loss"] = eval_loss.eval()
        cbs.on_eval_end(rc)
    finally:
        model._push_state()
    return metrics
