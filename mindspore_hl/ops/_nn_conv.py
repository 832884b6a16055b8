"""Convolutions (``conv1d``, ``conv2d``, ``conv_transpose2d``) and the padding rules shared with pooling.

The user-facing layout is MindSpore's NCHW. Internally the spatial ops run in NHWC: XLA:CPU's NHWC
convolutions and window reductions are faster, and the transposes between consecutive layers cancel
out when compiled (measured on a LeNet train step, see the layers' report).

Each op validates its arguments in Python, then calls a ``jax.jit``-ed core (static geometry): in
PYNATIVE_MODE one cached executable per call signature instead of one per primitive.
"""

from __future__ import annotations

import functools
from typing import Sequence

import jax
import jax.numpy as jnp
from jax import lax

from .._engine._precision import conv_precision
from ..common.tensor import Tensor
from ._core import check, op
from ._lowp import cast_weight
from ._nn_conv_depthwise import conv_depthwise, depthwise_suits
from ._nn_conv_gemm import conv_gemm, conv_xla, gemm_suits
from ._nn_conv_narrow import conv_narrow, narrow_suits

__all__ = ["conv1d", "conv2d", "conv_transpose2d"]

_PAD_MODES = ("same", "valid", "pad")


def to_nhwc(x: jax.Array) -> jax.Array:
    return jnp.transpose(x, (0, 2, 3, 1))


def to_nchw(x: jax.Array) -> jax.Array:
    return jnp.transpose(x, (0, 3, 1, 2))


def pair(v: int | Sequence[int], name: str, what: str, n: int = 2) -> tuple[int, ...]:
    """``v`` as an n-tuple of ints (an int is repeated)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return (v,) * n
    v = tuple(v)
    check(len(v) == n and all(isinstance(i, int) for i in v), name, f"'{what}' must be an int or a tuple of "
          f"{n} ints, but got {v!r}.")
    return v


def same_pads(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """MindSpore's 'same' padding of one spatial dim: total = max((ceil(H/s)-1)*s + (k-1)*d + 1 - H, 0)."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def explicit_pads(padding: int | Sequence[int], name: str, n: int = 2) -> tuple[tuple[int, int], ...]:
    """MindSpore padding -> ((lo, hi),) * n: an int, n ints (symmetric) or 2n ints (top, bottom, left, right)."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        check(padding >= 0, name, f"'padding' must be >= 0, but got {padding}.")
        return ((padding, padding),) * n
    p = tuple(padding)
    check(all(isinstance(i, int) and i >= 0 for i in p) and len(p) in (n, 2 * n), name,
          f"'padding' must be a non-negative int, {n} ints or {2 * n} ints, but got {padding!r}.")
    if len(p) == n:
        return tuple((i, i) for i in p)
    return tuple((p[2 * i], p[2 * i + 1]) for i in range(n))


def resolve_pads(name: str, pad_mode: str, padding: int | Sequence[int] | str, sizes: Sequence[int],
                 kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Per-dim (lo, hi) padding for pad_mode 'same' / 'valid' / 'pad' (MindSpore's rules)."""
    if isinstance(padding, str):  # newer functional API: padding='same' / 'valid'
        pad_mode, padding = padding, 0
    mode = str(pad_mode).lower()
    check(mode in _PAD_MODES, name, f"'pad_mode' must be one of {_PAD_MODES}, but got {pad_mode!r}.")
    n = len(sizes)
    if mode == "same":
        return tuple(same_pads(sizes[i], kernel[i], stride[i], dilation[i]) for i in range(n))
    if mode == "valid":
        return ((0, 0),) * n
    return explicit_pads(padding, name, n)


def _check_conv(name, shape, w, groups, nd):
    check(len(shape) == nd + 2, name, f"'input' must be {nd + 2}-D (N, C, {'H, W' if nd == 2 else 'L'}), but got "
          f"shape {list(shape)}.")
    check(w.ndim == nd + 2, name, f"'weight' must be {nd + 2}-D, but got shape {list(w.shape)}.")
    check(isinstance(groups, int) and groups >= 1 and w.shape[0] % groups == 0, name,
          f"'groups' ({groups}) must divide the output channels {w.shape[0]}.")
    check(shape[1] == w.shape[1] * groups, name, f"the input channels ({shape[1]}) must equal weight.shape[1] * "
          f"groups ({w.shape[1]} * {groups}); input shape {list(shape)}, weight shape {list(w.shape)}.")


