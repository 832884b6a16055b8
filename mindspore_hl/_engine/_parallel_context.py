"""``set_auto_parallel_context`` / ``get_auto_parallel_context`` / ``reset_auto_parallel_context`` and the mesh.

The parallel context decides how the engine compiles a step (``_compiled.CompiledFunction``, ``_runner.StepRunner``)
and runs an eager one: STAND_ALONE uses one device; the other modes run one SPMD program over a 2-D device
``Mesh`` with axes ``('data', 'model')`` (see ``_plan``). Changing the context invalidates every compiled step
built so far. The values live in ``_state.parallel`` (``_state.reset()`` restores the defaults).
"""
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh

from . import _state

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context"]


class ParallelMode:
    """The values of ``parallel_mode`` (MindSpore's ``mindspore.ParallelMode``)."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_SEARCH_MODES = ("recursive_programming", "sharding_propagation", "dynamic_programming")

# MindSpore 2.x defaults. Keys marked "recorded" are accepted for compatibility and returned by
# get_auto_parallel_context, but change nothing here (XLA schedules and fuses the collectives itself).
_DEFAULTS = {
    "device_num": 1,                  # devices in the mesh; unset (1) means every device JAX sees
    "global_rank": 0,                 # recorded
    "gradients_mean": False,          # used by DistributedGradReducer
    "gradient_fp32_sync": True,       # recorded
    "loss_repeated_mean": True,       # recorded
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming",  # recorded: AUTO_PARALLEL always runs the XLA-cost search
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,     # recorded: every process builds identical parameters from set_seed
    "strategy_ckpt_load_file": "",    # recorded
    "strategy_ckpt_save_file": "",    # sharded steps write their parameter layouts there (_strategy_ckpt)
    "strategy_ckpt_config": {},       # only_trainable_params; its load_file / save_file are the two keys above
    "full_batch": False,              # (semi-)auto parallel: every process feeds the whole global batch
    "dataset_strategy": "data_parallel",
    "enable_parallel_optimizer": False,
    "parallel_optimizer_config": {},  # recorded
    "enable_alltoall": False,         # recorded
    "all_reduce_fusion_config": [],   # recorded
    "comm_fusion": {},                # recorded
    "pipeline_stages": 1,
    "pipeline_config": {},            # recorded
    "pipeline_result_broadcast": False,  # recorded
    "grad_accumulation_step": 1,
    "force_fp32_communication": False,  # recorded
    "group_ckpt_save_file": "",       # recorded
}

_TYPES: dict[str, Any] = {"device_num": int, "global_rank": int, "gradients_mean": bool, "gradient_fp32_sync": bool,
          "loss_repeated_mean": bool, "parallel_mode": str, "search_mode": str, "auto_parallel_search_mode": str,
          "parameter_broadcast": bool, "strategy_ckpt_load_file": str, "strategy_ckpt_save_file": str,
          "strategy_ckpt_config": dict, "full_batch": bool, "dataset_strategy": (str, tuple),
          "enable_parallel_optimizer": bool, "parallel_optimizer_config": dict, "enable_alltoall": bool,
          "all_reduce_fusion_config": list, "comm_fusion": dict, "pipeline_stages": int, "pipeline_config": dict,
          "pipeline_result_broadcast": bool, "grad_accumulation_step": int, "force_fp32_communication": bool,
          "group_ckpt_save_file": str}

_ctx = _state.parallel
_device_num_set = [False]
_compiled = _state.compiled   # every compiled function that built a step: cleared when the context changes
_meshes = _state.meshes


@_state.on_reset
def _reset():
    _ctx.clear()
    _ctx.update({k: (type(v)() if isinstance(v, (list, dict)) else v) for k, v in _DEFAULTS.items()})
    _device_num_set[0] = False


_reset()


def _check(key: str, value: Any) -> None:
    typ = _TYPES[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
        raise TypeError(f"set_auto_parallel_context: '{key}' must be {names}, but got {type(value).__name__} "
                        f"{value!r}.")
    if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
        raise ValueError(f"set_auto_parallel_context: parallel_mode must be one of {ParallelMode.MODE_LIST}, "
                         f"but got {value!r}.")
    if key in ("search_mode", "auto_parallel_search_mode") and value not in _SEARCH_MODES:
        raise ValueError(f"set_auto_parallel_context: '{key}' must be one of {list(_SEARCH_MODES)}, but got {value!r}.")
    if key == "device_num" and not 1 <= value <= 4096:
        raise ValueError(f"set_auto_parallel_context: device_num must be in [1, 4096], but got {value}.")
    if key == "global_rank" and not 0 <= value <= 4095:
        raise ValueError(f"set_auto_parallel_context: global_rank must be in [0, 4095], but got {value}.")
    if key == "dataset_strategy" and isinstance(value, str) and value not in ("data_parallel", "full_batch"):
        raise ValueError(f"set_auto_parallel_context: dataset_strategy must be 'data_parallel', 'full_batch' or a "
                         f"tuple of strategies, but got {value!r}.")
    if key == "strategy_ckpt_config":
        for name, item in value.items():
            if name not in ("load_file", "save_file", "only_trainable_params"):
                raise ValueError(f"set_auto_parallel_context: unknown strategy_ckpt_config key {name!r}; expected "
                                 f"'load_file', 'save_file' or 'only_trainable_params'.")
            typ = bool if name == "only_trainable_params" else str
            if not isinstance(item, typ):
                raise TypeError(f"set_auto_parallel_context: strategy_ckpt_config[{name!r}] must be {typ.__name__}, "
                                f"but got {type(item).__name__} {item!r}.")
    if key == "dataset_strategy" and isinstance(value, tuple):
        raise NotImplementedError("set_auto_parallel_context: per-input dataset_strategy tuples are not supported; "
                                  "use 'data_parallel' or 'full_batch'.")
    # Features that would change what is computed and that this engine does not implement: refuse them.
    if key == "pipeline_stages" and value != 1:
        raise NotImplementedError(f"set_auto_parallel_context: pipeline parallelism (pipeline_stages={value}) is not "
                                  f"supported by mindspore_hl; use pipeline_stages=1.")
    if key == "grad_accumulation_step" and value != 1:
        raise NotImplementedError(f"set_auto_parallel_context: grad_accumulation_step={value} is not supported by "
                                  f"mindspore_hl; use 1.")
    if key == "enable_parallel_optimizer" and value:
        raise NotImplementedError("set_auto_parallel_context: enable_parallel_optimizer=True (optimizer-state "
                                  "sharding) is not supported; use AUTO_PARALLEL with a memory budget "
                                  "(set_context(max_device_memory=...)) to shard large weights and their state.")


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Configure parallel training.

    Args:
        parallel_mode: a ``ParallelMode`` value. DATA_PARALLEL replicates parameters and splits the batch over
            the devices; SEMI_AUTO_PARALLEL / HYBRID_PARALLEL also shard parameters as set by ``Cell.shard`` or
            ``Parameter.sharding``; AUTO_PARALLEL chooses the parameter layouts itself (memory budget from
            ``set_context(max_device_memory=...)``).
        device_num: number of devices in the mesh (default: all devices of all processes).
        gradients_mean: whether ``DistributedGradReducer`` averages (True) or sums (False) gradients.
        full_batch / dataset_strategy: in (semi-)auto parallel with several processes, whether every process
            feeds the whole global batch (True / 'full_batch') or its own part of it (default).
        Other MindSpore keys are checked and recorded; pipeline stages, gradient accumulation and the
        parallel optimizer raise NotImplementedError.
    """
    for key, value in kwargs.items():
        if key not in _TYPES:
            raise ValueError(f"set_auto_parallel_context: unknown key {key!r}. Known keys: {sorted(_TYPES)}.")
        _check(key, value)
    trainable_only = _trainable_only()
    for key, value in kwargs.items():
        _ctx[key] = value
        if key == "device_num":
            _device_num_set[0] = True
        if key == "full_batch":
            _ctx["dataset_strategy"] = "full_batch" if value else "data_parallel"
        if key == "dataset_strategy":
            _ctx["full_batch"] = value == "full_batch"
        if key in ("search_mode", "auto_parallel_search_mode"):
            _ctx["search_mode"] = _ctx["auto_parallel_search_mode"] = value
        if key == "strategy_ckpt_config":  # one setting with strategy_ckpt_save_file / _load_file, as in MindSpore
            _ctx[key] = {"only_trainable_params": value.get("only_trainable_params", trainable_only)}
            for name in ("load_file", "save_file"):
                if name in value:
                    _ctx[f"strategy_ckpt_{name}"] = value[name]
    _invalidate()


