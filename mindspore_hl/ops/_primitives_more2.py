"""Primitive classes of TensorFlow-style image ops: ``ExtractImagePatches``, ``FractionalMaxPool`` /
``FractionalAvgPool`` (4-D NHWC, with their pooling sequences), ``Dilation2D``, ``DepthwiseConv2dNative`` and
``TensorDump``.

``extract_image_patches`` is the one implementation of image patches as channels (``nn.Unfold`` calls it too).
The fractional pools are split in two so that the random part can be inspected or replaced:
``fractional_pooling_sequence`` draws the boundaries of the pooling regions along one axis and
``fractional_pool_with_sequences`` pools given boundaries, deterministically.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from ._core import check, op
from ._graph_helpers_ad import tensordump
from ._index_ext import _lowest
from ._nn_conv import pair, same_pads
from ._nn_fold import patches
from ._primitives import primitive_class
from ._registry import lookup

__all__ = ["DepthwiseConv2dNative", "Dilation2D", "ExtractImagePatches", "FractionalAvgPool", "FractionalMaxPool",
           "TensorDump"]

_REQUIRED = inspect.Parameter.empty


@op("extract_image_patches")
def extract_image_patches(x: Any, ksizes: tuple[int, int], strides: tuple[int, int], rates: tuple[int, int],
                          padding: str) -> Any:
    """Patches of NCHW ``x`` as channels: ``(N, C, H, W) -> (N, kr * kc * C, out_rows, out_cols)``, the depth
    ordered (row in patch, column in patch, channel) as TensorFlow's ``extract_image_patches``.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor
    >>> x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> extract_image_patches(x, (2, 2), (2, 2), (1, 1), "valid")[0, :, 0, 0].asnumpy().tolist()
    [0.0, 1.0, 4.0, 5.0]
    """
    n, c = x.shape[:2]
    p = patches(x, ksizes, strides, padding.upper(), rhs_dilation=rates)
    # lax orders the patch depth (C, kr, kc); TensorFlow's ExtractImagePatches (MindSpore's Unfold) (kr, kc, C).
    k = ksizes[0] * ksizes[1]
    p = p.reshape((n, c, k) + p.shape[2:]).transpose((0, 2, 1, 3, 4))
    return p.reshape((n, k * c) + p.shape[3:])


def _window_arg(name: str, arg: str, value: Any) -> tuple[int, int]:
    """MindSpore 2.10's argument handler for ksizes / strides / rates: a list or tuple of ints; a 4-sequence gives
    its LAST two values (NCHW order: ``[1, 1, r, c]``), a 2-sequence is taken as is."""
    if not isinstance(value, (tuple, list)) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                        for i in value):
        raise TypeError(f"For '{name}', the type of '{arg}' should be one of '[list of int, tuple of int]', but got "
                        f"{value!r}.")
    v = tuple(value)
    if len(v) == 4:
        v = v[2:]
    check(len(v) == 2 and all(i >= 1 for i in v), name,
          f"'{arg}' must be a sequence of 2 or 4 positive ints, but got {value!r}.")
    return int(v[0]), int(v[1])


def _extract_patches_init(p: Any) -> None:
    p.ksizes = _window_arg(p.name, "ksizes", p.ksizes)
    p.strides = _window_arg(p.name, "strides", p.strides)
    p.rates = _window_arg(p.name, "rates", p.rates)
    check(isinstance(p.padding, str) and p.padding.upper() in ("VALID", "SAME"), p.name,
          f"the padding support 'VALID' 'SAME', but got {p.padding!r}.")
    p.padding = p.padding.upper()
    p.attrs.update(ksizes=p.ksizes, strides=p.strides, rates=p.rates, padding=p.padding)


def _extract_patches_call(p: Any, input_x: Tensor) -> Tensor:
    check(isinstance(input_x, Tensor), p.name, f"'input_x' must be a Tensor, but got {type(input_x).__name__}.",
          TypeError)
    check(input_x.ndim == 4, p.name, f"the rank of input_x must be 4, but got {input_x.ndim}.")
    return extract_image_patches(input_x, p.ksizes, p.strides, p.rates, p.padding)


ExtractImagePatches = primitive_class(
    "ExtractImagePatches", [("ksizes", _REQUIRED), ("strides", _REQUIRED), ("rates", _REQUIRED),
                            ("padding", "VALID")], _extract_patches_call,
    "Image patches of NCHW input as channels (see ``extract_image_patches``); ksizes / strides / rates are "
    "(rows, cols) or 4-sequences whose last two values are used, as MindSpore 2.10's argument handler does.",
    __name__, _extract_patches_init)


# ---- fractional pools ---------------------------------------------------------------------------------------
def fractional_pooling_sequence(key: jax.Array, n_in: int, n_out: int, pseudo_random: bool) -> jax.Array:
    """The ``n_out + 1`` region boundaries (int64, from 0 to ``n_in``) of TensorFlow's fractional pooling along an
    axis of ``n_in`` elements: a random arrangement of ``n_in // n_out`` and ``n_in // n_out + 1`` steps, or with
    ``pseudo_random`` the pseudo-random sequence ``ceil(alpha * (i + u)) - ceil(alpha * u)``."""
    if pseudo_random:
        alpha = n_in / n_out
        base = n_in // n_out
        max_u = min((base + 2) / alpha - 1, (n_in + 1 - base) / alpha - (n_out - 1))
        u = jax.random.uniform(key, (), jnp.float64) * max_u
        i = jnp.arange(n_out + 1, dtype=jnp.float64)
        seq = (jnp.ceil(alpha * (i + u)) - jnp.ceil(alpha * u)).astype(jnp.int64)
        return seq.at[n_out].set(n_in)
    base = n_in // n_out
    extra = n_in - base * n_out  # how many steps are one longer
    steps = jnp.where(jax.random.permutation(key, n_out) < extra, base + 1, base).astype(jnp.int64)
    return jnp.concatenate([jnp.zeros((1,), jnp.int64), jnp.cumsum(steps)])


def _region_mask(seq: jax.Array, n: int, overlapping: bool) -> jax.Array:
    """(n_out, n) bool: element j lies in region i, i.e. seq[i] <= j <= seq[i + 1] (overlapping) or < it."""
    seq = seq.astype(jnp.int64)
    end = seq[1:] if overlapping else seq[1:] - 1
    pos = jnp.arange(n, dtype=jnp.int64)
    return (pos[None, :] >= seq[:-1, None]) & (pos[None, :] <= jnp.minimum(end, n - 1)[:, None])


def _pool_axis(x: jax.Array, mask: jax.Array, axis: int, mode: str) -> jax.Array:
    """Reduce axis ``axis`` of ``x`` over each region of ``mask`` (n_out, n): the new axis has n_out entries."""
    x = jnp.moveaxis(x, axis, -1)[..., None, :]  # (..., 1, n)
    if mode == "max":
        out = jnp.max(jnp.where(mask, x, jnp.asarray(_lowest(x.dtype), x.dtype)), axis=-1)
    else:
        out = jnp.sum(jnp.where(mask, x, jnp.zeros((), x.dtype)), axis=-1, dtype=x.dtype)
    return jnp.moveaxis(out, -1, axis)


@op("fractional_pool_with_sequences")
def fractional_pool_with_sequences(x: Any, row_pooling_sequence: Any, col_pooling_sequence: Any,
                                   overlapping: bool = False, mode: str = "max") -> Any:
    """Max (``mode='max'``) or average (``'avg'``) of NHWC ``x`` over the regions bounded by the given row and
    column sequences (as ``FractionalMaxPool`` / ``FractionalAvgPool`` return them); deterministic.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor
    >>> x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    >>> seq = Tensor(np.array([0, 1, 4], np.int64))
    >>> fractional_pool_with_sequences(x, seq, seq, False, "max")[0, :, :, 0].asnumpy().tolist()
    [[0.0, 3.0], [12.0, 15.0]]
    """
    return _pool_core(x, row_pooling_sequence, col_pooling_sequence, bool(overlapping), mode)


@functools.partial(jax.jit, static_argnums=(3, 4))
def _pool_core(x: jax.Array, rows_seq: jax.Array, cols_seq: jax.Array, overlapping: bool, mode: str) -> jax.Array:
    rows = _region_mask(rows_seq, x.shape[1], overlapping)
    cols = _region_mask(cols_seq, x.shape[2], overlapping)
    out = _pool_axis(_pool_axis(x, rows, 1, mode), cols, 2, mode)  # max and sum are separable
    if mode == "max":
        return out
    count = (jnp.sum(rows, axis=1)[:, None] * jnp.sum(cols, axis=1)[None, :])[None, :, :, None]
    if jnp.issubdtype(x.dtype, jnp.integer):
        # C++ integer division, as MindSpore's kernel: rounds toward zero
        return jax.lax.div(out, jnp.broadcast_to(count.astype(x.dtype), out.shape))
    return (out / count.astype(x.dtype)).astype(x.dtype)


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5))
def _sequences(key: jax.Array, h: int, w: int, out_h: int, out_w: int, pseudo_random: bool
               ) -> tuple[jax.Array, jax.Array]:
    """Both pooling sequences from one key, in one compiled call (eagerly each jnp step would dispatch alone)."""
    row_key, col_key = jax.random.split(key)
    return (fractional_pooling_sequence(row_key, h, out_h, pseudo_random),
            fractional_pooling_sequence(col_key, w, out_w, pseudo_random))


def _fractional_init(p: Any) -> None:
    check(isinstance(p.pooling_ratio, list), p.name,
          f"'pooling_ratio' must be a list, but got {type(p.pooling_ratio).__name__}.", TypeError)
    for item in p.pooling_ratio:
        check(isinstance(item, float), p.name,
              f"each 'pooling_ratio' item must be a float, but got {type(item).__name__}.", TypeError)
    for arg in ("pseudo_random", "overlapping", "deterministic"):
        check(isinstance(getattr(p, arg), bool), p.name, f"'{arg}' must be a bool, but got "
              f"{type(getattr(p, arg)).__name__}.", TypeError)
    for arg in ("seed", "seed2"):
        value = getattr(p, arg)
        check(isinstance(value, int) and not isinstance(value, bool), p.name,
              f"'{arg}' must be an int, but got {type(value).__name__}.", TypeError)


def _fractional_call(p: Any, x: Tensor, mode: str) -> tuple[Tensor, Tensor, Tensor]:
    check(isinstance(x, Tensor), p.name, f"'x' must be a Tensor, but got {type(x).__name__}.", TypeError)
    allowed = ("float32", "float64", "int32", "int64")
    check(str(np.dtype(x._value.dtype)) in allowed, p.name,
          f"'x' must have dtype in {allowed}, but got {x.dtype}.", TypeError)
    check(x.ndim == 4, p.name, f"'x' must be 4-D (N, H, W, C), but got shape {tuple(x.shape)}.")
    ratio = p.pooling_ratio
    check(len(ratio) == 4, p.name, f"'pooling_ratio' must have 4 elements, but got {len(ratio)}.")
    check(ratio[0] == 1.0 and ratio[3] == 1.0, p.name,
          f"pooling on the batch and channel dimensions is not supported: 'pooling_ratio' must be "
          f"[1.0, row, col, 1.0], but got {ratio}.")
    check(ratio[1] >= 1.0 and ratio[2] >= 1.0, p.name, f"'pooling_ratio' row and col must be >= 1.0, but got {ratio}.")
    h, w = x.shape[1], x.shape[2]
    out_h, out_w = int(h / ratio[1]), int(w / ratio[2])
    check(out_h > 0 and out_w > 0, p.name, f"'pooling_ratio' {ratio} is too large for input shape {tuple(x.shape)}.")
    if p.deterministic and (p.seed or p.seed2):
        key = jax.random.PRNGKey(np.uint32((p.seed * 0x9E3779B1 + p.seed2) & 0xFFFFFFFF))
    else:
        key = _seed.next_key()
    rows, cols = _sequences(key, h, w, out_h, out_w, p.pseudo_random)
    y = fractional_pool_with_sequences(x, wrap(rows), wrap(cols), p.overlapping, mode)
    return y, wrap(rows), wrap(cols)


_FRACTIONAL_ARGS = [("pooling_ratio", _REQUIRED), ("pseudo_random", False), ("overlapping", False),
                    ("deterministic", False), ("seed", 0), ("seed2", 0)]
_FRACTIONAL_DOC = ("Fractional {} pooling of NHWC ``x`` (TensorFlow's): returns ``(y, row_pooling_sequence, "
                   "col_pooling_sequence)``, the sequences int64 region boundaries, ``y`` the pool over them "
                   "(``fractional_pool_with_sequences``). The sequences are random: with ``deterministic=True`` and "
                   "a non-zero seed they are reproducible, but they differ from MindSpore's generator.")
FractionalMaxPool = primitive_class("FractionalMaxPool", _FRACTIONAL_ARGS,
                                    lambda p, x: _fractional_call(p, x, "max"), _FRACTIONAL_DOC.format("max"),
                                    __name__, _fractional_init)
FractionalAvgPool = primitive_class("FractionalAvgPool", _FRACTIONAL_ARGS,
                                    lambda p, x: _fractional_call(p, x, "avg"), _FRACTIONAL_DOC.format("average"),
                                    __name__, _fractional_init)


# ---- TensorDump ---------------------------------------------------------------------------------------------
def _tensor_dump_init(p: Any) -> None:
    check(p.input_output in ("in", "out"), p.name,
          f"The 'input_output' argument should be one of ['in', 'out'], but got: {p.input_output}")


def _tensor_dump_call(p: Any, file: str, input_x: Tensor) -> None:
    check(isinstance(file, str), p.name, f"the type of 'file' should be 'str', but got type "
          f"'{type(file).__name__}'.", TypeError)
    check(isinstance(input_x, Tensor), p.name, f"the type of 'input_x' should be 'Tensor', but got type "
          f"'{type(input_x).__name__}'.", TypeError)
    # MindSpore 2.10 names the file '<file>_<dtype>_<id>.npy' for either 'input_output' value (it selects the
    # sliced input or output of the consuming op in parallel graphs), so the dump itself is always the 'out' form.
    tensordump(file, input_x, "out")


TensorDump = primitive_class(
    "TensorDump", [("input_output", "out")], _tensor_dump_call,
    "``TensorDump()(file, x)`` saves ``x`` to ``<file>_<dtype>_<id>.npy`` (``ops.tensordump``); inside a compiled "
    "step the file is written when the step runs.", __name__, _tensor_dump_init)


# ---- Dilation2D / DepthwiseConv2dNative ---------------------------------------------------------------------
@op("dilation2d")
def dilation2d(x: Any, filter: Any, stride: tuple[int, int], dilation: tuple[int, int], pad_mode: str) -> Any:
    """Grey-scale morphological dilation of NCHW ``x`` by the per-channel ``filter`` (C, kh, kw):
    ``y[n, c, i, j] = max_{a, b} x[n, c, i * sh + a * dh, j * sw + b * dw] + filter[c, a, b]``; ``pad_mode``
    'SAME' pads (MindSpore's 'same' split, extra at the bottom/right) with values that never win the max.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor
    >>> x = Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    >>> dilation2d(x, Tensor(np.zeros((1, 2, 2), np.float32)), (1, 1), (1, 1), "VALID")[0, 0].asnumpy().tolist()
    [[4.0, 5.0], [7.0, 8.0]]
    """
    c, kh, kw = filter.shape
    n = x.shape[0]
    pads = [(0, 0), (0, 0)]
    if pad_mode == "SAME":
        pads = [same_pads(x.shape[2 + i], (kh, kw)[i], stride[i], dilation[i]) for i in range(2)]
    # which window positions lie inside the input: padding must never win the max (a padded value plus a
    # negative filter entry could wrap around for integers, so padded positions are masked, not filled)
    inside = jnp.pad(jnp.ones((1, 1) + x.shape[2:], jnp.int8), ((0, 0), (0, 0), pads[0], pads[1]))
    x = jnp.pad(x, ((0, 0), (0, 0), pads[0], pads[1]))
    p = patches(x, (kh, kw), stride, "VALID", rhs_dilation=dilation)  # (N, C * kh * kw, oh, ow), channel-major
    p = p.reshape((n, c, kh * kw) + p.shape[2:])
    mask = patches(inside, (kh, kw), stride, "VALID", rhs_dilation=dilation).reshape((1, 1, kh * kw) + p.shape[3:])
    vals = p + filter.reshape(1, c, kh * kw, 1, 1).astype(x.dtype)
    return jnp.max(jnp.where(mask > 0, vals, jnp.asarray(_lowest(x.dtype), x.dtype)), axis=2)


def _dilation_arg(name: str, arg: str, value: Any) -> tuple[int, int]:
    """An int, (h, w) or (1, 1, h, w) (NCHW) as (h, w), as MindSpore 2.10's Dilation2D checks them."""
    check(isinstance(value, (int, tuple)) and not isinstance(value, bool), name,
          f"'{arg}' must be an int or a tuple, but got {type(value).__name__}.", TypeError)
    v = (value, value) if isinstance(value, int) else tuple(value)
    if len(v) == 4:
        check(v[0] == 1 and v[1] == 1, name, f"attr '{arg}' should be [1, 1, {arg}_height, {arg}_weigth] when "
              f"data_format is 'NCHW', but got {value}")
        v = v[2:]
    check(len(v) == 2 and all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in v), name,
          f"attr '{arg}' should be an positive int number or a tuple of two or four positive int numbers, but got "
          f"{value}")
    return int(v[0]), int(v[1])