def conv_nhwc(x: jax.Array, w: jax.Array, stride: tuple[int, ...], pads: Sequence[Sequence[int]],
              dilation: tuple[int, ...], groups: int) -> jax.Array:
    """2-D convolution of an NHWC array with an OIHW weight (the one internal convolution).

    Shapes XLA:CPU's convolution is slow at are computed in other forms: 1x1 kernels and tiny outputs as
    matrix products on the CPU (``_nn_conv_gemm``), few input channels with a blocked width on every platform
    (``_nn_conv_narrow``; on an H100 too, where LeNet5's step is 1.4-1.5x faster with them than with XLA:GPU's),
    depthwise convolutions on the CPU as shifted views (``_nn_conv_depthwise``).
    """
    w = cast_weight(w, x.dtype)
    if depthwise_suits(x.shape, w.shape, groups):
        return conv_depthwise(x, w, stride, pads, dilation)
    if gemm_suits(x.shape, w.shape, stride, pads, dilation, groups, x.dtype):
        return conv_gemm(x, w, stride, pads, dilation)
    if narrow_suits(w.shape, groups):
        return conv_narrow(x, w, tuple(stride), tuple(tuple(p) for p in pads), tuple(dilation))
    return conv_xla(x, w, stride, pads, dilation, groups)


@op("conv2d")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           pad_mode: str = "valid", padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1,
           groups: int = 1, *, data_format: str = "NCHW") -> Tensor:
    """2-D convolution (MindSpore ``ops.conv2d``).

    Args:
        input: (N, C_in, H, W) (or NHWC with ``data_format='NHWC'``). weight: (C_out, C_in/groups, kH, kW).
        bias: (C_out,) or None. stride, dilation: int or 2 ints.
        pad_mode: 'valid', 'same' (output ceil(H/stride), extra padding at the bottom/right) or 'pad'.
        padding: with 'pad': an int, (pad_h, pad_w) or (top, bottom, left, right). 'same'/'valid' also accepted.
    Returns:
        (N, C_out, H_out, W_out).
    """
    check(data_format in ("NCHW", "NHWC"), "conv2d", f"'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}.")
    nhwc = data_format == "NHWC"
    shape = tuple(input.shape)
    if nhwc and len(shape) == 4:
        shape = (shape[0], shape[3], shape[1], shape[2])
    _check_conv("conv2d", shape, weight, groups, 2)
    stride, dilation = pair(stride, "conv2d", "stride"), pair(dilation, "conv2d", "dilation")
    pads = resolve_pads("conv2d", pad_mode, padding, shape[2:], weight.shape[2:], stride, dilation)
    return _conv2d_core(input, weight, bias, stride, pads, dilation, groups, nhwc)


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def _conv2d_core(x, w, b, stride, pads, dilation, groups, nhwc):
    y = conv_nhwc(x if nhwc else to_nhwc(x), w, stride, pads, dilation, groups)
    if b is not None:
        y = y + b.astype(y.dtype)
    return y if nhwc else to_nchw(y)


@op("conv1d")
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           pad_mode: str = "valid", padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1,
           groups: int = 1) -> Tensor:
    """1-D convolution (MindSpore ``ops.conv1d``): input (N, C_in, L), weight (C_out, C_in/groups, K)."""
    _check_conv("conv1d", tuple(input.shape), weight, groups, 1)
    stride, dilation = pair(stride, "conv1d", "stride", 1), pair(dilation, "conv1d", "dilation", 1)
    pads = resolve_pads("conv1d", pad_mode, padding, input.shape[2:], weight.shape[2:], stride, dilation)
    return _conv1d_core(input, weight, bias, stride, pads, dilation, groups)


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6))
def _conv1d_core(x, w, b, stride, pads, dilation, groups):
    y = lax.conv_general_dilated(jnp.transpose(x, (0, 2, 1)), jnp.transpose(w, (2, 1, 0)).astype(x.dtype),
                                 stride, pads, rhs_dilation=dilation, dimension_numbers=("NWC", "WIO", "NWC"),
                                 feature_group_count=groups, precision=conv_precision())
    if b is not None:
        y = y + b.astype(y.dtype)
    return jnp.transpose(y, (0, 2, 1))


def transpose_out_size(size: int, kernel: int, stride: int, dilation: int, lo: int, hi: int,
                       output_padding: int) -> int:
    return (size - 1) * stride - lo - hi + dilation * (kernel - 1) + 1 + output_padding


