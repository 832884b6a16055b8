"""N-d window ops: 3-D pooling and convolution, adaptive pools, LP pools (fold / unfold / unpooling: ``_nn_fold``).

Layouts are MindSpore's channel-first ones (NCL, NCHW, NCDHW). Everything is built from ``lax`` window
reductions, convolutions, gathers and scatters, so ``jax.grad`` differentiates each op.
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._engine._precision import conv_precision
from ..common.tensor import Tensor
from ._core import check, op
from ._nn_conv import explicit_pads, pair, pool_out_size, resolve_pads, same_pads, transpose_out_size
from ._nn_fold import __all__ as _fold_all
from ._nn_fold import _check_rank, col2im, fold, max_unpool1d, max_unpool2d, max_unpool3d, unfold  # noqa: F401
from ._nn_pool import _adaptive_core, _adaptive_matrix

__all__ = ["adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d", "adaptive_avg_pool2d_ext",
           "avg_pool3d", "max_pool3d", "conv3d", "conv3d_transpose", "lp_pool1d", "lp_pool2d"] + _fold_all


def _lowest(dtype):
    return -jnp.inf if jnp.issubdtype(dtype, jnp.floating) else jnp.iinfo(dtype).min


def _geometry(name, sizes, kernel, stride, pads, dilation, ceil_mode):
    """(output sizes, per-dim (lo, hi) pads including the ceil-mode overhang)."""
    check(all(k > 0 for k in kernel) and all(s > 0 for s in stride), name,
          f"'kernel_size' and 'stride' must be positive, but got {kernel} and {stride}.")
    outs = tuple(pool_out_size(sizes[i], kernel[i], stride[i], dilation[i], pads[i][0], pads[i][1], ceil_mode)
                 for i in range(len(sizes)))
    check(all(o > 0 for o in outs), name, f"the input spatial size {tuple(sizes)} is too small for kernel_size "
          f"{kernel} (output would be {outs}).")
    full = tuple((pads[i][0], max((outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 - sizes[i]
                                  - pads[i][0], 0)) for i in range(len(sizes)))
    return outs, full


def _window_counts(sizes, kernel, stride, full, outs, pads, include):
    """Elements per window (product over dims), counting explicit padding when ``include``, never the overhang."""
    total = np.ones((), np.float64)
    for i in range(len(sizes)):
        start = np.arange(outs[i]) * stride[i] - full[i][0]
        lo, hi = (-pads[i][0], sizes[i] + pads[i][1]) if include else (0, sizes[i])
        cnt = np.minimum(start + kernel[i], hi) - np.maximum(start, lo)
        total = np.multiply.outer(total, cnt)
    return total


def _window_sum(x, kernel, stride, full, nd):
    lead = x.ndim - nd
    return lax.reduce_window(x, jnp.zeros((), x.dtype), lax.add, (1,) * lead + tuple(kernel),
                             (1,) * lead + tuple(stride), ((0, 0),) * lead + tuple(full))


def window_max(x: jax.Array, kernel: Sequence[int], stride: Sequence[int], full: Sequence[tuple[int, int]],
               dilation: Sequence[int], nd: int, with_indices: bool = False) -> jax.Array | tuple[jax.Array, jax.Array]:
    """Max over the last ``nd`` dims' windows; with the flat (spatial) index of each window's first maximum."""
    lead = x.ndim - nd
    dims, strides = (1,) * lead + tuple(kernel), (1,) * lead + tuple(stride)
    pads, dil = ((0, 0),) * lead + tuple(full), (1,) * lead + tuple(dilation)
    y = lax.reduce_window(x, jnp.array(_lowest(x.dtype), x.dtype), lax.max, dims, strides, pads, window_dilation=dil)
    if not with_indices:
        return y
    spatial = x.shape[lead:]
    idx = jnp.broadcast_to(jnp.arange(math.prod(spatial), dtype=jnp.int64).reshape(spatial), x.shape)

    def pick(a, b):
        (av, ai), (bv, bi) = a, b
        take = (bv > av) | ((bv == av) & (bi < ai) & (bi >= 0)) | (ai < 0)
        return jnp.where(take, bv, av), jnp.where(take, bi, ai)

    init = (jnp.array(_lowest(x.dtype), x.dtype), jnp.array(-1, jnp.int64))
    _, index = lax.reduce_window((lax.stop_gradient(x), idx), init, pick, dims, strides, pads, window_dilation=dil)
    return y, index


@op("max_pool3d")
def max_pool3d(x: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """3-D max pooling of (N, C, D, H, W) or (C, D, H, W); indices are flat (d * H * W + h * W + w), int64."""
    name = "max_pool3d"
    _check_rank(name, x, (4, 5), "(N, )C, D, H, W")
    kernel = pair(kernel_size, name, "kernel_size", 3)
    stride = kernel if stride is None or stride == () else pair(stride, name, "stride", 3)
    dilation, pads = pair(dilation, name, "dilation", 3), explicit_pads(padding, name, 3)
    for k, (lo, hi) in zip(kernel, pads):
        check(max(lo, hi) * 2 <= k, name, f"'padding' {pads} must be at most half of 'kernel_size' {kernel}.")
    outs, full = _geometry(name, x.shape[-3:], kernel, stride, pads, dilation, ceil_mode)
    return window_max(x, kernel, stride, full, dilation, 3, bool(return_indices))


@op("avg_pool3d")
def avg_pool3d(input_x: Tensor, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
               padding: int | tuple[int, ...] = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int = 0) -> Tensor:
    """3-D average pooling of (N, C, D, H, W) or (C, D, H, W).

    Args:
        padding: an int, 3 ints or 6 ints (head, tail, top, bottom, left, right) of zero padding.
        count_include_pad: divide by the window size including explicit padding (never the ceil-mode overhang).
        divisor_override: divide by this instead (0: not used).
    """
    name = "avg_pool3d"
    _check_rank(name, input_x, (4, 5), "(N, )C, D, H, W")
    kernel = pair(kernel_size, name, "kernel_size", 3)
    stride = pair(stride, name, "stride", 3)
    pads = explicit_pads(padding, name, 3)
    outs, full = _geometry(name, input_x.shape[-3:], kernel, stride, pads, (1, 1, 1), ceil_mode)
    s = _window_sum(input_x, kernel, stride, full, 3)
    if divisor_override:
        return s / jnp.asarray(divisor_override, s.dtype)
    cnt = _window_counts(input_x.shape[-3:], kernel, stride, full, outs, pads, bool(count_include_pad))
    return s / jnp.asarray(cnt, s.dtype)


def _lp_pool(name, x, norm_type, kernel_size, stride, ceil_mode, nd):
    _check_rank(name, x, (nd + 1, nd + 2), "(N, )C, " + ("L" if nd == 1 else "H, W"))
    kernel = pair(kernel_size, name, "kernel_size", nd)
    stride = kernel if stride is None else pair(stride, name, "stride", nd)
    pads = ((0, 0),) * nd
    outs, full = _geometry(name, x.shape[-nd:], kernel, stride, pads, (1,) * nd, ceil_mode)
    return _lp_core(x, float(norm_type), kernel, stride, full, outs)


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5))
def _lp_core(x, p, kernel, stride, full, outs):
    nd = len(kernel)
    pads = ((0, 0),) * nd
    s = _window_sum(jnp.power(x, jnp.asarray(p, x.dtype)), kernel, stride, full, nd)
    # MindSpore averages (over the in-bounds part of a window) and multiplies by the kernel size.
    cnt = _window_counts(x.shape[-nd:], kernel, stride, full, outs, pads, False)
    s = s / jnp.asarray(cnt, s.dtype) * jnp.asarray(math.prod(kernel), s.dtype)
    return jnp.power(jnp.sign(s) * jax.nn.relu(jnp.abs(s)), jnp.asarray(1.0 / p, s.dtype))


@op("lp_pool1d")
def lp_pool1d(x: Tensor, norm_type: float, kernel_size: int | tuple[int, ...],
              stride: int | tuple[int, ...] | None = None, ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over L: (sum over the window of x ** p) ** (1 / p); x is (N, C, L) or (C, L)."""
    return _lp_pool("lp_pool1d", x, norm_type, kernel_size, stride, ceil_mode, 1)


