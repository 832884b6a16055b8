"""``nn.Lamb``, ``nn.RMSProp`` and ``nn.Adagrad`` (MindSpore's Lamb, ApplyRMSProp / ApplyCenteredRMSProp and
ApplyAdagrad kernels)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np
import optax

from ..._jit import jit
from ...common.tensor import to_array
from ._adam import _check_betas, _check_bools
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ...common.tensor import Tensor
    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Lamb", "RMSProp", "Adagrad"]


class Lamb(Optimizer):
    """LAMB: Adam with bias correction, then a layer-wise trust ratio ``||param|| / ||update||``.

    ``t = global_step`` after this step; ``m``, ``v`` as Adam; ``update = m_hat / (sqrt(v_hat) + eps) +
    weight_decay * param``; ``ratio = ||param|| / ||update||`` (1 when either norm is 0);
    ``param -= ratio * lr * update``. Gradient centralization applies to groups that ask for it.

    State: ``lamb_m.<p>``, ``lamb_v.<p>``.
    """

    def __init__(self, params: Iterable[Any], learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule,
                 beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.params = self._parameters
        self.moments1 = self._clone_state("lamb_m")
        self.moments2 = self._clone_state("lamb_v")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients, decay=False, scale=False)
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        lrs = self._lr_per_param()
        t = self.global_step._value.reshape(()).astype(jnp.float32)
        b1, b2, eps = (np.float32(x) for x in (self.beta1, self.beta2, self.eps))
        bc1, bc2 = 1.0 - jnp.power(b1, t), 1.0 - jnp.power(b2, t)
        for p, m, v, g, lr, wd, flag in zip(self._parameters, self.moments1, self.moments2, grads, lrs, wds,
                                            self.decay_flags):
            w = p._value.astype(jnp.float32)
            g = g.astype(jnp.float32)
            new_m = b1 * m._value.astype(jnp.float32) + (1 - b1) * g
            new_v = b2 * v._value.astype(jnp.float32) + (1 - b2) * g * g
            update = (new_m / bc1) / (jnp.sqrt(new_v / bc2) + eps)
            if flag:
                update = update + to_array(wd).astype(jnp.float32) * w
            w_norm, u_norm = jnp.linalg.norm(w.ravel()), jnp.linalg.norm(update.ravel())
            ratio = jnp.where((w_norm > 0) & (u_norm > 0), w_norm / jnp.where(u_norm > 0, u_norm, 1.0), 1.0)
            self._assign(m, new_m)
            self._assign(v, new_v)
            self._assign(p, w - ratio * lr * update)
        return self._success()


class RMSProp(Optimizer):
    """RMSProp: ``ms += (g*g - ms) * (1 - decay)``; ``mom = momentum * mom + lr * g / sqrt(ms + epsilon)``;
    ``param -= mom``.

    ``centered``: also ``mg += (g - mg) * (1 - decay)`` and the denominator is ``sqrt(ms - mg*mg + epsilon)``
    (elements where that is not positive keep their ``mom`` and value, as in MindSpore's kernel).

    State: ``mean_grad.<p>`` (centered), ``mean_square.<p>`` (starts at ones) and ``moment.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.1, decay: float = 0.9,
                 momentum: float = 0.0, epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False,
                 loss_scale: float = 1.0, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("decay", decay), ("momentum", momentum), ("epsilon", epsilon)):
            if not isinstance(value, float):
                raise TypeError(f"For '{self.cls_name}', '{name}' must be a float, but got "
                                f"{type(value).__name__} {value!r}.")
        if decay < 0.0 or momentum < 0.0:
            raise ValueError(f"For '{self.cls_name}', 'decay' and 'momentum' must be >= 0, but got decay={decay}, "
                             f"momentum={momentum}.")
        if epsilon <= 0.0:
            raise ValueError(f"For '{self.cls_name}', 'epsilon' must be > 0, but got {epsilon}.")
        _check_bools(self.cls_name, use_locking=use_locking, centered=centered)
        self.centered, self.use_locking = centered, use_locking
        if centered:
            self.mg = self._clone_state("mean_grad")
        self.momentum, self.epsilon, self.decay = momentum, epsilon, decay
        self.ms = self._clone_state("mean_square", init="ones")
        self.moment = self._clone_state("moment")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        mgs = self.mg if self.centered else [None] * self.param_length
        for p, ms, mom, mg, g, lr in zip(self._parameters, self.ms, self.moment, mgs, grads, lrs):
            w = p._value
            rho, mu, eps = (np.asarray(x, w.dtype) for x in (self.decay, self.momentum, self.epsilon))
            lr = lr.astype(w.dtype)
            if mg is None:
                # optax: scale_by_rms (ms = decay*ms + (1-decay)*g*g; g / sqrt(ms + eps)), then lr, then trace.
                step, state = optax.scale_by_rms(self.decay, self.epsilon).update(
                    g, optax.ScaleByRmsState(nu=ms._value))
                step, trace = optax.trace(decay=mu).update(lr * step, optax.TraceState(trace=mom._value))
                self._assign(ms, state.nu)
                self._assign(mom, trace.trace)
                self._assign(p, w - step)
                continue
            new_ms = ms._value + (g * g - ms._value) * (1 - rho)
            self._assign(ms, new_ms)
            new_mg = mg._value + (g - mg._value) * (1 - rho)
            denom = new_ms - new_mg * new_mg + eps
            ok = denom > 0
            new_mom = jnp.where(ok, mom._value * mu + g * lr / jnp.sqrt(jnp.where(ok, denom, 1)), mom._value)
            self._assign(mg, new_mg)
            self._assign(mom, new_mom)
            self._assign(p, jnp.where(ok, w - new_mom, w))
        return self._success()


class Adagrad(Optimizer):
    """Adagrad: ``accum += g*g`` (if ``update_slots``); ``param -= lr * g / sqrt(accum + 1e-6)``.

    The ``1e-6`` inside the square root is what MindSpore's CPU kernel adds. State: ``accum.<p>`` (starts at
    ``accum``).
    """

    def __init__(self, params: Iterable[Any], accum: float = 0.1,
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.001,
                 update_slots: bool = True, loss_scale: float = 1.0, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(accum, float):
            raise TypeError(f"For '{self.cls_name}', 'accum' must be a float, but got {type(accum).__name__}.")
        if accum < 0.0:
            raise ValueError(f"For '{self.cls_name}', 'accum' must be >= 0, but got {accum}.")
        _check_bools(self.cls_name, update_slots=update_slots)
        self.update_slots = update_slots
        self.accum = self._clone_state("accum", init=accum)
        self._rss = optax.scale_by_rss(initial_accumulator_value=accum, eps=1e-6)

    @jit
    def construct(self, grads: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(grads)
        lrs = self._lr_per_param()
        for p, acc, g, lr in zip(self._parameters, self.accum, grads, lrs):
            w = p._value
            if self.update_slots:
                # optax's scale_by_rss is this update: accum += g*g; g / sqrt(accum + eps) (0 where accum is 0).
                step, state = self._rss.update(g, optax.ScaleByRssState(sum_of_squares=acc._value))
                self._assign(acc, state.sum_of_squares)
            else:
                step = g / jnp.sqrt(acc._value + np.asarray(1e-6, w.dtype))
            self._assign(p, w - lr.astype(w.dtype) * step)
        return self._success()
