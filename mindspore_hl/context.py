"""``set_context`` / ``get_context`` / ``set_device``: execution mode and device target.

GRAPH_MODE (0) compiles a top-level Cell call or gradient function into one XLA program; PYNATIVE_MODE (1,
MindSpore's default) runs op by op. The same user code runs in both. The values live in
``mindspore_hl._engine._state.context`` (``_state.reset()`` restores the defaults);
``enable_compile_cache`` / ``compile_cache_path`` turn on the persistent compile cache (``_engine._cache``).
"""
import warnings
from typing import Any

import jax

from . import _host_memory
from ._engine import _cache, _state
from ._engine._parallel_context import (  # noqa: F401  (MindSpore's context module also exposes these)
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)
from .backends import backend_for_platform, get_backend

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT, COMPATIBLE, LAX = 0, 1, 2

_KNOWN = {"mode", "device_target", "device_id", "jit_config", "jit_syntax_level", "save_graphs",
          "save_graphs_path", "max_call_depth", "enable_graph_kernel", "pynative_synchronize",
          "max_device_memory", "memory_optimize_level", "runtime_num_threads", "ascend_config",
          "gpu_config", "enable_reduce_precision", "check_bprop", "deterministic", "print_file_path",
          "variable_memory_max_size", "graph_kernel_flags", "enable_compile_cache", "compile_cache_path",
          "inter_op_parallel_num", "env_config_path", "mempool_block_size", "op_timeout", "reserve_class_name_in_scope",
          "device_target_list", "enable_auto_mixed_precision", "grad_for_scalar", "enable_dump", "save_dump_path",
          "debug_level", "aoe_tune_mode", "aoe_config", "support_binary", "enable_profiling", "profiling_options"}

_DEFAULTS = {"mode": PYNATIVE_MODE, "device_target": None, "device_id": 0, "jit_config": {"jit_level": "O0"},
             "jit_syntax_level": LAX, "save_graphs": False, "max_call_depth": 1000, "enable_graph_kernel": False,
             "pynative_synchronize": False, "enable_compile_cache": False, "compile_cache_path": "."}
_ctx = _state.context


@_state.on_reset
def _reset():
    compile_cache = _ctx.get("enable_compile_cache")
    _ctx.clear()
    _ctx.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in _DEFAULTS.items()})
    if compile_cache:
        _cache.configure(False)
    if jax.config.values.get("jax_default_device") is not None:
        jax.config.update("jax_default_device", None)


_reset()


def _default_target():
    """The target of JAX's default platform ('CPU' on a CPU-only install, 'GPU' with JAX's CUDA build)."""
    b = backend_for_platform(jax.default_backend())
    return b.name if b is not None else "CPU"


def _apply_device(target, device_id):
    backend = get_backend(target)
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"device_id must be an int, but got {type(device_id).__name__} {device_id!r}.")
    devices = backend.devices()
    if not 0 <= device_id < len(devices):
        raise ValueError(f"device_id {device_id} is out of range: device_target '{backend.name}' has "
                         f"{len(devices)} device(s) (valid ids 0..{len(devices) - 1}).")
    jax.config.update("jax_default_device", devices[device_id])
    _state.op_overrides.clear()  # the plug-in's replacements of ops by name (read by ops._core)
    _state.op_overrides.update(backend.ops or {})
    _ctx["device_target"], _ctx["device_id"] = backend.name, device_id


def set_context(**kwargs: Any) -> None:
    """Set execution options.

    Args:
        mode: ``GRAPH_MODE`` (0, compile whole Cells with XLA) or ``PYNATIVE_MODE`` (1, run eagerly).
        device_target: 'CPU', 'GPU' or an installed plug-in's target; device_id: which device
            (deprecated here as in MindSpore 2.10: prefer ``set_device``).
        enable_compile_cache (bool): keep compiled programs on disk, so that a later process with the same
            setting loads them instead of compiling again; compile_cache_path (str): where (default '.';
            the files go to ``<path>/rank_<rank id>/``).
        Other MindSpore keys (jit_config, save_graphs, ...) are accepted and stored.
    """
    for key in kwargs:
        if key not in _KNOWN:
            raise ValueError(f"For 'set_context', the key {key!r} is not supported. Supported keys: "
                             f"{sorted(_KNOWN)}.")
    if "mode" in kwargs:
        mode = kwargs["mode"]
        if isinstance(mode, bool) or mode not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"For 'set_context', 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), but got "
                             f"{mode!r}.")
    if "device_target" in kwargs or "device_id" in kwargs:
        warnings.warn("For 'set_context', the 'device_target' and 'device_id' keys will be deprecated; use "
                      "mindspore_hl.set_device() instead.", FutureWarning, stacklevel=2)
        _apply_device(kwargs.get("device_target", get_context("device_target")),
                      kwargs.get("device_id", _ctx["device_id"]))
    if "enable_compile_cache" in kwargs or "compile_cache_path" in kwargs:
        _cache.configure(kwargs.get("enable_compile_cache", _ctx["enable_compile_cache"]),
                         kwargs.get("compile_cache_path", _ctx["compile_cache_path"]))
    for key, value in kwargs.items():
        if key not in ("device_target", "device_id"):
            _ctx[key] = value
    if "mode" in kwargs:
        _host_memory.choose_dispatch(kwargs["mode"] == GRAPH_MODE)


def get_context(attr_key: str) -> Any:
    """The value of one context key (``get_context('mode')`` -> 0 or 1)."""
    if attr_key not in _KNOWN:
        raise ValueError(f"For 'get_context', the key {attr_key!r} is not supported. Supported keys: "
                         f"{sorted(_KNOWN)}.")
    if attr_key == "device_target" and _ctx["device_target"] is None:
        _ctx["device_target"] = _default_target()
    return _ctx.get(attr_key)


def set_device(device_target: str, device_id: int | None = None) -> None:
    """Choose the device target ('CPU', 'GPU', a plug-in's name) and optionally the device index."""
    _apply_device(device_target, 0 if device_id is None else device_id)


def is_graph_mode() -> bool:
    """True in GRAPH_MODE."""
    return _ctx["mode"] == GRAPH_MODE
