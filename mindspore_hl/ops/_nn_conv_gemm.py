"""Convolution as matrix products (im2col): the NHWC convolution XLA:CPU is slow at, written with ``dot``.

XLA:CPU's convolution emitter is fast on large feature maps but pathological on small ones: a 3x3 convolution
whose output is 2x2 or 1x1 (ResNet's last stages on CIFAR-sized inputs) takes ~100x longer forward and
backward than the same arithmetic as a matrix product, and a 1x1 convolution's weight gradient ~2.5x longer
(measured per op on the 2-core CPU, docs/performance.md). For those shapes the convolution is computed as
``concat(strided slices of the padded input) @ weight``; autodiff of that expression is again a product for
the weight gradient (patches^T @ dy) and a product plus padded adds for the input gradient, and forward mode
(``ops.jvp``) keeps working since no custom derivative rule is involved.

Convolutions with few input channels are ``_nn_conv_narrow``'s; ``conv_xla`` (XLA's own form, every other
shape) is here, shared by both.
"""

from __future__ import annotations

import functools
from typing import Sequence

import jax
import jax.numpy as jnp
from jax import lax

from .._engine._precision import conv_precision
from ..common._device_arrays import default_platform
from ._lowp import mapped_product, product

__all__ = ["conv_xla", "gemm_suits", "conv_gemm"]


def conv_xla(x: jax.Array, w: jax.Array, stride: Sequence[int], pads: Sequence[tuple[int, int]],
             dilation: Sequence[int], groups: int = 1) -> jax.Array:
    """XLA's own NHWC convolution with an OIHW weight: the form the others here stand in for."""
    return lax.conv_general_dilated(x, jnp.transpose(w, (2, 3, 1, 0)), stride, pads, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups,
                                    precision=conv_precision())


def _out_size(size, kernel, stride, dilation, pads):
    return (size + pads[0] + pads[1] - dilation * (kernel - 1) - 1) // stride + 1


def gemm_suits(x_shape: tuple[int, ...], w_shape: tuple[int, ...], stride: Sequence[int], pads: Sequence[Sequence[int]],
               dilation: Sequence[int], groups: int, dtype: jnp.dtype | type) -> bool:
    """True where the matrix-product form beats XLA:CPU's convolution (static shapes; NHWC input, OIHW weight).

    On the CPU: 1x1 kernels always (a plain product, strided by slicing); larger kernels when the output is at
    most 4x4 positions, or at most 8x8 with at least 256 input channels, where the product's inner size is large
    enough. In bfloat16 also every output of at most 28x28 positions from at least 16 input channels: XLA:CPU
    computes a bfloat16 convolution in float32 after converting both operands, while the product runs on
    bfloat16 (AVX512-BF16) and the patches are moved as 16-bit patterns; on larger maps the nine-fold patch copy
    costs more than that gains (ResNet50 224x224 bfloat16 on one core: 914 ms per step with XLA's convolutions,
    857 ms with products up to 28x28 maps, slower again with the 56x56 maps too). Elsewhere never: on an H100,
    ResNet50 (224x224, batch 256) trains 2.9% faster in float32 and 1.7% in bfloat16 with XLA:GPU's own
    convolutions for these shapes.
    """
    if groups != 1 or default_platform() != "cpu":
        return False
    _, ci, kh, kw = w_shape
    if kh == kw == 1:
        return True
    ho, wo = _out_hw(x_shape, w_shape, stride, pads, dilation)
    if jnp.dtype(dtype) == jnp.bfloat16 and ci >= 16 and ho * wo <= 28 * 28:
        return True
    return ho * wo <= 16 or (ho * wo <= 64 and ci >= 256)


def _live(size, kernel, stride, dilation, pads):
    """The kernel offsets along one axis that read at least one input element rather than padding only."""
    out = _out_size(size, kernel, stride, dilation, pads)
    return [i for i in range(kernel)
            if any(pads[0] <= i * dilation + o * stride < pads[0] + size for o in range(out))]


