"""``TrainFaultTolerance``: a checkpoint of the last completed step when training fails (MindIO TTP's part).

In MindSpore this callback connects training to MindIO TFT on Ascend. Its TTP feature ("try to persist")
saves, when a step raises, the parameters of the last step that finished, into
``<ckpt_save_path>/ttp_saved_checkpoints-step_<step>_tmp/rank_<r>/ttp_rank_<r>-<epoch>_<step in epoch>.ckpt``
with ``__exception_save__``, ``epoch_num``, ``step_num``, ``cur_rank``, ``batch_num``, ``global_step`` (and
``loss_scale``) appended, then renames the directory to drop ``_tmp``: a directory without it is complete.
That is what this callback does, in the process itself. The other MindIO features (UCE / ARF / HCCE device
repair and process recovery, TRE / TSP / ATO) need MindIO and Ascend devices and have no counterpart here.

The save runs when ``Model.train`` leaves its callbacks with an exception: ``Model`` has by then written the
state of the last completed step back into the Parameters, so the checkpoint is consistent, and the exception
goes on to the caller unchanged.
"""
from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from typing import Any

from ..common.tensor import Tensor
from ..communication import GlobalComm, get_rank
from ..serialization import save_checkpoint
from ._callback import Callback, RunContext

__all__ = ["TrainFaultTolerance"]

_log = logging.getLogger(__name__)
_SAVE_FLAGS = ("TTP:1", "UCE:1", "ARF:1", "HCCE:1")    # MindIO modes that register the failure checkpoint
_REPAIR_FLAGS = ("UCE:1", "ARF:1", "HCCE:1")           # ... of which these also repair devices / processes


def _ckpt_dir(step: int, path: str, tmp: bool) -> str:
    return os.path.join(path, f"ttp_saved_checkpoints-step_{step}{'_tmp' if tmp else ''}")


def _check_env() -> None:
    """MS_ENABLE_TFT selects MindIO's features; only those that save on failure can be honoured here."""
    env = os.getenv("MS_ENABLE_TFT", "")
    if not env:
        return
    if not any(flag in env for flag in _SAVE_FLAGS):
        raise ValueError(f"TrainFaultTolerance: MS_ENABLE_TFT={env!r} selects MindIO features (TRE / TSP / ATO) "
                         f"that need MindIO and Ascend devices; this backend implements only the checkpoint on "
                         f"failure (set MS_ENABLE_TFT='{{TTP:1}}' or leave it unset).")
    repairs = [flag for flag in _REPAIR_FLAGS if flag in env]
    if repairs:
        _log.warning("TrainFaultTolerance: %s in MS_ENABLE_TFT (on-line repair) needs MindIO on Ascend; a failure "
                     "saves a checkpoint and stops training instead.", ", ".join(repairs))


