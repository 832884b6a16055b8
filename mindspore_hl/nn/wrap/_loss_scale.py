"""Loss scaling for float16 training: the scale-update cells and ``TrainOneStepWithLossScaleCell``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ...common import _scope
from ...common.parameter import Parameter
from ...common.tensor import Tensor, to_array, wrap
from ..cell import Cell
from ._cells import TrainOneStepCell

if TYPE_CHECKING:
    from typing import Any, Sequence


def all_finite(inputs: Tensor | Sequence[Tensor]) -> Tensor:
    """True (a Bool Tensor) when every value in ``inputs`` (a Tensor or sequence of Tensors) is finite."""
    leaves = [to_array(x) for x in (inputs if isinstance(inputs, (tuple, list)) else [inputs])]
    return wrap(jnp.all(jnp.stack([jnp.all(jnp.isfinite(x)) for x in leaves])))


class DynamicLossScaleUpdateCell(Cell):
    """Halve (``/scale_factor``) the scale on overflow; multiply it after ``scale_window`` finite steps.

    ``cell(loss_scale_param, overflow) -> overflow``; updates ``loss_scale_param`` in place.
    """

    def __init__(self, loss_scale_value: float, scale_factor: float, scale_window: int) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.cur_iter = Parameter(Tensor(jnp.ones((), jnp.int32)), name="current_iterator_step", requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(jnp.zeros((), jnp.int32)), name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale: Tensor, overflow: Tensor | bool) -> Tensor | bool:
        scale = loss_scale._value
        ovf = overflow._value if isinstance(overflow, Tensor) else overflow
        cur = self.cur_iter._value
        last = self.last_overflow_iter._value
        dec = jnp.maximum(scale / self.scale_factor, 1.0)
        grow = (cur - last) >= self.scale_window
        new_scale = jnp.where(ovf, dec, jnp.where(grow, scale * self.scale_factor, scale))
        new_last = jnp.where(ovf | grow, cur, last)
        loss_scale._set_value(new_scale.astype(scale.dtype))
        self.last_overflow_iter._set_value(new_last.astype(last.dtype))
        self.cur_iter._set_value(cur + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A constant loss scale (the update is a no-op)."""

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale: Tensor, overflow: Tensor | bool) -> Tensor | bool:
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """A train step with loss scaling: scale the loss, unscale the gradients, skip the update on overflow.

    Args:
        network, optimizer: as ``TrainOneStepCell``.
        scale_sense: a Tensor (fixed scale, updatable with ``set_sense_scale``) or an update Cell
            (``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``).
    Returns:
        ``(loss, overflow, loss_scale)`` per call.
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Cell | Tensor) -> None:
        super().__init__(network, optimizer)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            init = scale_sense.get_loss_scale() if hasattr(scale_sense, "get_loss_scale") else None
            value = init if init is not None else 2.0 ** 24
            self.scale_sense = Parameter(Tensor(jnp.asarray(value, jnp.float32)), name="scale_sense",
                                         requires_grad=False)
        elif isinstance(scale_sense, Tensor):
            self.scale_sense = Parameter(Tensor(scale_sense._value.astype(jnp.float32).reshape(())),
                                         name="scale_sense", requires_grad=False)
        else:
            raise TypeError(f"TrainOneStepWithLossScaleCell: 'scale_sense' must be a Cell or Tensor, "
                            f"got {type(scale_sense).__name__}.")

    def set_sense_scale(self, sens: float | Tensor) -> None:
        self.scale_sense.set_data(sens)

    # (loss, overflow, scale), as MindSpore's; the base class returns the loss (and gradients)
    def construct(self, *inputs: Any) -> tuple[Tensor, Tensor, Tensor]:  # type: ignore[override]
        scale = self.scale_sense._value
        loss, grads = self.forward_and_grads(*inputs, sens=wrap(scale))
        grads = tuple(wrap(g._value / scale.astype(g._value.dtype)) for g in grads)
        if self.grad_reducer is not None:
            grads = self.grad_reducer(grads)
        overflow = jnp.logical_not(all_finite(grads)._value)
        if self.loss_scaling_manager is not None:
            self.loss_scaling_manager(self.scale_sense, wrap(overflow))
        # Run the optimizer in a nested scope, then keep the old values wherever the step overflowed.
        with _scope.StatelessScope() as inner:
            self.optimizer(grads)
        for p, new in inner.updates():
            p._set_value(jnp.where(overflow, p._value, new))
        return loss, wrap(overflow), wrap(self.scale_sense._value)
