"""Top-level runtime settings: ``launch_blocking``, ``set_cpu_affinity``, and the dynamic-shape ``Symbol`` /
``enable_dynamic`` (defined in ``common._symbol``, where Tensor and the engine read them).
"""
from __future__ import annotations

import json
import logging
import os
import re
import threading
from typing import Any

from ._engine import _state
from .common._symbol import Symbol, enable_dynamic

__all__ = ["launch_blocking", "set_cpu_affinity", "Symbol", "enable_dynamic"]

_LOG = logging.getLogger("mindspore_hl")
_RANGES = re.compile(r"^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$")
_MODULES = ("main", "runtime", "pynative", "minddata")


def launch_blocking() -> None:
    """Make every eager (PYNATIVE) op wait for its result before returning.

    Errors of a device computation and its time then show at the op that ran it, at the cost of the overlap of
    host and device work. It lasts for the process (``_state.reset`` turns it off).

    Example:
        >>> import mindspore_hl as ms
        >>> ms.launch_blocking()
        >>> y = ms.ops.add(ms.Tensor([1.0], ms.float32), 1.0)
        >>> y._value.is_ready()
        True
    """
    _state.runtime["launch_blocking"] = True


def _expand(ranges: Any, what: str) -> list[int]:
    """``"0-3,8"`` -> ``[0, 1, 2, 3, 8]``."""
    cpus: list[int] = []
    for segment in (s.strip() for s in str(ranges).split(",") if s.strip()):
        start, _, end = segment.partition("-")
        try:
            cpus += range(int(start), int(end or start) + 1)
        except ValueError:
            raise ValueError(f"CPU segment '{segment}' in {what} is invalid.") from None
    return cpus


def _from_bind_file(bind_file: str) -> tuple[list[str] | None, dict[str, list[int]] | None]:
    """(affinity_cpu_list, module_to_cpu_dict) of this device in a unified bind JSON file (msrun's format)."""
    try:
        with open(bind_file, encoding="utf-8") as f:
            content = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"set_cpu_affinity: cannot read the bind file '{bind_file}': {e}") from None
    if str(content.get("bind_config", {}).get("bind_cpu_mode", "none")).lower() != "cpu":
        _LOG.warning("bind_file '%s' is provided but 'bind_cpu_mode' is not 'cpu'. Skip enabling set_cpu_affinity "
                     "based on bind_file.", bind_file)
        return None, None
    bind_cpu = content.get("bind_cpu", {})
    if not isinstance(bind_cpu, dict):
        raise ValueError(f"The 'bind_cpu' field in bind file '{bind_file}' must be a dict.")
    key = f"device{_state.context.get('device_id', 0)}"
    config = bind_cpu.get(key)
    if not isinstance(config, dict) or not config:
        _LOG.warning("bind_file '%s' has no 'bind_cpu' config for %s, Skip enabling set_cpu_affinity.", bind_file, key)
        return None, None
    modules = {}
    for module, ranges in config.items():
        if not isinstance(ranges, (str, int)):
            raise ValueError(f"The 'bind_cpu' entry for {module}, type of {ranges} should be string/int, but got "
                             f"{type(ranges)}.")
        modules[module] = _expand(ranges, f"bind file '{bind_file}'")
    cpus = sorted({c for v in modules.values() for c in v})
    return [",".join(map(str, cpus))], {m: [cpus.index(c) for c in v] for m, v in modules.items()}


