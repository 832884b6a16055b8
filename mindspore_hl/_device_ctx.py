"""``DeviceCtx``: run the code of a ``with`` block on another device, then return to the previous one."""
from __future__ import annotations

import threading
from typing import Any

import jax

from ._engine import _state
from .context import _apply_device, get_context

__all__ = ["DeviceCtx"]

_VALID_TARGETS = ["CPU", "GPU", "Ascend", "meta"]


class _Saved(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Any, Any, Any, dict[str, Any]]] = []


_saved = _Saved()


class DeviceCtx:
    """``with DeviceCtx(name, device_id=None):`` makes ``(name, device_id)`` the device in use inside the block.

    Inside the block ``get_current_device()`` / ``get_context('device_target')`` report the device and new
    Tensors and computations go to it (JAX's default device); leaving the block restores the previous device,
    even after an exception. ``device_id=None`` means device 0.

    Args:
        name (str): 'CPU', 'GPU' or 'Ascend' (an installed target); MindSpore's 'meta' device (Tensors without
            data) is not supported by this backend.
        device_id (int, optional): the device index. Default: ``None``.

    >>> import mindspore_hl as ms
    >>> with ms.DeviceCtx("CPU", 0):
    ...     tuple(ms.get_current_device())
    ('CPU', 0)
    """

    def __init__(self, name: str, device_id: int | None = None) -> None:
        self.name = name
        self.device_id = device_id

    def __enter__(self) -> DeviceCtx:
        if self.name not in _VALID_TARGETS:
            raise ValueError(f"For DeviceCtx, the name must be one of {_VALID_TARGETS}, but got {self.name}.")
        if self.device_id is not None and (not isinstance(self.device_id, int) or isinstance(self.device_id, bool)):
            raise TypeError(f"For DeviceCtx, the device_id must be an int or None, but got "
                            f"{type(self.device_id).__name__} {self.device_id!r}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == "meta":
            raise ValueError("For DeviceCtx, the 'meta' device (Tensors that have a shape and dtype but no data) is "
                             "not supported by this backend; use 'CPU' or an installed device target.")
        if self.device_id is None:
            self.device_id = 0
        ctx = _state.context
        get_context("device_target")  # resolve the default target first, so that it is what comes back on exit
        prev = (ctx.get("device_target"), ctx.get("device_id"), jax.config.values.get("jax_default_device"),
                dict(_state.op_overrides))
        _apply_device(self.name, self.device_id)
        _saved.stack.append(prev)
        return self

    def __exit__(self, *exc: object) -> None:
        target, device_id, default_device, overrides = _saved.stack.pop()
        ctx = _state.context
        ctx["device_target"], ctx["device_id"] = target, device_id
        jax.config.update("jax_default_device", default_device)
        _state.op_overrides.clear()
        _state.op_overrides.update(overrides)
