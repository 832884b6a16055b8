"""Host and device data to device arrays of their own, without compiling anything.

``jnp.asarray(numpy)`` and ``jnp.array(x, copy=True)`` copy through a small XLA program compiled once per shape and
dtype; a fresh process that stages many shapes (a network's parameters) pays tens of milliseconds for each. Tensors,
Parameters, batches and copies go through these two functions instead.
"""
from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["to_device", "copy_array", "default_platform"]


def to_device(arr: np.ndarray) -> jax.Array:
    """A JAX array holding its own copy of the NumPy array ``arr``, placed without compiling anything.

    ``jnp.asarray`` copies through an XLA computation compiled once per shape and dtype, tens of milliseconds
    each: ResNet50's parameter shapes alone cost most of a second at start-up. ``device_put`` compiles
    nothing, but on CPU it shares the NumPy buffer, which the caller may still change; hence the host copy
    there. An accelerator's ``device_put`` copies anyway, so a second host copy would only cost time (a
    224x224 batch of 256 is 154 MB).
    """
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if default_platform() != "cpu":
        return jax.device_put(arr)
    return jax.device_put(np.array(arr, copy=True, order="C"))


def default_platform() -> str:
    """The platform arrays are placed on by default: the context's device, else JAX's default backend."""
    device = jax.config.jax_default_device  # type: ignore[attr-defined]  # a Device, a platform name, or None
    if isinstance(device, jax.Device):
        return device.platform
    return device if isinstance(device, str) else _jax_default_backend()


@functools.cache
def _jax_default_backend() -> str:
    return jax.default_backend()  # fixed once JAX has started its backends


def copy_array(x: Any) -> Any:
    """A copy of array ``x`` in a buffer of its own (compiled steps donate Parameter buffers, which must not
    be shared); a concrete array is copied without compiling anything (see :func:`to_device`)."""
    if isinstance(x, jax.Array) and not isinstance(x, jax.core.Tracer):
        return jax.device_put(x, may_alias=False)
    return jnp.array(x, copy=True)