class TrainFaultTolerance(Callback):
    """Saves a checkpoint of the last completed training step when ``Model.train`` fails, then lets it fail.

    Args:
        ckpt_save_path (str, optional): Directory of the checkpoint saved on failure: a directory
            ``ttp_saved_checkpoints-step_{step}`` is created in it. Default: ``None``.
        kwargs: ``ckpt_save_fn``: a function ``save_ckpt(cb_params, append_dict)`` that saves instead (it is
            preferred when both are given; one of the two is required). ``initial_step`` (int): added to the
            step number of the directory name. Other keywords of MindSpore (``ckpt_load_fn``) are accepted and
            unused.

    Raises:
        ValueError: If neither ``ckpt_save_path`` nor ``ckpt_save_fn`` is given, or ``MS_ENABLE_TFT`` asks
            only for MindIO features other than the failure checkpoint.

    Example:
        >>> cb = TrainFaultTolerance(ckpt_save_path="./ttp_ckpt")  # (written to only when training fails)
    """

    def __init__(self, ckpt_save_path: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        _check_env()
        self.save_cb: Callable[[Any, dict[str, Any]], Any] | None = kwargs.get("ckpt_save_fn", None)
        self.ckpt_save_path = ckpt_save_path
        if self.save_cb is None and self.ckpt_save_path is None:
            raise ValueError("TrainFaultTolerance construct need to set ckpt_save_fn or ckpt_save_path!")
        if self.save_cb is not None and not callable(self.save_cb):
            raise TypeError(f"TrainFaultTolerance: 'ckpt_save_fn' must be callable, but got "
                            f"{type(self.save_cb).__name__}.")
        if ckpt_save_path is not None and not isinstance(ckpt_save_path, (str, os.PathLike)):
            raise TypeError(f"TrainFaultTolerance: 'ckpt_save_path' must be a str, but got "
                            f"{type(ckpt_save_path).__name__}.")
        self.initial_step = kwargs.get("initial_step", 0)
        self.ckpt_load_func = kwargs.get("ckpt_load_fn", None)
        self.cb_params: Any = None
        self.cur_step_num = 0
        self.cur_epoch_num = 0
        self._saved_for: int | None = None   # id of the exception already saved for (eval nested in train)

    @classmethod
    def get_optimizer_wrapper(cls, origin_opt_cls: type) -> type:
        """The optimizer class to use with this callback: ``origin_opt_cls`` itself.

        MindSpore's wrapper adds MindIO's report operators around the update; the step here is one compiled
        function whose new state is kept only when it completes, so the optimizer needs nothing added.
        """
        return origin_opt_cls

    def on_train_begin(self, run_context: RunContext) -> None:
        """Keep the callback parameters (the checkpoint is made from them)."""
        cb_params = run_context.original_args()
        self.cb_params = cb_params
        self.cur_step_num = self.cur_epoch_num = 0
        self._saved_for = None
        if (cb_params.get("sink_size") or 0) > 1:
            raise ValueError("TFT feature doesn't support sink_size > 1.")

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Record the step just completed: a failure later saves as of this step."""
        cb_params = run_context.original_args()
        self.cur_step_num = cb_params.cur_step_num
        self.cur_epoch_num = cb_params.cur_epoch_num

    def __exit__(self, *err: Any) -> None:
        exc = err[1] if len(err) > 1 else None  # (type, value, traceback), as a context manager's exit gets
        if exc is None or self.cb_params is None or self._saved_for == id(exc):
            return None
        self._saved_for = id(exc)
        if self.cur_step_num <= 0:
            _log.warning("TrainFaultTolerance: training failed before its first step completed; nothing to save.")
            return None
        try:
            self._save_on_failure()
        except Exception:  # the training error is what the caller must see; this one is logged
            _log.exception("TrainFaultTolerance: could not save the checkpoint on failure")
        return None

    def _save_on_failure(self) -> None:
        """MindSpore's ``_save_checkpoint_on_failure`` followed by ``_rename_save_result``."""
        cb_params = self.cb_params
        cb_params.cur_step_num = self.cur_step_num
        cb_params.cur_epoch_num = self.cur_epoch_num
        network = cb_params.train_network   # (reading it writes the last completed step's state back)
        if any(getattr(p._value, "is_deleted", lambda: False)() for p in network.get_parameters()):
            raise RuntimeError("Can't save parameters, because they are left in inconsistent state!")
        optimizer = cb_params.get("optimizer") or getattr(cb_params.get("network"), "optimizer", None)
        global_step = getattr(optimizer, "global_step", None)
        append_dict: dict[str, Any] = {"__exception_save__": True}
        if self.save_cb is not None:
            self.save_cb(cb_params, append_dict)
            _log.info("TrainFaultTolerance: saved by ckpt_save_fn at step %d", self.cur_step_num)
            return
        if self.ckpt_save_path is None:  # (the constructor requires ckpt_save_fn or ckpt_save_path)
            raise RuntimeError("TrainFaultTolerance: neither ckpt_save_fn nor ckpt_save_path is set.")
        save_path = os.fspath(self.ckpt_save_path)
        rank = get_rank() if GlobalComm.INITED else 0
        batch_num = cb_params.batch_num
        append_dict.update(epoch_num=self.cur_epoch_num, step_num=self.cur_step_num, cur_rank=rank,
                           batch_num=batch_num)
        if global_step is not None:
            append_dict["global_step"] = Tensor(global_step.asnumpy())  # (a copy, as MindSpore's clone)
        outputs = cb_params.get("net_outputs")
        if isinstance(outputs, (tuple, list)) and len(outputs) >= 3:
            append_dict["loss_scale"] = outputs[2]
        step = self.cur_step_num + self.initial_step
        step_in_epoch = int((self.cur_step_num - 1) % batch_num + 1)
        tmp_dir = _ckpt_dir(step, save_path, True)
        rank_dir = os.path.join(tmp_dir, f"rank_{rank}")
        os.makedirs(rank_dir, exist_ok=True)
        save_checkpoint(network, os.path.join(rank_dir, f"ttp_rank_{rank}-{self.cur_epoch_num}_{step_in_epoch}.ckpt"),
                        integrated_save=False, append_dict=append_dict,
                        choice_func=lambda name: name not in append_dict)  # an appended entry replaces a
        # parameter of the same name (the optimizer's global_step), as in MindSpore's name-keyed checkpoint
        final_dir = _ckpt_dir(step, save_path, False)
        if os.path.isdir(final_dir):  # another rank completed the directory first: add this rank's part to it
            os.replace(rank_dir, os.path.join(final_dir, f"rank_{rank}"))
            with contextlib.suppress(OSError):  # (still holds the part of a rank that is saving)
                os.rmdir(tmp_dir)
        else:
            os.rename(tmp_dir, final_dir)
        _log.warning("TrainFaultTolerance: training failed; the state of step %d was saved to %s", step, final_dir)
