"""Whether the CPU backend is there, and how many CPU devices MindSpore counts."""
from __future__ import annotations

__all__ = ["is_available", "device_count"]


def is_available() -> bool:
    """Whether the CPU backend is available: always, since XLA's CPU backend ships with JAX.

    >>> is_available()
    True
    """
    return True


def device_count() -> int:
    """The number of compute-capable CPU devices: 1, as MindSpore counts the host (however many XLA devices a
    ``--xla_force_host_platform_device_count`` flag splits it into).

    >>> device_count()
    1
    """
    return 1
