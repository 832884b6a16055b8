"""Block ops: unfold / fold / col2im (sliding blocks and their adjoint) and max-unpooling (N-d).

Built from ``lax`` patch extraction, its linear transpose and scatters, so ``jax.grad`` differentiates them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..common.tensor import Tensor
from ._core import check, op
from ._nn_conv import explicit_pads, pair

__all__ = ["fold", "unfold", "col2im", "max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _check_rank(name, x, ranks, layout):
    check(x.ndim in ranks, name, f"'input' must be {' or '.join(f'{r}-D' for r in ranks)} ({layout}), but got shape "
          f"{list(x.shape)}.")


def patches(x: jax.Array, kernel: Sequence[int], stride: Sequence[int], padding: str | Sequence[tuple[int, int]],
            rhs_dilation: Sequence[int] | None = None) -> jax.Array:
    """``lax.conv_general_dilated_patches`` of (N, C, *spatial) ``x``: (N, C * prod(kernel), *out spatial),
    channel-major. ``padding``: 'SAME' / 'VALID' or (low, high) pairs.

    Floating inputs take XLA's patch convolution. Integer and bool inputs are gathered with strided slices
    instead, one per kernel offset: GPU convolutions take only floats, and a float convolution would round
    integers above 2**24.

    >>> import jax.numpy as jnp
    >>> x = jnp.arange(16, dtype=jnp.int32).reshape(1, 1, 4, 4)
    >>> patches(x, (2, 2), (2, 2), "VALID")[0, :, 0, 0].tolist()
    [0, 1, 4, 5]
    """
    kernel, stride = tuple(kernel), tuple(stride)
    dilation = tuple(rhs_dilation or (1,) * len(kernel))
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return lax.conv_general_dilated_patches(x, kernel, stride, padding, rhs_dilation=dilation)
    spatial = x.shape[2:]
    if isinstance(padding, str):
        span = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        padding = lax.padtype_to_pads(spatial, span, stride, padding)
    x = jnp.pad(x, [(0, 0), (0, 0)] + [tuple(p) for p in padding])
    out = [(x.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(len(kernel))]
    taken = []
    for offset in np.ndindex(*kernel):
        start = [0, 0] + [o * d for o, d in zip(offset, dilation)]
        limit = [x.shape[0], x.shape[1]] + [s + (n - 1) * st + 1 for s, n, st in zip(start[2:], out, stride)]
        taken.append(lax.slice(x, start, limit, [1, 1] + list(stride)))
    n, c = x.shape[:2]
    return jnp.stack(taken, axis=2).reshape((n, c * len(taken)) + tuple(out))


def _unfold_array(x, kernel, dilation, pads, stride):
    """(N, C * kh * kw, L) patches of (N, C, H, W), channel-major (MindSpore's / im2col's order)."""
    p = patches(x, kernel, stride, pads, rhs_dilation=dilation)
    return p.reshape(p.shape[0], p.shape[1], -1)


@op("unfold")
def unfold(input: Tensor, kernel_size: int | tuple[int, ...], dilation: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] = 0, stride: int | tuple[int, ...] = 1) -> Tensor:
    """Sliding local blocks of (N, C, H, W) as (N, C * kh * kw, L) (im2col); ``padding``: int or 2 ints."""
    name = "unfold"
    check(input.ndim == 4, name, f"'input' must be 4-D (N, C, H, W), but got shape {list(input.shape)}.")
    kernel, dilation = pair(kernel_size, name, "kernel_size"), pair(dilation, name, "dilation")
    stride, pads = pair(stride, name, "stride"), explicit_pads(padding, name, 2)
    check(all(k > 0 for k in kernel + dilation + stride), name, "'kernel_size', 'dilation' and 'stride' must be "
          f"positive, but got {kernel}, {dilation} and {stride}.")
    return _unfold_array(input, kernel, dilation, pads, stride)


def _fold_array(name, cols, out_hw, kernel, dilation, pads, stride):
    """The adjoint of unfold: (N, C * kh * kw, L) blocks summed into (N, C, H, W)."""
    n, ck, length = cols.shape
    k = kernel[0] * kernel[1]
    check(ck % k == 0, name, f"the input's dim 1 ({ck}) must be divisible by the kernel's size {kernel}.")
    blocks = [(out_hw[i] + sum(pads[i]) - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(2)]
    check(length == blocks[0] * blocks[1] and min(blocks) > 0, name, f"the input's last dim ({length}) must equal "
          f"the number of blocks {blocks[0]} * {blocks[1]} of output_size {tuple(out_hw)}.")
    proto = jax.ShapeDtypeStruct((n, ck // k) + tuple(out_hw), cols.dtype)
    (out,) = jax.linear_transpose(lambda x: _unfold_array(x, kernel, dilation, pads, stride), proto)(cols)
    return out


def _static_pair(name, what, value):
    """A shape argument given as ints or a Tensor (read on the host: it decides the output's shape)."""
    v = np.asarray(value).reshape(-1).tolist() if not isinstance(value, (int, tuple, list)) else value
    return pair(v if isinstance(v, int) else tuple(int(i) for i in v), name, what)


@op("fold")
def fold(input: Tensor, output_size: int | tuple[int, ...], kernel_size: int | tuple[int, ...],
         dilation: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] = 0,
         stride: int | tuple[int, ...] = 1) -> Tensor:
    """Combine sliding blocks (N, C * kh * kw, L) into (N, C, H, W), summing overlaps (col2im).

    ``output_size``: (H, W) as 2 ints or a 1-D int Tensor; ``padding``: int or 2 ints.
    """
    name = "fold"
    check(input.ndim == 3, name, f"'input' must be 3-D (N, C * kh * kw, L), but got shape {list(input.shape)}.")
    return _fold_array(name, input, _static_pair(name, "output_size", output_size),
                       pair(kernel_size, name, "kernel_size"), pair(dilation, name, "dilation"),
                       explicit_pads(padding, name, 2), pair(stride, name, "stride"))


