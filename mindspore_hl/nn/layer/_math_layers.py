"""Small computational layers: ``Linear``, ``BiDense``, ``OneHot``, ``ClipByNorm``, ``Norm``, ``MatMul``,
``Moments``, ``ReduceLogSumExp``, ``L1Regularizer``, ``Range``, ``EmbeddingLookup`` and the channel dropouts
``Dropout1d/2d/3d``.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from ... import ops
from ...common import dtype as mstype
from ...common import seed
from ...common.initializer import Uniform
from ...common.tensor import wrap
from ...ops._core import op
from ..cell import Cell
from ._basic import Dense
from ._checks import check_float, check_input, make_param, positive_int

if TYPE_CHECKING:
    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["Linear", "BiDense", "OneHot", "ClipByNorm", "Norm", "MatMul", "Moments", "ReduceLogSumExp",
           "L1Regularizer", "Range", "EmbeddingLookup", "Dropout1d", "Dropout2d", "Dropout3d"]


class Linear(Dense):
    """``x @ weight.T + bias`` with PyTorch-style arguments (MindSpore 2.10's ``nn.Linear``).

    Args: in_features, out_features, bias (default True), weight_init (default HeUniform(sqrt(5))), bias_init
    (default Uniform(1/sqrt(in_features))), dtype (default float32).
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, dtype: mstype.Type | None = None) -> None:
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=mstype.float32 if dtype is None else dtype)
        self.in_features, self.out_features = in_features, out_features


@op("bidense")
def _bidense(x1, x2, w, b):
    y = jnp.einsum("...i,oij,...j->...o", x1, w.astype(x1.dtype), x2)
    return y if b is None else y + b.astype(y.dtype)


class BiDense(Cell):
    """Bilinear layer ``y_o = x1 @ weight[o] @ x2 + bias_o``; weight (out, in1, in2), init Uniform(1/sqrt(in1))."""

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, has_bias: bool = True,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.in1_channels = positive_int("BiDense", "in1_channels", in1_channels)
        self.in2_channels = positive_int("BiDense", "in2_channels", in2_channels)
        self.out_channels = positive_int("BiDense", "out_channels", out_channels)
        self.has_bias = bool(has_bias)
        bound = 1 / math.sqrt(in1_channels)
        self.weight = make_param(Uniform(bound) if weight_init is None else weight_init,
                                 (out_channels, in1_channels, in2_channels), dtype, cell_name="BiDense")
        self.bias = make_param(Uniform(bound) if bias_init is None else bias_init, (out_channels,), dtype,
                               cell_name="BiDense", what="bias_init") if self.has_bias else None

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        check_input(self, input1, ("...", self.in1_channels), note=f"in1_channels={self.in1_channels}")
        check_input(self, input2, ("...", self.in2_channels), note=f"in2_channels={self.in2_channels}")
        check_float(self, input1)
        return _bidense(input1, input2, self.weight, self.bias)


class OneHot(Cell):
    """One-hot encoding of integer ``indices``: a new axis of size ``depth`` at ``axis`` holding on/off values."""

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.axis, self.depth = axis, positive_int("OneHot", "depth", depth)
        self.on_value, self.off_value, self.dtype = on_value, off_value, mstype.to_ms_dtype(dtype)

    def construct(self, indices: Tensor) -> Tensor:
        check_input(self, indices, ("...",))
        if not jnp.issubdtype(indices._value.dtype, jnp.integer):
            raise TypeError(f"OneHot: 'indices' must be integers, but got {indices.dtype}.")
        return _one_hot(indices, self.depth, self.axis, self.on_value, self.off_value, self.dtype.to_numpy())


@op("one_hot_layer", keep_f64=True)
def _one_hot(idx, depth, axis, on, off, dt):
    hot = jnp.expand_dims(idx, axis if axis >= 0 else idx.ndim + 1 + axis) == \
        jnp.arange(depth).reshape([-1 if d == (axis % (idx.ndim + 1)) else 1 for d in range(idx.ndim + 1)])
    return jnp.where(hot, jnp.asarray(on, dt), jnp.asarray(off, dt))


@op("clip_by_norm")
def _clip_by_norm(x, clip, axis):
    axes = None if axis is None else axis
    norm = jnp.sqrt(jnp.sum(jnp.square(x.astype(jnp.float32)), axis=axes, keepdims=True))
    clip = jnp.asarray(clip, jnp.float32)
    return (x * clip / jnp.maximum(norm, clip)).astype(x.dtype)


class ClipByNorm(Cell):
    """Scale ``x`` so that its L2 norm over ``axis`` (None: all) is at most ``clip_norm``."""

    def __init__(self, axis: int | None = None) -> None:
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"ClipByNorm: 'axis' must be None, an int or a tuple of ints, but got {axis!r}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis

    def construct(self, x: Tensor, clip_norm: float | Tensor) -> Tensor:
        check_float(self, x)
        return _clip_by_norm(x, clip_norm, self.axis)


@op("norm_layer")
def _norm(x, axis, keep_dims):
    return jnp.sqrt(jnp.sum(jnp.square(x), axis=axis if axis != () else None, keepdims=keep_dims))