def get_auto_parallel_context(attr_key: str) -> Any:
    """The value of one key (``get_auto_parallel_context('parallel_mode')`` -> ``'data_parallel'``)."""
    if attr_key not in _TYPES:
        raise ValueError(f"get_auto_parallel_context: unknown key {attr_key!r}. Known keys: {sorted(_TYPES)}.")
    if attr_key == "strategy_ckpt_config":
        return {"load_file": _ctx["strategy_ckpt_load_file"], "save_file": _ctx["strategy_ckpt_save_file"],
                "only_trainable_params": _trainable_only()}
    value = _ctx[attr_key]
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def reset_auto_parallel_context() -> None:
    """Restore every key to its default (STAND_ALONE)."""
    _reset()
    _invalidate()


def _trainable_only() -> bool:
    return bool(_ctx["strategy_ckpt_config"].get("only_trainable_params", True))


def _invalidate():
    for cf in list(_compiled):
        cf.clear_cache()


def mode() -> str:
    """The parallel mode (a ``ParallelMode`` value)."""
    return _ctx["parallel_mode"]


def is_parallel() -> bool:
    """Whether steps run on a device mesh (any mode but STAND_ALONE)."""
    return _ctx["parallel_mode"] != ParallelMode.STAND_ALONE


def devices() -> list[Any]:
    """The devices of the mesh: every process's devices in process order, or the first ``device_num``."""
    devs = sorted(jax.devices(), key=lambda d: (d.process_index, d.id))
    if not _device_num_set[0]:
        return devs
    n = _ctx["device_num"]
    if n > len(devs):
        raise ValueError(f"set_auto_parallel_context: device_num={n}, but only {len(devs)} device(s) are visible "
                         f"({jax.process_count()} process(es)). On one CPU, start Python with "
                         f"XLA_FLAGS=--xla_force_host_platform_device_count={n}; with several processes, use "
                         f"mindspore-hl-run -n N.")
    if jax.process_count() > 1 and n != len(devs):
        raise ValueError(f"set_auto_parallel_context: with {jax.process_count()} processes the mesh must use every "
                         f"device: device_num={n}, but there are {len(devs)} devices in all.")
    return devs[:n]


def mesh(model: int = 1) -> Mesh:
    """The ``('data', 'model')`` mesh over ``devices()`` with a model axis of size ``model``."""
    devs = devices()
    if len(devs) % model:
        raise ValueError(f"parallel: a model axis of size {model} does not divide the {len(devs)} devices.")
    key = (tuple(d.id for d in devs), model)
    m = _meshes.get(key)
    if m is None:
        m = _meshes[key] = Mesh(np.array(devs, dtype=object).reshape(len(devs) // model, model), ("data", "model"))
    return m


def memory_budget() -> int | None:
    """Bytes per device from ``set_context(max_device_memory='2GB')`` ('GB', 'MB', 'KB' or 'B'), or None."""
    value = _state.context.get("max_device_memory")
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    text = str(value).strip().upper()
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)):
        if text.endswith(unit):
            try:
                return int(float(text[:-len(unit)]) * scale)
            except ValueError:
                break
    raise ValueError(f"set_context: max_device_memory must look like '3.5GB' (or 'MB', 'KB'), but got {value!r}.")