def _dilation2d_init(p: Any) -> None:
    check(p.data_format != "NHWC", p.name, "NHWC format is not supported at present.")
    check(p.data_format == "NCHW", p.name, f"'data_format' must be 'NCHW', but got {p.data_format!r}.")
    check(p.pad_mode in ("VALID", "SAME", "valid", "same"), p.name,
          f"'pad_mode' must be one of ['VALID', 'SAME', 'valid', 'same'], but got {p.pad_mode!r}.")
    p.pad_mode = p.pad_mode.upper()
    stride = _dilation_arg(p.name, "stride", p.stride)
    check(all(1 <= s <= 255 for s in stride), p.name, f"stride should be in the range of [1, 255], but got {stride}.")
    p.stride, p.dilation = (1, 1) + stride, (1, 1) + _dilation_arg(p.name, "dilation", p.dilation)
    p.attrs.update(pad_mode=p.pad_mode, stride=p.stride, dilation=p.dilation)


def _dilation2d_call(p: Any, x: Tensor, filter: Tensor) -> Tensor:
    check(isinstance(x, Tensor) and isinstance(filter, Tensor), p.name, "'x' and 'filter' must be Tensors.",
          TypeError)
    check(x.ndim == 4, p.name, f"'x' must be 4-D (N, C, H, W), but got shape {tuple(x.shape)}.")
    check(filter.ndim == 3 and filter.shape[0] == x.shape[1], p.name,
          f"'filter' must have shape (C, kh, kw) with C = {x.shape[1]}, but got {tuple(filter.shape)}.")
    check(x.dtype == filter.dtype, p.name, f"'x' and 'filter' must have the same dtype, but got {x.dtype} and "
          f"{filter.dtype}.", TypeError)
    kernel = tuple((filter.shape[1 + i] - 1) * p.dilation[2 + i] + 1 for i in range(2))
    check(p.pad_mode == "SAME" or all(kernel[i] <= x.shape[2 + i] for i in range(2)), p.name,
          f"the dilated filter {kernel} is larger than the input {tuple(x.shape[2:])} with pad_mode 'VALID'.")
    return dilation2d(x, filter, p.stride[2:], p.dilation[2:], p.pad_mode)


