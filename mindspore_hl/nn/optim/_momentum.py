"""``nn.Momentum`` and ``nn.SGD`` (MindSpore's ApplyMomentum and SGD kernels)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np
import optax

from ..._jit import jit
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Momentum", "SGD"]


def _float_arg(owner, name, value, allow_int=False):
    if allow_int and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, float):
        raise TypeError(f"For '{owner}', '{name}' must be a float, but got {type(value).__name__} {value!r}.")
    if value < 0.0:
        raise ValueError(f"For '{owner}', '{name}' must be at least 0.0, but got {value}.")
    return value


class Momentum(Optimizer):
    """Momentum SGD: ``moments = momentum * moments + grad``; ``param -= lr * moments``.

    With ``use_nesterov``: ``param -= lr * (grad + momentum * moments)``. Weight decay is added to the gradient
    first, then the gradient is divided by ``loss_scale``.

    Args:
        params: Parameters or group dicts (see ``Optimizer``).
        learning_rate: float, Tensor, per-step list or ``LearningRateSchedule``.
        momentum (float): >= 0 (an int raises TypeError, as in MindSpore).
        weight_decay, loss_scale: see ``Optimizer``.
        use_nesterov (bool): Nesterov momentum.

    State: ``momentum`` (Float32 scalar) and ``moments.<param name>``.
    """

    def __init__(self, params: Iterable[Any], learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule,
                 momentum: float, weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _float_arg(self.cls_name, "momentum", momentum)
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For '{self.cls_name}', 'use_nesterov' must be a bool, but got "
                            f"{type(use_nesterov).__name__}.")
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum")
        self.params = self._parameters
        self.use_nesterov = use_nesterov
        self.moments = self._clone_state("moments")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        mom = self.momentum._value
        for p, m, g, lr in zip(self._parameters, self.moments, grads, lrs):
            dt = p._value.dtype
            u, lr = mom.astype(dt), lr.astype(dt)
            # optax.trace is MindSpore's ApplyMomentum: moments = momentum * moments + g; the step is the new
            # moments, or g + momentum * moments with Nesterov.
            step, state = optax.trace(decay=u, nesterov=self.use_nesterov).update(g, optax.TraceState(trace=m._value))
            self._assign(m, state.trace)
            self._assign(p, p._value - lr * step)
        return self._success()


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening and Nesterov (MindSpore's SGD kernel).

    ``grad += weight_decay * param``; if ``momentum > 0``: ``accum = grad`` on the first step (while ``stat`` is
    1), else ``accum = momentum * accum + (1 - dampening) * grad``; ``grad = grad + momentum * accum`` (Nesterov)
    or ``accum``. Then ``param -= lr * grad``. Unlike the other optimizers, the weight decay is applied to every
    parameter (no 'beta'/'gamma' filter), after the loss-scale division.

    State: ``momentum`` (Float32 scalar), ``accum.<param>`` (zeros) and ``stat.<param>`` (ones).
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.1, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _float_arg(self.cls_name, "momentum", momentum, allow_int=True)
        self.dampening = _float_arg(self.cls_name, "dampening", dampening, allow_int=True)
        if not isinstance(nesterov, bool):
            raise TypeError(f"For '{self.cls_name}', 'nesterov' must be a bool, but got {type(nesterov).__name__}.")
        if nesterov and (momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError(f"For '{self.cls_name}', if 'nesterov' is True, 'momentum' must be > 0.0 and "
                             f"'dampening' must be 0.0, but got momentum={momentum}, dampening={self.dampening}.")
        if self.dynamic_weight_decay:
            raise TypeError(f"For '{self.cls_name}', dynamic weight decay is not supported: 'weight_decay' must be "
                            f"a float or int.")
        self.nesterov = nesterov
        # MindSpore's kernels take the raw weight decay without groups and the loss-scaled one with groups.
        self._sgd_decay = (tuple(self.weight_decay) if self.is_group
                           else (float(weight_decay),) * self.param_length)
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum")
        self.accum = self._clone_state("accum")
        self.stat = self._clone_state("stat", init="ones")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients, decay=False)
        lrs = self._lr_per_param()
        mom = self.momentum._value
        for p, acc, st, g, lr, wd in zip(self._parameters, self.accum, self.stat, grads, lrs, self._sgd_decay):
            w = p._value
            u = mom.astype(w.dtype)
            if wd > 0.0:
                g = g + w * np.asarray(wd, w.dtype)
            first = st._value > 0
            new_acc = jnp.where(first, g, acc._value * u + (1 - np.asarray(self.dampening, w.dtype)) * g)
            use_momentum = u > 0
            step = g + new_acc * u if self.nesterov else new_acc
            step = jnp.where(use_momentum, step, g)
            self._assign(acc, jnp.where(use_momentum, new_acc, acc._value))
            self._assign(st, jnp.where(use_momentum, jnp.zeros_like(st._value), st._value))
            self._assign(p, w - lr.astype(w.dtype) * step)
        return self._success()
