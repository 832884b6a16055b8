"""``nn.Adadelta`` (on ``optax.scale_by_adadelta``), ``nn.AdaMax``, ``nn.FTRL``, ``nn.ProximalAdagrad``,
``nn.Rprop``, ``nn.ASGD`` and ``nn.LazyAdam``, with MindSpore's state names and kernel maths.

Adadelta's update is exactly optax's ``scale_by_adadelta`` (same accumulators, epsilon inside both square
roots), so it runs on optax. The others keep MindSpore's own formulas: optax's ``scale_by_adamax`` adds epsilon
to the infinity norm before the max (MindSpore adds it to the denominator afterwards), and FTRL, proximal
Adagrad, Rprop and ASGD have no optax transformation with MindSpore's semantics (optax's Rprop, for one, does not
zero the gradient it remembers after a sign change the way MindSpore's does).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np
import optax

from ..._jit import jit
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ._adam import Adam, _check_betas
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Adadelta", "AdaMax", "FTRL", "ProximalAdagrad", "Rprop", "ASGD", "LazyAdam"]


def _float(owner, name, value, low=None, high=None, int_ok=True):
    if isinstance(value, bool) or not isinstance(value, (float, int) if int_ok else float):
        raise TypeError(f"For '{owner}', '{name}' must be a float, but got {type(value).__name__} {value!r}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"For '{owner}', '{name}' must be in [{low}, {high}], but got {value}.")
    return float(value)


class Adadelta(Optimizer):
    """Adadelta: ``accum = rho * accum + (1 - rho) * g^2``;
    ``update = sqrt(accum_update + eps) / sqrt(accum + eps) * g``;
    ``accum_update = rho * accum_update + (1 - rho) * update^2``; ``param -= lr * update``.

    The update is ``optax.scale_by_adadelta``. State: ``accum.<p>``, ``accum_update.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1.0, rho: float = 0.9,
                 epsilon: float = 1e-6, loss_scale: float = 1.0, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _float(self.cls_name, "rho", rho, 0.0, 1.0)
        self.epsilon = _float(self.cls_name, "epsilon", epsilon, 0.0)
        self.accum = self._clone_state("accum")
        self.accum_update = self._clone_state("accum_update")
        self._tx = optax.scale_by_adadelta(rho=self.rho, eps=self.epsilon)

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        for p, acc, acc_u, g, lr in zip(self._parameters, self.accum, self.accum_update, grads, lrs):
            state = optax.ScaleByAdaDeltaState(e_g=acc._value, e_x=acc_u._value)
            update, state = self._tx.update(g, state)
            self._assign(acc, state.e_g)
            self._assign(acc_u, state.e_x)
            self._assign(p, p._value - lr.astype(p._value.dtype) * update)
        return self._success()