class Norm(Cell):
    """L2 norm over ``axis`` (``()``: every axis)."""

    def __init__(self, axis: tuple[int, ...] = (), keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = tuple(axis) if isinstance(axis, list) else axis, bool(keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        return _norm(x, self.axis, self.keep_dims)


class MatMul(Cell):
    """Batched matrix product with broadcasting; ``transpose_x1`` / ``transpose_x2`` transpose the last 2 dims."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        self.transpose_x1, self.transpose_x2 = bool(transpose_x1), bool(transpose_x2)

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        return _matmul(x1, x2, self.transpose_x1, self.transpose_x2)


@op("matmul_layer")
def _matmul(a, b, ta, tb):
    if ta:
        a = jnp.swapaxes(a, -1, -2)
    if tb:
        b = jnp.swapaxes(b, -1, -2)
    return jnp.matmul(a, b)


class Moments(Cell):
    """(mean, variance) of ``x`` over ``axis`` (None: all), the variance biased."""

    def __init__(self, axis: int | None = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        self.axis = tuple(axis) if isinstance(axis, list) else axis
        self.keep_dims = bool(keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        return _moments(x, self.axis, self.keep_dims)


@op("moments")
def _moments(x, axis, keep):
    m = jnp.mean(x, axis=axis, keepdims=True)
    v = jnp.mean(jnp.square(x - m), axis=axis, keepdims=keep)
    return (m if keep else jnp.squeeze(m, axis)), v


class ReduceLogSumExp(Cell):
    """log(sum(exp(x))) over ``axis``, computed stably."""

    def __init__(self, axis: int, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = tuple(axis) if isinstance(axis, list) else axis, bool(keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        return _logsumexp(x, self.axis, self.keep_dims)


@op("reduce_logsumexp")
def _logsumexp(x, axis, keep):
    return jax.nn.logsumexp(x, axis=axis if axis != () else None, keepdims=keep)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``; ``scale`` must be a positive number."""

    def __init__(self, scale: float) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0 or math.isinf(scale):
            raise ValueError(f"L1Regularizer: 'scale' must be a positive finite number, but got {scale!r}.")
        self.scale = float(scale)

    def construct(self, weights: Tensor) -> Tensor:
        return wrap(jnp.asarray(self.scale, weights._value.dtype) * jnp.sum(jnp.abs(weights._value)))


class Range(Cell):
    """``construct()`` returns [start, limit) in steps of delta (``Range(n)``: [0, n)); int32 if all are ints."""

    def __init__(self, start: int, limit: int | float | None = None, delta: float = 1) -> None:
        super().__init__()
        if limit is None:
            start, limit = 0, start
        if delta == 0:
            raise ValueError("Range: 'delta' must not be 0.")
        self.start, self.limit, self.delta = start, limit, delta

    def construct(self) -> Tensor:
        ints = all(isinstance(v, int) for v in (self.start, self.limit, self.delta))
        return wrap(jnp.arange(self.start, self.limit, self.delta, dtype=jnp.int32 if ints else jnp.float32))


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) for integer indices; ``max_norm`` clips each row.

    ``target``/``slice_mode``/``manual_shapes``/``sparse`` choose MindSpore's host/device placement and sharding;
    here the lookup is one gather whatever they say (the results are the same).
    """

    def __init__(self, vocab_size: int, embedding_size: int, param_init: str = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: tuple[int, ...] | None = None,
                 max_norm: float | None = None, sparse: bool = True, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.vocab_size = positive_int("EmbeddingLookup", "vocab_size", vocab_size)
        self.embedding_size = positive_int("EmbeddingLookup", "embedding_size", embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"EmbeddingLookup: 'target' must be 'CPU' or 'DEVICE', but got {target!r}.")
        self.target, self.slice_mode, self.max_norm, self.sparse = target, slice_mode, max_norm, sparse
        self.embedding_table = make_param(param_init, (vocab_size, embedding_size), dtype,
                                          cell_name="EmbeddingLookup", what="param_init")

    def construct(self, indices: Tensor) -> Tensor:
        check_input(self, indices, ("...",))
        out = ops.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            out = _clip_by_norm(out, self.max_norm, tuple(range(indices.ndim, out.ndim)))
        return out


class _ChannelDropout(Cell):
    """Zero whole channels (axis 1 of a batched input) with probability ``p`` in training, scaling the rest by
    1 / (1 - p); identity in eval mode."""

    _nd = 1

    def __init__(self, p=0.5):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"{type(self).__name__}: 'p' must be a number in [0, 1], but got {p!r}.")
        self.p, self.keep_prob = float(p), 1.0 - float(p)

    def construct(self, x):
        spatial = tuple(f"D{i}" for i in range(self._nd))
        check_input(self, x, ("N", "C") + spatial, ("C",) + spatial)
        if not self.training or self.p == 0:
            return x
        lead = x.ndim - self._nd
        keep = jax.random.bernoulli(seed.next_key(), self.keep_prob, tuple(x.shape[:lead]) + (1,) * self._nd)
        v = x._value
        scale = jnp.asarray(0.0 if self.keep_prob == 0 else 1.0 / self.keep_prob, v.dtype)
        return wrap(jnp.where(keep, v * scale, jnp.zeros((), v.dtype)))

    def extend_repr(self):
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Channel dropout of (N, C, L) or (C, L)."""


class Dropout2d(_ChannelDropout):
    """Channel dropout of (N, C, H, W) or (C, H, W)."""

    _nd = 2


class Dropout3d(_ChannelDropout):
    """Channel dropout of (N, C, D, H, W) or (C, D, H, W)."""

    _nd = 3
