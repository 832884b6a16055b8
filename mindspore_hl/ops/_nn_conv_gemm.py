"""Convolutions XLA:CPU is slow at, written as matrix products (im2col) or as a stencil of multiply-adds.

XLA:CPU's convolution emitter is fast on large feature maps but pathological on small ones: a 3x3 convolution
whose output is 2x2 or 1x1 (ResNet's last stages on CIFAR-sized inputs) takes ~100x longer forward and
backward than the same arithmetic as a matrix product, and a 1x1 convolution's weight gradient ~2.5x longer
(measured per op on the 2-core CPU, benchmarks/NOTES.md). For those shapes the convolution is computed as
``concat(strided slices of the padded input) @ weight``; autodiff of that expression is again a product for
the weight gradient (patches^T @ dy) and a product plus padded adds for the input gradient, and forward mode
(``ops.jvp``) keeps working since no custom derivative rule is involved.

A convolution with a tiny contraction (LeNet's first layer: 1 input channel, 5x5) is 4-7x faster forward as
a sum of broadcast multiply-adds over the kernel taps, but that expression's gradient is slow; its derivative
rule (``custom_jvp``, so forward and reverse mode both work) is XLA's convolution, whose transpose XLA runs fast.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_derivatives import SymbolicZero

__all__ = ["gemm_suits", "conv_gemm", "stencil_suits", "conv_stencil"]


def _out_size(size, kernel, stride, dilation, pads):
    return (size + pads[0] + pads[1] - dilation * (kernel - 1) - 1) // stride + 1


def gemm_suits(x_shape, w_shape, stride, pads, dilation, groups):
    """True where the matrix-product form beats XLA:CPU's convolution (static shapes; NHWC input, HWIO weight).

    1x1 kernels always (a plain product, strided by slicing); larger kernels when the output is at most 4x4
    positions, or at most 8x8 with at least 256 input channels, where the product's inner size is large enough.
    """
    if groups != 1:
        return False
    kh, kw, ci, _ = w_shape
    if kh == kw == 1:
        return True
    ho = _out_size(x_shape[1], kh, stride[0], dilation[0], pads[0])
    wo = _out_size(x_shape[2], kw, stride[1], dilation[1], pads[1])
    return ho * wo <= 16 or (ho * wo <= 64 and ci >= 256)


def _taps(x, w_shape, stride, pads, dilation):
    """The kernel taps' strided views of the padded input, each (N, H_out, W_out, C_in), in (kh, kw) order."""
    kh, kw, ci, _ = w_shape
    n, h, wd, _ = x.shape
    ho = _out_size(h, kh, stride[0], dilation[0], pads[0])
    wo = _out_size(wd, kw, stride[1], dilation[1], pads[1])
    if any(p for pair in pads for p in pair):
        x = jnp.pad(x, ((0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)))
    taps = []
    for i in range(kh):
        for j in range(kw):
            top, left = i * dilation[0], j * dilation[1]
            taps.append(lax.slice(x, (0, top, left, 0),
                                  (n, top + (ho - 1) * stride[0] + 1, left + (wo - 1) * stride[1] + 1, ci),
                                  (1, stride[0], stride[1], 1)))
    return taps


def conv_gemm(x, w, stride, pads, dilation):
    """NHWC convolution of ``x`` with an HWIO weight ``w`` (groups=1) as patches @ weight."""
    kh, kw, ci, co = w.shape
    taps = _taps(x, w.shape, stride, pads, dilation)
    patches = taps[0] if len(taps) == 1 else jnp.concatenate(taps, axis=-1)
    return jnp.dot(patches, w.reshape(kh * kw * ci, co))


def stencil_suits(w_shape, groups):
    """True for a contraction of at most 25 terms (kh * kw * C_in), e.g. a 5x5 kernel over one channel."""
    kh, kw, ci, _ = w_shape
    return groups == 1 and kh * kw * ci <= 25


def _xla_conv(x, w, stride, pads, dilation):
    return lax.conv_general_dilated(x, w, stride, pads, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4))
def conv_stencil(x, w, stride, pads, dilation):
    """NHWC convolution (groups=1) as a sum over taps and input channels of broadcast products."""
    dtype = x.dtype
    if jnp.finfo(dtype).bits < 32:  # accumulate half precision in float32, as the convolution kernels do
        x, w = x.astype(jnp.float32), w.astype(jnp.float32)
    terms = []
    for t, tap in enumerate(_taps(x, w.shape, stride, pads, dilation)):
        i, j = divmod(t, w.shape[1])
        terms.extend(tap[..., c:c + 1] * w[i, j, c] for c in range(w.shape[2]))
    # A reduction over stacked terms, not a chain of adds: XLA does not fuse a reduction into its consumers,
    # so the stencil is computed once instead of inside each consumer (the activation, the pooling and its
    # gradient's mask: measured 3x recomputation, LeNet5 step 1.5x slower).
    return jnp.sum(jnp.stack(terms), axis=0).astype(dtype)


@functools.partial(conv_stencil.defjvp, symbolic_zeros=True)
def _conv_stencil_jvp(stride, pads, dilation, primals, tangents):
    x, w = primals
    tx, tw = tangents
    out = conv_stencil(x, w, stride, pads, dilation)
    tangent = None
    if not isinstance(tw, SymbolicZero):
        tangent = _xla_conv(x, tw, stride, pads, dilation)
    if not isinstance(tx, SymbolicZero):
        dx = _xla_conv(tx, w, stride, pads, dilation)
        tangent = dx if tangent is None else tangent + dx
    return out, jnp.zeros_like(out) if tangent is None else tangent
