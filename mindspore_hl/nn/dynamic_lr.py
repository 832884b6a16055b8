"""Dynamic learning rates: functions returning one Python float per training step (``len == total_step``).

Pass the list as an optimizer's ``learning_rate``: step ``i`` (the optimizer's ``global_step``) uses ``lr[i]``.
The formulas are MindSpore's (``mindspore.nn.dynamic_lr``), including its quirks: ``current_epoch`` is
``floor(i / step_per_epoch)``, and ``natural_exp_decay_lr`` does not divide the epoch by ``decay_epoch``
unless ``is_stair`` is set.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:

    pass

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


# ---- argument checks shared with learning_rate_schedule and the optimizers ----------------------------------
def _where(owner):
    return f"For '{owner}', the" if owner else "The"


def _check_int(value, name, owner, positive=True):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{_where(owner)} '{name}' must be an int, but got {type(value).__name__} {value!r}.")
    if positive and value <= 0:
        raise ValueError(f"{_where(owner)} '{name}' must be a positive int, but got {value}.")
    return value


def _check_float(value, name, owner, positive=True, allow_zero=False):
    """A Python float (ints are rejected, as in MindSpore); positive, or non-negative with ``allow_zero``."""
    if not isinstance(value, float):
        raise TypeError(f"{_where(owner)} '{name}' must be a float, but got {type(value).__name__} {value!r}.")
    if allow_zero and value < 0.0:
        raise ValueError(f"{_where(owner)} '{name}' must be >= 0, but got {value}.")
    if positive and not allow_zero and value <= 0.0:
        raise ValueError(f"{_where(owner)} '{name}' must be > 0, but got {value}.")
    return value


def _check_bool(value, name, owner):
    if not isinstance(value, bool):
        raise TypeError(f"{_where(owner)} '{name}' must be a bool, but got {type(value).__name__} {value!r}.")
    return value


def _check_decay_args(owner, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    _check_int(total_step, "total_step", owner)
    _check_int(step_per_epoch, "step_per_epoch", owner)
    _check_int(decay_epoch, "decay_epoch", owner)
    _check_float(learning_rate, "learning_rate", owner)
    _check_float(decay_rate, "decay_rate", owner)
    _check_bool(is_stair, "is_stair", owner)


def _epochs(total_step, step_per_epoch):
    """``current_epoch`` for every step ``i`` in ``range(total_step)``."""
    return [i // step_per_epoch for i in range(total_step)]


# ---- the schedules ----------------------------------------------------------------------------------------------
def piecewise_constant_lr(milestone: list[int], learning_rates: list[float]) -> list[float]:
    """``learning_rates[t]`` for the steps in ``[milestone[t-1], milestone[t])``.

    Args:
        milestone: increasing list/tuple of positive ints (the last one is the total step count).
        learning_rates: list/tuple of floats, one per milestone.
    Returns:
        list[float] of length ``milestone[-1]``.
    """
    owner = "piecewise_constant_lr"
    if not isinstance(milestone, (list, tuple)):
        raise TypeError(f"For '{owner}', 'milestone' must be a list or tuple, but got {type(milestone).__name__}.")
    if not isinstance(learning_rates, (list, tuple)):
        raise TypeError(f"For '{owner}', 'learning_rates' must be a list or tuple, "
                        f"but got {type(learning_rates).__name__}.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For '{owner}', 'milestone' and 'learning_rates' must have the same length, but got "
                         f"{len(milestone)} and {len(learning_rates)}.")
    out, last = [], 0
    for i, (stop, lr) in enumerate(zip(milestone, learning_rates)):
        _check_int(stop, f"milestone[{i}]", owner)
        _check_float(lr, f"learning_rates[{i}]", owner, positive=False)
        if stop < last:
            raise ValueError(f"For '{owner}', 'milestone' must be increasing, but milestone[{i}]={stop} < "
                             f"milestone[{i - 1}]={last}.")
        out += [lr] * (stop - last)
        last = stop
    return out


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate * decay_rate ** (current_epoch / decay_epoch)`` (the exponent floored with ``is_stair``)."""
    _check_decay_args("exponential_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                      is_stair)
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        p = math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch
        out.append(learning_rate * decay_rate ** p)
    return out


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate * e ** (-decay_rate * p)`` with ``p = current_epoch`` (stair: rounded down to a
    multiple of ``decay_epoch``)."""
    _check_decay_args("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                      is_stair)
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        p = math.floor(epoch / decay_epoch) * decay_epoch if is_stair else epoch
        out.append(learning_rate * math.e ** (-decay_rate * p))
    return out


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                     decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate / (1 + decay_rate * current_epoch / decay_epoch)`` (the ratio floored with ``is_stair``)."""
    _check_decay_args("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                      is_stair)
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        if is_stair:
            out.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            out.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return out


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list[float]:
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(current_epoch, decay_epoch) / decay_epoch))``."""
    owner = "cosine_decay_lr"
    _check_float(min_lr, "min_lr", owner, allow_zero=True)
    _check_float(max_lr, "max_lr", owner)
    _check_int(total_step, "total_step", owner)
    _check_int(step_per_epoch, "step_per_epoch", owner)
    _check_int(decay_epoch, "decay_epoch", owner)
    if min_lr >= max_lr:
        raise ValueError(f"For '{owner}', 'max_lr' must be greater than 'min_lr', but got max_lr={max_lr}, "
                         f"min_lr={min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch))
            for epoch in _epochs(total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int,
                        step_per_epoch: int, decay_epoch: int, power: float,
                        update_decay_epoch: bool = False) -> list[float]:
    """``(learning_rate - end_learning_rate) * (1 - tmp_epoch / tmp_decay_epoch) ** power + end_learning_rate``.

    ``tmp_epoch = min(current_epoch, decay_epoch)`` and ``tmp_decay_epoch = decay_epoch``; with
    ``update_decay_epoch`` the epoch is not clipped and ``tmp_decay_epoch = decay_epoch *
    max(ceil(current_epoch / decay_epoch), 1)``.
    """
    owner = "polynomial_decay_lr"
    _check_float(learning_rate, "learning_rate", owner)
    _check_float(end_learning_rate, "end_learning_rate", owner, allow_zero=True)
    _check_float(power, "power", owner)
    _check_int(total_step, "total_step", owner)
    _check_int(step_per_epoch, "step_per_epoch", owner)
    _check_int(decay_epoch, "decay_epoch", owner)
    _check_bool(update_decay_epoch, "update_decay_epoch", owner)
    delta = learning_rate - end_learning_rate
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        if update_decay_epoch:
            span, tmp = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            span, tmp = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - tmp / span) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int,
              warmup_epoch: int) -> list[float]:
    """``learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch``."""
    owner = "warmup_lr"
    _check_float(learning_rate, "learning_rate", owner, allow_zero=True)
    _check_int(warmup_epoch, "warmup_epoch", owner)
    _check_int(total_step, "total_step", owner)
    _check_int(step_per_epoch, "step_per_epoch", owner)
    return [learning_rate * min(epoch, warmup_epoch) / warmup_epoch
            for epoch in _epochs(total_step, step_per_epoch)]
