"""``ConvertModelUtils`` and ``ModelThor``: a ``Model`` for networks trained with ``nn.thor``.

Without dataset sinking, ``ModelThor`` trains like ``Model``: every step refreshes A/G and their inverses (as in
MindSpore, where the THOR layers' and optimizer's ``thor`` flag stays True). MindSpore's sink-mode schedule (one
THOR step, then ``frequency - 1`` first-order steps on a second graph) is not implemented here; as MindSpore does
on a CPU target, ``dataset_sink_mode=True`` raises.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..context import get_context
from ..model import Model
from ..nn import Cell, TrainOneStepCell
from ..nn.optim._thor import ThorGpu

__all__ = ["ConvertModelUtils", "ModelThor"]


@runtime_checkable
class _ThorOptimizer(Protocol):
    def get_frequency(self) -> int: ...


def _frequency(optimizer: object) -> int:
    """``optimizer.get_frequency()``; AttributeError (as calling it would raise) when it has none."""
    if not isinstance(optimizer, _ThorOptimizer):
        raise AttributeError(f"ModelThor: the optimizer must be a THOR optimizer (with 'get_frequency'), but got "
                             f"{type(optimizer).__name__}.")
    return optimizer.get_frequency()


class ModelThor(Model):
    """``Model`` with THOR's bookkeeping (``_frequency`` from the optimizer's ``get_frequency()``)."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Cell | None = None,
                 metrics: Any = None, eval_network: Cell | None = None, eval_indexes: list[int] | None = None,
                 amp_level: str = "O0", **kwargs: Any) -> None:
        super().__init__(network, loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level, **kwargs)
        self._frequency = _frequency(network.optimizer if isinstance(network, TrainOneStepCell) else optimizer)
        self.switch_branch_one = True
        self.index_first_order = 0
        self.train_network_init_flag = True
        self.has_do_dataset_init = False

    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """As ``Model.train``; ``dataset_sink_mode=True`` (THOR's frequency schedule) is not supported."""
        if dataset_sink_mode:
            if get_context("device_target") == "CPU":
                raise RuntimeError("Currently dataset sink mode is not supported when the device target is CPU.")
            raise NotImplementedError("ModelThor: THOR's dataset sink mode (a THOR step every 'frequency' steps) is "
                                      "not implemented; train with dataset_sink_mode=False (a THOR step every step).")
        super().train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)


class ConvertModelUtils:
    """Convert a ``Model`` whose optimizer is ``nn.thor``'s into a ``ModelThor``."""

    @staticmethod
    def convert_to_thor_model(model: Model, network: Cell, loss_fn: Cell | None = None,
                              optimizer: Cell | None = None, metrics: Any = None, amp_level: str = "O0",
                              loss_scale_manager: Any = None, keep_batchnorm_fp32: bool = False) -> Model:
        """A ``ModelThor`` over the same network when ``optimizer`` is a THOR optimizer, else ``model`` itself.

        >>> import numpy as np
        >>> import mindspore_hl as ms
        >>> net = ms.nn.SequentialCell([ms.nn.Dense(4, 3)])
        >>> lr = ms.Tensor(np.full((8,), 0.1, np.float32))
        >>> opt = ms.nn.thor(net, lr, lr, 0.9, frequency=2)
        >>> loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = ms.Model(net, loss_fn=loss, optimizer=opt)
        >>> type(ms.ConvertModelUtils.convert_to_thor_model(model, net, loss, opt)).__name__
        'ModelThor'
        """
        if isinstance(optimizer, ThorGpu):
            if isinstance(network, TrainOneStepCell):
                return ModelThor(network=network)
            return ModelThor(network=network, loss_fn=loss_fn, optimizer=optimizer, amp_level=amp_level,
                             loss_scale_manager=loss_scale_manager, keep_batchnorm_fp32=keep_batchnorm_fp32,
                             metrics=metrics)
        return model