def _validate(affinity_cpu_list: Any, module_to_cpu_dict: Any) -> None:
    # MindSpore's checks and messages (mindspore.runtime.thread_bind_core).
    if affinity_cpu_list is not None:
        if not isinstance(affinity_cpu_list, list):
            raise TypeError(f"The parameter '{affinity_cpu_list}' must be list, but got {type(affinity_cpu_list)}")
        for cpu_range in affinity_cpu_list:
            if not isinstance(cpu_range, str):
                raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be a string.")
            if not _RANGES.match(cpu_range):
                raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be in format "
                                 "'cpuidX-cpuidY' or 'cpuidX,cpuidY,cpuidZ'.")
    if module_to_cpu_dict is not None:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(f"The parameter '{module_to_cpu_dict}' must be dict, but got {type(module_to_cpu_dict)}")
        for module, indices in module_to_cpu_dict.items():
            if not isinstance(indices, list):
                raise ValueError(f"The value of module_to_cpu_dict: {indices} should be a list.")
            for index in indices:
                if not isinstance(index, int) or index < 0:
                    raise ValueError(f"CPU index '{index}' for module '{module}' in '{indices}' should be a "
                                     "non-negative integer.")


def set_cpu_affinity(enable_affinity: bool, affinity_cpu_list: list[str] | dict[str, list[str]] | None = None,
                     module_to_cpu_dict: dict[str, list[int]] | None = None, bind_file: str | None = None) -> None:
    """Bind this process's threads to CPUs (``os.sched_setaffinity``), once per process, as MindSpore does.

    The CPUs are ``affinity_cpu_list`` (``["0-3", "8"]``; a dict picks the entry ``"device<device_id>"``) or,
    when it is None or empty, all CPUs the process may use (one process drives all local devices here).
    ``module_to_cpu_dict`` gives each module indices into that list: ``"main"`` binds the calling (main) thread
    and the threads it starts later; ``"runtime"`` / ``"pynative"`` bind the process's other running threads (JAX's
    runtime and dispatch threads); ``"minddata"`` has no threads of its own here (dataset workers are threads of the
    main thread and inherit its CPUs). By default only ``"main"`` is bound, to all the CPUs.

    Example:
        >>> import os, mindspore_hl as ms
        >>> before = os.sched_getaffinity(0)
        >>> ms.set_cpu_affinity(True, [str(min(before))])
        >>> os.sched_getaffinity(0) == {min(before)}
        True
        >>> os.sched_setaffinity(0, before)
    """
    if isinstance(affinity_cpu_list, dict):  # {"device<id>": [...]}: this device's entry
        key = f"device{_state.context.get('device_id', 0)}"
        if key not in affinity_cpu_list:
            _LOG.warning("'mindspore.runtime.set_cpu_affinity' is not enabled as wrong dict passed in to "
                         "affinity_cpu_list.")
            return
        affinity_cpu_list = affinity_cpu_list[key]
    if "cpu_affinity" in _state.runtime:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not enable_affinity:
        _state.runtime["cpu_affinity"] = {}
        return
    if bind_file is not None:
        affinity_cpu_list, module_to_cpu_dict = _from_bind_file(os.path.abspath(bind_file))
        if affinity_cpu_list is None:
            _state.runtime["cpu_affinity"] = {}
            return
    _validate(affinity_cpu_list, module_to_cpu_dict)
    available = sorted(os.sched_getaffinity(0))
    if affinity_cpu_list:
        cpus = _expand(",".join(affinity_cpu_list), f"affinity_cpu_list:{affinity_cpu_list}")
        for cpu in cpus:
            if cpu not in available:
                raise RuntimeError(f"CPU id:{cpu} set in affinity_cpu_list:{affinity_cpu_list} is not available.")
    else:
        cpus = available
    if module_to_cpu_dict:
        strategy = {m: [cpus[i] for i in idx if i < len(cpus)] for m, idx in module_to_cpu_dict.items()
                    if m in _MODULES}
    else:
        strategy = {"main": cpus}
    workers = sorted({c for m in ("runtime", "pynative") for c in strategy.get(m, ())})
    if workers:
        for tid in _other_threads():
            try:
                os.sched_setaffinity(tid, workers)
            except OSError:  # the thread ended meanwhile
                pass
    if strategy.get("main"):
        os.sched_setaffinity(0, strategy["main"])
    _state.runtime["cpu_affinity"] = strategy


def _other_threads() -> list[int]:
    """Ids of this process's threads other than the calling one (Linux)."""
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return []
    me = threading.get_native_id()
    return [t for t in tids if t != me]
