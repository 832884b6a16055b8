"""The persistent compile cache: ``set_context(enable_compile_cache=True, compile_cache_path=...)``.

MindSpore's keys, on JAX's persistent compilation cache: every XLA executable compiled afterwards (Cell
calls, ``jit``, Model's steps, eager ops) is written under ``<compile_cache_path>/rank_<rank id>/``, and a
later process with the same setting loads the executable instead of compiling it again. As in MindSpore,
the path defaults to the working directory, and the rank id comes from the launcher's environment
(``MS_NODE_ID`` / ``RANK_ID`` / ``RANK``; 0 for a single process).
"""
import importlib
import os
from types import ModuleType

import jax

try:  # JAX opens its cache once, at the first compile; there is no public way to re-open it elsewhere
    _jax_cache: ModuleType | None = importlib.import_module("jax._src.compilation_cache")
except ImportError:
    _jax_cache = None

__all__ = ["configure"]

_RANK_VARS = ("MS_NODE_ID", "RANK_ID", "RANK", "JAX_PROCESS_ID")


def _rank():
    for name in _RANK_VARS:
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return 0


def _forget_cache():
    """JAX opens its cache once, at the first compile: make it look at the directory set now."""
    reset = getattr(_jax_cache, "reset_cache", None)
    if reset is not None:
        reset()


def configure(enabled: bool, path: str | None = None) -> str:
    """Turn the persistent compile cache on (into ``path``/rank_<id>) or off; returns the directory ('' if off).

    Example:
        >>> configure(False)
        ''
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"For 'set_context', 'enable_compile_cache' must be a bool, but got {type(enabled).__name__} "
                        f"{enabled!r}.")
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"For 'set_context', 'compile_cache_path' must be a str, but got {type(path).__name__} "
                        f"{path!r}.")
    _forget_cache()
    if not enabled:
        jax.config.update("jax_compilation_cache_dir", None)
        return ""
    directory = os.path.join(os.path.abspath(os.fspath(path) if path else "."), f"rank_{_rank()}")
    os.makedirs(directory, exist_ok=True)
    jax.config.update("jax_enable_compilation_cache", True)
    jax.config.update("jax_compilation_cache_dir", directory)
    # Cache every executable: a small train step also takes a second or more to compile on a busy host.
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return directory
