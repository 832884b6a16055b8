"""PyTorch-style SGD, Adam, AdamW, Adamax, Adadelta, Adagrad, RAdam and NAdam
(PyTorch's maths, MindSpore's state names).

Adam / AdamW (without amsgrad), Adamax and Adadelta run on optax (``scale_by_adam``, ``scale_by_adamax``,
``scale_by_adadelta`` compute PyTorch's updates: epsilon added to the bias-corrected root, the infinity norm
taking ``|g| + eps``, epsilon inside both Adadelta roots). SGD's dampening and Adagrad's ``sqrt(sum) + eps``
differ from optax's ``trace`` / ``scale_by_rss``, and optax's radam / nadam lack PyTorch's SMA
threshold form and momentum schedule, so those four are written out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ._base import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ...common.tensor import Tensor

__all__ = ["SGD", "Adam", "AdamW", "Adamax", "Adadelta", "Adagrad", "RAdam", "NAdam"]


def _check(owner, **values):
    for name, v in values.items():
        vs = v if isinstance(v, tuple) else (v,)
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) or x < 0 for x in vs):
            raise ValueError(f"For '{owner}', '{name}' must be non-negative, but got {v!r}.")


def _lr(group, dtype):
    return group["lr"]._value.astype(dtype)


class SGD(Optimizer):
    """SGD with momentum, dampening, Nesterov and weight decay (PyTorch's rules). State: ``accum.<p>`` (the
    momentum buffer) and ``stat.<p>`` (1 until the first step)."""

    def __init__(self, params: Iterable[Any], lr: float, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0.0, nesterov: bool = False, *, maximize: bool = False) -> None:
        _check("SGD", lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', Nesterov momentum needs momentum > 0 and dampening = 0.")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize))
        self._make_state()

    def _make_state(self):
        self.accum = self._slots("accum")
        self.stat = self._slots("stat", 1.0)

    def _first_and_buffer(self, i):
        """(True on this parameter's first step, its momentum buffer Parameter); marks the step as taken."""
        first = self.stat[i]._value > 0
        self._set(self.stat[i], jnp.zeros_like(self.stat[i]._value))
        return first, self.accum[i]

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            mu = group["momentum"]
            if mu:
                first, slot = self._first_and_buffer(i)
                buf = jnp.where(first, g, mu * slot._value + (1 - group["dampening"]) * g)
                self._set(slot, buf)
                g = g + mu * buf if group["nesterov"] else buf
            self._set(p, w - _lr(group, w.dtype) * g)
        return self._ok()


class Adam(Optimizer):
    """Adam (PyTorch): weight decay added to the gradient; ``amsgrad`` keeps the running maximum of the second
    moment. State: ``exp_avg.<p>``, ``exp_avg_sq.<p>``, ``max_exp_avg_sq.<p>``, ``state_step``."""

    _decoupled = False

    def __init__(self, params: Iterable[Any], lr: float = 0.001, betas: tuple[float, ...] = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.0, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        _check(self.__class__.__name__, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        if not all(0 <= b < 1 for b in betas):
            raise ValueError(f"For '{self.__class__.__name__}', 'betas' must be in [0, 1), but got {betas}.")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))
        self.exp_avg = self._slots("exp_avg")
        self.exp_avg_sq = self._slots("exp_avg_sq")
        if amsgrad or not self._max_only_with_amsgrad:
            self.max_exp_avg_sq = self._slots("max_exp_avg_sq")
        self.state_step = self._step_param("state_step")

    _max_only_with_amsgrad = False

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = (self.state_step._value + 1).reshape(()).astype(jnp.int32)
        self._set(self.state_step, self.state_step._value + 1)
        for group, i, p, g in self._grouped(gradients):
            w, lr = p._value, _lr(group, p._value.dtype)
            b1, b2 = group["betas"]
            wd = group["weight_decay"]
            if wd and self._decoupled:
                w = w * (1 - lr * wd)
            elif wd:
                g = g + wd * w
            m, v = self.exp_avg[i], self.exp_avg_sq[i]
            if group["amsgrad"]:
                new_m = b1 * m._value + (1 - b1) * g
                new_v = b2 * v._value + (1 - b2) * g * g
                vmax = jnp.maximum(self.max_exp_avg_sq[i]._value, new_v)
                self._set(self.max_exp_avg_sq[i], vmax)
                t = step.astype(w.dtype)
                update = (new_m / (1 - b1 ** t)) / (jnp.sqrt(vmax) / jnp.sqrt(1 - b2 ** t) + group["eps"])
            else:
                tx = optax.scale_by_adam(b1, b2, group["eps"])
                update, state = tx.update(g, optax.ScaleByAdamState(count=step - 1, mu=m._value, nu=v._value))
                new_m, new_v = state.mu, state.nu
            self._set(m, new_m)
            self._set(v, new_v)
            self._set(p, w - lr * update)
        return self._ok()


class AdamW(Adam):
    """AdamW (PyTorch): ``param *= 1 - lr * weight_decay`` (default 0.01), then Adam's step."""

    _decoupled = True

    def __init__(self, params: Iterable[Any], lr: float = 0.001, betas: tuple[float, ...] = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.01, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class Adamax(Optimizer):
    """Adamax (PyTorch): ``u = max(beta2 * u, |g| + eps)``; ``param -= lr / (1 - beta1^t) * m / u``.
    State: ``step_t``, ``exp_avg.<p>``, ``exp_inf.<p>``."""

    def __init__(self, params: Iterable[Any], lr: float = 0.002, betas: tuple[float, ...] = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.0, *, maximize: bool = False) -> None:
        _check("Adamax", lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      maximize=maximize))
        self.step_t = self._step_param("step_t")
        self.exp_avg = self._slots("exp_avg")
        self.exp_inf = self._slots("exp_inf")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            b1, b2 = group["betas"]
            tx = optax.scale_by_adamax(b1, b2, group["eps"])
            update, state = tx.update(g, optax.ScaleByAdamState(count=step - 1, mu=self.exp_avg[i]._value,
                                                                nu=self.exp_inf[i]._value))
            self._set(self.exp_avg[i], state.mu)
            self._set(self.exp_inf[i], state.nu)
            self._set(p, w - _lr(group, w.dtype) * update)
        return self._ok()


class Adadelta(Optimizer):
    """Adadelta (PyTorch, = optax.scale_by_adadelta). State: ``accum.<p>``, ``accum_update.<p>``."""

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9, eps: float = 1e-06,
                 weight_decay: float = 0.0, *, maximize: bool = False) -> None:
        _check("Adadelta", lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize))
        self.accum = self._slots("accum")
        self.accum_update = self._slots("accum_update")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            tx = optax.scale_by_adadelta(group["rho"], group["eps"])
            update, state = tx.update(g, optax.ScaleByAdaDeltaState(e_g=self.accum[i]._value,
                                                                    e_x=self.accum_update[i]._value))
            self._set(self.accum[i], state.e_g)
            self._set(self.accum_update[i], state.e_x)
            self._set(p, w - _lr(group, w.dtype) * update)
        return self._ok()


