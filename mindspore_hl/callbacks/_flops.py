"""``FlopsUtilizationCollector``: FLOPs of the compiled step, and MFU / HFU per step, as MindSpore prints them.

The FLOPs are ``flops_collection``'s for the running network's ``current_phase`` (``_engine._flops`` says how
model and hardware FLOPs are counted).
"""
from __future__ import annotations

import logging
import math
import os
import stat
import time
from typing import Any

import jax

from .._engine._flops import flops_collection
from ..communication import GlobalComm, get_rank
from ._callback import Callback, RunContext

__all__ = ["FlopsUtilizationCollector"]

_log = logging.getLogger(__name__)
_NOT_GRAPH = "FlopsUtilizationCollector now only support graph mode."
_NOT_MODE = "FlopsUtilizationCollector only support train and eval mode!"


def _rank(parallel: bool) -> int:
    return get_rank() if parallel and GlobalComm.INITED else 0


class FlopsUtilizationCollector(Callback):
    """Prints the model / hardware FLOPs of the compiled step and the MFU / HFU of training or evaluation steps.

    MFU is ``model FLOPs per step / step time / computility``, HFU the same with the hardware FLOPs (see the
    module docstring for how both are counted). At the first step end it prints the FLOPs; then, at every step
    whose ``cur_step_num`` is not a multiple of ``data_size`` (MindSpore's rule), the step time with MFU and HFU.
    Only steps that compile (GRAPH_MODE) can be counted.

    Args:
        data_size (int): How many steps are the intervals between print information each time.
        computility (int, optional): The peak FLOPs per second of each device. Default: ``1``.
        full_flops (bool, optional): Whether to report the full model FLOPs (all devices) rather than those of
            this device's shard. Default: ``True``.
        enable_ma_collector (bool, optional): Whether to also write the FLOPs and step time to
            ``$MA_LOG_DIR/flops_rank_<id>.txt`` and ``time_step_rank_<id>.txt``. Default: ``False``. With
            ``computility=1`` and ``enable_ma_collector=True`` nothing is printed.

    Raises:
        TypeError: If ``data_size`` is not a positive int, or ``full_flops`` / ``enable_ma_collector`` not a bool.
        ValueError: At the first step, if the steps do not compile (PYNATIVE_MODE).

    Example:
        >>> cb = FlopsUtilizationCollector(2, computility=10e6)
        >>> cb.data_size, cb.full_flops
        (2, True)
    """

    def __init__(self, data_size: int, computility: int = 1, full_flops: bool = True,
                 enable_ma_collector: bool = False) -> None:
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ""
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size: int | None = None
        for name, value in (("full_flops", full_flops), ("enable_ma_collector", enable_ma_collector)):
            if not isinstance(value, bool):
                raise TypeError(f"The '{name}' must be a bool, but got {type(value).__name__}.")
        _check_positive_int(data_size, "data_size")

    def step_begin(self, run_context: RunContext) -> None:
        """Record the time at the beginning of a step."""
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = run_context.original_args().get("batch_num")
            if isinstance(batch_num, int) and batch_num > 0:
                self.batch_step_size = batch_num
        self.step_time = time.time()

    def _refuse(self, message: str, cause: BaseException | None = None) -> bool:
        if self.verbose:
            raise ValueError(message) from cause
        _log.info(message)
        return False

    def _count(self, run_context: RunContext) -> bool:
        """Read the FLOPs of the running step (MindSpore's ``_check_run_mode_valid``)."""
        cb = run_context.original_args()
        if cb.get("mode") not in ("train", "eval"):
            return self._refuse(_NOT_MODE)
        network = cb.get("train_network" if cb.mode == "train" else "eval_network")
        if network is None or not network.compiled:
            return self._refuse(_NOT_GRAPH)
        try:
            (self.full_model_flops, self.full_hardware_flops, self.shard_model_flops, self.shard_hardware_flops,
             dynamic) = flops_collection(network.current_phase)
        except Exception as e:  # (e.g. a step whose placement cannot be lowered abstractly)
            return self._refuse(f"FlopsUtilizationCollector is not supported because {e}.", e)
        if dynamic:
            return self._refuse("FlopsUtilizationCollector now do not support dynamic shape.")
        return True

    def step_end(self, run_context: RunContext) -> None:
        """Print the FLOPs (first step) and the step time with MFU and HFU."""
        cb = run_context.original_args()
        jax.block_until_ready(cb.get("net_outputs"))  # the step's time, not the time to dispatch it
        step_ms = (time.time() - self.step_time) * 1000
        parallel = _parallel(cb)
        if not self.mfu_calculated:
            if not self._count(run_context):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            log_dir = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            if self.ma:
                rank = _rank(parallel)
                stamp = int(round(time.time() * 1000))
                self.time_step_path = os.path.join(log_dir, f"time_step_rank_{rank}.txt")
                _write(os.path.join(log_dir, f"flops_rank_{rank}.txt"),
                       f'flops{{type="model_flops", rank_id="{rank}"}} {self.shard_model_flops} {stamp}\n'
                       f'flops{{type="hardware_flops", rank_id="{rank}"}} {self.shard_hardware_flops} {stamp}\n')
            if self.verbose:
                if self.full_flops:
                    full_model = self.full_mfu * self.computility
                    full_hardware = self.full_hfu * self.computility
                    if parallel:  # utilisation per device
                        self.full_mfu /= max(int(cb.get("device_number") or 1), 1)
                        self.full_hfu /= max(int(cb.get("device_number") or 1), 1)
                    print(f"Full model flops is {full_model}, Full hardware flops is {full_hardware}, "
                          f"Shard model flops is {self.shard_model_flops}, "
                          f"Shard hardware flops is {self.shard_hardware_flops}.", flush=True)
                else:
                    print(f"Shard model flops is {self.shard_model_flops}, "
                          f"Shard hardware flops is {self.shard_hardware_flops}.", flush=True)
        if cb.get("dataset_sink_mode"):
            step_ms /= self.batch_step_size or 1
        if self.ma:
            _write(self.time_step_path, f'time_monitor{{type="per_step_time", rank_id="{_rank(parallel)}"}} '
                                        f"{step_ms} {int(round(time.time() * 1000))}\n")
        if self.verbose and cb.cur_step_num % self.data_size:
            mfu = 1000 * (self.full_mfu if self.full_flops else self.shard_mfu) / step_ms
            hfu = 1000 * (self.full_hfu if self.full_flops else self.shard_hfu) / step_ms
            print(f"{cb.mode.title()} per step time: {step_ms:5.3f} ms"
                  f"{_floored_percentage(' mfu:', mfu)}{_floored_percentage(' hfu:', hfu)}", flush=True)


def _parallel(cb: Any) -> bool:
    return cb.get("parallel_mode", "stand_alone") not in ("stand_alone", None)


def _floored_percentage(label: str, value: float, digits: int = 2) -> str:
    """``value`` as a percentage floored to ``digits`` decimals, as MindSpore prints it (never rounded up)."""
    return f"{label}{math.floor(value * 10 ** (digits + 2)) / 10 ** digits:.{digits}f}%"


def _write(path: str, text: str) -> None:
    flags, modes = os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IWUSR | stat.S_IRUSR
    with os.fdopen(os.open(path, flags, modes), "w") as f:
        f.write(text)


def _check_positive_int(value: Any, name: str) -> None:
    """MindSpore's ``Validator.check_positive_int`` messages."""
    if isinstance(value, bool) or (isinstance(value, int) and value <= 0):
        raise (TypeError if isinstance(value, bool) else ValueError)(
            f"The '{name}' must be int and must > 0, but got '{value}' with type '{type(value).__name__}'.")
    if not isinstance(value, int):
        raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")
