"""``CheckpointConfig`` and ``ModelCheckpoint``: save the train network (weights + optimizer state) as training goes.

Files are ``{prefix}-{epoch}_{step_in_epoch}.ckpt`` in MindSpore's format, written atomically by
``mindspore_hl.save_checkpoint``. A prefix already used by ``.ckpt`` files in the directory becomes
``{prefix}_1`` (then ``_2``, ...) so runs never overwrite each other.

Unlike MindSpore, which deletes the oldest file before writing the new one, the new file is complete on disk
before older ones are pruned (``keep_checkpoint_max``), so a process killed at any moment leaves at least one
loadable checkpoint. Steps are counted from where the training starts (``cb_params.cur_step_num`` after a
resume), so saves every N steps keep their places in the epoch.
"""
from __future__ import annotations

import logging
import os
import time
from typing import Any

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ._callback import Callback, RunContext

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

_log = logging.getLogger(__name__)
_INFO = ("epoch_num", "step_num")


def _non_negative(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For 'CheckpointConfig', the argument '{name}' must be an int >= 0, but got {value!r}.")
    return value


class CheckpointConfig:
    """When and how ModelCheckpoint saves.

    Args:
        save_checkpoint_steps (int): save every this many steps (default 1). Takes precedence over seconds.
        save_checkpoint_seconds (int): save every this many seconds (when ``save_checkpoint_steps`` is 0/None).
        keep_checkpoint_max (int): keep only the newest N files (default 5).
        keep_checkpoint_per_n_minutes (int): keep one file per N minutes (when ``keep_checkpoint_max`` is 0/None).
        integrated_save, async_save (bool): passed to ``save_checkpoint`` (async: write in the background).
        saved_network (Cell): save this network instead of the train network.
        append_info (list): 'epoch_num', 'step_num' and / or one dict of extra values to store in each file.
        enc_key, enc_mode: encryption (not supported: ``enc_key`` must be None).
        exception_save (bool): save ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` when training raises.
        crc_check (bool), format ('ckpt' | 'safetensors'): passed to ``save_checkpoint``.
    """

    def __init__(self, save_checkpoint_steps: int | None = 1, save_checkpoint_seconds: int | None = 0,
                 keep_checkpoint_max: int | None = 5, keep_checkpoint_per_n_minutes: int | None = 0,
                 integrated_save: bool = True, async_save: bool = False, saved_network: Any = None,
                 append_info: list[str | dict[str, Any]] | None = None, enc_key: bytes | None = None,
                 enc_mode: str = "AES-GCM", exception_save: bool = False, crc_check: bool = False,
                 remove_redundancy: bool = False, format: str = "ckpt", **kwargs: Any) -> None:
        from ..nn.cell import Cell
        steps = _non_negative("save_checkpoint_steps", save_checkpoint_steps)
        seconds = _non_negative("save_checkpoint_seconds", save_checkpoint_seconds)
        keep_max = _non_negative("keep_checkpoint_max", keep_checkpoint_max)
        per_minutes = _non_negative("keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, but got "
                            f"{type(saved_network)}.")
        if not steps and not seconds and not keep_max and not per_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        for name, value in (("integrated_save", integrated_save), ("async_save", async_save),
                            ("exception_save", exception_save), ("crc_check", crc_check)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'CheckpointConfig', '{name}' must be a bool, but got {type(value).__name__}.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', 'format' must be 'ckpt' or 'safetensors', but got {format!r}.")
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps else seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = None if keep_max else per_minutes
        if not keep_max and not per_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save, self._async_save = integrated_save, async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key, self._enc_mode = enc_key, enc_mode
        self.exception_save, self.crc_check, self.format = exception_save, crc_check, format
        self.remove_redundancy = remove_redundancy

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    append_dict = property(lambda self: self._append_dict)

    def get_checkpoint_policy(self) -> dict[str, Any]:
        """The save / keep policy as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info: list[str | dict[str, Any]] | None) -> dict[str, Any] | None:
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list, but got "
                            f"{type(append_info)}.")
        out: dict[str, Any] = {}
        dicts = 0
        for element in append_info:
            if isinstance(element, str):
                if element not in _INFO:
                    raise ValueError(f"For 'CheckpointConfig', the value of element in the argument 'append_info' "
                                     f"must be in {list(_INFO)}, but got {element}.")
                out[element] = 0
            elif isinstance(element, dict):
                dicts += 1
                if dicts > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has only one dict.")
                for key, value in element.items():
                    if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Parameter, Tensor)):
                        raise TypeError(f"For 'CheckpointConfig', the key type of the dict 'append_info' must be "
                                        f"string, the value type must be int, float, bool, str, Parameter or Tensor, "
                                        f"but got key type {type(key)}, value type {type(value)}.")
                    out[key] = value
            else:
                raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' element must be str or dict, "
                                f"but got {type(element)}.")
        return out


def _unique_prefix(directory: str, prefix: str) -> str:
    """``prefix``, or ``prefix_N`` (N one above the highest in use) if ``.ckpt`` files with it already exist."""
    suffix = 0
    n = len(prefix)
    for filename in os.listdir(directory):
        if not filename.endswith(".ckpt") or filename.endswith("_breakpoint.ckpt") or not filename.startswith(prefix):
            continue
        rest = filename[n:]
        if not rest or rest[0].isalpha():
            continue
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[0] == "_" and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save checkpoints of the train network during training (and the last state when training ends).

    Args:
        prefix (str): file name prefix (default 'CKP'); must not contain '/'.
        directory (str): where to save (default: the current directory); created if missing.
        config (CheckpointConfig): the policy (default ``CheckpointConfig()``: every step, keep 5).

    Example:
        >>> import os
        >>> from mindspore_hl.train import Model
        >>> net = nn.Dense(4, 2)
        >>> model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> data = ms.dataset.NumpySlicesDataset((np.ones((16, 4), np.float32), np.zeros((16, 2), np.float32)),
        ...                                      column_names=['data', 'label'], shuffle=False).batch(4)
        >>> config = CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=2)
        >>> model.train(3, data, callbacks=[ModelCheckpoint(prefix='dense', directory='ckpt', config=config)])
        >>> sorted(os.listdir('ckpt'))
        ['dense-2_4.ckpt', 'dense-3_4.ckpt']
    """

    def __init__(self, prefix: str = "CKP", directory: str | os.PathLike[str] | None = None,
                 config: CheckpointConfig | None = None) -> None:
        super().__init__()
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be string and does not contain '/', but got {prefix}.")
        if directory is not None and not isinstance(directory, (str, os.PathLike)):
            raise ValueError(f"For 'ModelCheckpoint', 'directory' must be a str, but got {type(directory).__name__}.")
        self._directory = os.path.abspath(os.fspath(directory)) if directory is not None else os.getcwd()
        os.makedirs(self._directory, exist_ok=True)
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                            f"but got {type(config)}.")
        self._config = config
        self._exception_prefix = prefix
        self._prefix = _unique_prefix(self._directory, prefix)
        self._append_dict = dict(config.append_dict or {})
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._latest_ckpt_file_name = ""
        self._last_triggered_step = 0
        self._last_time = self._last_time_for_keep = time.time()
        self._files: list[tuple[str, float]] = []  # (path, save time) of files this callback wrote, oldest first
        self._prune_pending = False  # an async save is in flight; prune once it is complete
        self._align_steps = False

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last checkpoint written."""
        return self._latest_ckpt_file_name

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        if self._align_steps:
            # The step count this training starts from (BackupAndRestore / initial_epoch resume it): saves every
            # N steps continue from there instead of firing at the first step.
            self._last_triggered_step = run_context.original_args().cur_step_num
            self._align_steps = False

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        self._save_ckpt(cb_params)

    def on_train_end(self, run_context: RunContext) -> None:
        self._save_ckpt(run_context.original_args(), force=True)
        self._finish_pending()

    def _due(self, cb_params: Any, force: bool) -> bool:
        cfg = self._config
        if cfg.save_checkpoint_steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + cfg.save_checkpoint_steps
        if cfg.save_checkpoint_seconds:
            now = time.time()
            if force or now - self._last_time > cfg.save_checkpoint_seconds:
                self._last_time = now
                return True
        return False

    def _save_ckpt(self, cb_params: Any, force: bool = False) -> None:
        if cb_params.cur_step_num == self._last_triggered_step or not self._due(cb_params, force):
            return
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{self._config.format}"
        path = os.path.join(self._directory, name)
        self._finish_pending()
        self._last_triggered_step = cb_params.cur_step_num
        # The new file is complete (written, fsynced, renamed) before any older one is removed: a kill at any
        # moment leaves at least one loadable checkpoint. After a background save the pruning waits for it to
        # finish (at the next save or at train end).
        self._write(cb_params, path)
        self._files = [f for f in self._files if f[0] != path] + [(path, time.time())]
        self._latest_ckpt_file_name = path
        cb_params.latest_ckpt_file = path
        cb_params.last_save_ckpt_step = cb_params.cur_step_num
        if self._config.async_save:
            self._prune_pending = True
        else:
            self._prune()

    def _finish_pending(self) -> None:
        """Wait for a background save, then prune the older files it made redundant."""
        if self._prune_pending:
            from ..serialization import wait_async_save
            wait_async_save()
            self._prune_pending = False
            self._prune()

    def _write(self, cb_params: Any, path: str) -> None:
        from ..serialization import save_checkpoint
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + cb_params.cur_step_num
        cfg = self._config
        network = cfg.saved_network if cfg.saved_network is not None else cb_params.train_network
        save_checkpoint(network, path, cfg.integrated_save, cfg.async_save, self._append_dict or None,
                        cfg.enc_key, cfg.enc_mode, crc_check=cfg.crc_check, format=cfg.format)

    def _existing(self) -> list[str]:
        """Checkpoint files of this prefix in the directory (``prefix-<digits>_<digits>.ckpt``), oldest first."""
        ext = "." + self._config.format
        found = []
        for filename in os.listdir(self._directory):
            if filename.startswith(self._prefix + "-") and filename.endswith(ext):
                middle = filename[len(self._prefix) + 1:-len(ext)]
                if middle.replace("_", "").isdigit():
                    found.append(os.path.join(self._directory, filename))
        order = {p: t for p, t in self._files}
        return sorted(found, key=lambda p: (order.get(p) or _mtime(p, 0.0), p))

    def _prune(self) -> None:
        """Apply the keep policy after a save: the newest file (just written) always stays."""
        cfg = self._config
        files = self._existing()
        newest = self._latest_ckpt_file_name
        if cfg.keep_checkpoint_max and 0 < cfg.keep_checkpoint_max < len(files):
            for path in files[:len(files) - cfg.keep_checkpoint_max]:
                if path != newest:
                    _remove(path)
        elif cfg.keep_checkpoint_per_n_minutes:
            now = time.time()
            if now - self._last_time_for_keep < cfg.keep_checkpoint_per_n_minutes * 60:
                window = 60 * cfg.keep_checkpoint_per_n_minutes
                recent = [p for p in files if p != newest and now - _mtime(p, now) < window]
                for path in recent[1:]:  # keep the oldest one of the window (and the new one)
                    _remove(path)
        self._last_time_for_keep = time.time()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:  # type: ignore[override]
        if exc_type is not None and self._config.exception_save and getattr(self, "_cb_params", None) is not None:
            cb = self._cb_params
            name = f"{_unique_prefix(self._directory, self._exception_prefix)}-{cb.get('cur_epoch_num', 0)}_" \
                   f"{cb.get('cur_step_num', 0)}_breakpoint.ckpt"
            try:
                self._write(cb, os.path.join(self._directory, name))
            except Exception as e:  # noqa: BLE001 - never hide the training error behind a save error
                _log.error("ModelCheckpoint: could not save the breakpoint checkpoint %s: %s", name, e)
        return None

    def on_train_begin(self, run_context: RunContext) -> None:
        self._cb_params = run_context.original_args()
        self._align_steps = True


def _mtime(path: str, default: float) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:  # removed meanwhile (another process pruning the same directory)
        return default


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
    except OSError as e:
        _log.warning("ModelCheckpoint: failed to remove the older checkpoint %s: %s", path, e)
