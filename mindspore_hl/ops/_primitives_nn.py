"""MindSpore's Primitive classes for neural networks (activations, conv, pooling, norms, dropout, losses).

The NN primitives call the array-level functions of ``ops._nn`` (``conv2d``, ``max_pool2d``, ``softmax`` ...),
so a Primitive and its functional op compute the same thing.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from ._core import check, op, unwrap
from ._nn_norm import normalize_with_moments
from ._primitives import Primitive

__all__ = ["ReLU", "ReLU6", "Sigmoid", "Tanh", "GeLU", "FastGeLU", "Elu", "HSwish", "HSigmoid", "Softplus",
           "Softmax", "LogSoftmax", "Conv2D", "MaxPool", "AvgPool", "BiasAdd", "BatchNorm", "LayerNorm",
           "L2Normalize", "Dropout", "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
           "SigmoidCrossEntropyWithLogits", "BinaryCrossEntropy"]


def _nn():
    from . import _nn as nn_ops  # the layers' array-level functions, imported when first used
    return nn_ops


class _Unary(Primitive):
    _fn: str  # the name of the functional op in ops.nn, set by each subclass

    def __call__(self, x):
        return getattr(_nn(), self._fn)(x)


class ReLU(_Unary):
    """``ReLU()(x)``: max(x, 0)."""
    _fn = "relu"


class ReLU6(_Unary):
    """``ReLU6()(x)``: min(max(x, 0), 6)."""
    _fn = "relu6"


class Sigmoid(_Unary):
    """``Sigmoid()(x)``: 1 / (1 + exp(-x))."""
    _fn = "sigmoid"


class Tanh(_Unary):
    """``Tanh()(x)``."""
    _fn = "tanh"


class GeLU(Primitive):
    """``GeLU()(x)``: the tanh approximation of GELU (as MindSpore's primitive computes it)."""

    def __call__(self, x: Tensor) -> Tensor:
        return _nn().gelu(x, "tanh")


@op("fast_gelu")
def _fast_gelu(x):
    return x / (1 + jnp.exp(-1.702 * jnp.abs(x))) * jnp.exp(0.851 * (x - jnp.abs(x)))


@op("elu")
def _elu(x, alpha):
    return jnp.where(x > 0, x, alpha * jnp.expm1(jnp.minimum(x, 0)))


@op("hswish")
def _hswish(x):
    return x * jnp.clip(x + 3, 0, 6) / 6


@op("hsigmoid")
def _hsigmoid(x):
    return jnp.clip(x + 3, 0, 6) / 6


@op("softplus")
def _softplus(x):
    return jax.nn.softplus(x)


class FastGeLU(Primitive):
    """``FastGeLU()(x)``: x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|))."""

    def __call__(self, x: Tensor) -> Tensor:
        return _fast_gelu(x)


class Elu(Primitive):
    """``Elu(alpha=1.0)(x)``."""

    def __init__(self, alpha: Tensor | float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def __call__(self, x: Tensor) -> Tensor:
        return _elu(x, self.alpha)


class HSwish(Primitive):
    """``HSwish()(x)``: x * relu6(x + 3) / 6."""

    def __call__(self, x: Tensor) -> Tensor:
        return _hswish(x)


class HSigmoid(Primitive):
    """``HSigmoid()(x)``: relu6(x + 3) / 6."""

    def __call__(self, x: Tensor) -> Tensor:
        return _hsigmoid(x)


class Softplus(Primitive):
    """``Softplus()(x)``: log(1 + exp(x))."""

    def __call__(self, x: Tensor) -> Tensor:
        return _softplus(x)


class Softmax(Primitive):
    """``Softmax(axis=-1)(x)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis

    def __call__(self, x: Tensor) -> Tensor:
        return _nn().softmax(x, self.axis)


class LogSoftmax(Softmax):
    """``LogSoftmax(axis=-1)(x)``."""

    def __call__(self, x: Tensor) -> Tensor:
        return _nn().log_softmax(x, self.axis)


def _spatial(v, name, what):
    """An int, 2-tuple or NCHW 4-tuple (1, 1, h, w) as a 2-tuple."""
    if isinstance(v, int):
        return (v, v)
    v = tuple(v)
    if len(v) == 4:
        v = v[2:]
    check(len(v) == 2, name, f"'{what}' must be an int, 2 ints or 4 ints, but got {v}.")
    return v


class Conv2D(Primitive):
    """``Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1,
    data_format='NCHW')(x, weight)``."""

    def __init__(self, out_channel: int, kernel_size: int | tuple[int, ...], mode: int = 1, pad_mode: str = "valid",
                 pad: int | tuple[int, ...] = 0, stride: int | tuple[int, ...] = 1, dilation: int | tuple[int, ...] = 1,
                 group: int = 1, data_format: str = "NCHW") -> None:
        super().__init__()
        self.out_channel, self.kernel_size = out_channel, _spatial(kernel_size, "Conv2D", "kernel_size")
        self.pad_mode, self.pad = pad_mode.lower(), pad
        self.stride, self.dilation = _spatial(stride, "Conv2D", "stride"), _spatial(dilation, "Conv2D", "dilation")
        self.group, self.data_format = group, data_format

    def __call__(self, x: Tensor, weight: Tensor) -> Tensor:
        w = unwrap(weight)
        check(jnp.shape(w)[0] == self.out_channel and tuple(jnp.shape(w)[2:]) == self.kernel_size, "Conv2D",
              f"the weight must have shape ({self.out_channel}, C_in/group, {self.kernel_size[0]}, "
              f"{self.kernel_size[1]}), but got {list(jnp.shape(w))}.")
        return _nn().conv2d(x, weight, None, self.stride, self.pad_mode, self.pad, self.dilation, self.group,
                            data_format=self.data_format)


class MaxPool(Primitive):
    """``MaxPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``."""

    _fn = "max_pool2d"

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, strides: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", data_format: str = "NCHW") -> None:
        super().__init__()
        self.kernel_size = _spatial(kernel_size, type(self).__name__, "kernel_size")
        self.strides = _spatial(strides, type(self).__name__, "strides")
        self.pad_mode = pad_mode.lower()
        check(self.pad_mode in ("valid", "same"), type(self).__name__,
              f"'pad_mode' must be 'valid' or 'same', but got {pad_mode!r}.")
        self.data_format = data_format

    def __call__(self, x: Tensor) -> Tensor:
        return getattr(_nn(), self._fn)(x, self.kernel_size, self.strides, 0, pad_mode=self.pad_mode,
                                        data_format=self.data_format)


class AvgPool(MaxPool):
    """``AvgPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``."""

    _fn = "avg_pool2d"


@op("bias_add")
def _bias_add(x, bias, channel_axis):
    shape = [1] * x.ndim
    shape[channel_axis] = -1
    return x + bias.reshape(shape).astype(x.dtype)


class BiasAdd(Primitive):
    """``BiasAdd(data_format='NCHW')(x, bias)``: add ``bias`` along the channel axis."""

    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        self.data_format = data_format

    def __call__(self, input_x: Tensor, bias: Tensor) -> Tensor:
        return _bias_add(input_x, bias, -1 if self.data_format in ("NHWC", "NWC") else 1)


@op("BatchNorm")
def _batch_stats(x):
    axes = (0,) + tuple(range(2, x.ndim))
    xs = x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x
    return jnp.mean(xs, axes), jnp.var(xs, axes)


class BatchNorm(Primitive):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean, variance)``.

    Returns ``(y, batch_mean, batch_variance, reserve_1, reserve_2)``; in training the ``mean``/``variance``
    Parameters are updated with ``momentum`` (the update factor).
    """

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        self.is_training, self.epsilon, self.momentum = is_training, epsilon, momentum

    def __call__(self, input_x: Tensor, scale: Tensor, bias: Tensor, mean: Tensor,
                 variance: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        y = _nn().batch_norm(input_x, mean, variance, scale, bias, self.is_training, self.momentum, self.epsilon)
        if self.is_training:
            bm, bv = _batch_stats(input_x)
        else:
            bm, bv = wrap(unwrap(mean)), wrap(unwrap(variance))
        return y, bm, bv, bm, bv


@op("LayerNorm")
def _layer_norm(x, gamma, beta, begin_norm_axis, begin_params_axis, eps):
    y, m, v = normalize_with_moments(x, tuple(range(begin_norm_axis % x.ndim, x.ndim)), eps)
    pshape = x.shape[begin_params_axis % x.ndim:]
    y = y * jnp.reshape(gamma, pshape).astype(x.dtype) + jnp.reshape(beta, pshape).astype(x.dtype)
    return y, m.astype(x.dtype), v.astype(x.dtype)


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`` -> (y, mean, var)."""

    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1, epsilon: float = 1e-7) -> None:
        super().__init__()
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon

    def __call__(self, input_x: Tensor, gamma: Tensor, beta: Tensor | float) -> Tensor:
        return _layer_norm(input_x, gamma, beta, self.begin_norm_axis, self.begin_params_axis, self.epsilon)


class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``."""

    def __init__(self, axis: int | tuple[int, ...] = 0, epsilon: float = 1e-4) -> None:
        super().__init__()
        self.axis, self.epsilon = axis[0] if isinstance(axis, (tuple, list)) else axis, epsilon

    def __call__(self, x: Tensor) -> Tensor:
        from ._linalg import l2_normalize
        return l2_normalize(x, self.axis, self.epsilon)


@op("Dropout")
def _dropout(x, keep_prob, key):
    keep = jax.random.bernoulli(key, keep_prob, x.shape)
    return jnp.where(keep, x / jnp.asarray(keep_prob, x.dtype), jnp.zeros((), x.dtype)), keep.astype(x.dtype)


class Dropout(Primitive):
    """``Dropout(keep_prob=0.5)(x)`` -> ``(output, mask)``; always drops (use ``ops.dropout`` for train/eval)."""

    def __init__(self, keep_prob: float = 0.5, Seed0: int = 0, Seed1: int = 0) -> None:
        super().__init__()
        check(0 < keep_prob <= 1, "Dropout", f"'keep_prob' must be in (0, 1], but got {keep_prob}.")
        self.keep_prob = keep_prob

    def __call__(self, x: Tensor) -> Tensor:
        return _dropout(x, self.keep_prob, _seed.next_key())


@op("SoftmaxCrossEntropyWithLogits")
def _softmax_ce(logits, labels):
    check(logits.shape == labels.shape, "SoftmaxCrossEntropyWithLogits",
          f"'logits' and 'labels' must have the same shape, but got {list(logits.shape)} and {list(labels.shape)}.")
    logp = jax.nn.log_softmax(logits, -1)
    return -jnp.sum(labels * logp, -1), jnp.exp(logp) - labels


class SoftmaxCrossEntropyWithLogits(Primitive):
    """``SoftmaxCrossEntropyWithLogits()(logits, labels)`` -> ``(loss per sample, dlogits)``."""

    def __call__(self, logits: Tensor, labels: Tensor) -> Tensor:
        return _softmax_ce(logits, labels)


@op("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_ce(logits, labels, is_grad):
    check(jnp.issubdtype(labels.dtype, jnp.integer), "SparseSoftmaxCrossEntropyWithLogits",
          f"'labels' must be integer class indices, but got {labels.dtype}.", TypeError)
    logp = jax.nn.log_softmax(logits, -1)
    onehot = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
    if is_grad:
        return (jnp.exp(logp) - onehot) / logits.shape[0]
    return -jnp.mean(jnp.sum(onehot * logp, -1))


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)`` -> mean loss (or its gradient)."""

    def __init__(self, is_grad: bool = False) -> None:
        super().__init__()
        self.is_grad = is_grad

    def __call__(self, logits: Tensor, labels: Tensor) -> Tensor:
        return _sparse_softmax_ce(logits, labels, self.is_grad)


class SigmoidCrossEntropyWithLogits(Primitive):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: the elementwise loss."""

    def __call__(self, logits: Tensor, label: Tensor) -> Tensor:
        return _nn().binary_cross_entropy_with_logits(logits, label, None, None, "none")


class BinaryCrossEntropy(Primitive):
    """``BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None)`` on probabilities."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def __call__(self, logits: Tensor, labels: Tensor, weight: Tensor | None = None) -> Tensor:
        return _nn().binary_cross_entropy(logits, labels, weight, self.reduction)
