"""``mindspore.profiler.DynamicProfilerMonitor``: profile the steps named in a JSON file while training runs.

``cfg_path`` is a folder holding ``profiler_config.json`` (written with every key at its default, mode 0o640,
when absent). A background thread re-reads the file whenever its modification time changes, at most every
``poll_interval`` seconds, so the file can be edited during training. When the config's ``start_step`` is
reached (steps count from 1, as ``cur_step_num``), a :class:`~mindspore_hl.profiler.Profiler` records steps
``start_step``..``stop_step`` into ``<prof_path or output_path>/rank<r>_start<a>_stop<b>/`` (one session folder
there, analysed when the config says ``"analyse": true``); a later window needs a new ``start_step``.

Used as a ``Model.train`` callback, or by calling :meth:`DynamicProfilerMonitor.step` once per step of a loop
of one's own, as in MindSpore. A window still open when training (or the program) ends is stopped and saved.
"""
from __future__ import annotations

import atexit
import json
import logging
import os
import threading
from typing import Any

from ..callbacks._callback import Callback, RunContext
from ..communication import get_rank
from ._dynamic_config import DEFAULTS, DynamicConfig
from ._profiler import Profiler, tensorboard_trace_handler
from ._schedule import schedule

__all__ = ["DynamicProfilerMonitor"]

logger = logging.getLogger(__name__)

CONFIG_NAME = "profiler_config.json"


def _say(msg: str) -> None:
    # MindSpore prints these lines (not logs them): they tell the user where and when profiling happened.
    print("[Dynamic Profiler] " + msg, flush=True)


def _rank() -> int:
    try:
        return get_rank()
    except RuntimeError:   # communication not initialised: the launcher's RANK_ID, as in MindSpore
        return int(os.getenv("RANK_ID", "0"))


