"""Loss scaling: the managers Model takes (Fixed / Dynamic) and the scalers of functional training loops.

Managers describe the policy and hand ``build_train_network`` an update Cell; the scale itself is then a
Parameter of the train network (``scale_sense``), updated inside the compiled step. Scalers
(``StaticLossScaler`` / ``DynamicLossScaler``) keep their scale in Parameters too, so ``adjust`` works
eagerly and inside ``ms.jit`` functions.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import jax.numpy as jnp

from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array, wrap
from ..nn.wrap import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell
from ..nn.wrap._loss_scale import all_finite

if TYPE_CHECKING:
    from ..nn.cell import Cell

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager", "LossScaler",
           "StaticLossScaler", "DynamicLossScaler", "all_finite"]


class LossScaleManager:
    """Base of loss-scale managers: ``get_loss_scale``, ``update_loss_scale(overflow)``, ``get_update_cell``."""

    def get_loss_scale(self) -> float | None:
        """The current loss scale."""

    def update_loss_scale(self, overflow: bool) -> None:
        """Update the scale on the host after a step that did (or did not) overflow."""

    def get_update_cell(self) -> Cell | None:
        """The Cell that updates the scale inside the train step (None: no update, no overflow check)."""


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Args:
        loss_scale (float): the scale (>= 1).
        drop_overflow_update (bool): skip the optimizer step when gradients overflow. With False, the train
            step is a plain ``TrainOneStepCell`` with ``sens=loss_scale`` and the optimizer must be built with
            the same ``loss_scale`` to unscale the gradients.
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        """Whether an overflowing step's update is dropped."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """Nothing to update: the scale is fixed."""

    def get_update_cell(self) -> Cell | None:
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale divided by ``scale_factor`` on overflow and multiplied after ``scale_window`` good steps.

    Args:
        init_loss_scale (float): the initial scale (>= 1).
        scale_factor (int): the factor (> 0).
        scale_window (int): finite steps before the scale grows (> 0).
    """

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"The argument 'scale_window' must be a positive int, but got {scale_window!r}.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale: float = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        """Host-side update (for loops that do not use the update Cell)."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale continuous overflow {self.bad_step} times, has exceeded maximum "
                               f"threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        """True: an overflowing step's update is always dropped."""
        return True

    def get_update_cell(self) -> Cell:
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


def _map(fn: Callable[[Any], Any], inputs: Any) -> Any:
    """Apply ``fn`` to a Tensor or to each Tensor of a tuple / list (keeping the container type)."""
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(fn, x) for x in inputs)
    return wrap(fn(to_array(inputs)))


class LossScaler(ABC):
    """Base of loss scalers for functional training loops: ``scale``, ``unscale``, ``adjust``."""

    @abstractmethod
    def scale(self, inputs: Any) -> Any:
        """Multiply a loss (or each Tensor of a tuple) by the scale."""

    @abstractmethod
    def unscale(self, inputs: Any) -> Any:
        """Divide a Tensor (or each Tensor of a tuple, e.g. gradients) by the scale."""

    @abstractmethod
    def adjust(self, grads_finite: Any) -> bool:
        """Update the scale from whether the gradients were finite; returns whether it is adjustable."""


class StaticLossScaler(LossScaler):
    """A fixed scale.

    Args:
        scale_value (float): the scale (> 0).
    """

    def __init__(self, scale_value: float) -> None:
        if scale_value <= 0:
            raise ValueError(f"The argument 'scale_value' must be > 0, but got {scale_value}")
        self.scale_value = Parameter(Tensor(jnp.asarray(scale_value, jnp.float32)), name="scale_value")

    def scale(self, inputs: Any) -> Any:
        s = self.scale_value._value
        return _map(lambda x: x * s.astype(x.dtype), inputs)

    def unscale(self, inputs: Any) -> Any:
        s = self.scale_value._value
        return _map(lambda x: x / s.astype(x.dtype), inputs)

    def adjust(self, grads_finite: Any) -> bool:
        return False


class DynamicLossScaler(StaticLossScaler):
    """A scale divided by ``scale_factor`` when gradients overflow and multiplied after ``scale_window``
    consecutive finite steps (MindSpore's ``mindspore.amp.DynamicLossScaler``).

    Args:
        scale_value (float): the initial scale.
        scale_factor (int): the growth / shrink factor.
        scale_window (int): finite steps before the scale grows.

    Example:
        >>> scaler = DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=50)
        >>> grads = scaler.unscale((Tensor(np.array([2.0 ** 17], np.float32)),))  # gradients of a scaled loss
        >>> grads
        (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
        >>> scaler.adjust(all_finite(grads))  # finite: the scale grows after 50 such steps
        True
        >>> _ = scaler.adjust(Tensor(False))  # an overflow halves the scale
        >>> scaler.scale_value.asnumpy()
        array(32768., dtype=float32)
    """

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int) -> None:
        super().__init__(scale_value)
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"The argument 'scale_window' must be a positive int, but got {scale_window!r}.")
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.counter = Parameter(Tensor(jnp.zeros((), jnp.int32)), name="counter")

    def adjust(self, grads_finite: Any) -> bool:
        finite = to_array(grads_finite).astype(bool).reshape(())
        scale = self.scale_value._value
        counter = self.counter._value
        grown = scale * self.scale_factor
        grown = jnp.where(jnp.isfinite(grown), grown, scale)
        on_finite = jnp.where(counter == self.scale_window - 1, grown, scale)
        new_scale = jnp.where(finite, on_finite, jnp.maximum(1.0, scale / self.scale_factor))
        self.scale_value._set_value(new_scale.astype(scale.dtype))
        self.counter._set_value((((counter + 1) % self.scale_window) * finite).astype(counter.dtype))
        return True
