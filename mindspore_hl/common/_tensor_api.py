"""Top-level ``mindspore`` helpers around Tensors: ``from_numpy``, the RNG state functions, ``JitConfig``,
``set_deterministic`` and the NumPy-style dtype aliases (``ms.long``, ``ms.cfloat`` ...).

>>> import numpy as np
>>> import mindspore_hl as ms
>>> ms.from_numpy(np.ones(2, np.float32)).dtype
mindspore.float32
"""
from __future__ import annotations

import secrets
from typing import Any

import jax
import numpy as np

from . import dtype as mstype
from . import seed as _seed
from .tensor import Tensor

__all__ = ["from_numpy", "manual_seed", "initial_seed", "seed", "get_rng_state", "set_rng_state", "JitConfig",
           "set_deterministic", "byte", "ubyte", "short", "ushort", "intc", "uintc", "intp", "uintp", "long",
           "cfloat", "cdouble"]

# NumPy/PyTorch-style aliases MindSpore 2.10 exports at top level.
byte, ubyte, short, ushort = mstype.int8, mstype.uint8, mstype.int16, mstype.uint16
intc, uintc, intp, uintp, long = mstype.int32, mstype.uint32, mstype.int64, mstype.uint64, mstype.int64
cfloat, cdouble = mstype.complex64, mstype.complex128


def from_numpy(array: np.ndarray) -> Tensor:
    """A Tensor holding ``array`` with its dtype (MindSpore shares the memory; JAX arrays are immutable)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, but got {type(array).__name__}.")
    return Tensor(array)


def manual_seed(seed: int) -> None:
    """Seed every random generator (same as ``set_seed``)."""
    _seed.set_seed(seed)


def initial_seed() -> int:
    """The seed of the default generator (0 before any seed was set, as in MindSpore)."""
    s = _seed.get_seed()
    return 0 if s is None else s


def seed() -> int:
    """Seed the default generator with a non-deterministic seed and return it."""
    s = secrets.randbits(31)
    _seed.set_seed(s)
    return s


def get_rng_state() -> Tensor:
    """The default generator's state (an opaque integer Tensor for ``set_rng_state``)."""
    return Tensor(np.asarray(jax.device_get(_seed.global_key())))


def set_rng_state(state: Any) -> None:
    """Restore a state returned by ``get_rng_state``."""
    arr = np.asarray(state.asnumpy() if isinstance(state, Tensor) else state)
    ref = np.asarray(jax.device_get(_seed.global_key()))
    if arr.shape != ref.shape or arr.dtype != ref.dtype:
        raise ValueError(f"set_rng_state: expected a state of shape {ref.shape} and dtype {ref.dtype} "
                         f"(from get_rng_state), but got {arr.shape} {arr.dtype}.")
    _seed.set_global_key(jax.numpy.asarray(arr))


_DETERMINISTIC = {"value": False}


def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic kernels. XLA on CPU is deterministic already; the flag is recorded."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"set_deterministic: 'deterministic' must be a bool, but got {type(deterministic).__name__}.")
    _DETERMINISTIC["value"] = deterministic


class JitConfig:
    """Compilation options for ``Cell.set_jit_config`` / ``ms.jit`` (recorded; XLA picks its own levels).

    Args follow MindSpore 2.10: ``jit_level`` ('' / 'O0' / 'O1' / 'O2'), ``exc_mode``, ``jit_syntax_level``,
    ``debug_level``, ``infer_boost``; extra keyword options are kept in ``jit_config_dict``.
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError(f"JitConfig: 'jit_level' must be '', 'O0', 'O1' or 'O2', but got {jit_level!r}.")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError(f"JitConfig: 'exc_mode' must be 'auto', 'sink' or 'no_sink', but got {exc_mode!r}.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError(f"JitConfig: 'debug_level' must be 'RELEASE' or 'DEBUG', but got {debug_level!r}.")
        if infer_boost not in ("on", "off"):
            raise ValueError(f"JitConfig: 'infer_boost' must be 'on' or 'off', but got {infer_boost!r}.")
        self.jit_config_dict = dict(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level, infer_boost=infer_boost)
        self.jit_config_dict.update(kwargs)
