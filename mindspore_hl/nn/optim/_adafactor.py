"""``nn.AdaFactor``: Adafactor (Shazeer & Stern, 2018) with MindSpore's arguments, state and update.

The update is the one MindSpore's CPU ``FusedAdaFactor`` kernel applies (its Python path computes the same
formula without the ``1e-30`` floors): per parameter ``w`` with gradient ``g`` and ``b = 1 - step ** -decay_rate``

* ``u = g * g + eps[0]``;
* 2-D and higher (factored, over the last two axes): ``row = b * row + (1 - b) * mean(u, -1)``,
  ``col = max(b * col + (1 - b) * mean(u, -2), 1e-30)``,
  ``u = g / max(sqrt(row / max(mean(row, -1), 1e-30))[..., None] * sqrt(col)[..., None, :], 1e-30)``;
  otherwise ``sq = max(b * sq + (1 - b) * u, 1e-30)`` and ``u = g / sqrt(sq)``;
* ``lr' = lr * max(eps[1], rms(w))`` with ``scale_parameter`` (else ``lr``);
  ``u = u * lr' / max(rms(u) / clip_threshold, 1)``;
* with ``beta1 > 0``: ``m = beta1 * m + (1 - beta1) * u`` and ``u = m``;
* ``w = w - u - weight_decay * lr' * w`` (the last term only when ``weight_decay`` is not 0).

With ``relative_step`` the rate is ``min(1e-2, 1 / sqrt(step))`` (``warmup_init``: ``min(1e-6 * step,
1 / sqrt(step))``); otherwise it is ``learning_rate``. Like MindSpore, ``loss_scale`` is checked and stored but
the gradients are used as given, and a group's own weight decay is not used. The arithmetic is float32; the state
has the parameter's dtype, except that ``compression`` keeps ``exp_avg_sq`` of one-axis parameters in float16.

State, named as MindSpore names it: ``exp_avg.<p>`` (only with ``beta1 > 0``), ``exp_avg_sq_row_<p>`` and
``exp_avg_sq_col_<p>`` (shapes ``p.shape[:-1]`` and ``p.shape[:-2] + p.shape[-1:]``; ``(1,)`` when ``p`` has one
axis), ``exp_avg_sq_<p>`` (``p``'s shape when it has one axis, else ``(1,)``) and ``afactor_step``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ..._jit import jit
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["AdaFactor"]

# the floor MindSpore's CPU kernel puts under second moments and divisors
_FLOOR = np.float32(1e-30)


def _rms(x):
    return jnp.sqrt(jnp.mean(jnp.square(x)))


def _zeros(shape, dtype, name):
    return Parameter(Tensor(np.zeros(shape, mstype.dtype_to_nptype(dtype))), name)


class AdaFactor(Optimizer):
    """Adafactor: factored second moments for parameters of two or more axes, an update clipped to an RMS of
    ``clip_threshold``, a step size relative to the step count (``relative_step``) and to the parameter's RMS
    (``scale_parameter``). See the module docstring for the exact update.

    >>> import numpy as np
    >>> from mindspore_hl import Parameter, Tensor, nn
    >>> w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
    >>> opt = nn.AdaFactor([w])
    >>> sorted(p.name for p in opt.get_parameters() if p.name.startswith("exp"))
    ['exp_avg.w', 'exp_avg_sq_col_w', 'exp_avg_sq_row_w', 'exp_avg_sq_w']
    >>> _ = opt((Tensor(np.full((2, 3), 0.5, np.float32)),))
    >>> round(float(w.asnumpy()[0, 0]), 6)  # 1 - (1 - 0.9) * 0.01 * max(1e-3, rms(w)): the update's RMS is 1
    0.999
    """

    def __init__(self, params: Iterable[Any],
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule | None = None,
                 eps: tuple[float, float] = (1e-30, 1e-3), clip_threshold: float = 1.0, decay_rate: float = 0.8,
                 beta1: float | None = 0.9, weight_decay: float = 0.0, scale_parameter: bool = True,
                 relative_step: bool = True, warmup_init: bool = False, compression: bool = False,
                 loss_scale: float = 1.0) -> None:
        # MindSpore's messages for the three inconsistent combinations
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        # a schedule, Tensor or list of rates is used as given: neither relative nor scaled by the parameter's RMS
        scale_lr = learning_rate is None or isinstance(learning_rate, (float, int))
        beta1 = 0.0 if beta1 is None else beta1
        super().__init__(0.0 if learning_rate is None else learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"For '{name}', the type of 'eps' should be one of ['list', 'tuple'], but got type "
                            f"'{type(eps).__name__}'.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, e in enumerate(eps):
            self._check_float(f"eps{i}", e)
        self._check_float("clip_threshold", clip_threshold)
        if not isinstance(decay_rate, float) or isinstance(decay_rate, bool):
            raise TypeError(f"For '{name}', the type of 'decay_rate' should be 'float', but got type "
                            f"'{type(decay_rate).__name__}'.")
        if not 0.0 < decay_rate < 1.0:
            raise ValueError(f"For '{name}', the 'decay_rate' must be in range (0, 1), but got {decay_rate}.")
        if not 0.0 <= weight_decay < 1.0:
            raise ValueError(f"For '{name}', the 'weight_decay' must be in range [0, 1), but got {weight_decay}.")
        for key, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                           ("compression", compression)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{name}', the type of '{key}' should be 'bool', but got type "
                                f"'{type(value).__name__}'.")
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)):
            raise TypeError(f"For '{name}', the type of 'beta1' should be one of ['int', 'float'], but got type "
                            f"'{type(beta1).__name__}'.")
        if beta1 < 0:
            raise ValueError(f"For '{name}', the 'beta1' must be a non-negative float, but got {float(beta1)}.")
        self.scale_lr = scale_lr
        self.eps = (float(eps[0]), float(eps[1]))
        self.clip_threshold = float(clip_threshold)
        self.decay_rate = float(decay_rate)
        self.beta1 = float(beta1)
        # MindSpore's AdaFactor replaces the base's (loss-scaled, per-group) decay by this one unscaled value
        self.weight_decay = float(weight_decay)  # type: ignore[assignment]
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter and scale_lr
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self._init_state()
        self.step = Parameter(Tensor(np.zeros((1,), np.float32)), name="afactor_step")

    def _check_float(self, key: str, value: Any) -> None:
        if not isinstance(value, float):
            raise TypeError(f"For '{self.cls_name}', the type of '{key}' should be 'float', but got type "
                            f"'{type(value).__name__}'.")
        if value < 0:
            raise ValueError(f"For '{self.cls_name}', the '{key}' must be a non-negative float, but got {value}.")

    def _init_state(self) -> None:
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._clone_state("exp_avg")
        else:
            # MindSpore keeps one scalar placeholder per parameter (the same Parameter every time)
            placeholder = Parameter(Tensor(np.zeros((), np.float32)))
            self._check_unique([placeholder])
            self.exp_avg = ParameterTuple([placeholder] * self.param_length)
        rows, cols, sqs = [], [], []
        for p in self._parameters:
            shape = tuple(p.shape)
            if len(shape) > 1:
                rows.append(_zeros(shape[:-1], p.dtype, f"exp_avg_sq_row_{p.name}"))
                cols.append(_zeros(shape[:-2] + shape[-1:], p.dtype, f"exp_avg_sq_col_{p.name}"))
                sqs.append(_zeros((1,), p.dtype, f"exp_avg_sq_{p.name}"))
            else:
                rows.append(_zeros((1,), p.dtype, f"exp_avg_sq_row_{p.name}"))
                cols.append(_zeros((1,), p.dtype, f"exp_avg_sq_col_{p.name}"))
                sqs.append(_zeros(shape, mstype.float16 if self.compression else p.dtype, f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(sqs)

    @property
    def supports_memory_efficient_fp16(self) -> bool:
        """Support memory efficient for fp16 (as MindSpore's)."""
        return True

    @property
    def supports_flat_params(self) -> bool:
        """Flattened parameters are not supported (as MindSpore's)."""
        return False

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients, decay=False, centralize=False, scale=False)
        lrs = self._lr_per_param()
        step = self.step._value + 1.0
        self._assign(self.step, step)
        step = step.reshape(())
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * step if self.warmup_init else np.float32(1e-2)
            lrs = [jnp.minimum(min_step, 1.0 / jnp.sqrt(step))] * self.param_length
        beta2t = 1.0 - jnp.power(step, -np.float32(self.decay_rate))
        for i, (p, g, lr) in enumerate(zip(self._parameters, grads, lrs)):
            self._update_one(i, p, g.astype(jnp.float32), lr, beta2t)
        return self._success()

    def _update_one(self, i, p, g, lr, b):
        eps0, eps1 = np.float32(self.eps[0]), np.float32(self.eps[1])
        w = p._value.astype(jnp.float32)
        u = g * g + eps0
        if g.ndim >= 2:
            row_p, col_p = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            row = row_p._value.astype(jnp.float32) * b + jnp.mean(u, axis=-1) * (1 - b)
            col = jnp.maximum(col_p._value.astype(jnp.float32) * b + jnp.mean(u, axis=-2) * (1 - b), _FLOOR)
            self._assign(row_p, row)
            self._assign(col_p, col)
            r = jnp.sqrt(row / jnp.maximum(jnp.mean(row, axis=-1, keepdims=True), _FLOOR))
            u = g / jnp.maximum(r[..., :, None] * jnp.sqrt(col)[..., None, :], _FLOOR)
        else:
            sq_p = self.exp_avg_sq[i]
            sq = jnp.maximum(sq_p._value.astype(jnp.float32) * b + u * (1 - b), _FLOOR)
            self._assign(sq_p, sq)
            u = g / jnp.sqrt(sq)
        lr = lr.astype(jnp.float32)
        if self.scale_parameter:
            lr = lr * jnp.maximum(eps1, _rms(w))
        u = u * (lr / jnp.maximum(_rms(u) / np.float32(self.clip_threshold), np.float32(1.0)))
        if self.use_first_moment:
            m_p = self.exp_avg[i]
            beta1 = np.float32(self.beta1)
            u = m_p._value.astype(jnp.float32) * beta1 + u * (1 - beta1)
            self._assign(m_p, u)
        if self.weight_decay_flag:
            u = u + w * np.float32(self.weight_decay) * lr  # type: ignore[arg-type]
        self._assign(p, w - u)