class AdaMax(Optimizer):
    """AdaMax (MindSpore's ApplyAdaMax): ``beta1_power *= beta1``; ``m = beta1 * m + (1 - beta1) * g``;
    ``v = max(beta2 * v, |g|)``; ``param -= lr / (1 - beta1_power) * m / (v + eps)``.

    State: ``beta1_power`` (Float32 scalar), ``moment1.<p>``, ``moment2.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.001, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-08, weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.beta1_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta1_power")
        self.moment1 = self._clone_state("moment1")
        self.moment2 = self._clone_state("moment2")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        b1p = self.beta1_power._value * np.float32(self.beta1)
        self._assign(self.beta1_power, b1p)
        for p, m, v, g, lr in zip(self._parameters, self.moment1, self.moment2, grads, lrs):
            dt = p._value.dtype
            b1, b2, eps = (np.asarray(x, dt) for x in (self.beta1, self.beta2, self.eps))
            new_m = b1 * m._value + (1 - b1) * g
            new_v = jnp.maximum(b2 * v._value, jnp.abs(g))
            self._assign(m, new_m)
            self._assign(v, new_v)
            self._assign(p, p._value - (lr / (1 - b1p[0])).astype(dt) * new_m / (new_v + eps))
        return self._success()


class FTRL(Optimizer):
    """Follow-the-regularized-leader (MindSpore's ApplyFtrl): ``accum' = accum + g^2``;
    ``linear += g - (accum'^-lr_power - accum^-lr_power) / lr * param``;
    ``param = (sign(linear) * l1 - linear) / (accum'^-lr_power / lr + 2 * l2)`` where ``|linear| > l1``, else 0.

    State: ``moments.<p>`` (the accumulators, starting at ``initial_accum``), ``linear.<p>``.
    """

    def __init__(self, params: Iterable[Any], initial_accum: float = 0.1,
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.001, lr_power: float = -0.5,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.initial_accum = _float(self.cls_name, "initial_accum", initial_accum, 0.0)
        self.lr_power = _float(self.cls_name, "lr_power", lr_power, high=0.0)
        self.l1 = _float(self.cls_name, "l1", l1, 0.0)
        self.l2 = _float(self.cls_name, "l2", l2, 0.0)
        self.use_locking = bool(use_locking)
        self.moments = self._clone_state("moments", init=self.initial_accum)
        self.linear = self._clone_state("linear")

    @jit
    def construct(self, grads: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(grads)
        lrs = self._lr_per_param()
        for p, acc, lin, g, lr in zip(self._parameters, self.moments, self.linear, grads, lrs):
            dt = p._value.dtype
            lr = lr.astype(dt)
            w, a = p._value, acc._value
            new_a = a + g * g
            power = np.asarray(-self.lr_power, dt)
            new_lin = lin._value + g - (new_a ** power - a ** power) / lr * w
            quad = new_a ** power / lr + np.asarray(2 * self.l2, dt)
            l1 = np.asarray(self.l1, dt)
            new_w = jnp.where(jnp.abs(new_lin) > l1, (jnp.sign(new_lin) * l1 - new_lin) / quad, jnp.zeros((), dt))
            self._assign(acc, new_a)
            self._assign(lin, new_lin)
            self._assign(p, new_w)
        return self._success()


class ProximalAdagrad(Optimizer):
    """Proximal Adagrad (ApplyProximalAdagrad): ``accum += g^2``; ``r = lr / sqrt(accum)``; ``v = param - r * g``;
    ``param = sign(v) / (1 + r * l2) * max(|v| - r * l1, 0)``.

    State: ``accum.<p>`` (starting at ``accum``).
    """

    def __init__(self, params: Iterable[Any], accum: float = 0.1,
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.001, l1: float = 0.0,
                 l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        init = _float(self.cls_name, "accum", accum, 0.0)
        self.l1 = _float(self.cls_name, "l1", l1, 0.0)
        self.l2 = _float(self.cls_name, "l2", l2, 0.0)
        self.use_locking = bool(use_locking)
        self.accum = self._clone_state("accum", init=init)

    @jit
    def construct(self, grads: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(grads)
        lrs = self._lr_per_param()
        for p, acc, g, lr in zip(self._parameters, self.accum, grads, lrs):
            dt = p._value.dtype
            lr = lr.astype(dt)
            new_a = acc._value + g * g
            lr = lr / jnp.sqrt(new_a)  # the per-element rate also scales the l1 / l2 terms
            v = p._value - lr * g
            l1, l2 = np.asarray(self.l1, dt), np.asarray(self.l2, dt)
            new_w = jnp.sign(v) / (1 + lr * l2) * jnp.maximum(jnp.abs(v) - lr * l1, 0)
            self._assign(acc, new_a)
            self._assign(p, new_w)
        return self._success()


class Rprop(Optimizer):
    """Resilient backpropagation: per element, the step size grows by ``etas[1]`` while the gradient keeps its
    sign, shrinks by ``etas[0]`` when it flips (and that gradient is then treated as 0), clipped to
    ``step_sizes``; ``param -= sign(grad) * step_size``. The step sizes start at the learning rate.

    State: ``prev.<p>`` (the last gradient used), ``step_size.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.1,
                 etas: tuple[float, ...] = (0.5, 1.2), step_sizes: tuple[float, ...] = (1e-6, 50.),
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        if not (isinstance(etas, tuple) and len(etas) == 2 and 0 < etas[0] < 1 < etas[1]):
            raise ValueError(f"For '{self.cls_name}', 'etas' must be a tuple (etaminus, etaplus) with "
                             f"0 < etaminus < 1 < etaplus, but got {etas!r}.")
        if not (isinstance(step_sizes, tuple) and len(step_sizes) == 2 and step_sizes[0] <= step_sizes[1]):
            raise ValueError(f"For '{self.cls_name}', 'step_sizes' must be a tuple (min, max) with min <= max, but "
                             f"got {step_sizes!r}.")
        self.etaminus, self.etaplus = float(etas[0]), float(etas[1])
        self.step_size_min, self.step_size_max = float(step_sizes[0]), float(step_sizes[1])
        self.prev = self._clone_state("prev")
        self.step_size = self._clone_state("step_size")

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        first = self.global_step._value.reshape(()) == 1
        for p, prev, size, g, lr in zip(self._parameters, self.prev, self.step_size, grads, lrs):
            dt = p._value.dtype
            size_v = jnp.where(first, jnp.ones_like(size._value) * lr.astype(dt), size._value)
            s = jnp.sign(g * prev._value)
            factor = jnp.where(s > 0, np.asarray(self.etaplus, dt),
                               jnp.where(s < 0, np.asarray(self.etaminus, dt), np.asarray(1.0, dt)))
            size_v = jnp.clip(size_v * factor, self.step_size_min, self.step_size_max).astype(dt)
            g_used = jnp.where(factor == np.asarray(self.etaminus, dt), jnp.zeros((), dt), g)
            self._assign(p, p._value - jnp.sign(g_used) * size_v)
            self._assign(prev, g_used)
            self._assign(size, size_v)
        return self._success()


class ASGD(Optimizer):
    """Averaged SGD: ``param = param * (1 - lambd * eta) - eta * grad``; the running average ``ax`` follows
    ``param`` with weight ``mu``; then ``eta = lr / (1 + lambd * lr * step) ** alpha`` and
    ``mu = 1 / max(1, step - t0)``. ``eta`` starts at the learning rate.

    State (MindSpore's names): ``mu_<p>``, ``eta_<p>`` (Float32 scalars) and ``ax_.<p>``.
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 0.1, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = _float(self.cls_name, "lambd", lambd, int_ok=False)
        self.alpha = _float(self.cls_name, "alpha", alpha, int_ok=False)
        self.t0 = _float(self.cls_name, "t0", t0, int_ok=False)
        self.mu = ParameterTuple([Parameter(Tensor(np.float32(1.0)), name=f"mu_{p.name}") for p in self._parameters])
        self.eta = ParameterTuple([Parameter(Tensor(np.float32(0.0)), name=f"eta_{p.name}")
                                   for p in self._parameters])
        self.ax = self._clone_state("ax_")

    def _clone_state(self, prefix, init="zeros"):
        if prefix == "ax_":  # MindSpore names these 'ax_.<param>'
            return self._parameters.clone(prefix="ax_", init=init)
        return super()._clone_state(prefix, init)

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        step = self.global_step._value.reshape(()).astype(jnp.float32)
        for p, mu, eta, ax, g, lr in zip(self._parameters, self.mu, self.eta, self.ax, grads, lrs):
            e = jnp.where(step == 1, lr, eta._value)
            w = p._value.astype(jnp.float32) * (1.0 - self.lambd * e) - e * g.astype(jnp.float32)
            self._assign(p, w)
            m = mu._value
            self._assign(ax, jnp.where(m != 1, ax._value + (w - ax._value) * m, w))
            self._assign(eta, lr / (1.0 + self.lambd * lr * step) ** self.alpha)
            self._assign(mu, 1.0 / jnp.maximum(1.0, step - self.t0))
        return self._success()


class LazyAdam(Adam):
    """Adam whose sparse updates touch only the rows present; with dense gradients (always, here) it is Adam's
    update exactly, as in MindSpore. State: ``beta1_power``, ``beta2_power``, ``moment1.<p>``, ``moment2.<p>``."""

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
        # MindSpore's LazyAdam keeps its beta powers as shape (1,) (Adam's are scalars).
        self.beta1_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta2_power")
