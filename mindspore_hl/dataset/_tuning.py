"""Tuning settings of ``mindspore.dataset.config`` that change how MindSpore's C++ engine schedules work
(shared memory, NUMA binding, autotuning, monitoring, worker timeouts). mindspore_hl runs pipelines on threads
in one process, so these are validated and remembered with MindSpore's defaults and ranges, and do not change
results -- exactly as in MindSpore, where they affect speed only."""
from typing import Any

__all__ = ["set_callback_timeout", "get_callback_timeout", "set_auto_num_workers", "get_auto_num_workers",
           "set_enable_shared_mem", "get_enable_shared_mem", "set_monitor_sampling_interval",
           "get_monitor_sampling_interval", "set_numa_enable", "get_numa_enable", "set_enable_autotune",
           "get_enable_autotune", "set_autotune_interval", "get_autotune_interval",
           "set_multiprocessing_timeout_interval", "get_multiprocessing_timeout_interval", "set_debug_mode",
           "get_debug_mode", "set_fast_recovery", "get_fast_recovery"]

_INT32_MAX = 2 ** 31 - 1
_tuning: dict[str, Any] = {"callback_timeout": 60, "auto_num_workers": False, "enable_shared_mem": True,
           "monitor_sampling_interval": 1000, "numa_enable": False, "enable_autotune": False,
           "autotune_interval": 0, "multiprocessing_timeout_interval": 300, "debug_mode": False,
           "fast_recovery": True}


def _int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int, but got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name}: {value} is not within the required range [{low}, {high}]")
    return value


def _bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected a bool, but got {value!r}")
    return value


def set_callback_timeout(timeout: int) -> None:
    """Seconds a WaitedDSCallback waits for its training step (default 60). Args: timeout (int > 0)."""
    _tuning["callback_timeout"] = _int("set_callback_timeout", timeout, 1, _INT32_MAX)


def get_callback_timeout() -> int:
    return _tuning["callback_timeout"]


def set_auto_num_workers(enable: bool) -> None:
    """Let the engine choose worker counts (default False)."""
    _tuning["auto_num_workers"] = _bool("set_auto_num_workers", enable)


def get_auto_num_workers() -> bool:
    return _tuning["auto_num_workers"]


def set_enable_shared_mem(enable: bool) -> None:
    """Shared memory between worker processes (default True)."""
    _tuning["enable_shared_mem"] = _bool("set_enable_shared_mem", enable)


def get_enable_shared_mem() -> bool:
    return _tuning["enable_shared_mem"]


def set_monitor_sampling_interval(interval: int) -> None:
    """Milliseconds between performance samples (default 1000). Args: interval (int > 0)."""
    _tuning["monitor_sampling_interval"] = _int("set_monitor_sampling_interval", interval, 1, _INT32_MAX)


def get_monitor_sampling_interval() -> int:
    return _tuning["monitor_sampling_interval"]


def set_numa_enable(numa_enable: bool) -> None:
    """Bind workers to NUMA nodes (default False)."""
    _tuning["numa_enable"] = _bool("set_numa_enable", numa_enable)


def get_numa_enable() -> bool:
    return _tuning["numa_enable"]


def set_enable_autotune(enable: bool, filepath_prefix: str | None = None) -> None:
    """Autotune worker counts and queue sizes while training (default False)."""
    _tuning["enable_autotune"] = _bool("set_enable_autotune", enable)


def get_enable_autotune() -> bool:
    return _tuning["enable_autotune"]


def set_autotune_interval(interval: int) -> None:
    """Steps between autotune rounds, 0 for once per epoch (default 0). Args: interval (int >= 0)."""
    _tuning["autotune_interval"] = _int("set_autotune_interval", interval, 0, _INT32_MAX)


def get_autotune_interval() -> int:
    return _tuning["autotune_interval"]


def set_multiprocessing_timeout_interval(interval: int) -> None:
    """Seconds between warnings about a slow worker process (default 300). Args: interval (int > 0)."""
    _tuning["multiprocessing_timeout_interval"] = _int("set_multiprocessing_timeout_interval", interval, 1,
                                                       _INT32_MAX - 1)


def get_multiprocessing_timeout_interval() -> int:
    return _tuning["multiprocessing_timeout_interval"]


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list | None = None) -> None:
    """Run the pipeline in debug mode (default False)."""
    _tuning["debug_mode"] = _bool("set_debug_mode", debug_mode_flag)


def get_debug_mode() -> bool:
    return _tuning["debug_mode"]


def set_fast_recovery(fast_recovery: bool) -> None:
    """Skip re-running augmentations when resuming (default True)."""
    _tuning["fast_recovery"] = _bool("set_fast_recovery", fast_recovery)


def get_fast_recovery() -> bool:
    return _tuning["fast_recovery"]
