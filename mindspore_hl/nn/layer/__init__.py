"""Layers (``mindspore.nn`` layers): MindSpore signatures and defaults, NCHW layout, computed with JAX."""
from ._activation import GELU, LeakyReLU, LogSoftmax, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Tanh, get_activation
from ._basic import Dense, Dropout, Embedding, Flatten, Identity, Pad
from ._container import CellDict, CellList, SequentialCell
from ._conv import Conv1d, Conv2d, Conv2dTranspose
from ._normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from ._pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from ._rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from ._transformer import MultiheadAttention, TransformerEncoderLayer

__all__ = ["Dense", "Flatten", "Identity", "Dropout", "Pad", "Embedding",
           "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation",
           "Conv1d", "Conv2d", "Conv2dTranspose",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm",
           "SequentialCell", "CellList", "CellDict",
           "RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell",
           "MultiheadAttention", "TransformerEncoderLayer"]
