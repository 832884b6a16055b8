"""Convolutions with few input channels (LeNet's 1 and 6, an RGB stem): each derivative in its fastest form.

XLA:CPU's convolution is slow when the input has few channels: its inner product is only C_in * kh * kw long
and, for the input gradient, produces C_in channels. Measured per op on the 2-core CPU (docs/performance.md),
LeNet's conv1 (1 -> 6 channels, 5x5, batch 256) took 3.8 ms forward, the same arithmetic as a matrix product
4.3 ms, and 0.9 ms after *blocking the width*: B neighbouring columns become one column of B * C_in channels,
and the weight becomes a (kh, ceil((B + kw - 1) / B), B * C_in, B * C_out) kernel that produces B output
columns at once (a zero-padded Toeplitz arrangement of the original taps). The blocked convolution does
~(B + kw - 1) / kw times the arithmetic in a shape XLA computes well. At stride 1 the rows are blocked
too (2 x 2 or 2 x 4 pixels per block, ``_block``).

``conv_narrow`` is a ``custom_jvp`` (so reverse and forward mode both use it), each term in the form that
measured fastest inside a training step: the forward blocked where the width allows it (stride 1, no dilation
along W), else XLA's; the weight and input terms blocked from 4 input channels, else the matrix product of
``_nn_conv_gemm`` for the input (XLA's input gradient producing < 16 channels was 1.5-4x slower) and, for the
weight, XLA's weight gradient, unless the layer has fewer than 8 output channels: XLA:CPU's weight gradient is
slow at those (LeNet's conv1, 1 -> 6 channels at batch 256: 13.7 ms alone on one core), and the blocked
convolution written as a matrix product over blocked patches (``_blocked(..., as_product=True)``) takes 3.2 ms.
Such layers compute the forward as a product over the same patches too (LeNet5 b256 step 17.1 -> 16.6 ms).
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

from .._engine._precision import conv_precision
from ..common._device_arrays import default_platform
from ._materialize import materialized
from ._nn_conv_gemm import _out_size, conv_gemm, conv_xla

__all__ = ["narrow_suits", "conv_narrow"]


def narrow_suits(w_shape: tuple[int, ...], groups: int) -> bool:
    """True for fewer than 16 input channels (groups=1): the convolutions ``conv_narrow`` computes faster."""
    return groups == 1 and w_shape[1] < 16


def _block(x_shape, w_shape, stride, pads, dilation):
    """(rows, columns) per block: 4 columns for 1-2 input channels, else 2; 2 rows at stride 1 (else 1).

    Measured with step_ab on LeNet5: conv2 (6 -> 16 channels, 5x5) in 2 x 2 blocks is a 3x3 kernel of
    24 -> 64 channels at 1.44x the arithmetic; 5 columns (the rule before) gave 30 -> 80 at 2x, and 4.2x in
    its input gradient (b256 10.93 -> 10.43 ms; b32 1.675 vs 1.685). conv1 (1 -> 6) in 2 x 4 blocks instead
    of 1 x 4: b256 9.28 -> 8.48 ms, b32 1.56 -> 1.49 (4 x 2 and 4 x 4 the same). A 3x3 RGB layer (b32,
    32x32, 64 channels), forward and weight gradient alone: 2 x 2 1.80 ms, 1 x 2 1.91.
    """
    ci, kh, kw = w_shape[1:]
    oh = _out_size(x_shape[1], kh, stride[0], dilation[0], pads[0])
    ow = _out_size(x_shape[2], kw, 1, 1, pads[1])
    rows = 2 if stride[0] == 1 and dilation[0] == 1 and min(oh, ow) >= 4 else 1
    return rows, (4 if ci <= 2 else 2)


def _blockable(x_shape, w_shape, stride, pads, dilation):
    bw = _block(x_shape, w_shape, stride, pads, dilation)[1]
    return stride[1] == 1 and dilation[1] == 1 and _out_size(x_shape[2], w_shape[3], 1, 1, pads[1]) >= 2 * bw


def _blocked_terms(x_shape, w_shape, stride, pads, dilation):
    """True where the derivative's weight and input terms are blocked convolutions: from 4 input channels."""
    return _blockable(x_shape, w_shape, stride, pads, dilation) and w_shape[1] >= 4


