"""Whether JAX sees a GPU, and how many."""
from __future__ import annotations

import jax

__all__ = ["is_available", "device_count"]


def _gpus() -> list[jax.Device]:
    try:
        return jax.devices("gpu")
    except RuntimeError:  # no GPU backend in this JAX install, or no GPU on the machine
        return []


def is_available() -> bool:
    """Whether a GPU can run this process's computations (JAX with CUDA or ROCm, and a device).

    >>> isinstance(is_available(), bool)
    True
    """
    return bool(_gpus())


def device_count() -> int:
    """The number of GPUs this process sees.

    Raises:
        RuntimeError: no GPU is available (MindSpore's message).
    """
    gpus = _gpus()
    if not gpus:
        raise RuntimeError("Device_target GPU not exist.")
    return len(gpus)
