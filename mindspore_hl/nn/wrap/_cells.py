"""``WithLossCell``, ``WithEvalCell``, ``WithGradCell`` and ``TrainOneStepCell``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ...common.tensor import wrap
from ...ops._autodiff import differentiate
from ...parallel._grad_reducer import default_grad_reducer
from ..cell import Cell

if TYPE_CHECKING:
    from typing import Any

    from ...common.tensor import Tensor


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)`` as one Cell.

    Args:
        backbone: the network; loss_fn: a loss Cell or function.
    """

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Tensor, label: Tensor) -> Tensor:
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


class WithEvalCell(Cell):
    """Returns ``(loss, outputs, label)`` for evaluation; ``add_cast_fp32`` casts outputs to float32 first."""

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Tensor, label: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        outputs = self._network(data)
        if self.add_cast_fp32:
            outputs = wrap(outputs._value.astype(jnp.float32))
            if jnp.issubdtype(label._value.dtype, jnp.floating):
                label = wrap(label._value.astype(jnp.float32))
        return self._loss_fn(outputs, label), outputs, label


class WithGradCell(Cell):
    """Returns the gradients of ``loss_fn(network(x), label)`` w.r.t. the trainable parameters."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, sens: float | Tensor | None = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.weights = network.trainable_params()
        self.sens = sens

    def construct(self, *inputs: Any) -> tuple[Tensor, ...]:
        _, _, grads = differentiate(self.network, inputs, (), tuple(self.weights), sens=self.sens)
        return tuple(wrap(g) for g in grads)


class TrainOneStepCell(Cell):
    """One training step: forward, backward, optimizer update. Returns the loss.

    In GRAPH_MODE the whole step (forward, gradients, update) is one compiled XLA computation.

    Args:
        network: a Cell returning the loss (e.g. ``WithLossCell``).
        optimizer: an ``nn.Optimizer``; its ``parameters`` are the weights differentiated.
        sens: the loss sensitivity (gradients are scaled by it; pair with the optimizer's ``loss_scale``).
        return_grad: also return the gradients ``(loss, grads)``.
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: float | Tensor | None = None,
                 return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters  # type: ignore[attr-defined]  # an optimizer Cell has them
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        # MindSpore installs the data-parallel reducer itself (None outside DATA/HYBRID parallel).
        self.grad_reducer = default_grad_reducer(self.weights)

    def construct(self, *inputs: Any) -> Tensor | tuple[Tensor, tuple[Tensor, ...]]:
        loss, grads = self.forward_and_grads(*inputs)
        if self.grad_reducer is not None:
            grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, grads
        return loss

    def forward_and_grads(self, *inputs: Any, sens: float | Tensor | None = None) -> tuple[Any, tuple[Tensor, ...]]:
        """``(loss, grads)`` with gradients pulled back from ``sens`` (default: this cell's ``sens``)."""
        sens = self.sens if sens is None else sens
        scale = None if isinstance(sens, (int, float)) and sens == 1.0 else sens
        out, _, grads = differentiate(self.network, inputs, (), tuple(self.weights), sens_scale=scale)
        return out, tuple(wrap(g) for g in grads)