def _blocked_product(x_shape, w_shape, stride, pads, dilation):
    """True where the forward and the weight gradient are products over blocked patches: blockable layers with
    fewer than 4 input and 8 output channels (XLA's weight gradient is slow at so few outputs)."""
    return _blockable(x_shape, w_shape, stride, pads, dilation) and w_shape[1] < 4 and w_shape[0] < 8


@functools.lru_cache(maxsize=None)
def _toeplitz(k, b):
    """0/1 array ``s[j, jb, src, dst]``: tap ``j`` joins input pixel ``src`` of block ``jb`` to output ``dst``."""
    kb = -(-(b + k - 1) // b)
    s = np.zeros((k, kb, b, b), np.float32)
    for jb in range(kb):
        for src in range(b):
            for dst in range(b):
                if 0 <= b * jb + src - dst < k:
                    s[b * jb + src - dst, jb, src, dst] = 1
    return s


def _pixel_blocks(x, bh, bw, top, hp, left, wp):
    """``x`` padded to ``hp`` x ``wp`` (``top`` rows and ``left`` columns before it), each ``bh`` x ``bw`` block of
    pixels one pixel of ``bh * bw * C`` channels."""
    n, h, wd, ci = x.shape
    x = jnp.pad(x, ((0, 0), (top, hp - h - top), (left, wp - wd - left), (0, 0)))
    xb = x.reshape(n, hp // bh, bh, wp // bw, bw, ci).transpose(0, 1, 3, 2, 4, 5)
    return xb.reshape(n, hp // bh, wp // bw, bh * bw * ci)  # (sizes, not -1: a batch may be empty)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4, 5, 6))
def _bf16_pixel_blocks(x, bh, bw, top, hp, left, wp):
    """``_pixel_blocks`` of a bfloat16 array, moved as its 16-bit patterns: XLA:CPU moves bfloat16 through float32
    and back (bfloat16 LeNet5 training steps, ``step_ab`` on one core: b32 1.47 -> 1.38 ms, b256 11.5 -> 10.7 ms).
    The tangent takes the plain form, so derivatives of any order see the same blocking."""
    bits = _pixel_blocks(lax.bitcast_convert_type(x, jnp.uint16), bh, bw, top, hp, left, wp)
    return lax.bitcast_convert_type(bits, jnp.bfloat16)


@_bf16_pixel_blocks.defjvp
def _bf16_pixel_blocks_jvp(bh, bw, top, hp, left, wp, primals, tangents):
    (x,), (tx,) = primals, tangents
    return _bf16_pixel_blocks(x, bh, bw, top, hp, left, wp), _pixel_blocks(tx, bh, bw, top, hp, left, wp)


def _blocked(x, w, stride, pads, dilation, as_product=False, tangent_input=True):
    """The convolution with blocked pixels (see the module docstring); stride and dilation along unblocked H.

    ``as_product``: the blocked convolution as patches . weight (``conv_gemm``) instead of XLA's convolution, a
    product that reverse mode can transpose, as the tangent rule needs. ``tangent_input``: ``x`` is the tangent
    that reverse mode transposes, so it is moved only by operations JAX can transpose (``x`` otherwise is a primal
    value, whose bfloat16 copies move bits).
    """
    n, h, wd, ci = x.shape
    co, _, kh, kw = w.shape
    bh, bw = _block(x.shape, w.shape, stride, pads, dilation)
    oh, ow = _out_size(h, kh, stride[0], dilation[0], pads[0]), _out_size(wd, kw, 1, 1, pads[1])
    sh, sw = _toeplitz(kh, bh), _toeplitz(kw, bw)  # bh == 1: sh maps tap i to block i (H unchanged)
    nbh, nbw = -(-oh // bh), -(-ow // bw)
    # padded so that every output block has its input blocks
    hp = h + sum(pads[0]) if bh == 1 else (nbh + sh.shape[1] - 1) * bh
    wp = (nbw + sw.shape[1] - 1) * bw
    geometry = (bh, bw, pads[0][0], hp, pads[1][0], wp)
    if not tangent_input and x.dtype == jnp.bfloat16 and default_platform() == "cpu":
        xb = _bf16_pixel_blocks(x, *geometry)
    else:
        xb = _pixel_blocks(x, *geometry)
    wb = jnp.einsum("oiyx,yapq,xbrs->abpriqso", w, jnp.asarray(sh, w.dtype), jnp.asarray(sw, w.dtype))
    wb = wb.reshape(sh.shape[1], sw.shape[1], bh * bw * ci, bh * bw * co)
    if as_product:
        y = conv_gemm(xb, jnp.transpose(wb, (3, 2, 0, 1)), (stride[0], 1), ((0, 0), (0, 0)), (dilation[0], 1),
                      linear=True, tangent_input=tangent_input)
    else:
        y = lax.conv_general_dilated(xb, wb, (stride[0], 1), "VALID", rhs_dilation=(dilation[0], 1),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"), precision=conv_precision())
    y = y.reshape(n, y.shape[1], nbw, bh, bw, co).transpose(0, 1, 3, 2, 4, 5)
    return y.reshape(n, y.shape[1] * bh, nbw * bw, co)[:, :oh, :ow]


@functools.partial(jax.jit, static_argnums=(2, 3, 4))
def _conv_weight_term(x, tw, stride, pads, dilation):
    """The derivative's term in the weight tangent ``tw``; reverse mode transposes it into the weight gradient.

    A call of its own (a ``jit``, inlined by XLA), so that FLOP counts find it by name and count the convolution it
    stands for rather than the blocked forms' extra arithmetic (``_engine/_flops.py``).
    """
    if _blocked_product(x.shape, tw.shape, stride, pads, dilation):
        # (the forward's patches of x: XLA computes them once for both products)
        return _blocked(x, tw, stride, pads, dilation, as_product=True, tangent_input=False)
    if _blocked_terms(x.shape, tw.shape, stride, pads, dilation):
        return _blocked(x, tw, stride, pads, dilation, tangent_input=False)
    return conv_xla(x, tw, stride, pads, dilation)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4))
def conv_narrow(x: jax.Array, w: jax.Array, stride: tuple[int, ...], pads: tuple[tuple[int, int], ...],
                dilation: tuple[int, ...]) -> jax.Array:
    """NHWC convolution of ``x`` with an OIHW weight ``w`` (groups=1; stride, pads, dilation as tuples)."""
    if _blocked_product(x.shape, w.shape, stride, pads, dilation):
        return _blocked(x, w, stride, pads, dilation, as_product=True, tangent_input=False)
    if _blockable(x.shape, w.shape, stride, pads, dilation):
        return _blocked(x, w, stride, pads, dilation, tangent_input=False)
    return conv_xla(x, w, stride, pads, dilation)


@functools.partial(conv_narrow.defjvp, symbolic_zeros=True)
def _conv_narrow_jvp(stride, pads, dilation, primals, tangents):
    # Linear in (tx, tw), so reverse mode transposes each term separately into the weight and input gradients.
    # From 4 input channels the input term is blocked. On the CPU it is the blocked product in float32, whose
    # gradient is a product and a col2im, kept in a buffer of its own (``_materialize``), against XLA's
    # transposed convolution: LeNet5 b256 15.4 -> 13.3 ms per step on one core. A bfloat16 layer's term is
    # computed in float32 too (XLA:CPU converts its convolution to float32 anyway, and a bfloat16 col2im's adds
    # would be converted one by one: 23.5 -> 28.4 ms), then rounded: 22.5 -> 20.5 ms. On a GPU (not measured)
    # XLA reads a conditional's predicate on the host: there it stays XLA's convolution. Narrower layers take
    # ``conv_gemm``'s gradient.
    x, w = primals
    tx, tw = tangents
    out = conv_narrow(x, w, stride, pads, dilation)
    terms = []
    if not isinstance(tw, SymbolicZero):
        terms.append(_conv_weight_term(x, tw, stride, pads, dilation))
    if not isinstance(tx, SymbolicZero):
        if _blocked_terms(x.shape, w.shape, stride, pads, dilation):
            if x.dtype in (jnp.float32, jnp.bfloat16) and default_platform() == "cpu":
                f32 = jnp.float32
                term = _blocked(materialized(tx.astype(f32), x), w.astype(f32), stride, pads, dilation,
                                as_product=True)
                terms.append(term.astype(x.dtype))
            else:
                terms.append(_blocked(tx, w, stride, pads, dilation))
        else:
            terms.append(conv_gemm(tx, w, stride, pads, dilation, linear=True))
    return out, sum(terms[1:], terms[0]) if terms else jnp.zeros_like(out)
