"""Activation Cells (``nn.ReLU``, ``nn.GELU`` ...) and ``get_activation`` for string arguments."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ..cell import Cell
from ._checks import check_input

if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
           "get_activation"]


class _Elementwise(Cell):
    """An activation applied element by element; any input shape."""

    _fn: Callable[..., Any]  # set by every subclass

    def construct(self, x):
        check_input(self, x, ("...",))
        return self._fn(x)


class ReLU(_Elementwise):
    """max(x, 0)."""

    def _fn(self, x):
        return ops.relu(x)


class ReLU6(_Elementwise):
    """min(max(x, 0), 6)."""

    def _fn(self, x):
        return ops.relu6(x)


class LeakyReLU(_Elementwise):
    """x where x >= 0 else alpha * x. Args: alpha (default 0.2, MindSpore's default)."""

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        if not isinstance(alpha, (int, float)) or isinstance(alpha, bool):
            raise TypeError(f"LeakyReLU: 'alpha' must be a number, but got {alpha!r}.")
        self.alpha = alpha

    def _fn(self, x):
        return ops.leaky_relu(x, self.alpha)


class GELU(_Elementwise):
    """GELU. Args: approximate: True (MindSpore's default) uses the tanh formula, False the exact erf one."""

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        self.approximate = bool(approximate)

    def _fn(self, x):
        return ops.gelu(x, "tanh" if self.approximate else "none")


class SiLU(_Elementwise):
    """x * sigmoid(x)."""

    def _fn(self, x):
        return ops.silu(x)


class Sigmoid(_Elementwise):
    def _fn(self, x):
        return ops.sigmoid(x)


class Tanh(_Elementwise):
    def _fn(self, x):
        return ops.tanh(x)


class Softmax(_Elementwise):
    """Softmax along ``axis`` (default -1)."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def _fn(self, x):
        _check_axis(self, x, self.axis)
        return ops.softmax(x, self.axis)


class LogSoftmax(_Elementwise):
    """Log-softmax along ``axis`` (default -1)."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def _fn(self, x):
        _check_axis(self, x, self.axis)
        return ops.log_softmax(x, self.axis)


def _check_axis(cell, x, axis):
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if any(not -x.ndim <= a < max(x.ndim, 1) for a in axes):
        raise ValueError(f"{type(cell).__name__}: axis {axis} is out of range for an input of shape {tuple(x.shape)}.")


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "gelu": GELU, "silu": SiLU,
                "sigmoid": Sigmoid, "tanh": Tanh, "softmax": Softmax, "logsoftmax": LogSoftmax}


def get_activation(name: str, prim_name: str | None = None) -> Cell | None:
    """The activation Cell for a MindSpore name ('relu', 'gelu', 'tanh', ...); None for None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"{prim_name or 'get_activation'}: activation must be a str or a Cell, but got "
                        f"{type(name).__name__}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"{prim_name or 'get_activation'}: unknown activation {name!r}; known: {sorted(_ACTIVATIONS)}.")
    return cls()
