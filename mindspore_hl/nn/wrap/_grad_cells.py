"""``ForwardValueAndGrad`` and the micro-batch wrappers ``GradAccumulationCell``, ``MicroBatchInterleaved`` and
``PipelineCell`` (the batch split along axis 0 into equal slices, the network's outputs summed)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ...common.parameter import ParameterTuple
from ...common.tensor import Tensor
from ..cell import Cell

if TYPE_CHECKING:
    from typing import Any, Iterable

    from ...common.parameter import Parameter

__all__ = ["ForwardValueAndGrad", "GradAccumulationCell", "MicroBatchInterleaved", "PipelineCell"]


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)``.

    Args:
        network: the Cell to differentiate (its output is the value).
        weights: a ParameterTuple (needed with ``get_by_list``).
        get_all: gradients w.r.t. every input (else the first). get_by_list: gradients w.r.t. ``weights``
            (both: ``(input gradients, weight gradients)``). sens_param: the last input is the output's
            sensitivity (default: ones).
    """

    def __init__(self, network: Cell, weights: Iterable[Parameter] | None = None, get_all: bool = False,
                 get_by_list: bool = False, sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"ForwardValueAndGrad: 'network' must be a Cell, but got {type(network).__name__}.")
        if get_by_list and weights is None:
            raise TypeError("ForwardValueAndGrad: 'weights' must be given when 'get_by_list' is True.")
        self.network = network
        self.weights = ParameterTuple(weights) if weights is not None and get_by_list else weights
        self.get_all, self.get_by_list, self.sens_param = bool(get_all), bool(get_by_list), bool(sens_param)
        self.grad = ops.GradOperation(get_all=self.get_all, get_by_list=self.get_by_list, sens_param=self.sens_param)

    def construct(self, *inputs: Any) -> tuple[Any, Any]:
        value = self.network(*(inputs[:-1] if self.sens_param else inputs))
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return value, grads


def _slices(inputs, n, i, owner):
    out = []
    for x in inputs:
        if isinstance(x, Tensor) and x.ndim > 0:
            if x.shape[0] % n:
                raise ValueError(f"{owner}: the batch size {x.shape[0]} must be divisible by {n} micro-batches.")
            size = x.shape[0] // n
            out.append(x[i * size:(i + 1) * size])
        else:
            out.append(x)
    return out


class _MicroBatches(Cell):
    def __init__(self, network, micro_size, owner):
        super().__init__(auto_prefix=False)
        if isinstance(micro_size, bool) or not isinstance(micro_size, int) or micro_size < 1:
            raise ValueError(f"{owner}: the number of micro-batches must be a positive int, but got {micro_size!r}.")
        self.network, self.micro_size, self._owner = network, micro_size, owner

    def construct(self, *inputs):
        ret = None
        for i in range(self.micro_size):
            out = self.network(*_slices(inputs, self.micro_size, i, self._owner))
            ret = out if ret is None else ret + out
        return ret


class GradAccumulationCell(_MicroBatches):
    """Run ``network`` on ``micro_size`` slices of the batch and sum the outputs (the gradients of the sum are
    the accumulated micro-batch gradients)."""

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(network, micro_size, "GradAccumulationCell")


class MicroBatchInterleaved(_MicroBatches):
    """Split the batch into ``interleave_num`` slices, run ``network`` on each and sum the outputs."""

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(network, interleave_num, "MicroBatchInterleaved")
        self.interleave_num = interleave_num


class PipelineCell(_MicroBatches):
    """Micro-batches as in pipeline parallelism: ``network`` on ``micro_size`` batch slices, outputs summed. The
    stages run on one device here (``stage_config`` / ``segment_config`` set ``pipeline_stage`` on the named
    sub-cells for reference)."""

    def __init__(self, network: Cell, micro_size: int, stage_config: dict[str, int] | None = None,
                 segment_config: dict[str, int] | None = None) -> None:
        super().__init__(network, micro_size, "PipelineCell")
        for name, stage in (stage_config or {}).items():
            network.get_sub_cell(name.split("network.", 1)[-1] if name.startswith("network.") else name) \
                .pipeline_stage = stage
