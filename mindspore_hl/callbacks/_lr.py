"""Callbacks that watch a quantity or the step and act on training: EarlyStopping, ReduceLROnPlateau,
LearningRateScheduler."""
from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..common.parameter import Parameter
from ._callback import Callback, RunContext, handle_loss

__all__ = ["EarlyStopping", "ReduceLROnPlateau", "LearningRateScheduler"]

_log = logging.getLogger(__name__)
_SMALLER_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                   "root_mean_square_distance", "eval_loss")


def _monitor_value(owner: str, monitor: str, cb_params: Any) -> float | None:
    """The monitored value at the end of an epoch: the train loss ('loss') or an eval result (in ``fit``)."""
    candidates: dict[str, Any] = {}
    if monitor == "loss":
        value = handle_loss(cb_params.get("net_outputs"))
        if hasattr(value, "asnumpy"):
            value = float(np.mean(value.asnumpy()))
    else:
        candidates = cb_params.get("eval_results") or {}
        value = candidates.get(monitor)
    if value is None:
        _log.warning("%s is conditioned on %s, which is not available. Available choices are: %s", owner, monitor,
                     sorted({"loss"} | set(candidates)))
        return None
    value = np.asarray(value)
    if value.shape != ():
        raise ValueError(f"{owner} only supports scalar monitor now, but '{monitor}' has shape {value.shape}.")
    return float(value)


class _Monitoring(Callback):
    def __init__(self, owner: str, monitor: str, mode: str, min_delta: float) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"For '{owner}', 'monitor' must be a str, but got {type(monitor).__name__}.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        if isinstance(min_delta, bool) or not isinstance(min_delta, (int, float)):
            raise TypeError(f"For '{owner}', 'min_delta' must be a float, but got {type(min_delta).__name__}.")
        self._owner, self.monitor, self.mode, self.min_delta = owner, monitor, mode, abs(min_delta)
        self._minimize = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.best = math.inf if self._minimize else -math.inf

    def is_improvement(self, current: float, reference: float) -> bool:
        if self._minimize:
            return current < reference - self.min_delta
        return current > reference + self.min_delta

    def _reset_best(self) -> None:
        self.best = math.inf if self._minimize else -math.inf


class EarlyStopping(_Monitoring):
    """Stop training when ``monitor`` has not improved for ``patience`` epochs.

    Args:
        monitor (str): 'loss' (train loss), or in ``fit`` 'eval_loss' or a metric name (default 'eval_loss').
        min_delta (float): smallest change counted as an improvement.
        patience (int): epochs without improvement before stopping.
        verbose (bool): print ``Epoch 00002: early stopping`` when training stops.
        mode (str): 'auto' (from the monitor's name), 'min' or 'max'.
        baseline (float): the value must also beat this to reset the wait counter.
        restore_best_weights (bool): load the weights of the best epoch when stopping.
    """

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0, verbose: bool = False,
                 mode: str = "auto", baseline: float | None = None, restore_best_weights: bool = False) -> None:
        super().__init__("EarlyStopping", monitor, mode, min_delta)
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 0:
            raise ValueError(f"For 'EarlyStopping', 'patience' must be an int >= 0, but got {patience!r}.")
        self.patience, self.verbose = patience, bool(verbose)
        self.baseline = None if baseline is None else float(baseline)
        self.restore_best_weights = bool(restore_best_weights)
        self.wait, self.stopped_epoch = 0, 0
        self.best_weights_param_dict: dict[str, Parameter] | None = None

    def on_train_begin(self, run_context: RunContext) -> None:
        self.wait, self.stopped_epoch, self.best_weights_param_dict = 0, 0, None
        self._reset_best()

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        current = _monitor_value("EarlyStopping", self.monitor, cb_params)
        if current is None:
            return
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = _snapshot(cb_params.train_network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = _snapshot(cb_params.train_network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                from ..serialization import load_param_into_net
                load_param_into_net(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch, flush=True)


def _snapshot(network: Any) -> dict[str, Parameter]:
    return {name: Parameter(p.asnumpy().copy(), name=name, requires_grad=p.requires_grad)
            for name, p in network.parameters_and_names()}


class ReduceLROnPlateau(_Monitoring):
    """Multiply the learning rate by ``factor`` when ``monitor`` has not improved for ``patience`` epochs.

    Args:
        monitor (str): 'loss', or in ``fit`` 'eval_loss' or a metric name (default 'eval_loss').
        factor (float): the multiplier, in (0, 1).
        patience (int): epochs without improvement before reducing.
        verbose (bool): print each reduction.
        mode (str): 'auto', 'min' or 'max'.
        min_delta (float): smallest change counted as an improvement.
        cooldown (int): epochs to wait after a reduction before counting again.
        min_lr (float): the learning rate never goes below this.
    """

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10, verbose: bool = False,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__("ReduceLROnPlateau", monitor, mode, min_delta)
        if not isinstance(factor, (int, float)) or not 0 < factor < 1:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be in (0, 1), but got {factor!r}.")
        for name, value in (("patience", patience), ("cooldown", cooldown)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"For 'ReduceLROnPlateau', '{name}' must be an int >= 0, but got {value!r}.")
        if not isinstance(min_lr, (int, float)) or min_lr < 0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'min_lr' must be a float >= 0, but got {min_lr!r}.")
        self.factor, self.patience, self.verbose = float(factor), patience, bool(verbose)
        self.cooldown, self.min_lr = cooldown, float(min_lr)
        self.wait, self.cooldown_counter = 0, 0

    def on_train_begin(self, run_context: RunContext) -> None:
        self.wait, self.cooldown_counter = 0, 0
        self._reset_best()

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr = getattr(cb_params.optimizer, "learning_rate", None)
        if not isinstance(lr, Parameter) or lr.ndim != 0:
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        current = _monitor_value("ReduceLROnPlateau", self.monitor, cb_params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = float(lr.asnumpy())
                if old > self.min_lr:
                    new = max(old * self.factor, self.min_lr)
                    lr.set_data(np.asarray(new, np.float32))
                    if self.verbose:
                        print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (cb_params.cur_epoch_num, new), flush=True)
                    self.cooldown_counter, self.wait = self.cooldown, 0


class LearningRateScheduler(Callback):
    """Set the learning rate every step: ``lr = learning_rate_function(lr, cur_step_num)``.

    Args:
        learning_rate_function (callable): ``(current lr: float, global step: int) -> new lr``.
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"For 'LearningRateScheduler', 'learning_rate_function' must be callable, but got "
                            f"{type(learning_rate_function).__name__}.")
        self.learning_rate_function = learning_rate_function

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr = getattr(cb_params.optimizer, "learning_rate", None)
        if not isinstance(lr, Parameter) or lr.ndim != 0:
            raise ValueError("LearningRateScheduler needs an optimizer with a fixed (scalar Parameter) learning rate.")
        old = float(lr.asnumpy())
        new = self.learning_rate_function(old, cb_params.cur_step_num)
        if not math.isclose(old, new, rel_tol=1e-10):
            lr.set_data(np.asarray(new, np.float32))
