"""Learning-rate schedule Cells: ``schedule(global_step) -> lr`` (a Float32 Tensor), usable as an optimizer's
``learning_rate``; the optimizer calls them with its ``global_step`` inside the (compiled) update.

The formulas are MindSpore's (``mindspore.nn.learning_rate_schedule``), computed in float32. Note that
``NaturalExpDecayLR`` uses the raw step (not ``step / decay_steps``) unless ``is_stair`` is set, as MindSpore does.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import jax.numpy as jnp

from ..common.tensor import to_array, wrap
from .cell import Cell
from .dynamic_lr import _check_bool, _check_float, _check_int

if TYPE_CHECKING:

    from ..common.tensor import Tensor

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


def _step(global_step):
    """The step as a float32 array (any shape: the optimizer passes its (1,)-shaped ``global_step``)."""
    return to_array(global_step).astype(jnp.float32)


class LearningRateSchedule(Cell):
    """Base class: subclasses define ``construct(global_step)`` returning the learning rate (a scalar Tensor)."""

    def construct(self, global_step: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step).")


def _check_decay(owner, learning_rate, decay_rate, decay_steps, is_stair):
    _check_int(decay_steps, "decay_steps", owner)
    _check_float(learning_rate, "learning_rate", owner)
    _check_float(decay_rate, "decay_rate", owner)
    _check_bool(is_stair, "is_stair", owner)


class ExponentialDecayLR(LearningRateSchedule):
    """``learning_rate * decay_rate ** p`` with ``p = step / decay_steps`` (floored when ``is_stair``)."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        _check_decay(type(self).__name__, learning_rate, decay_rate, decay_steps, is_stair)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = jnp.floor(p)
        return wrap(self.learning_rate * jnp.power(jnp.float32(self.decay_rate), p))


class NaturalExpDecayLR(LearningRateSchedule):
    """``learning_rate * e ** (-decay_rate * p)`` with ``p = step`` (stair: ``floor(step / decay_steps) *
    decay_steps``)."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        _check_decay(type(self).__name__, learning_rate, decay_rate, decay_steps, is_stair)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(global_step)
        if self.is_stair:
            p = jnp.floor(p / self.decay_steps) * self.decay_steps
        return wrap(self.learning_rate * jnp.power(jnp.float32(math.e), -self.decay_rate * p))


class InverseDecayLR(LearningRateSchedule):
    """``learning_rate / (1 + decay_rate * p)`` with ``p = step / decay_steps`` (floored when ``is_stair``)."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        _check_decay(type(self).__name__, learning_rate, decay_rate, decay_steps, is_stair)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = jnp.floor(p)
        return wrap(self.learning_rate / (1 + self.decay_rate * p))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        owner = type(self).__name__
        _check_float(min_lr, "min_lr", owner, allow_zero=True)
        _check_float(max_lr, "max_lr", owner)
        _check_int(decay_steps, "decay_steps", owner)
        if min_lr >= max_lr:
            raise ValueError(f"For '{owner}', 'max_lr' must be greater than 'min_lr', but got max_lr={max_lr}, "
                             f"min_lr={min_lr}.")
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Tensor) -> Tensor:
        p = jnp.minimum(_step(global_step), self.decay_steps)
        return wrap(self.min_lr + self.delta * (1.0 + jnp.cos(jnp.float32(math.pi) * p / self.decay_steps)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate``.

    ``p = min(step, decay_steps) / decay_steps``; with ``update_decay_steps`` the step is not clipped and the
    denominator is ``decay_steps * max(ceil(step / decay_steps), 1)``.
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 update_decay_steps: bool = False) -> None:
        super().__init__()
        owner = type(self).__name__
        _check_float(learning_rate, "learning_rate", owner)
        _check_float(end_learning_rate, "end_learning_rate", owner, allow_zero=True)
        _check_int(decay_steps, "decay_steps", owner)
        _check_bool(update_decay_steps, "update_decay_steps", owner)
        _check_float(power, "power", owner)
        self.learning_rate, self.end_learning_rate = learning_rate, end_learning_rate
        self.decay_steps, self.power, self.update_decay_steps = decay_steps, power, update_decay_steps
        self.diff_learning_rate = learning_rate - end_learning_rate

    def construct(self, global_step: Tensor) -> Tensor:
        step = _step(global_step)
        span = jnp.float32(self.decay_steps)
        if self.update_decay_steps:
            span = span * jnp.maximum(jnp.ceil(step / span), 1.0)
        else:
            step = jnp.minimum(step, span)
        # Clamp at 0: XLA may turn the division into a multiplication whose rounding overshoots 1.
        remaining = jnp.maximum(1.0 - step / span, 0.0)
        return wrap(self.diff_learning_rate * jnp.power(remaining, jnp.float32(self.power)) + self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        owner = type(self).__name__
        _check_float(learning_rate, "learning_rate", owner, allow_zero=True)
        _check_int(warmup_steps, "warmup_steps", owner)
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step: Tensor) -> Tensor:
        return wrap(self.learning_rate * jnp.minimum(_step(global_step), self.warmup_steps) / self.warmup_steps)
