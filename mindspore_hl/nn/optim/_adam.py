"""``nn.Adam`` (MindSpore's Adam / ApplyAdamWithAmsgrad kernels), ``nn.AdamWeightDecay`` and ``nn.AdamW``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ..._jit import jit
from ...common.parameter import Parameter
from ...common.tensor import Tensor, to_array
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Adam", "AdamWeightDecay", "AdamW"]


def _check_betas(owner, beta1, beta2, eps):
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"For '{owner}', '{name}' must be a float, but got {type(value).__name__} {value!r}.")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For '{owner}', '{name}' must be in the open range (0.0, 1.0), but got {value}.")
    if eps <= 0.0:
        raise ValueError(f"For '{owner}', 'eps' must be > 0, but got {eps}.")


def _check_bools(owner, **flags):
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"For '{owner}', '{name}' must be a bool, but got {type(value).__name__}.")


class Adam(Optimizer):
    """Adam with MindSpore's kernel semantics (epsilon added to ``sqrt(v)``, bias correction folded into lr).

    ``beta_power *= beta``; ``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)``;
    ``m += (g - m) * (1 - beta1)``; ``v += (g*g - v) * (1 - beta2)``;
    ``param -= lr_t * m / (sqrt(v) + eps)`` (Nesterov: ``(m * beta1 + (1 - beta1) * g)`` in the numerator;
    AMSGrad: ``vhat = max(vhat, v)`` replaces ``v`` in the denominator). Weight decay is added to the gradient.

    ``use_lazy`` / ``use_offload`` (keyword arguments) only change how MindSpore runs sparse or host-side
    updates; with dense gradients the result is the same update, which is what is computed here.

    State: ``beta1_power``, ``beta2_power`` (Float32 scalars), ``moment1.<p>``, ``moment2.<p>``, ``vhat.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0, use_amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(self.cls_name, beta1, beta2, eps)
        _check_bools(self.cls_name, use_locking=use_locking, use_nesterov=use_nesterov, use_amsgrad=use_amsgrad)
        unknown = [k for k in kwargs if k not in ("use_lazy", "use_offload")]
        if unknown:
            raise TypeError(f"For '{self.cls_name}', unexpected keyword argument(s) {unknown}.")
        use_lazy, use_offload = kwargs.get("use_lazy", False), kwargs.get("use_offload", False)
        _check_bools(self.cls_name, use_lazy=use_lazy, use_offload=use_offload)
        if use_lazy and use_offload:
            raise ValueError(f"For '{self.cls_name}', 'use_lazy' and 'use_offload' cannot both be True.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError(f"For '{self.cls_name}', 'use_amsgrad' cannot be combined with 'use_lazy' or "
                             f"'use_offload'.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.use_nesterov, self.use_locking, self.use_amsgrad = use_nesterov, use_locking, use_amsgrad
        self.use_lazy, self.use_offload = use_lazy, use_offload
        self.beta1_power = Parameter(Tensor(np.ones((), np.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.ones((), np.float32)), name="beta2_power")
        self.moment1 = self._clone_state("moment1")
        self.moment2 = self._clone_state("moment2")
        if use_amsgrad:
            self.vhat = self._clone_state("vhat")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        b1p = self.beta1_power._value * np.float32(self.beta1)
        b2p = self.beta2_power._value * np.float32(self.beta2)
        self._assign(self.beta1_power, b1p)
        self._assign(self.beta2_power, b2p)
        vhats = self.vhat if self.use_amsgrad else [None] * self.param_length
        for p, m, v, vh, g, lr in zip(self._parameters, self.moment1, self.moment2, vhats, grads, lrs):
            dt = p._value.dtype
            b1, b2, eps = (np.asarray(x, dt) for x in (self.beta1, self.beta2, self.eps))
            lr_t = (lr * jnp.sqrt(1.0 - b2p) / (1.0 - b1p)).astype(dt)
            new_m = m._value + (g - m._value) * (1 - b1)
            new_v = v._value + (g * g - v._value) * (1 - b2)
            second = new_v
            if vh is not None:
                second = jnp.maximum(vh._value, new_v)
                self._assign(vh, second)
            num = new_m * b1 + (1 - b1) * g if self.use_nesterov and vh is None else new_m
            self._assign(m, new_m)
            self._assign(v, new_v)
            self._assign(p, p._value - lr_t * num / (jnp.sqrt(second) + eps))
        return self._success()


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay and no bias correction (MindSpore's AdamWeightDecay).

    ``m = beta1 * m + (1 - beta1) * g``; ``v = beta2 * v + (1 - beta2) * g*g``;
    ``param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)`` (decay only where it applies).

    State: ``adam_m.<p>``, ``adam_v.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._clone_state("adam_m")
        self.moments2 = self._clone_state("adam_v")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients, decay=False, centralize=False, scale=False)
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        lrs = self._lr_per_param()
        for p, m, v, g, lr, wd, flag in zip(self._parameters, self.moments1, self.moments2, grads, lrs, wds,
                                            self.decay_flags):
            w = p._value
            b1, b2, eps = (np.asarray(x, w.dtype) for x in (self.beta1, self.beta2, self.eps))
            new_m = b1 * m._value + (1 - b1) * g
            new_v = b2 * v._value + (1 - b2) * g * g
            update = new_m / (eps + jnp.sqrt(new_v))
            if flag:
                update = update + to_array(wd).astype(w.dtype) * w
            self._assign(m, new_m)
            self._assign(v, new_v)
            self._assign(p, w - lr.astype(w.dtype) * update)
        return self._success()


class AdamW(Optimizer):
    """AdamW with bias correction (the formula of ``mindspore.mint.optim.AdamW``), on the ``nn`` optimizer API.

    ``t = global_step`` after this step; ``param *= 1 - lr * weight_decay`` (where decay applies);
    ``m = beta1 * m + (1 - beta1) * g``; ``v = beta2 * v + (1 - beta2) * g*g``;
    ``denom = sqrt(v) / sqrt(1 - beta2**t) + eps`` (AMSGrad: the running max of ``v``);
    ``param -= lr / (1 - beta1**t) * m / denom``. ``maximize`` ascends instead.

    State: ``exp_avg.<p>``, ``exp_avg_sq.<p>`` and (AMSGrad) ``max_exp_avg_sq.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False,
                 maximize: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(self.cls_name, beta1, beta2, eps)
        _check_bools(self.cls_name, amsgrad=amsgrad, maximize=maximize)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.amsgrad, self.maximize = amsgrad, maximize
        self.exp_avg = self._clone_state("exp_avg")
        self.exp_avg_sq = self._clone_state("exp_avg_sq")
        if amsgrad:
            self.max_exp_avg_sq = self._clone_state("max_exp_avg_sq")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients, decay=False, centralize=False, scale=False)
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        lrs = self._lr_per_param()
        t = self.global_step._value.reshape(()).astype(jnp.float32)
        bc1 = 1.0 - jnp.power(np.float32(self.beta1), t)
        bc2_sqrt = jnp.sqrt(1.0 - jnp.power(np.float32(self.beta2), t))
        maxes = self.max_exp_avg_sq if self.amsgrad else [None] * self.param_length
        for p, m, v, vm, g, lr, wd, flag in zip(self._parameters, self.exp_avg, self.exp_avg_sq, maxes, grads,
                                                lrs, wds, self.decay_flags):
            w = p._value
            g = -g if self.maximize else g
            if flag:
                w = w * (1 - lr * to_array(wd).astype(jnp.float32)).astype(w.dtype)
            b1, b2, eps = (np.asarray(x, w.dtype) for x in (self.beta1, self.beta2, self.eps))
            new_m = m._value * b1 + g * (1 - b1)
            new_v = v._value * b2 + g * g * (1 - b2)
            second = new_v
            if vm is not None:
                second = jnp.maximum(vm._value, new_v)
                self._assign(vm, second)
            denom = jnp.sqrt(second) / bc2_sqrt.astype(w.dtype) + eps
            self._assign(m, new_m)
            self._assign(v, new_v)
            self._assign(p, w - new_m / denom * (lr / bc1).astype(w.dtype))
        return self._success()
