"""``mint.optim`` Adam / AdamW / SGD: the ``experimental.optim`` maths with mint's own state names (no
``max_exp_avg_sq`` without amsgrad, a Float32 ``state_step`` of shape (1,); SGD's ``momentum_buf`` and
``step_t``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...experimental import optim as _exp

if TYPE_CHECKING:
    from typing import Any, Iterable

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]


def _float_step(name):
    return Parameter(Tensor(np.zeros((1,), np.float32)), name=name, requires_grad=False)


class Adam(_exp.Adam):
    """Adam (PyTorch's maths); see ``experimental.optim.Adam``."""

    _max_only_with_amsgrad = True

    def _step_param(self, name):
        return _float_step(name)


class AdamW(_exp.AdamW):
    """AdamW (PyTorch's maths); see ``experimental.optim.AdamW``."""

    _max_only_with_amsgrad = True

    def _step_param(self, name):
        return _float_step(name)


class FusedAdamW(AdamW):
    """MindSpore's fused (Ascend) AdamW kernel: the same update as ``AdamW``."""


class SGD(_exp.SGD):
    """SGD (PyTorch's maths); state ``momentum_buf.<p>`` and ``step_t``."""

    def __init__(self, params: Iterable[Any], lr: float, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, momentum, dampening, weight_decay, nesterov, maximize=maximize)

    def _make_state(self):
        self.momentum_buf = self._slots("momentum_buf")
        self.step_t = self._step_param("step_t")

    def _first_and_buffer(self, i):
        return self.step_t._value == i * 0, self.momentum_buf[i]

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        out = super().construct(gradients)
        self._set(self.step_t, self.step_t._value + 1)
        return out