class _ConfigWatcher:
    """Reads the config file on a daemon thread whenever it changes; ``latest`` is the last reading."""

    def __init__(self, path: str, poll_interval: int) -> None:
        self.path, self.poll_interval = path, poll_interval
        self.latest: dict[str, Any] = {}
        self.readings = 0            # how many times the file was (re)read: lets callers wait for a change
        self._mtime: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self) -> None:
        if not os.path.exists(self.path):
            logger.error("Dynamic profiler: the config file %s does not exist.", self.path)
            return
        mtime = os.path.getmtime(self.path)
        if mtime == self._mtime:
            return
        self._mtime = mtime
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise ValueError(f"expected a JSON object, got {type(data).__name__}")
            data["is_valid"] = True
        except ValueError as e:   # json.JSONDecodeError is a ValueError
            logger.error("Dynamic profiler: could not load %s: %s", self.path, e)
            data = {"is_valid": False}
        self.latest = data
        self.readings += 1

    def _run(self) -> None:
        while not self._stop.wait(self.poll_interval):
            self.poll()

    def start(self) -> None:
        self.poll()   # the first reading is immediate, so a file written before training applies from step 1
        self._thread = threading.Thread(target=self._run, name="mindspore_hl-dynamic-profiler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None


class DynamicProfilerMonitor(Callback):
    """Start and stop profiling at the steps set in ``<cfg_path>/profiler_config.json`` (module docstring).

    Args:
        cfg_path: folder of the JSON config file (created with the defaults when absent).
        output_path: where the ``rank<r>_start<a>_stop<b>`` folders go unless the config sets ``prof_path``.
            Default ``"./dyn_profile_data"``.
        poll_interval: seconds between checks of the file (an int >= 1; otherwise 2, with an error logged).

    >>> import json, os, tempfile
    >>> cfg = tempfile.mkdtemp()
    >>> mon = DynamicProfilerMonitor(cfg_path=cfg)  # doctest: +ELLIPSIS
    [Dynamic Profiler] Init config json file: ...profiler_config.json
    >>> json.load(open(os.path.join(cfg, "profiler_config.json")))["start_step"]
    -1
    >>> mon.on_train_end(None)   # what Model.train calls at its end: stop watching the file
    """

    def __init__(self, cfg_path: str | None = None, output_path: str = "./dyn_profile_data", poll_interval: int = 2,
                 **kwargs: Any) -> None:
        if not isinstance(cfg_path, str):
            raise TypeError(f"DynamicProfilerMonitor: 'cfg_path' must be a str (the folder of {CONFIG_NAME}), "
                            f"but got {type(cfg_path).__name__}.")
        if not isinstance(output_path, str):
            logger.warning("DynamicProfilerMonitor: 'output_path' must be a str, but got %s; using "
                           "'./dyn_profile_data'.", type(output_path).__name__)
            output_path = "./dyn_profile_data"
        if isinstance(poll_interval, bool) or not isinstance(poll_interval, int):
            logger.error("DynamicProfilerMonitor: 'poll_interval' must be an int, but got %r; using 2.",
                         poll_interval)
            poll_interval = 2
        if poll_interval < 1:
            logger.error("DynamicProfilerMonitor: 'poll_interval' must be >= 1, but got %d; using 2.", poll_interval)
            poll_interval = 2
        self._cfg_path, self._output_path, self._poll_interval = cfg_path, output_path, poll_interval
        self._kwargs = kwargs
        self._rank_id = _rank()
        self._cfg_json_path = os.path.realpath(os.path.join(cfg_path, CONFIG_NAME))
        self._init_cfg_json()
        self._profiler: Profiler | None = None
        self._is_started = False
        self._last_start_step: int | None = None
        self._last_stop_step: int | None = None
        self._step_num = 0                # the steps counted by step()
        self._start_step = self._stop_step = -1
        self._collection_step_num = 0
        self._watcher: _ConfigWatcher | None = _ConfigWatcher(self._cfg_json_path, poll_interval)
        self._watcher.start()
        atexit.register(self._clean_resource)   # a window still open at exit is saved, as in MindSpore

    def _init_cfg_json(self) -> None:
        if self._rank_id == 0 and not os.path.exists(self._cfg_json_path):
            os.makedirs(self._cfg_path, mode=0o750, exist_ok=True)
            fd = os.open(self._cfg_json_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(DEFAULTS, f, indent=4)
        _say(f"Init config json file: {self._cfg_json_path}")

    def _config(self) -> DynamicConfig | None:
        """The config as last read, or None when nothing was read yet."""
        data = self._watcher.latest if self._watcher is not None else {}
        return DynamicConfig(data) if data else None

    def _window_profiler(self, cfg: DynamicConfig, start: int, stop: int, skip_first: int) -> Profiler:
        out = cfg.prof_path if cfg.prof_path != "./" else self._output_path
        prof_path = os.path.join(out, f"rank{self._rank_id}_start{start}_stop{stop}")
        _say(f"Rank {self._rank_id} create output path {prof_path}")
        handler = tensorboard_trace_handler(dir_name=prof_path, analyse_flag=cfg.analyse,
                                            async_mode=cfg.analyse_mode == "async")
        return Profiler(output_path=prof_path, start_profile=True, on_trace_ready=handler,
                        schedule=schedule(wait=0, warmup=0, active=stop - start + 1, repeat=1,
                                          skip_first=skip_first),
                        **cfg.profiler_kwargs())

    # ---- as a Model.train callback ------------------------------------------------------------------
    def _check_step(self, start: int, stop: int, step_num: int) -> tuple[int, int]:
        if start <= 0 or stop <= 0:
            return -1, -1
        if start > stop:
            logger.error("Dynamic profiler: start_step must be <= stop_step, but got start_step = %d, "
                         "stop_step = %d.", start, stop)
            return -1, -1
        if start < step_num and start != self._last_start_step:
            logger.error("Dynamic profiler: start_step must be >= the current step, but got start_step = %d, "
                         "stop_step = %d at step %d.", start, stop, step_num)
            return -1, -1
        if stop < step_num and stop != self._last_stop_step:
            logger.error("Dynamic profiler: stop_step must be >= the current step, but got start_step = %d, "
                         "stop_step = %d at step %d.", start, stop, step_num)
            return -1, -1
        return start, stop

    def step_begin(self, run_context: RunContext) -> None:
        """Start the profiler when this step is the config's ``start_step``."""
        cfg = self._config()
        if cfg is None:
            return
        if not cfg.is_valid:
            logger.error("Dynamic profiler: %s is not valid JSON; see the error above.", self._cfg_json_path)
            return
        if cfg.start_step in (-1, self._last_start_step):
            return
        step_num = run_context.original_args().cur_step_num
        start, stop = self._check_step(cfg.start_step, cfg.stop_step, step_num)
        if step_num != start:
            return
        if self._is_started:
            logger.error("Dynamic profiler: already started at step %s; wait until it stops at step %s.",
                         self._last_start_step, self._last_stop_step)
            return
        self._profiler = self._window_profiler(cfg, start, stop, skip_first=0)
        self._is_started = True
        self._last_start_step, self._last_stop_step = start, stop
        _say(f"Rank {self._rank_id} Dynamic profiler start at step {start}, will stop at step {stop}")

    def step_end(self, run_context: RunContext) -> None:
        """Advance the profiler's schedule; the window's last step stops (and saves) it."""
        cfg = self._config()
        if cfg is None or not cfg.is_valid or cfg.stop_step == -1:
            return
        if self._profiler is not None:
            self._profiler.step()
        step_num = run_context.original_args().cur_step_num
        if step_num == self._last_stop_step and self._is_started:
            self._profiler = None
            self._is_started = False
            _say(f"Rank {self._rank_id} Dynamic profiler stop at step {step_num}")

    def on_train_end(self, run_context: RunContext) -> None:
        """Stop a window still open at the end of training and stop watching the file."""
        self._clean_resource()

    # ---- in a loop of one's own ---------------------------------------------------------------------
    def step(self) -> None:
        """Count one step of a hand-written loop; the profile of a window starts after step ``start_step``
        and spans ``stop_step - start_step + 1`` steps (MindSpore's ``step()`` semantics)."""
        self._step_num += 1
        cfg = self._config()
        if cfg is None:
            return
        if not cfg.is_valid:
            logger.error("Dynamic profiler: %s is not valid JSON; see the error above.", self._cfg_json_path)
            return
        self._setup_window(cfg)
        if self._profiler is not None:
            self._profiler.step()
            self._collection_step_num -= 1
            if self._collection_step_num == -1:
                self._profiler = None

    def _setup_window(self, cfg: DynamicConfig) -> None:
        start, stop = cfg.start_step, cfg.stop_step
        if start < 0 or stop < 0 or self._step_num < start:
            return
        if self._step_num > stop != self._stop_step:
            logger.warning("Dynamic profiler: stop_step must be >= the current step, but got start_step = %d, "
                           "stop_step = %d at step %d.", start, stop, self._step_num)
            return
        if (start, stop) == (self._start_step, self._stop_step):
            return
        self._start_step, self._stop_step = start, stop
        if start > stop:
            self._profiler = None
            logger.error("Dynamic profiler: start_step %d and stop_step %d must be >= 0, with stop_step >= "
                         "start_step.", start, stop)
            return
        self._profiler = self._window_profiler(cfg, start, stop, skip_first=1)
        _say(f"Rank {self._rank_id} Dynamic profiler start at step {start}, will stop at step {stop}")
        self._collection_step_num = stop - start + 1

    def _clean_resource(self) -> None:
        """Stop an open window (its session is still written) and the file watcher."""
        if self._profiler is not None:
            prof, self._profiler = self._profiler, None
            self._is_started = False
            if prof._running is not None:
                prof.stop()
                logger.warning("Rank %d Dynamic profiler stop at end of training", self._rank_id)
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
