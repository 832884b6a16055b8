"""``LARS`` (layer-wise adaptive rate scaling around another optimizer) and ``AdamOffload``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ...common.parameter import Parameter
from ...common.tensor import Tensor, to_array, wrap
from ...ops._optim_updates import lars_gradient
from ._adam import Adam
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

    from ..cell import Cell
    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["LARS", "AdamOffload"]


class AdamOffload(Adam):
    """Adam whose update MindSpore runs on the host CPU; the maths and state (``beta1_power``/``beta2_power`` of
    shape (1,), ``moment1.*``, ``moment2.*``) are Adam's. Here every update runs where JAX places the arrays."""

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
        # MindSpore's AdamOffload keeps the powers as shape-(1,) Parameters (checkpoints hold that shape).
        self.beta1_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta2_power")


def _default_filter(p):
    return "LayerNorm" not in p.name and "bias" not in p.name


class LARS(Optimizer):
    """Wraps ``optimizer``: each gradient selected by ``lars_filter`` becomes
    ``trust * (grad + weight_decay * w)`` with ``trust = coefficient * |w| / (|grad| + weight_decay * |w| + epsilon)``
    (1 where a norm is 0; with ``use_clip``: ``min(trust / lr, 1)``), then ``optimizer`` updates. The wrapped
    optimizer's weight decay and loss scale move to LARS, as in MindSpore.
    """

    def __init__(self, optimizer: Cell, epsilon: float = 1e-05, coefficient: float = 0.001, use_clip: bool = False,
                 lars_filter: Callable[[Any], bool] = _default_filter) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', 'optimizer' must be an Optimizer, but got {type(optimizer).__name__}.")
        for name, v in (("epsilon", epsilon), ("coefficient", coefficient)):
            if not isinstance(v, float):
                raise TypeError(f"For 'LARS', '{name}' must be a float, but got {type(v).__name__}.")
        if not isinstance(use_clip, bool):
            raise TypeError(f"For 'LARS', 'use_clip' must be a bool, but got {type(use_clip).__name__}.")
        super().__init__(0.0, [Parameter(Tensor(np.zeros((), np.float32)), name="fake_param")])
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self.global_step = optimizer.global_step
        self.learning_rate = Parameter(Tensor(np.zeros((), np.float32)), name="fake_lr")
        self.lars_flag = tuple(bool(lars_filter(p)) for p in optimizer.parameters)
        self.lars_decay_flags = tuple(optimizer.decay_flags)
        self.lars_loss_scale = optimizer.loss_scale
        # The wrapped optimizer now sees decayed, unscaled gradients.
        optimizer.decay_flags = (False,) * optimizer.param_length
        optimizer.exec_weight_decay = False
        optimizer.loss_scale = 1.0

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        opt = self.opt
        if not isinstance(gradients, (tuple, list)) or len(gradients) != opt.param_length:
            raise ValueError(f"For 'LARS', the gradients must be a tuple of {opt.param_length} Tensors aligned with "
                             f"the optimizer's parameters.")
        wds = opt.get_weight_decay()
        wds = wds if opt.is_group else (wds,) * opt.param_length
        lrs = opt.get_lr()
        lrs = lrs if opt.is_group_lr else (lrs,) * opt.param_length  # type: ignore[assignment]  # one per parameter
        inv = np.float32(1.0 / self.lars_loss_scale)
        out = []
        for p, g, wd, lr, use, decay in zip(opt.parameters, gradients, wds, lrs, self.lars_flag,
                                            self.lars_decay_flags):
            g = to_array(g) * inv.astype(to_array(g).dtype) if self.lars_loss_scale != 1.0 else to_array(g)
            if use:
                w = p._value
                # The optimizer stores a fixed weight decay multiplied by its loss scale (a schedule's value was
                # scaled by the loss scale that is now 1.0): either way this is the raw weight decay.
                scale = 1.0 if opt.dynamic_weight_decay else self.lars_loss_scale
                wd = (to_array(wd).astype(jnp.float32) / scale) if decay else jnp.float32(0.0)
                w_norm = jnp.sqrt(jnp.sum(jnp.square(w.astype(jnp.float32))))
                g_norm = jnp.sqrt(jnp.sum(jnp.square(g.astype(jnp.float32))))
                g = lars_gradient(w, g, w_norm, g_norm, wd, to_array(lr).astype(jnp.float32).reshape(()),
                                  self.coefficient, self.epsilon, self.use_clip)
            out.append(wrap(g))
        return opt(tuple(out))
