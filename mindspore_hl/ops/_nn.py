"""Neural-network functional ops over arrays: activations, softmax, dropout, pad, embedding.

Convolutions live in ``_nn_conv.py``, pooling in ``_nn_pool.py``, normalisation in ``_nn_norm.py`` and losses
in ``_nn_loss.py``; all are exported from here.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from ..common import dtype as mstype
from ..common import seed
from ..common._device_arrays import default_platform
from ..common.tensor import Tensor
from ._core import check, op
from ._lowp import product
from ._nn_conv import conv1d, conv2d, conv_transpose2d
from ._nn_loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from ._nn_norm import batch_norm, group_norm, layer_norm
from ._nn_pool import adaptive_avg_pool2d, avg_pool2d, max_pool2d

__all__ = ["relu", "relu6", "leaky_relu", "gelu", "silu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout",
           "pad", "dense", "embedding",
           "conv1d", "conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d",
           "batch_norm", "layer_norm", "group_norm",
           "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss",
           "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"]


@op("relu")
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0). ``inplace`` is accepted for MindSpore 2.10 compatibility (the result is a new Tensor).

    >>> from mindspore_hl import Tensor, ops
    >>> ops.relu(Tensor([-1.0, 0.0, 2.5])).asnumpy().tolist()
    [0.0, 0.0, 2.5]
    """
    return _activation(jax.nn.relu, input)


@op("relu6")
def relu6(x: Tensor) -> Tensor:
    """min(max(x, 0), 6); its gradient is 1 for 0 < x <= 6, else 0 (MindSpore's, recorded at the kinks).

    >>> from mindspore_hl import Tensor, ops
    >>> ops.relu6(Tensor([-1.0, 3.0, 7.5])).asnumpy().tolist()
    [0.0, 3.0, 6.0]
    """
    return _activation(_relu6, x)


@jax.custom_jvp
def _relu6(x):
    return jnp.clip(x, 0, 6).astype(x.dtype)


@_relu6.defjvp
def _relu6_jvp(primals, tangents):
    # One select. Autodiff of clip went through max and min, each a comparison and a division (their ties split
    # evenly: 0.5 at 0 and at 6), which made ReLU6's backward loops MobileNetV2's costliest.
    (x,), (t,) = primals, tangents
    return _relu6(x), jnp.where((x > 0) & (x <= 6), t, jnp.zeros_like(t))


def _activation(fn, x):
    """``fn(x)`` for an element-wise activation: on an (N, C, H, W) input on the CPU, on its channels-last view."""
    if x.ndim == 4 and default_platform() == "cpu":
        return _on_channels_last(fn, x)
    return fn(x)


@functools.partial(jax.jit, static_argnums=0)
def _on_channels_last(fn, x):
    # An (N, C, H, W) activation is computed channels-last, as the convolutions and BatchNorm on either side of
    # it are. In a compiled step the transposes cancel either way, but XLA:CPU's simplifier cancels them one
    # residual block per pass along a chain of "bn(conv(x)) + x, relu"; in bfloat16 every element-wise op
    # brings two conversions, the simplifier stops before reaching the network's middle, and those blocks' ReLU
    # backwards then write a physical NCHW copy that the next layers transpose back (ResNet50 224x224 bfloat16
    # on one core 889 -> 856 ms per step; float32 and LeNet5 compile to the same program either way).
    # MobileNetV2's ReLU6 layers had the same copies in float32.
    return jnp.moveaxis(fn(jnp.moveaxis(x, 1, -1)), -1, 1)


@op("leaky_relu")
def leaky_relu(input: Tensor, alpha: Tensor | float = 0.2) -> Tensor:
    """x where x >= 0, else alpha * x (MindSpore's default slope is 0.2)."""
    return jnp.where(input >= 0, input, input * jnp.asarray(alpha, input.dtype))


@op("gelu")
def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """GELU: exact (erf) with approximate='none', the tanh formula with approximate='tanh'."""
    check(approximate in ("none", "tanh"), "gelu", f"'approximate' must be 'none' or 'tanh', got {approximate!r}.")
    return jax.nn.gelu(input, approximate=approximate == "tanh")


@op("silu")
def silu(input: Tensor) -> Tensor:
    return jax.nn.silu(input)


@op("sigmoid")
def sigmoid(input: Tensor) -> Tensor:
    return jax.nn.sigmoid(input)


@op("tanh")
def tanh(input: Tensor) -> Tensor:
    return jnp.tanh(input)


@op("softmax")
def softmax(input: Tensor, axis: int = -1, *, dtype: mstype.Type | None = None) -> Tensor:
    if dtype is not None:
        from ..common import dtype as mstype
        input = input.astype(mstype.to_ms_dtype(dtype).to_numpy())
    return jax.nn.softmax(input, axis=axis)


@op("log_softmax")
def log_softmax(logits: Tensor, axis: int = -1) -> Tensor:
    return jax.nn.log_softmax(logits, axis=axis)


@op("dropout")
def dropout(input: Tensor, p: float = 0.5, training: bool = True, seed: int | None = None) -> Tensor:
    """Zero elements with probability ``p`` and scale the rest by 1/(1-p); identity when not training."""
    check(0 <= p <= 1, "dropout", f"'p' must be in [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    if p == 1:
        return jnp.zeros_like(input)
    key = _key(seed)
    keep = jax.random.bernoulli(key, 1.0 - p, jnp.shape(input))
    return jnp.where(keep, input / jnp.asarray(1.0 - p, input.dtype), jnp.zeros((), input.dtype)).astype(input.dtype)


def _key(s):
    if s is not None:
        return jax.random.key_data(jax.random.key(s))
    return seed.next_key()


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap",
              "symmetric": "symmetric"}


