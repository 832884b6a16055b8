"""Global dataset settings (``mindspore.dataset.config``): seed, worker count, prefetch depth."""
import os
from typing import Any

from ._tuning import *  # noqa: F401,F403  (engine tuning settings)
from ._tuning import __all__ as _tuning_names

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size"] + list(_tuning_names)

# MindSpore's ConfigManager reports std::mt19937's default seed while no seed was set; pipelines with that
# seed draw fresh randomness, except DistributedSampler, which shuffles with it deterministically.
DEFAULT_SEED = 5489

_state: dict[str, Any] = {
    "seed": None,                 # int given to set_seed, or None
    "top_seed_at_set": None,      # mindspore_hl.set_seed's value when set_seed was called (see effective_seed)
    "num_parallel_workers": max(1, min(8, os.cpu_count() or 1)),
    "prefetch_size": 16,
    "generation": 0,              # bumped by every set_seed: eager random transforms restart their stream
}


def _check_int(name, value, low, high=2 ** 32 - 1):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name}: expected an int in [{low}, {high}], but got {value!r}")


def _top_level_seed():
    """``mindspore_hl.set_seed``'s value (read lazily: the dataset package must import without it)."""
    try:
        from mindspore_hl.common import seed as _seed_mod
    except ImportError:
        return None
    value = _seed_mod.get_seed()
    return None if value is None else int(value)


def set_seed(seed: int) -> None:
    """Seed every random dataset operation (shuffles, samplers, random transforms). Args: seed (int >= 0)."""
    _check_int("set_seed", seed, 0)
    _state["seed"] = int(seed)
    _state["top_seed_at_set"] = _top_level_seed()
    _state["generation"] += 1


def effective_seed() -> int | None:
    """The seed pipelines use: whichever of ``ds.config.set_seed`` / ``ms.set_seed`` was called last, or None.

    ``ms.set_seed`` also seeds datasets in MindSpore; the top-level seed wins unless ``ds.config.set_seed`` was
    called after it (detected by the top-level value having not changed since)."""
    top = _top_level_seed()
    own = _state["seed"]
    if own is not None and (top is None or top == _state["top_seed_at_set"]):
        return own
    return top


def get_seed() -> int:
    """The dataset seed; ``5489`` (MindSpore's default) while none was set."""
    seed = effective_seed()
    return DEFAULT_SEED if seed is None else seed


def set_num_parallel_workers(num: int) -> None:
    """Default worker threads per map / source operation. Args: num (int >= 1)."""
    _check_int("set_num_parallel_workers", num, 1, 1024)
    _state["num_parallel_workers"] = int(num)


def get_num_parallel_workers() -> int:
    """Default worker threads per operation."""
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Number of blocks each iterator keeps ready ahead of the training loop. Args: size (int >= 1)."""
    _check_int("set_prefetch_size", size, 1, 2 ** 31 - 1)
    _state["prefetch_size"] = int(size)


def get_prefetch_size() -> int:
    """Prefetch queue depth of iterators."""
    return _state["prefetch_size"]
