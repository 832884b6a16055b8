"""``ConvertNetUtils``: replace a network's Dense / Conv2d / Embedding cells by THOR layers (MindSpore's rules).

As in MindSpore: the Dense weight is copied and its bias Parameter kept (the new layer runs in float16 unless the
device target is GPU, or when out_channels is 1001); the Conv2d weight is copied but its bias starts again at
zero (MindSpore passes only the weight); the Embedding table Parameter is kept. Parameter names stay the same.
``nn.EmbeddingLookup`` (and so ``EmbeddingLookupThor``) is not part of this package.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..context import get_context
from .cell import Cell
from .layer import (
    BatchNorm1d,
    BatchNorm2d,
    Conv1d,
    Conv1dTranspose,
    Conv2d,
    Conv2dTranspose,
    Dense,
    Embedding,
    GroupNorm,
    LayerNorm,
    MaxPool2d,
)
from .layer._thor_layers import Conv2dThor, DenseThor, EmbeddingThor

__all__ = ["ConvertNetUtils"]

_THOR_LAYERS = (DenseThor, Conv2dThor, EmbeddingThor)
_KEPT = (Conv2dTranspose, Conv1d, Conv1dTranspose, BatchNorm1d, GroupNorm, LayerNorm, BatchNorm2d, MaxPool2d)


def _copy(param) -> Tensor:
    return Tensor(param.asnumpy())


class ConvertNetUtils:
    """Convert a network to THOR layers, which compute and store the second-order statistics.

    >>> import mindspore_hl as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(3, 2)])
    >>> ms.train.ConvertNetUtils().convert_to_thor_net(net)
    >>> type(net[0]).__name__, [p.name for p in net.get_parameters()]
    ('DenseThor', ['0.weight', '0.bias', '0.matrix_a', '0.matrix_g'])
    """

    def __init__(self) -> None:
        # Each converter takes the Cell type it is keyed by.
        self._convert_method_map: dict[type[Cell], Callable[[Any], Cell]] = {
            Dense: ConvertNetUtils._convert_dense,
            Embedding: ConvertNetUtils._convert_embedding,
            Conv2d: ConvertNetUtils._convert_conv2d}

    @staticmethod
    def _convert_dense(subcell: Dense) -> DenseThor:
        act_name = None
        if subcell.activation_flag:
            act_name = type(subcell.activation).__name__.lower()
            if act_name == "fastgelu":
                act_name = "fast_gelu"
        new = DenseThor(subcell.in_channels, subcell.out_channels, weight_init=_copy(subcell.weight),
                        has_bias=subcell.has_bias, bias_init="zeros", activation=act_name)
        if subcell.out_channels != 1001:
            new.to_float(mstype.float32 if get_context("device_target") == "GPU" else mstype.float16)
        if subcell.has_bias:
            new.bias = subcell.bias
        return new

    @staticmethod
    def _convert_embedding(subcell: Embedding) -> EmbeddingThor:
        new = EmbeddingThor(subcell.vocab_size, subcell.embedding_size, use_one_hot=False)
        new.embedding_table = subcell.embedding_table
        return new

    @staticmethod
    def _convert_conv2d(subcell: Conv2d) -> Conv2dThor:
        if subcell.format != "NCHW":
            raise ValueError(f"ConvertNetUtils: Conv2dThor computes NCHW only, but the Conv2d at "
                             f"'{subcell.param_prefix}' has data_format={subcell.format!r}.")
        return Conv2dThor(subcell.in_channels, subcell.out_channels, kernel_size=subcell.kernel_size[0],
                          stride=(subcell.stride[0], subcell.stride[1]), padding=subcell.padding,
                          pad_mode=subcell.pad_mode, has_bias=subcell.has_bias, weight_init=_copy(subcell.weight))

    @staticmethod
    def _need_change(subcell: Any, prefix: str) -> bool:
        if isinstance(subcell, (Dense, Conv2d)) and subcell.weight.requires_grad:
            return "rpn_with_loss.rpn_convs_list." not in prefix.lower() and "wide" not in prefix.lower()
        return isinstance(subcell, Embedding) and subcell.embedding_table.requires_grad

    def _convert_to_thor_net(self, net: Cell) -> None:
        for name, subcell in net.name_cells().items():
            if subcell is net or isinstance(subcell, _THOR_LAYERS + _KEPT):
                continue
            if type(subcell) in self._convert_method_map:
                prefix = subcell.param_prefix
                if self._need_change(subcell, prefix):
                    new = self._convert_method_map[type(subcell)](subcell)
                    net.insert_child_to_cell(name, new)
                    # MindSpore's update_parameters_name(prefix + '.'): the full path, whatever the nesting.
                    for local, p in new._params.items():
                        p.name = f"{prefix}.{local}"
            elif not isinstance(subcell, (Dense, Conv2d, Embedding)):
                self._convert_to_thor_net(subcell)

    def convert_to_thor_net(self, net: Cell) -> None:
        """Replace (in place) the Dense, Conv2d and Embedding cells of ``net`` whose weights are trainable."""
        if not isinstance(net, Cell):
            raise TypeError(f"ConvertNetUtils.convert_to_thor_net: 'net' must be a Cell, but got "
                            f"{type(net).__name__}.")
        net.update_cell_prefix()
        self._convert_to_thor_net(net)
        net.update_cell_type("second-order")
