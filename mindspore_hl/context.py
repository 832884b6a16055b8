"""``set_context`` / ``get_context`` / ``set_device``: execution mode and device target."""
import warnings

import jax

from .backends import get_backend

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT, COMPATIBLE, LAX = 0, 1, 2

_KNOWN = {"mode", "device_target", "device_id", "jit_config", "jit_syntax_level", "save_graphs",
          "save_graphs_path", "max_call_depth", "enable_graph_kernel", "pynative_synchronize",
          "max_device_memory", "memory_optimize_level", "runtime_num_threads", "ascend_config",
          "gpu_config", "enable_reduce_precision", "check_bprop", "deterministic", "print_file_path",
          "variable_memory_max_size", "graph_kernel_flags", "enable_compile_cache", "compile_cache_path",
          "inter_op_parallel_num", "env_config_path", "mempool_block_size", "op_timeout", "reserve_class_name_in_scope",
          "device_target_list", "enable_auto_mixed_precision", "grad_for_scalar"}

_ctx = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0, "jit_config": {"jit_level": "O0"},
        "jit_syntax_level": LAX, "save_graphs": False, "max_call_depth": 1000, "enable_graph_kernel": False,
        "pynative_synchronize": False}


def _apply_device(target, device_id):
    backend = get_backend(target)
    devices = backend.devices()
    if not 0 <= device_id < len(devices):
        raise ValueError(f"device_id {device_id} is out of range: device_target '{backend.name}' has "
                         f"{len(devices)} device(s).")
    jax.config.update("jax_default_device", devices[device_id])
    _ctx["device_target"], _ctx["device_id"] = backend.name, device_id


def set_context(**kwargs):
    """Set execution options.

    Args:
        mode: ``GRAPH_MODE`` (0, compile whole Cells with XLA) or ``PYNATIVE_MODE`` (1, run eagerly).
        device_target: 'CPU', 'GPU' or an installed plug-in's target; device_id: which device.
        Other MindSpore keys (jit_config, save_graphs, ...) are accepted and stored.
    """
    for key in kwargs:
        if key not in _KNOWN:
            raise ValueError(f"set_context: unknown key {key!r}. Known keys: {sorted(_KNOWN)}.")
    if "mode" in kwargs:
        mode = kwargs["mode"]
        if mode not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"set_context: 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), but got {mode!r}.")
        _ctx["mode"] = mode
    if "device_target" in kwargs or "device_id" in kwargs:
        warnings.warn("The 'device_target' and 'device_id' keys of set_context will be deprecated; "
                      "use mindspore_hl.set_device() instead.", FutureWarning, stacklevel=2)
        _apply_device(kwargs.get("device_target", _ctx["device_target"]), kwargs.get("device_id", _ctx["device_id"]))
    for key, value in kwargs.items():
        if key not in ("mode", "device_target", "device_id"):
            _ctx[key] = value


def get_context(attr_key):
    """The value of one context key (``get_context('mode')`` -> 0 or 1)."""
    if attr_key not in _KNOWN:
        raise ValueError(f"get_context: unknown key {attr_key!r}.")
    return _ctx.get(attr_key)


def set_device(device_target, device_id=None):
    """Choose the device target ('CPU', 'GPU', a plug-in's name) and optionally the device index."""
    _apply_device(device_target, 0 if device_id is None else device_id)


def is_graph_mode():
    return _ctx["mode"] == GRAPH_MODE
