"""Convolution as matrix products (im2col): the NHWC convolution XLA:CPU is slow at, written with ``dot``.

XLA:CPU's convolution emitter is fast on large feature maps but pathological on small ones: a 3x3 convolution
whose output is 2x2 or 1x1 (ResNet's last stages on CIFAR-sized inputs) takes ~100x longer forward and
backward than the same arithmetic as a matrix product, and a 1x1 convolution's weight gradient ~2.5x longer
(measured per op on the 2-core CPU, benchmarks/NOTES.md). For those shapes the convolution is computed as
``concat(strided slices of the padded input) @ weight``; autodiff of that expression is again a product for
the weight gradient (patches^T @ dy) and a product plus padded adds for the input gradient, and forward mode
(``ops.jvp``) keeps working since no custom derivative rule is involved.

With few input channels (LeNet's 1 and 6) XLA's convolution is fast forward and for the weight gradient but
slow for the input gradient (a convolution producing < 16 channels: 2x slower than the product form for
LeNet's conv2). ``conv_few_inputs`` keeps XLA's convolution and takes its input derivative from the product
form, through a ``custom_jvp`` (so forward mode works too).
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_derivatives import SymbolicZero

__all__ = ["gemm_suits", "conv_gemm", "few_inputs_suits", "conv_few_inputs"]


def _out_size(size, kernel, stride, dilation, pads):
    return (size + pads[0] + pads[1] - dilation * (kernel - 1) - 1) // stride + 1


def gemm_suits(x_shape, w_shape, stride, pads, dilation, groups):
    """True where the matrix-product form beats XLA:CPU's convolution (static shapes; NHWC input, OIHW weight).

    1x1 kernels always (a plain product, strided by slicing); larger kernels when the output is at most 4x4
    positions, or at most 8x8 with at least 256 input channels, where the product's inner size is large enough.
    """
    if groups != 1:
        return False
    _, ci, kh, kw = w_shape
    if kh == kw == 1:
        return True
    ho = _out_size(x_shape[1], kh, stride[0], dilation[0], pads[0])
    wo = _out_size(x_shape[2], kw, stride[1], dilation[1], pads[1])
    return ho * wo <= 16 or (ho * wo <= 64 and ci >= 256)


def _taps(x, w_shape, stride, pads, dilation):
    """The kernel taps' strided views of the padded input, each (N, H_out, W_out, C_in), in (kh, kw) order."""
    _, ci, kh, kw = w_shape
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
    """NHWC convolution of ``x`` with an OIHW weight ``w`` (groups=1) as patches . weight^T.

    The weight is contracted in its own (C_out, ...) layout, so the product's gradient comes out as
    (C_out, C_in * kh * kw) too. For kernels larger than 1x1 the patches' (taps, C_in) order and the weight's
    (C_in, taps) order differ; whichever of the two is smaller is reordered (a strided copy, made in the
    forward and again for the gradient): ResNet50 on 32x32 inputs 1.1x faster than always reordering the weight.
    """
    co, ci, kh, kw = w.shape
    taps = _taps(x, w.shape, stride, pads, dilation)
    n, ho, wo, _ = taps[0].shape
    if len(taps) == 1:
        patches, rows = taps[0], w.reshape(co, ci)
    elif n * ho * wo <= co:
        patches, rows = jnp.stack(taps, axis=-1).reshape(n, ho, wo, -1), w.reshape(co, -1)
    else:
        patches = jnp.concatenate(taps, axis=-1)
        rows = jnp.transpose(w.reshape(co, ci, kh * kw), (0, 2, 1)).reshape(co, -1)
    return lax.dot_general(patches, rows, (((3,), (1,)), ((), ())))


def few_inputs_suits(w_shape, groups):
    """True for fewer than 16 input channels (groups=1), where the product form wins the input gradient."""
    return groups == 1 and w_shape[1] < 16


def _xla_conv(x, w, stride, pads, dilation):
    return lax.conv_general_dilated(x, jnp.transpose(w, (2, 3, 1, 0)), stride, pads, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4))
def conv_few_inputs(x, w, stride, pads, dilation):
    """NHWC convolution (groups=1, OIHW weight) by XLA, whose derivative in ``x`` is the product form."""
    return _xla_conv(x, w, stride, pads, dilation)


@functools.partial(conv_few_inputs.defjvp, symbolic_zeros=True)
def _conv_few_inputs_jvp(stride, pads, dilation, primals, tangents):
    # Linear in (tx, tw), so reverse mode transposes each term: XLA's weight gradient, and the product
    # form's input gradient (dy @ weight, then the patches added back into place).
    x, w = primals
    tx, tw = tangents
    out = conv_few_inputs(x, w, stride, pads, dilation)
    terms = []
    if not isinstance(tw, SymbolicZero):
        terms.append(_xla_conv(x, tw, stride, pads, dilation))
    if not isinstance(tx, SymbolicZero):
        terms.append(conv_gemm(tx, w, stride, pads, dilation))
    return out, sum(terms[1:], terms[0]) if terms else jnp.zeros_like(out)