@op("col2im")
def col2im(input_x: Tensor, output_size: int | tuple[int, ...], kernel_size: int | tuple[int, ...],
           dilation: int | tuple[int, ...], padding_value: int | tuple[int, ...],
           stride: int | tuple[int, ...]) -> Tensor:
    """Combine blocks (N, C, kh * kw, L) into (N, C, H, W), summing overlaps; ``output_size``: 1-D int Tensor."""
    name = "col2im"
    check(input_x.ndim == 4, name, f"'input_x' must be 4-D (N, C, kh * kw, L), but got shape "
          f"{list(input_x.shape)}.")
    n, c, k, length = input_x.shape
    return _fold_array(name, input_x.reshape(n, c * k, length), _static_pair(name, "output_size", output_size),
                       pair(kernel_size, name, "kernel_size"), pair(dilation, name, "dilation"),
                       explicit_pads(padding_value, name, 2), pair(stride, name, "stride"))


def _max_unpool(name, x, indices, kernel_size, stride, padding, output_size, nd):
    _check_rank(name, x, (nd + 1, nd + 2), "(N, )C, " + ", ".join("DHW"[3 - nd:] if nd > 1 else "L"))
    check(tuple(indices.shape) == tuple(x.shape), name, f"'indices' must have the shape of 'x' {list(x.shape)}, "
          f"but got {list(indices.shape)}.")
    kernel = pair(kernel_size, name, "kernel_size", nd)
    stride = kernel if stride is None or stride == 0 or stride == () else pair(stride, name, "stride", nd)
    pad = pair(padding, name, "padding", nd)
    sizes = x.shape[-nd:]
    default = tuple((sizes[i] - 1) * stride[i] - 2 * pad[i] + kernel[i] for i in range(nd))
    if output_size is None or len(tuple(output_size)) == 0:
        outs = default
    else:
        output_size = tuple(int(i) for i in output_size)
        check(len(output_size) in (nd, x.ndim), name, f"'output_size' must have {nd} or {x.ndim} values, but got "
              f"{output_size}.")
        outs = output_size[-nd:]
        for i in range(nd):
            check(abs(outs[i] - default[i]) < stride[i], name, f"'output_size' {outs} must be within one stride of "
                  f"the default {default}.")
    return _unpool_core(x, indices, tuple(outs))


@functools.partial(jax.jit, static_argnums=(2,))
def _unpool_core(x, indices, outs):
    nd = len(outs)
    lead = x.shape[:-nd]
    flat_x = x.reshape(-1, math.prod(x.shape[-nd:]))
    flat_i = indices.reshape(flat_x.shape).astype(jnp.int64)
    rows = jnp.arange(flat_x.shape[0], dtype=jnp.int64)[:, None]
    out = jnp.zeros((flat_x.shape[0], math.prod(outs)), x.dtype).at[rows, flat_i].set(flat_x, mode="drop")
    return out.reshape(lead + tuple(outs))


@op("max_unpool1d")
def max_unpool1d(x: Tensor, indices: Tensor, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] | None = None, padding: int | tuple[int, ...] = 0,
                 output_size: int | tuple[int, ...] | None = None) -> Tensor:
    """Inverse of max_pool1d: scatter (N, C, L_in) values to their flat ``indices`` in a zero (N, C, L_out)."""
    return _max_unpool("max_unpool1d", x, indices, kernel_size, stride, padding, output_size, 1)


@op("max_unpool2d")
def max_unpool2d(x: Tensor, indices: Tensor, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] | None = None, padding: int | tuple[int, ...] = 0,
                 output_size: int | tuple[int, ...] | None = None) -> Tensor:
    """Inverse of max_pool2d: scatter (N, C, H, W) values to their flat (h * W_out + w) ``indices``."""
    return _max_unpool("max_unpool2d", x, indices, kernel_size, stride, padding, output_size, 2)


@op("max_unpool3d")
def max_unpool3d(x: Tensor, indices: Tensor, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] | None = None, padding: int | tuple[int, ...] = 0,
                 output_size: int | tuple[int, ...] | None = None) -> Tensor:
    """Inverse of max_pool3d: scatter (N, C, D, H, W) values to their flat ``indices``."""
    return _max_unpool("max_unpool3d", x, indices, kernel_size, stride, padding, output_size, 3)