Dilation2D = primitive_class(
    "Dilation2D", [("stride", _REQUIRED), ("dilation", _REQUIRED), ("pad_mode", "SAME"), ("data_format", "NCHW")],
    _dilation2d_call, "Grey-scale dilation of NCHW ``x`` by ``filter`` (C, kh, kw): see ``dilation2d``.", __name__,
    _dilation2d_init)


def _depthwise_init(p: Any) -> None:
    p.kernel_size = pair(p.kernel_size, p.name, "kernel_size")
    stride, dilation = pair(p.stride, p.name, "stride"), pair(p.dilation, p.name, "dilation")
    check(stride[0] == stride[1], p.name, f"The height and width of 'stride' must be equal, but got {stride}.")
    check(dilation[0] == dilation[1], p.name, f"The height and width of 'dilation' must be equal, but got {dilation}.")
    p.stride, p.dilation = (1, 1) + stride, (1, 1) + dilation
    check(isinstance(p.pad, (int, tuple)), p.name, f"'pad' must be an int or a tuple, but got {p.pad!r}.", TypeError)
    check(isinstance(p.pad_mode, str), p.name, f"'pad_mode' must be a str, but got {p.pad_mode!r}.", TypeError)
    pad = (p.pad,) * 4 if isinstance(p.pad, int) else p.pad
    check(len(pad) == 4, p.name, f"'pad size' must be 4, but got {len(pad)}.")
    check(p.pad_mode.lower() in ("valid", "same", "pad"), p.name,
          f"'pad_mode' must be one of ['valid', 'same', 'pad'], but got {p.pad_mode!r}.")
    check(p.pad_mode == "pad" or pad == (0, 0, 0, 0), p.name,
          f"the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not \"pad\", but got {p.pad}.")
    check(all(isinstance(i, int) and i >= 0 for i in pad), p.name, f"'pad' items must be >= 0, but got {pad}.")
    p.pad, p.pad_mode = pad, p.pad_mode.lower()
    check(p.mode == 3, p.name, f"'mode' must be 3, but got {p.mode!r}.")
    for arg in ("channel_multiplier", "group"):
        value = getattr(p, arg)
        check(isinstance(value, int) and not isinstance(value, bool) and value > 0, p.name,
              f"'{arg}' must be a positive int, but got {value!r}.")
    p.attrs.update(kernel_size=p.kernel_size, stride=p.stride, dilation=p.dilation, pad=p.pad, pad_mode=p.pad_mode)


