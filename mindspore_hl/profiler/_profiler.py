"""``mindspore.Profiler`` and ``mindspore.profiler.profile`` on ``jax.profiler``.

Nothing here runs unless a profiler is started: Model and Cell carry no profiling code of their own (XLA's ops
carry the Cells' name scopes anyway), so an unprofiled run pays nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Any, Callable

import jax

from . import _instrument
from ._collect import CompileLog, MemorySampler, compiled_steps
from ._enums import ProfilerActivity
from ._hlo import analyse_step
from ._report import write_session
from ._schedule import ProfilerAction
from ._schedule import schedule as Schedule

__all__ = ["Profiler", "profile", "tensorboard_trace_handler"]

logger = logging.getLogger(__name__)

# MindSpore 2.10's Profiler keywords (Ascend-only ones are accepted and recorded in the summary's config).
_PROFILER_KWARGS = {
    "output_path": "./data", "profiler_level": None, "activities": None, "schedule": None, "on_trace_ready": None,
    "profile_memory": False, "start_profile": True, "with_stack": False, "data_simplification": True,
    "op_time": True, "profile_communication": False, "parallel_strategy": False, "aic_metrics": None,
    "l2_cache": False, "hbm_ddr": False, "pcie": False, "sync_enable": True, "data_process": False,
    "record_shapes": False, "mstx": False, "export_type": None, "host_sys": None, "timeline_limit": 500,
    "profile_framework": None, "experimental_config": None, "mstx_domain_include": None,
    "mstx_domain_exclude": None, "sys_io": False, "sys_interconnection": False,
}

_active: list[Profiler | None] = [None]   # the one running profiler: jax.profiler traces one session at a time


def _drain():
    """Wait for every computation in flight (JAX dispatches asynchronously)."""
    jax.block_until_ready([a for a in jax.live_arrays() if not a.is_deleted()])


def _plain(v):
    return v.value if hasattr(v, "value") else v if isinstance(v, (int, float, str, bool, type(None))) else str(v)


class Profiler:
    """Collect a profile of everything run between ``start()`` and ``stop()``; ``analyse()`` writes it.

    Args (keywords, as MindSpore 2.10): ``output_path`` ("./data"), ``profile_memory`` (False: sample live
    device memory and host RSS every 10 ms), ``start_profile`` (True: start now), ``activities``
    (``ProfilerActivity`` list; CPU alone leaves XLA's device events out), ``with_stack`` (Python call stacks),
    ``schedule`` / ``on_trace_ready`` (see :class:`profile`); the Ascend-only ones are accepted and recorded.

    Each start/stop writes one session folder ``<output_path>/<host>_<pid>_<time>_ascend_ms/`` holding the jax
    trace in TensorBoard's ``plugins/profile/<run>/`` layout; ``analyse()`` adds MindSpore's op tables and
    ``profiler_summary.json`` (steps, ops by Cell, FLOPs, compiles, memory) that insight_app shows.

    >>> import tempfile, mindspore_hl as ms
    >>> prof = ms.Profiler(output_path=tempfile.mkdtemp())
    >>> _ = (ms.Tensor([1.0, 2.0]) * 2).asnumpy()
    >>> prof.analyse()
    """

    def __init__(self, **kwargs: Any) -> None:
        unknown = sorted(set(kwargs) - set(_PROFILER_KWARGS))
        if unknown:
            raise TypeError(f"Profiler got unexpected keyword argument(s) {unknown}; expected some of "
                            f"{sorted(_PROFILER_KWARGS)}.")
        self._config = dict(_PROFILER_KWARGS, **kwargs)
        if not isinstance(self._config["output_path"], (str, os.PathLike)):
            raise TypeError(f"Profiler: 'output_path' must be a str, but got {type(kwargs['output_path']).__name__}.")
        self._output_path = os.path.abspath(os.fspath(self._config["output_path"]))
        self._schedule = self._config["schedule"]
        self._on_trace_ready = self._config["on_trace_ready"]
        self._sessions: list[Any] = []   # (folder, collected, analyses) of stopped, not yet analysed sessions
        self._running: dict[str, Any] | None = None   # dict while tracing
        self._step_num = 0
        self._step_span: jax.profiler.TraceAnnotation | None = None
        self._recording = False
        self.last_session: str | None = None     # the folder analyse() wrote last
        if self._schedule is None and self._config["start_profile"]:
            self.start()
        elif self._schedule is not None and self._config["start_profile"]:
            self._apply(self._schedule(0))

    # ---- tracing -------------------------------------------------------------------------------
    def _options(self):
        opts = jax.profiler.ProfileOptions()
        opts.python_tracer_level = 1 if self._config["with_stack"] else 0   # Python tracing costs ~10x
        activities = self._config["activities"] or [ProfilerActivity.CPU, ProfilerActivity.NPU]
        opts.host_tracer_level = 2 if any(a in (ProfilerActivity.NPU, ProfilerActivity.GPU) for a in activities) \
            else 1
        return opts

    def start(self) -> None:
        """Start collecting (a second start while running is ignored with a warning, as in MindSpore)."""
        if self._running is not None:
            logger.warning("Profiler.start: the profiler is already running.")
            return
        if _active[0] is not None:
            raise RuntimeError("Profiler.start: another Profiler is running; jax.profiler traces one session at a "
                               "time. Stop it first.")
        folder = os.path.join(self._output_path,
                              f"{socket.gethostname()}_{os.getpid()}_{time.strftime('%Y%m%d%H%M%S')}"
                              f"{int(time.time() * 1e3) % 1000:03d}_ascend_ms")
        os.makedirs(folder, exist_ok=True)
        _drain()   # work dispatched before the profile started is not part of it
        log = CompileLog()
        sampler = MemorySampler() if self._config["profile_memory"] else None
        log.attach()
        _instrument.install()
        jax.profiler.start_trace(folder, create_perfetto_trace=False, profiler_options=self._options())
        self._running = {"folder": folder, "log": log, "sampler": sampler, "t0": time.perf_counter(),
                         "t0_wall": time.time(),
                         "active_steps": set() if self._schedule is not None else None}
        _active[0] = self
        if sampler is not None:
            sampler.start()

    def stop(self) -> None:
        """Stop collecting; the session is analysed by ``analyse()`` (or handed to ``on_trace_ready``)."""
        if self._running is None:
            logger.warning("Profiler.stop: the profiler is not running.")
            return
        self._close_step()
        _drain()   # steps dispatched asynchronously may still be running: their op events belong to this profile
        run, self._running = self._running, None
        try:
            jax.profiler.stop_trace()
        finally:
            _active[0] = None
            _instrument.uninstall()
            run["log"].detach()
            if run["sampler"] is not None:
                run["sampler"].stop()
        collected = {"t0": run["t0"], "t0_wall": run["t0_wall"], "compiles": run["log"].report(),
                     "memory": run["sampler"].samples if run["sampler"] is not None else [],
                     "active_steps": run["active_steps"]}
        self._sessions.append((run["folder"], collected, self._analyse_compiled()))
        if self._on_trace_ready is not None:
            self._on_trace_ready(self)

    def _analyse_compiled(self):
        """The compiled steps alive now (HLO metadata, cost, memory, FLOPs per Cell), read while they exist."""
        out = []
        for runner, key, entry, cols in compiled_steps():
            try:
                a = analyse_step(runner, entry, cols, sink=bool(key[0]))
            except Exception as e:  # a step that cannot be lowered abstractly (e.g. parallel placement)
                logger.info("Profiler: could not analyse the compiled step of %s: %s", runner.name, e)
                continue
            a["signature"] = [f"{d}{list(s)}" for s, d in key[2:]]
            a["runner"] = runner.name
            out.append(a)
        return out

    # ---- steps ---------------------------------------------------------------------------------
    def _close_step(self):
        if self._step_span is not None:
            self._step_span.__exit__(None, None, None)
            self._step_span = None

    def _open_step(self):
        if self._running is not None:
            self._step_span = jax.profiler.TraceAnnotation(f"ProfilerStep#{self._step_num}")
            self._step_span.__enter__()
            if self._recording and self._running["active_steps"] is not None:
                self._running["active_steps"].add(self._step_num)

    def _apply(self, action):
        """Bring the trace in line with the schedule's action for the step about to run."""
        self._recording = action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        if action != ProfilerAction.NONE and self._running is None:
            self.start()
        elif action == ProfilerAction.NONE and self._running is not None:
            self.stop()
        self._open_step()

    def step(self) -> None:
        """Mark the end of a step (and the start of the next): steps are the rows of the step breakdown."""
        self._close_step()
        if self._schedule is not None:
            ended = self._schedule(self._step_num)
            self._step_num += 1
            if ended == ProfilerAction.RECORD_AND_SAVE and self._running is not None:
                self.stop()
            self._apply(self._schedule(self._step_num))
        else:
            self._step_num += 1
            self._open_step()

    # ---- analysis ------------------------------------------------------------------------------
    def analyse(self, offline_path: str | None = None, pretty: bool = False, step_list: list[int] | None = None,
                mode: str = "sync") -> None:
        """Stop if running, then write each collected session's files (see the class docstring)."""
        del offline_path, pretty, step_list, mode   # MindSpore's parameters; one analysis mode here
        if self._running is not None:
            self.stop()
        config = {k: _plain(v) for k, v in self._config.items() if k not in ("schedule", "on_trace_ready")}
        config["backend"] = jax.default_backend()
        while self._sessions:
            folder, collected, analyses = self._sessions.pop(0)
            write_session(folder, collected, analyses, config)
            self.last_session = folder

    def add_metadata(self, key: str, value: str) -> None:
        """Record a key/value pair in the profile's config."""
        self._config.setdefault("metadata", {})[str(key)] = str(value)

    def __enter__(self):
        if self._running is None and self._schedule is None:
            self.start()
        return self

    def __exit__(self, *exc):
        if self._running is not None:
            self.stop()
        return False


class profile(Profiler):  # noqa: N801  (MindSpore's spelling)
    """MindSpore 2.x's ``profile``: a context manager; ``step()`` advances ``schedule``; ``on_trace_ready``
    (e.g. :func:`tensorboard_trace_handler`) gets the profiler each time a recorded cycle ends.

    >>> import tempfile, mindspore_hl as ms
    >>> from mindspore_hl.profiler import profile, schedule, tensorboard_trace_handler
    >>> with profile(schedule=schedule(wait=0, warmup=0, active=1, repeat=1),
    ...              on_trace_ready=tensorboard_trace_handler(tempfile.mkdtemp())) as prof:
    ...     for _ in range(2):
    ...         _ = (ms.Tensor([1.0]) + 1).asnumpy()
    ...         prof.step()
    """

    def __init__(self, activities: list[ProfilerActivity] | None = None, with_stack: bool = False,
                 profile_memory: bool = False, data_process: bool = False, parallel_strategy: bool = False,
                 start_profile: bool = True, hbm_ddr: bool = False, pcie: bool = False, sync_enable: bool = True,
                 record_shapes: bool = False, schedule: Schedule | None = None,
                 on_trace_ready: Callable[[Profiler], Any] | None = None, experimental_config: Any = None) -> None:
        output = getattr(on_trace_ready, "dir_name", None) or "./data"
        super().__init__(output_path=output, activities=activities, with_stack=with_stack,
                         profile_memory=profile_memory, data_process=data_process,
                         parallel_strategy=parallel_strategy, start_profile=start_profile, hbm_ddr=hbm_ddr, pcie=pcie,
                         sync_enable=sync_enable, record_shapes=record_shapes, schedule=schedule,
                         on_trace_ready=on_trace_ready, experimental_config=experimental_config)


class tensorboard_trace_handler:  # noqa: N801  (MindSpore's spelling; a callable, as there)
    """``on_trace_ready`` handler: analyse each finished session into ``dir_name`` (default "./data")."""

    def __init__(self, dir_name: str | None = None, worker_name: str | None = None, analyse_flag: bool = True,
                 async_mode: bool = False) -> None:
        if dir_name is not None and not isinstance(dir_name, (str, os.PathLike)):
            raise TypeError(f"tensorboard_trace_handler: 'dir_name' must be a str, got {type(dir_name).__name__}.")
        self.dir_name = os.fspath(dir_name) if dir_name is not None else "./data"
        self.worker_name, self.analyse_flag, self.async_mode = worker_name, analyse_flag, async_mode

    def __call__(self, prof: Profiler) -> None:
        if self.analyse_flag:
            prof.analyse()