def _live_taps(x_shape, w_shape, stride, pads, dilation):
    """The live kernel taps' row and column offsets.

    A tap whose every view element is padding adds nothing to the output and gets no gradient, so it is left
    out: a 3x3 convolution of a 1x1 map (ResNet's last stage on 32x32 inputs) is its centre tap alone, a ninth of
    the arithmetic.
    """
    kh, kw = w_shape[2:]
    # (an output of padding only keeps one tap, so it is still computed, as zeros)
    rows = _live(x_shape[1], kh, stride[0], dilation[0], pads[0]) or [0]
    cols = _live(x_shape[2], kw, stride[1], dilation[1], pads[1]) or [0]
    return rows, cols


def _tap_offsets(x_shape, w_shape, stride, pads, dilation):
    """The live kernel taps' (row, column) offsets into the padded input, in (kh, kw) order."""
    rows, cols = _live_taps(x_shape, w_shape, stride, pads, dilation)
    return tuple((i * dilation[0], j * dilation[1]) for i in rows for j in cols)


def _out_hw(x_shape, w_shape, stride, pads, dilation):
    """The output's (height, width) for an NHWC input shape and an OIHW weight shape."""
    return tuple(_out_size(x_shape[1 + a], w_shape[2 + a], stride[a], dilation[a], pads[a]) for a in range(2))


def _padded(x, pads):
    """NHWC ``x`` with its spatial padding ((top, bottom), (left, right)) added."""
    if any(p for pair in pads for p in pair):
        return jnp.pad(x, ((0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)))
    return x


def _strided_views(xp, offsets, out_hw, stride):
    """The views of padded NHWC ``xp`` each (N, H_out, W_out, C) output position reads at each offset."""
    n, ci = xp.shape[0], xp.shape[-1]
    (ho, wo), (sh, sw) = out_hw, stride
    return [lax.slice(xp, (0, top, left, 0), (n, top + (ho - 1) * sh + 1, left + (wo - 1) * sw + 1, ci), (1, sh, sw, 1))
            for top, left in offsets]


def _taps(x, w_shape, stride, pads, dilation):
    """The live kernel taps' strided views of the padded input, each (N, H_out, W_out, C_in), in (kh, kw) order."""
    return _strided_views(_padded(x, pads), _tap_offsets(x.shape, w_shape, stride, pads, dilation),
                          _out_hw(x.shape, w_shape, stride, pads, dilation), stride)


def _patches(x, w_shape, stride, pads, dilation, stacked):
    """The patch array (N, H_out, W_out, taps * C_in): taps then channels, or (``stacked``) channels then taps."""
    taps = _taps(x, w_shape, stride, pads, dilation)
    if len(taps) == 1:
        return taps[0]
    if stacked:
        n, ho, wo, ci = taps[0].shape
        # Stacked taps-first and then transposed: XLA:CPU wrote a stack along a new last axis of nine element by
        # element (ResNet50's 7x7x512 bfloat16 patches: 2.85 ms on one core, 0.70 ms this way).
        return jnp.swapaxes(jnp.stack(taps, axis=-2), -1, -2).reshape(n, ho, wo, ci * len(taps))
    return jnp.concatenate(taps, axis=-1)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4, 5))
def _bf16_patches(x, w_shape, stride, pads, dilation, stacked):
    """``_patches`` of a bfloat16 array, copied as its 16-bit patterns; the gradient's sums in float32.

    XLA:CPU copies a bfloat16 array by converting it to float32 and back, and autodiff's gradient of the patches
    (the taps padded back into place and added, a col2im) rounds to bfloat16 after every add, each rounding a
    pair of conversions that XLA re-emits in every loop reading the sum. Copied as unsigned 16-bit integers the
    patches convert nothing; the tangent is cut from a float32 copy, so the col2im adds in float32 and rounds
    once. bfloat16 training steps (``step_ab --amp-dtype bfloat16``, 2 cores): ResNet50 32x32 73.9 -> 65.3 ms,
    224x224 535 -> 517 ms (one core 984 -> 935 ms); LeNet5 unchanged.
    """
    bits = _patches(lax.bitcast_convert_type(x, jnp.uint16), w_shape, stride, pads, dilation, stacked)
    return lax.bitcast_convert_type(bits, jnp.bfloat16)