@op("lp_pool2d")
def lp_pool2d(x: Tensor, norm_type: float, kernel_size: int | tuple[int, ...],
              stride: int | tuple[int, ...] | None = None, ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over (H, W): (sum over the window of x ** p) ** (1 / p); x is (N, C, H, W)."""
    return _lp_pool("lp_pool2d", x, norm_type, kernel_size, stride, ceil_mode, 2)


def _output_sizes(name, output_size, sizes):
    nd = len(sizes)
    if isinstance(output_size, int):
        output_size = (output_size,) * nd
    output_size = tuple(output_size)
    check(len(output_size) == nd, name, f"'output_size' must be an int or {nd} values, but got {output_size!r}.")
    outs = tuple(sizes[i] if output_size[i] is None else int(output_size[i]) for i in range(nd))
    check(all(o > 0 for o in outs), name, f"'output_size' must be positive, but got {output_size!r}.")
    return outs


@op("adaptive_avg_pool3d")
def adaptive_avg_pool3d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Adaptive 3-D average pooling of (N, C, D, H, W) or (C, D, H, W) to ``output_size`` (int or 3 ints / None)."""
    name = "adaptive_avg_pool3d"
    _check_rank(name, input, (4, 5), "(N, )C, D, H, W")
    outs = _output_sizes(name, output_size, input.shape[-3:])
    ms = [jnp.asarray(_adaptive_matrix(s, o), input.dtype) for s, o in zip(input.shape[-3:], outs)]
    return jnp.einsum("...dhw,ad,bh,cw->...abc", input, *ms)


def _adaptive_max(name, x, output_size, return_indices, nd, index_dtype):
    _check_rank(name, x, (nd + 1, nd + 2), "(N, )C, " + ("H, W" if nd == 2 else "D, H, W"))
    sizes = x.shape[-nd:]
    return _adaptive_max_core(x, _output_sizes(name, output_size, sizes), bool(return_indices), index_dtype)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _adaptive_max_core(x, outs, return_indices, index_dtype):
    nd = len(outs)
    sizes = x.shape[-nd:]
    lead = x.ndim - nd
    v = x
    flat = np.zeros((), np.int64)  # static flat spatial index of every gathered element, shaped like v's tail
    for i, (size, out) in enumerate(zip(sizes, outs)):
        starts = np.array([(j * size) // out for j in range(out)])
        ends = np.array([-(-((j + 1) * size) // out) for j in range(out)])
        width = int((ends - starts).max())
        taps = starts[:, None] + np.arange(width)[None, :]                # (out, width) input positions
        valid = taps < ends[:, None]
        taps = np.minimum(taps, size - 1)
        # This dim's windows become two axes (out, width); the dims after it are gathered later.
        axis = lead + 2 * i
        v = jnp.take(v, jnp.asarray(taps.reshape(-1)), axis=axis)
        v = v.reshape(v.shape[:axis] + (out, width) + v.shape[axis + 1:])
        mask = valid.reshape((1,) * axis + (out, width) + (1,) * (v.ndim - axis - 2))
        v = jnp.where(mask, v, jnp.array(_lowest(x.dtype), x.dtype))
        flat = flat[..., None, None] * size + taps
    # (..., o1, k1, o2, k2[, o3, k3]) -> (..., o1, o2[, o3], k1 * k2[ * k3])
    perm = tuple(range(lead)) + tuple(lead + 2 * i for i in range(nd)) + tuple(lead + 2 * i + 1 for i in range(nd))
    v = jnp.transpose(v, perm).reshape(x.shape[:lead] + outs + (-1,))
    flat = np.transpose(flat, tuple(2 * i for i in range(nd)) + tuple(2 * i + 1 for i in range(nd)))
    flat = flat.reshape(outs + (-1,))
    y = jnp.max(v, axis=-1)
    if not return_indices:
        return y
    first = jnp.argmax(lax.stop_gradient(v), axis=-1)
    index = jnp.take_along_axis(jnp.broadcast_to(jnp.asarray(flat), v.shape), first[..., None], axis=-1)[..., 0]
    return y, index.astype(index_dtype)


@op("adaptive_max_pool2d")
def adaptive_max_pool2d(input: Tensor, output_size: int | tuple[int, ...],
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive 2-D max pooling of (N, C, H, W) or (C, H, W); indices are flat (h * W + w), int64."""
    return _adaptive_max("adaptive_max_pool2d", input, output_size, return_indices, 2, jnp.int64)


@op("adaptive_max_pool3d")
def adaptive_max_pool3d(input: Tensor, output_size: int | tuple[int, ...],
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive 3-D max pooling of (N, C, D, H, W) or (C, D, H, W); indices flat over (D, H, W), int32
    (as MindSpore)."""
    return _adaptive_max("adaptive_max_pool3d", input, output_size, return_indices, 3, jnp.int32)


@op("adaptive_avg_pool2d_ext")
def adaptive_avg_pool2d_ext(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Adaptive 2-D average pooling of (N, C, H, W) or (C, H, W) (``output_size``: int or 2 ints / None)."""
    name = "adaptive_avg_pool2d_ext"
    _check_rank(name, input, (3, 4), "(N, )C, H, W")
    return _adaptive_core(input, *_output_sizes(name, output_size, input.shape[-2:]))  # adaptive_avg_pool2d's


@op("conv3d")
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           pad_mode: str = "valid", padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1,
           groups: int = 1) -> Tensor:
    """3-D convolution: input (N, C_in, D, H, W), weight (C_out, C_in / groups, kD, kH, kW), bias (C_out,).

    ``pad_mode``: 'valid', 'same' or 'pad' (``padding``: an int, 3 ints or 6 ints (head, tail, top, bottom,
    left, right)).
    """
    name = "conv3d"
    check(input.ndim == 5 and weight.ndim == 5, name, f"'input' and 'weight' must be 5-D, but got shapes "
          f"{list(input.shape)} and {list(weight.shape)}.")
    check(groups >= 1 and weight.shape[0] % groups == 0 and input.shape[1] == weight.shape[1] * groups, name,
          f"the input channels ({input.shape[1]}) must equal weight.shape[1] * groups ({weight.shape[1]} * "
          f"{groups}) and groups must divide the output channels {weight.shape[0]}.")
    stride, dilation = pair(stride, name, "stride", 3), pair(dilation, name, "dilation", 3)
    pads = resolve_pads(name, pad_mode, padding, input.shape[2:], weight.shape[2:], stride, dilation)
    y = lax.conv_general_dilated(input, weight.astype(input.dtype), stride, pads, rhs_dilation=dilation,
                                 dimension_numbers=("NCDHW", "OIDHW", "NCDHW"), feature_group_count=groups,
                                 precision=conv_precision())
    if bias is not None:
        y = y + bias.astype(y.dtype).reshape(-1, 1, 1, 1)
    return y


def conv_transpose_nd(name: str, x: jax.Array, weight: jax.Array, stride: tuple[int, ...],
                      pads: Sequence[Sequence[int]], dilation: tuple[int, ...], groups: int,
                      outs: tuple[int, ...]) -> jax.Array:
    """Transposed N-d convolution (NC...) with a (C_in, C_out / groups, k...) weight and output sizes ``outs``.

    Computed as a stride-1 convolution of the stride-dilated input with the flipped, in/out-swapped kernel.
    """
    nd = x.ndim - 2
    cin, cout_g = weight.shape[:2]
    kernel = weight.shape[2:]
    check(x.shape[1] == cin and cin % groups == 0, name, f"the input channels ({x.shape[1]}) must equal "
          f"weight.shape[0] ({cin}), divisible by groups ({groups}); weight is (C_in, C_out/groups, k...).")
    w = weight.reshape((groups, cin // groups, cout_g) + kernel).swapaxes(1, 2)
    w = jnp.flip(w.reshape((groups * cout_g, cin // groups) + kernel), axis=tuple(range(2, 2 + nd)))
    conv_pads, crops = [], []
    for i in range(nd):
        lo = dilation[i] * (kernel[i] - 1) - pads[i][0]
        hi = outs[i] - 1 + pads[i][0] - (x.shape[2 + i] - 1) * stride[i]
        conv_pads.append((max(lo, 0), max(hi, 0)))
        crops.append((max(-lo, 0), max(-hi, 0)))
    # lax names at most 3 spatial dims by letter; its default (None) is the same NC.../OI.../NC... layout.
    spatial = "DHW"[-nd:]
    y = lax.conv_general_dilated(x, w.astype(x.dtype), (1,) * nd, conv_pads, lhs_dilation=stride,
                                 rhs_dilation=dilation, feature_group_count=groups,
                                 dimension_numbers=(("NC" + spatial, "OI" + spatial, "NC" + spatial) if nd <= 3
                                                    else None), precision=conv_precision())
    return y[(slice(None), slice(None)) + tuple(slice(lo, y.shape[2 + i] - hi) for i, (lo, hi) in enumerate(crops))]


def transpose_geometry(name: str, pad_mode: str, padding: int | Sequence[int], sizes: Sequence[int],
                       kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int],
                       output_padding: Sequence[int]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """(per-dim pads, output sizes) of a transposed convolution for MindSpore's pad modes."""
    nd = len(sizes)
    mode = str(pad_mode).lower()
    check(mode in ("same", "valid", "pad"), name, f"'pad_mode' must be 'same', 'valid' or 'pad', but got "
          f"{pad_mode!r}.")
    if mode == "same":
        outs = tuple(sizes[i] * stride[i] for i in range(nd))
        return tuple(same_pads(outs[i], kernel[i], stride[i], dilation[i]) for i in range(nd)), outs
    pads = explicit_pads(padding, name, nd) if mode == "pad" else ((0, 0),) * nd
    outs = tuple(transpose_out_size(sizes[i], kernel[i], stride[i], dilation[i], *pads[i], output_padding[i])
                 for i in range(nd))
    return pads, outs


@op("conv3d_transpose")
def conv3d_transpose(inputs: Tensor, weight: Tensor, pad_mode: str = "valid", padding: int | tuple[int, ...] = 0,
                     stride: int | tuple[int, ...] = 1, dilation: int | tuple[int, ...] = 1, group: int = 1,
                     output_padding: int | tuple[int, ...] = 0) -> Tensor:
    """Transposed 3-D convolution: inputs (N, C_in, D, H, W), weight (C_in, C_out / group, kD, kH, kW)."""
    name = "conv3d_transpose"
    check(inputs.ndim == 5 and weight.ndim == 5, name, f"'inputs' and 'weight' must be 5-D, but got shapes "
          f"{list(inputs.shape)} and {list(weight.shape)}.")
    stride, dilation = pair(stride, name, "stride", 3), pair(dilation, name, "dilation", 3)
    out_pad = pair(output_padding, name, "output_padding", 3)
    pads, outs = transpose_geometry(name, pad_mode, padding, inputs.shape[2:], weight.shape[2:], stride, dilation,
                                    out_pad)
    return conv_transpose_nd(name, inputs, weight, stride, pads, dilation, group, outs)


@op("Conv2DBackpropInput")
def conv_transpose_to(x: Tensor, weight: Tensor, stride: Sequence[int], pads: Sequence[Sequence[int]],
                      dilation: Sequence[int], groups: int, outs: Sequence[int]) -> Tensor:
    """Transposed N-d convolution to output sizes ``outs`` (the input gradient of a convolution; the
    ``Conv2DBackpropInput`` / ``Conv2DTranspose`` Primitives' computation; not in ``__all__``)."""
    check(x.ndim == weight.ndim and x.ndim >= 3, "Conv2DBackpropInput", f"'dout' and 'weight' must have the same "
          f"rank, but got shapes {list(x.shape)} and {list(weight.shape)}.")
    return conv_transpose_nd("Conv2DBackpropInput", x, weight, tuple(stride), tuple(pads), tuple(dilation), groups,
                             tuple(outs))
