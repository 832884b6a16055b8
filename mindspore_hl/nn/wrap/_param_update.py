"""``ParameterUpdate``: a Cell whose call assigns its input to a Parameter."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ...common.parameter import Parameter
from ..cell import Cell

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["ParameterUpdate"]


class ParameterUpdate(Cell):
    """``ParameterUpdate(param)(x)`` sets ``param`` to ``x`` and returns ``x``."""

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Tensor) -> Tensor:
        ops.assign(self._param, x)
        return x