def _depthwise_call(p: Any, x: Tensor, w: Tensor) -> Tensor:
    check(w.ndim == 4, p.name, f"'weight rank' must be 4, but got {w.ndim}.")
    check(x.ndim == 4, p.name, f"'x rank' must be 4, but got {x.ndim}.")
    check(x.shape[1] == w.shape[1], p.name, f"x_shape[1] ({x.shape[1]}) must equal w_shape[1] ({w.shape[1]}).")
    check(tuple(w.shape[2:]) == p.kernel_size, p.name,
          f"'kernel_size' {p.kernel_size} must equal w_shape[2:4] {tuple(w.shape[2:])}.")
    check(w.shape[0] == 1, p.name, f"the batch of 'weight' must be 1, but got {w.shape[0]}")
    # The weight (1, C, kh, kw) holds one filter per input channel: only channel_multiplier=1 has defined values
    # (MindSpore 2.10 has no CPU kernel for this deprecated Primitive).
    check(p.channel_multiplier == 1, p.name, f"only channel_multiplier=1 can be computed from a weight of shape "
          f"(1, C, kh, kw), but got channel_multiplier={p.channel_multiplier}.")
    weight = lookup("transpose")(w, (1, 0, 2, 3))
    return lookup("conv2d")(x, weight, None, p.stride[2:], p.pad_mode, p.pad, p.dilation[2:], x.shape[1])


DepthwiseConv2dNative = primitive_class(
    "DepthwiseConv2dNative", [("channel_multiplier", _REQUIRED), ("kernel_size", _REQUIRED), ("mode", 3),
                              ("pad_mode", "valid"), ("pad", 0), ("stride", 1), ("dilation", 1), ("group", 1)],
    _depthwise_call, "Depthwise convolution of NCHW ``x`` by ``w`` (1, C, kh, kw): ``ops.conv2d`` with one group per "
    "channel (channel_multiplier 1).", __name__, _depthwise_init)