class Adagrad(Optimizer):
    """Adagrad (PyTorch): ``clr = lr / (1 + (t - 1) * lr_decay)``; ``sum += g^2``;
    ``param -= clr * g / (sqrt(sum) + eps)``. State: ``accum.<p>``, ``step_t``."""

    def __init__(self, params: Iterable[Any], lr: float = 0.01, lr_decay: float = 0.0, weight_decay: float = 0.0,
                 initial_accumulator_value: float = 0.0, eps: float = 1e-10, *, maximize: bool = False) -> None:
        _check("Adagrad", lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
               initial_accumulator_value=initial_accumulator_value, eps=eps)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))
        self.accum = self._slots("accum", initial_accumulator_value)
        self.step_t = self._step_param("step_t")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            clr = _lr(group, w.dtype) / (1 + (step - 1).astype(w.dtype) * group["lr_decay"])
            acc = self.accum[i]._value + g * g
            self._set(self.accum[i], acc)
            self._set(p, w - clr * g / (jnp.sqrt(acc) + np.asarray(group["eps"], w.dtype)))
        return self._ok()


class RAdam(Optimizer):
    """Rectified Adam (PyTorch): Adam's step scaled by the variance rectification term once the approximated SMA
    length exceeds 5, a bias-corrected momentum step before. State: ``step_t``, ``exp_avg.<p>``,
    ``exp_avg_sq.<p>``."""

    def __init__(self, params: Iterable[Any], lr: float = 0.001, betas: tuple[float, ...] = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.0) -> None:
        _check("RAdam", lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay))
        self.step_t = self._step_param("step_t")
        self.exp_avg = self._slots("exp_avg")
        self.exp_avg_sq = self._slots("exp_avg_sq")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        t = step.astype(jnp.float32)
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            b1, b2 = group["betas"]
            m = b1 * self.exp_avg[i]._value + (1 - b1) * g
            v = b2 * self.exp_avg_sq[i]._value + (1 - b2) * g * g
            self._set(self.exp_avg[i], m)
            self._set(self.exp_avg_sq[i], v)
            m_hat = m / (1 - b1 ** t)
            rho_inf = 2 / (1 - b2) - 1
            rho_t = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
            rect = jnp.sqrt(jnp.maximum((rho_t - 4) * (rho_t - 2) * rho_inf, 0)
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive = jnp.sqrt(1 - b2 ** t) / (jnp.sqrt(v) + group["eps"])
            update = jnp.where(rho_t > 5, m_hat * adaptive * rect, m_hat)
            self._set(p, w - _lr(group, w.dtype) * update)
        return self._ok()


class NAdam(Optimizer):
    """NAdam (PyTorch): Adam with Nesterov momentum and the momentum schedule
    ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))``. State: ``step_t``, ``exp_avg.<p>``,
    ``exp_avg_sq.<p>`` (the product of the ``mu_t`` is recomputed from the step)."""

    def __init__(self, params: Iterable[Any], lr: float = 0.002, betas: tuple[float, ...] = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.0, momentum_decay: float = 0.004) -> None:
        _check("NAdam", lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay))
        self.step_t = self._step_param("step_t")
        self.exp_avg = self._slots("exp_avg")
        self.exp_avg_sq = self._slots("exp_avg_sq")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        t = step.astype(jnp.float32)
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            b1, b2 = group["betas"]
            psi = group["momentum_decay"]

            def mu(k, b1=b1, psi=psi):
                return b1 * (1 - 0.5 * 0.96 ** (k * psi))

            mu_prod = jax.lax.fori_loop(1, step + 1, lambda k, acc: acc * mu(k.astype(jnp.float32)),
                                        jnp.float32(1.0))
            mu_t, mu_next = mu(t), mu(t + 1)
            m = b1 * self.exp_avg[i]._value + (1 - b1) * g
            v = b2 * self.exp_avg_sq[i]._value + (1 - b2) * g * g
            self._set(self.exp_avg[i], m)
            self._set(self.exp_avg_sq[i], v)
            denom = jnp.sqrt(v / (1 - b2 ** t)) + group["eps"]
            lr = _lr(group, w.dtype)
            w = w - lr * (1 - mu_t) / (1 - mu_prod) * g / denom
            w = w - lr * mu_next / (1 - mu_prod * mu_next) * m / denom
            self._set(p, w)
        return self._ok()