@op("pad")
def pad(input_x: Tensor, padding: tuple[int, ...] | list[int], mode: str = "constant",
        value: Tensor | float | None = None) -> Tensor:
    """Pad (or crop, with negative amounts) the trailing dims (MindSpore ``ops.pad``).

    Args:
        padding: (left_last, right_last, left_second_last, right_second_last, ...): pairs from the last dim.
        mode: 'constant' (fill ``value``, default 0), 'reflect', 'replicate', 'circular' or 'symmetric'.
    """
    name = "pad"
    check(mode in _PAD_MODES, name, f"'mode' must be one of {sorted(_PAD_MODES)}, but got {mode!r}.")
    padding = tuple(int(p) for p in padding)
    check(len(padding) % 2 == 0 and len(padding) // 2 <= input_x.ndim, name,
          f"'padding' must hold an even number of values, at most 2 * ndim ({2 * input_x.ndim}), but got {padding}.")
    pairs = [(0, 0)] * input_x.ndim
    for i in range(len(padding) // 2):
        pairs[input_x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    crop = tuple(slice(max(-lo, 0), d - max(-hi, 0)) for (lo, hi), d in zip(pairs, input_x.shape))
    x = input_x[crop]
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
    if mode == "constant":
        return jnp.pad(x, widths, constant_values=jnp.asarray(0 if value is None else value, x.dtype))
    if mode == "reflect":
        for (lo, hi), d in zip(widths, x.shape):
            check(lo < d and hi < d, name, f"reflect padding {(lo, hi)} must be smaller than the dim size {d}.")
    return jnp.pad(x, widths, mode=_PAD_MODES[mode])


@op("dense")
def dense(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias (MindSpore ``ops.dense``); weight (out, in) is cast to the input's dtype."""
    check(weight.ndim in (1, 2) and input.shape[-1:] == weight.shape[-1:], "dense",
          f"the last dim of 'input' must equal weight.shape[-1], but got input shape {list(input.shape)} and "
          f"weight shape {list(weight.shape)}.")
    weight = weight.astype(input.dtype)
    if weight.ndim == 2 and input.ndim >= 1 and input.dtype == jnp.bfloat16:  # bfloat16 arithmetic on CPU
        y = product(input.reshape(-1, input.shape[-1]), weight).reshape(*input.shape[:-1], weight.shape[0])
    else:
        y = jnp.matmul(input, weight.T)
    if bias is not None:
        y = y + bias.astype(y.dtype)
    return y


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Tensor:
    """Look up rows of ``weight`` (vocab, dim) for the integer ``input``; output shape (*input.shape, dim).

    Indices outside [0, vocab) give zero rows. The row ``padding_idx`` gets no gradient. With ``max_norm``, the
    looked-up rows whose ``norm_type``-norm exceeds it are scaled to it, in ``weight`` too (in place, as MindSpore
    does); the gradient does not see that scale. ``scale_grad_by_freq`` divides each row's gradient by how often
    its index occurs in ``input``.
    """
    out, renormed = _embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)
    if max_norm is not None and isinstance(weight, Tensor):
        weight._set_value(renormed._value)
    return out


@op("embedding")
def _embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq):
    check(jnp.issubdtype(input.dtype, jnp.integer), "embedding", f"'input' must hold integer indices, but got "
          f"{input.dtype}.")
    check(weight.ndim == 2, "embedding", f"'weight' must be 2-D (vocab, dim), but got shape {list(weight.shape)}.")
    vocab = weight.shape[0]
    check(padding_idx is None or -vocab <= padding_idx < vocab, "embedding",
          f"'padding_idx' must be in [{-vocab}, {vocab}), but got {padding_idx}.")
    safe = jnp.where(input < 0, vocab, input)
    out = jnp.take(weight, safe, axis=0, mode="fill", fill_value=0)
    value, renormed = out, weight
    if max_norm is not None:  # (MindSpore: scale max_norm / (norm + 1e-7), computed without gradient)
        norm = jax.lax.stop_gradient(jnp.linalg.norm(out, ord=norm_type, axis=-1, keepdims=True))
        value = out * jnp.where(norm > max_norm, max_norm / (norm + 1e-7), 1).astype(out.dtype)
        rows = jax.lax.stop_gradient(value.reshape(-1, weight.shape[1]))
        renormed = weight.at[safe.reshape(-1)].set(rows, mode="drop")
    if scale_grad_by_freq:  # the gradient of each looked-up row divided by its index's count in ``input``
        counts = jnp.zeros(vocab + 1, weight.dtype).at[safe.reshape(-1)].add(1, mode="drop")
        inv = (1 / jnp.take(counts, safe, mode="clip"))[..., None]
        out = out * inv
    out = jax.lax.stop_gradient(value) + (out - jax.lax.stop_gradient(out))  # forward: value; backward: out's
    if padding_idx is not None:
        idx = padding_idx % vocab
        out = jnp.where((input == idx)[..., None], jax.lax.stop_gradient(out), out)
    return out, renormed