@_bf16_patches.defjvp
def _bf16_patches_jvp(w_shape, stride, pads, dilation, stacked, primals, tangents):
    (x,), (tx,) = primals, tangents
    t = _patches(tx.astype(jnp.float32), w_shape, stride, pads, dilation, stacked).astype(jnp.bfloat16)
    return _bf16_patches(x, w_shape, stride, pads, dilation, stacked), t


def conv_gemm(x: jax.Array, w: jax.Array, stride: Sequence[int], pads: Sequence[Sequence[int]],
              dilation: Sequence[int], linear: bool = False, tangent_input: bool | None = None) -> jax.Array:
    """NHWC convolution of ``x`` with an OIHW weight ``w`` (groups=1) as patches . weight^T.

    ``linear``: a term of a ``custom_jvp`` rule's tangent, which reverse mode transposes (see ``product``).
    ``tangent_input`` (default: ``linear``): ``x`` is that tangent, so its patches are cut by operations JAX can
    transpose; a primal ``x`` in a linear term (a weight gradient's) may be copied as bits (``_bf16_patches``).
    Otherwise bfloat16 patches on the CPU are copied as bits and their gradient's sums are made in float32 from
    the float32 product (``mapped_product``).

    The weight is contracted in its own (C_out, ...) layout, so the product's gradient comes out as
    (C_out, C_in * taps) too. For kernels larger than 1x1 the patches' (taps, C_in) order and the weight's
    (C_in, taps) order differ; whichever of the two is smaller is reordered (a strided copy, made in the
    forward and again for the gradient): ResNet50 on 32x32 inputs 1.1x faster than always reordering the weight.
    """
    co, ci, kh, kw = w.shape
    n = x.shape[0]
    ho, wo = _out_hw(x.shape, w.shape, stride, pads, dilation)
    stacked = isinstance(n * ho * wo, int) and n * ho * wo <= co  # (a symbolic batch size: exported graphs)
    geometry = (tuple(w.shape), tuple(stride), tuple(tuple(p) for p in pads), tuple(dilation), stacked)
    rows, cols = _live_taps(x.shape, w.shape, stride, pads, dilation)
    offsets = [i * kw + j for i in rows for j in cols]
    copied = len(offsets) > 1 or any(s != 1 for s in stride) or any(p for pair in pads for p in pair)
    w = w.reshape(co, ci, kh * kw)
    if len(offsets) < kh * kw:
        w = jnp.stack([w[:, :, t] for t in offsets], axis=-1)
    if len(offsets) == 1:
        weight_rows = w.reshape(co, ci)
    elif stacked:
        weight_rows = w.reshape(co, -1)
    else:
        weight_rows = jnp.transpose(w, (0, 2, 1)).reshape(co, -1)
    # A product of 2-D operands: its weight gradient stays one matrix product (``product``'s rules); with 4-D
    # operands XLA canonicalised it into a transposing copy of dy with dy's producers (BatchNorm's backward) fused
    # into that strided loop.
    plain = linear if tangent_input is None else tangent_input
    bits = copied and not plain and x.dtype == jnp.bfloat16 and default_platform() == "cpu"
    if bits and not linear:
        y = mapped_product(x, weight_rows, functools.partial(_patch_rows, geometry=geometry, bits=False),
                           functools.partial(_patch_rows, geometry=geometry, bits=True))
    else:
        y = product(_patch_rows(x, geometry, bits), weight_rows, conv_precision(), linear=linear)
    return y.reshape(n, ho, wo, co)


def _patch_rows(x, geometry, bits):
    """The patches as rows (N * H_out * W_out, taps * C_in); ``bits``: cut from a bfloat16 ``x``'s 16-bit patterns."""
    patches = (_bf16_patches if bits else _patches)(x, *geometry)
    return patches.reshape(-1, patches.shape[-1])

