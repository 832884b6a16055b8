"""Fault tolerance: ``BackupAndRestore`` (resume after a crash) and ``OnRequestExit`` (save and stop on a signal)."""
from __future__ import annotations

import logging
import os
import signal
import threading
from types import FrameType
from typing import Any

import numpy as np

from ..common import seed
from ..common.tensor import Tensor
from ._callback import Callback, RunContext

__all__ = ["BackupAndRestore", "OnRequestExit"]

_log = logging.getLogger(__name__)
_EPOCH, _STEP, _RNG = "epoch_num", "step_num", "rng_key"


class BackupAndRestore(Callback):
    """Back up the training state every ``save_freq`` epochs; a restarted training resumes from the backup.

    The backup (``backup_dir/backup.ckpt``, written atomically) holds the train network (weights, optimizer
    and loss-scale state), the epoch and step reached and the random key. When ``model.train`` starts and
    the file exists, all of it is restored and training continues with the next epoch; the data of the
    epochs already done is read and skipped so every later batch is the one an uninterrupted run would see.
    With the same seed, the result is the same as if the training had never stopped.

    Args:
        backup_dir (str): directory of the backup file (created if missing).
        save_freq ('epoch' | int): back up every epoch, or every N epochs.
        delete_checkpoint (bool): remove the backup when training finishes.
    """

    def __init__(self, backup_dir: str | os.PathLike[str], save_freq: str | int = "epoch",
                 delete_checkpoint: bool = True) -> None:
        super().__init__()
        if not isinstance(backup_dir, (str, os.PathLike)):
            raise ValueError(f"For 'BackupAndRestore', 'backup_dir' must be a str, but got {type(backup_dir)}.")
        if save_freq != "epoch" and (isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq < 1):
            raise ValueError(f"For 'BackupAndRestore', 'save_freq' must be 'epoch' or a positive int, but got "
                             f"{save_freq!r}.")
        if not isinstance(delete_checkpoint, bool):
            raise ValueError(f"For 'BackupAndRestore', 'delete_checkpoint' must be a bool, but got "
                             f"{type(delete_checkpoint)}.")
        directory = os.path.abspath(os.fspath(backup_dir))
        os.makedirs(directory, exist_ok=True)
        self.backup_file = os.path.join(directory, "backup.ckpt")
        self.save_freq: int = 1 if save_freq == "epoch" else int(save_freq)
        self.delete_checkpoint = delete_checkpoint
        self.restored_epoch = 0

    def on_train_begin(self, run_context: RunContext) -> None:
        if not os.path.exists(self.backup_file):
            return
        from ..serialization import load_checkpoint, load_param_into_net
        cb_params = run_context.original_args()
        values = load_checkpoint(self.backup_file)
        extra = {k: values.pop(k) for k in (_EPOCH, _STEP, _RNG) if k in values}
        not_loaded, _ = load_param_into_net(cb_params.train_network, values)
        if not_loaded:
            raise RuntimeError(f"BackupAndRestore: the backup {self.backup_file} does not hold {not_loaded}; it was "
                               f"written for another network. Remove it to start over.")
        if _RNG in extra:
            import jax.numpy as jnp
            seed.set_global_key(jnp.asarray(extra[_RNG].asnumpy()))
        epoch = int(extra[_EPOCH].asnumpy()) if _EPOCH in extra else 0
        step = int(extra[_STEP].asnumpy()) if _STEP in extra else epoch * cb_params.batch_num
        self.restored_epoch = epoch
        if epoch > cb_params.get("_resume", (0, 0))[0]:  # further on than model.train's initial_epoch
            cb_params["_resume"] = (epoch, step)
        _log.info("BackupAndRestore: restored %s (epoch %d, step %d).", self.backup_file, epoch, step)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq:
            return
        from ..serialization import save_checkpoint
        network = cb_params.train_network  # brings the Parameters and the random key up to date
        extra = {_EPOCH: int(cb_params.cur_epoch_num), _STEP: int(cb_params.cur_step_num),
                 _RNG: Tensor(np.asarray(seed.global_key()))}
        save_checkpoint(network, self.backup_file, append_dict=extra)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)


