"""Parameter-updating ops (``ops.assign``, ``ops.assign_add``, ``ops.assign_sub``).

They write through ``Parameter.set_data``, so inside a compiled step or a grad transformation the update is
recorded in the active scope (and written back after the step); eagerly it updates the Parameter at once.
"""

from __future__ import annotations

from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array
from ._core import OpTypeError

__all__ = ["assign", "assign_add", "assign_sub"]


def _param(name, variable):
    if not isinstance(variable, Parameter):
        raise OpTypeError(f"For '{name}', 'variable' must be a Parameter, but got {type(variable).__name__}.")
    return variable


def assign(variable: Tensor, value: Tensor | float) -> Tensor:
    """Set ``variable`` (a Parameter) to ``value``; returns the Parameter."""
    return _param("assign", variable).set_data(to_array(value))


def assign_add(variable: Tensor, value: Tensor | float) -> Tensor:
    """``variable += value`` for a Parameter; returns the Parameter."""
    p = _param("assign_add", variable)
    return p.set_data(p._value + to_array(value))


def assign_sub(variable: Tensor, value: Tensor | float) -> Tensor:
    """``variable -= value`` for a Parameter; returns the Parameter."""
    p = _param("assign_sub", variable)
    return p.set_data(p._value - to_array(value))
