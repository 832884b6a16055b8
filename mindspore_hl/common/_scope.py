"""The stateless scope (``StatelessScope``, ``current``): defined in ``mindspore_hl._engine._scope``."""
from .._engine._scope import StatelessScope, _stack, active, current  # noqa: F401

__all__ = ["StatelessScope", "current", "active"]
