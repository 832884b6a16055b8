"""Layers (``mindspore.nn`` layers): MindSpore signatures and defaults, NCHW layout, computed with JAX."""
from ._activation import GELU, LeakyReLU, LogSoftmax, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Tanh, get_activation
from ._activation_more import *  # noqa: F401,F403
from ._activation_more import __all__ as _activation_more_all
from ._basic import Dense, Dropout, Embedding, Flatten, Identity, Pad
from ._container import CellDict, CellList, SequentialCell
from ._conv import Conv1d, Conv2d, Conv2dTranspose
from ._conv_nd import *  # noqa: F401,F403
from ._conv_nd import __all__ as _conv_nd_all
from ._fractional_pool import FractionalMaxPool2d, FractionalMaxPool3d
from ._math_layers import *  # noqa: F401,F403
from ._math_layers import __all__ as _math_layers_all
from ._misc_cells import *  # noqa: F401,F403
from ._misc_cells import __all__ as _misc_cells_all
from ._normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from ._normalization_more import *  # noqa: F401,F403
from ._normalization_more import __all__ as _normalization_more_all
from ._pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from ._pooling_nd import *  # noqa: F401,F403
from ._pooling_nd import __all__ as _pooling_nd_all
from ._rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from ._shape_layers import *  # noqa: F401,F403
from ._shape_layers import __all__ as _shape_all
from ._special_layers import *  # noqa: F401,F403
from ._special_layers import __all__ as _special_layers_all
from ._thor_layers import Conv2dThor, DenseThor, EmbeddingThor
from ._transformer import MultiheadAttention
from ._transformer_blocks import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from ._unpool_unfold import *  # noqa: F401,F403
from ._unpool_unfold import __all__ as _unpool_unfold_all

__all__ = ["Dense", "Flatten", "Identity", "Dropout", "Pad", "Embedding", "DenseThor", "Conv2dThor", "EmbeddingThor",
           "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation",
           "Conv1d", "Conv2d", "Conv2dTranspose",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm",
           "SequentialCell", "CellList", "CellDict",
           "RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell",
           "MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]
__all__ += _activation_more_all + _shape_all
__all__ += _conv_nd_all + _pooling_nd_all + _normalization_more_all + _math_layers_all + _special_layers_all
__all__ += _unpool_unfold_all + _misc_cells_all
__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]
