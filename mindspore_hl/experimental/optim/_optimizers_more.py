"""PyTorch-style RMSprop, Rprop and ASGD (MindSpore 2.10's ``experimental.optim`` maths and state names).

RMSprop is optax's ``scale_by_rms`` / ``scale_by_stddev`` only with epsilon inside the root, where PyTorch and
MindSpore add it outside; Rprop's and ASGD's step-size rules are MindSpore's own: all three are written out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ._base import Optimizer
from ._optimizers import _check, _lr

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ...common.tensor import Tensor

__all__ = ["RMSprop", "Rprop", "ASGD"]


class RMSprop(Optimizer):
    """``sq = alpha * sq + (1 - alpha) g^2``; ``avg = sqrt(sq - mg^2) + eps`` (centered, ``mg`` the running mean
    gradient) or ``sqrt(sq) + eps``; with momentum ``buf = momentum * buf + g / avg``, ``param -= lr * buf``, else
    ``param -= lr * g / avg``. State: ``mean_grad.<p>``, ``mean_square.<p>``, ``moment.<p>``."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0.0, momentum: float = 0.0, centered: bool = False,
                 maximize: bool = False) -> None:
        _check("RMSprop", lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, maximize=maximize))
        self.mean_grad = self._slots("mean_grad")
        self.mean_square = self._slots("mean_square")
        self.moment = self._slots("moment")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            a = group["alpha"]
            sq = self.mean_square[i]._value * a + (1 - a) * g * g
            self._set(self.mean_square[i], sq)
            if group["centered"]:
                mg = self.mean_grad[i]._value * a + g * (1 - a)
                self._set(self.mean_grad[i], mg)
                avg = jnp.sqrt(sq - mg * mg) + group["eps"]
            else:
                avg = jnp.sqrt(sq) + group["eps"]
            lr = _lr(group, w.dtype)
            if group["momentum"] > 0:
                buf = self.moment[i]._value * group["momentum"] + g / avg
                self._set(self.moment[i], buf)
                self._set(p, w - buf * lr)
            else:
                self._set(p, w - lr * g / avg)
        return self._ok()


class Rprop(Optimizer):
    """Resilient backpropagation: per element, the step size (``lr`` at the first step) is multiplied by
    ``etas[1]`` where the gradient kept its sign, by ``etas[0]`` where it flipped (and that gradient is then
    ignored), clipped to ``step_sizes``; ``param -= sign(grad) * step_size``. State: ``prev.<p>``,
    ``step_size.<p>``, ``step_t``."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, etas: tuple[float, ...] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, maximize: bool = False) -> None:
        _check("Rprop", lr=lr, step_sizes=tuple(step_sizes))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"For 'Rprop', 'etas' must satisfy 0 < etas[0] < 1 < etas[1], but got {etas!r}.")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), maximize=maximize))
        self.prev = self._slots("prev")
        self.step_size = self._slots("step_size")
        self.step_t = self._step_param("step_t")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            minus, plus = (np.asarray(e, np.float32) for e in group["etas"])
            lo, hi = group["step_sizes"]
            size = jnp.where(step == 1, jnp.ones_like(w) * _lr(group, w.dtype), self.step_size[i]._value)
            s = jnp.sign(g * self.prev[i]._value)
            factor = jnp.where(s > 0, plus, jnp.where(s < 0, minus, np.float32(1.0))).astype(w.dtype)
            size = jnp.clip(size * factor, lo, hi).astype(w.dtype)
            self._set(self.step_size[i], size)
            g = jnp.where(factor == minus.astype(w.dtype), jnp.zeros_like(g), g)
            self._set(self.prev[i], g)
            self._set(p, w - jnp.sign(g) * size)
        return self._ok()


class ASGD(Optimizer):
    """Averaged SGD: ``param = param * (1 - lambd * eta) - eta * grad``; ``ax`` averages the iterates from step
    ``t0`` on; ``eta = lr / (1 + lambd * lr * t)^alpha``, ``mu = 1 / max(1, t - t0)`` for the next step.
    State: ``ax.<p>``, ``step_t``."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0.0, maximize: bool = False) -> None:
        _check("ASGD", lr=lr, weight_decay=weight_decay)
        for name, v in (("lambd", lambd), ("t0", t0)):
            if not isinstance(v, float):
                raise TypeError(f"For 'ASGD', the type of {name} must be float, but got {type(v)}.")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      maximize=maximize))
        self.ax = self._slots("ax")
        self.step_t = self._step_param("step_t")

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        step = self._advance_step()
        t = step.astype(jnp.float32)
        for group, i, p, g in self._grouped(gradients):
            w = p._value
            if group["weight_decay"]:
                g = g + group["weight_decay"] * w
            lr = _lr(group, jnp.float32)
            lambd = np.float32(group["lambd"])
            # MindSpore keeps eta and mu in Parameters that are no part of the optimizer's state (not in its
            # checkpoints); both follow from the step count: eta_t = lr / (1 + lambd * lr * (t - 1))^alpha (lr at
            # t = 1), mu_t = 1 / max(1, t - 1 - t0). Here eta uses this step's lr, MindSpore's the previous step's:
            # the same unless lr changes between steps.
            eta = jnp.where(step == 1, lr, lr / (1.0 + lambd * lr * (t - 1.0)) ** np.float32(group["alpha"]))
            mu = jnp.where(step == 1, np.float32(1.0),
                           1.0 / jnp.maximum(np.float32(1.0), t - 1.0 - np.float32(group["t0"])))
            w = (w * (1.0 - lambd * eta) - eta * g).astype(w.dtype)
            self._set(p, w)
            ax = self.ax[i]._value
            self._set(self.ax[i], jnp.where(mu != 1, ax + (w - ax) * mu, w))
        return self._ok()