@op("conv_transpose2d")
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
                     padding: int | tuple[int, ...] = 0, output_padding: int | tuple[int, ...] = 0,
                     groups: int = 1, dilation: int | tuple[int, ...] = 1, *, pad_mode: str = "pad") -> Tensor:
    """Transposed 2-D convolution (the gradient of ``conv2d`` w.r.t. its input).

    Args:
        input: (N, C_in, H, W) or (C_in, H, W). weight: (C_in, C_out/groups, kH, kW). bias: (C_out,) or None.
        padding: int, (pad_h, pad_w) or (top, bottom, left, right) -- removed from the output.
        output_padding: extra size added to one side of the output.
        pad_mode: 'pad' (use ``padding``), 'same' (output H*stride) or 'valid' (output (H-1)*stride + d*(k-1) + 1).
    Returns:
        (N, C_out, H_out, W_out), H_out = (H-1)*stride - pad_top - pad_bottom + d*(kH-1) + 1 + output_padding.
    """
    name = "conv_transpose2d"
    unbatched = input.ndim == 3  # (C_in, H, W), as MindSpore documents
    if unbatched:
        input = input[None]
    check(input.ndim == 4 and weight.ndim == 4, name, f"'input' must be 3-D or 4-D and 'weight' 4-D, but got "
          f"shapes {list(input.shape)} and {list(weight.shape)}.")
    check(input.shape[1] == weight.shape[0], name, f"the input channels ({input.shape[1]}) must equal "
          f"weight.shape[0] ({weight.shape[0]}); weight is (C_in, C_out/groups, kH, kW).")
    check(weight.shape[0] % groups == 0, name, f"'groups' ({groups}) must divide the input channels {weight.shape[0]}.")
    stride, dilation = pair(stride, name, "stride"), pair(dilation, name, "dilation")
    out_pad = pair(output_padding, name, "output_padding")
    kernel = tuple(weight.shape[2:])
    mode = str(pad_mode).lower()
    check(mode in _PAD_MODES, name, f"'pad_mode' must be one of {_PAD_MODES}, but got {pad_mode!r}.")
    sizes = input.shape[2:]
    if mode == "pad":
        pads = explicit_pads(padding, name)
        outs = [transpose_out_size(sizes[i], kernel[i], stride[i], dilation[i], *pads[i], out_pad[i]) for i in range(2)]
    elif mode == "valid":
        pads = ((0, 0), (0, 0))
        outs = [transpose_out_size(sizes[i], kernel[i], stride[i], dilation[i], 0, 0, out_pad[i]) for i in range(2)]
    else:
        outs = [sizes[i] * stride[i] for i in range(2)]
        pads = tuple(same_pads(outs[i], kernel[i], stride[i], dilation[i]) for i in range(2))
    # As a stride-1 convolution of the stride-dilated input with the flipped, in/out-swapped kernel.
    conv_pads, crops = [], []
    for i in range(2):
        lo = dilation[i] * (kernel[i] - 1) - pads[i][0]
        hi = outs[i] - 1 + pads[i][0] - (sizes[i] - 1) * stride[i]
        conv_pads.append((max(lo, 0), max(hi, 0)))
        crops.append((max(-lo, 0), max(-hi, 0)))
    out = _conv_transpose2d_core(input, weight, bias, stride, dilation, groups, tuple(conv_pads), tuple(crops))
    return out[0] if unbatched else out


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def _conv_transpose2d_core(x, weight, bias, stride, dilation, groups, conv_pads, crops):
    cin, cout_g, kh, kw = weight.shape
    w = weight.reshape(groups, cin // groups, cout_g, kh, kw).transpose(0, 2, 1, 3, 4)
    w = w.reshape(groups * cout_g, cin // groups, kh, kw)[:, :, ::-1, ::-1]
    y = lax.conv_general_dilated(to_nhwc(x), jnp.transpose(w, (2, 3, 1, 0)).astype(x.dtype), (1, 1),
                                 conv_pads, lhs_dilation=stride, rhs_dilation=dilation,
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups,
                                 precision=conv_precision())
    (ct, cb), (cl, cr) = crops
    y = y[:, ct:y.shape[1] - cb, cl:y.shape[2] - cr, :]
    if bias is not None:
        y = y + bias.astype(y.dtype)
    return to_nchw(y)


def pool_out_size(size: int, kernel: int, stride: int, dilation: int, lo: int, hi: int, ceil_mode: bool) -> int:
    """Output length of a window op over ``size`` padded by (lo, hi); torch/MindSpore ceil_mode rule."""
    eff = dilation * (kernel - 1) + 1
    span = size + lo + hi - eff
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + lo:  # the last window must start inside the input
        out -= 1
    return max(out, 0)