class OnRequestExit(Callback):
    """On signal ``sig`` (default SIGTERM), stop after the current step and save the train network.

    The checkpoint is ``{directory}/{file_name}_train.ckpt`` (``_eval`` while evaluating); with ``save_mindir``
    the network is also exported (``mindspore_hl.export``) under the same name. A later run with this
    callback loads that checkpoint when it starts.

    Args:
        save_ckpt (bool), save_mindir (bool): what to save on exit.
        file_name (str), directory (str): where.
        config_file: accepted for compatibility (unused).
        sig (int): the signal to handle (not SIGKILL).
    """

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str | os.PathLike[str] = "./", config_file: str | None = None,
                 sig: int = signal.SIGTERM) -> None:
        super().__init__()
        for name, value in (("save_ckpt", save_ckpt), ("save_mindir", save_mindir)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'OnRequestExit', '{name}' must be a bool, but got {type(value).__name__}.")
        if not isinstance(file_name, str) or not isinstance(directory, (str, os.PathLike)):
            raise TypeError("For 'OnRequestExit', 'file_name' and 'directory' must be str.")
        if isinstance(sig, bool) or not isinstance(sig, int):
            raise TypeError(f"For 'OnRequestExit', 'sig' must be an int signal number, but got {type(sig).__name__}.")
        if sig == getattr(signal, "SIGKILL", None):
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt, self.save_mindir, self.sig = save_ckpt, save_mindir, sig
        directory = os.path.abspath(os.fspath(directory))
        os.makedirs(directory, exist_ok=True)
        self.train_file_path = os.path.join(directory, f"{file_name}_train")
        self.eval_file_path = os.path.join(directory, f"{file_name}_eval")
        self.exit = False
        self._previous: Any = None

    def _handle_signal(self, signum: int, frame: FrameType | None) -> None:
        self.exit = True

    def _install(self) -> None:
        if threading.current_thread() is threading.main_thread() and self._previous is None:
            self._previous = signal.signal(self.sig, self._handle_signal)

    def __exit__(self, *err: object) -> None:
        if self._previous is not None:
            signal.signal(self.sig, self._previous)
            self._previous = None

    def on_train_begin(self, run_context: RunContext) -> None:
        self._install()
        if self.save_ckpt and os.path.isfile(self.train_file_path + ".ckpt"):
            self._load(run_context.original_args().train_network, self.train_file_path)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self._install()
        if self.save_ckpt:
            for path in (self.eval_file_path, self.train_file_path):
                if os.path.isfile(path + ".ckpt"):
                    self._load(run_context.original_args().eval_network, path)
                    break

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self.exit:
            run_context.request_stop()

    on_train_epoch_end = on_eval_step_end = on_train_step_end

    def on_train_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if self.exit:
            self._save(cb_params.train_network, self.train_file_path, cb_params.get("train_dataset_element"))

    def on_eval_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if self.exit:
            self._save(cb_params.eval_network, self.eval_file_path, cb_params.get("eval_dataset_element"))

    @staticmethod
    def _load(network: Any, path: str) -> None:
        from ..serialization import load_checkpoint, load_param_into_net
        load_param_into_net(network, load_checkpoint(path + ".ckpt"))

    def _save(self, network: Any, path: str, inputs: Any) -> None:
        from ..serialization import save_checkpoint
        if self.save_ckpt:
            save_checkpoint(network, path)
        if self.save_mindir and inputs:
            from ..serialization import export
            try:
                export(network, *inputs, file_name=path, file_format="MINDIR")
            except Exception as e:  # noqa: BLE001 - the checkpoint is saved; an export failure must not hide it
                _log.warning("OnRequestExit: exporting %s failed (%s); the checkpoint was saved.", path, e)
