"""Convolutions with few input channels (LeNet's 1 and 6, an RGB stem): each derivative in its fastest form.

XLA:CPU's convolution is slow when the input has few channels: its inner product is only C_in * kh * kw long
and, for the input gradient, produces C_in channels. Measured per op on the 2-core CPU (benchmarks/NOTES.md),
LeNet's conv1 (1 -> 6 channels, 5x5, batch 256) took 3.8 ms forward, the same arithmetic as a matrix product
4.3 ms, and 0.9 ms after *blocking the width*: B neighbouring columns become one column of B * C_in channels,
and the weight becomes a (kh, ceil((B + kw - 1) / B), B * C_in, B * C_out) kernel that produces B output
columns at once (a zero-padded Toeplitz arrangement of the original taps). The blocked convolution does
~(B + kw - 1) / kw times the arithmetic in a shape XLA computes well.

``conv_narrow`` is a ``custom_jvp`` (so reverse and forward mode both use it), each term in the form that
measured fastest inside a training step: the forward blocked where the width allows it (stride 1, no dilation
along W), else XLA's; the weight and input terms blocked from 4 input channels, else XLA's weight gradient
(the blocked one made the fused ReLU/pool backward before LeNet's conv1 slower) and the matrix product of
``_nn_conv_gemm`` for the input (XLA's input gradient producing < 16 channels was 1.5-4x slower).
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

from ._nn_conv_gemm import _out_size, conv_gemm, conv_xla

__all__ = ["narrow_suits", "conv_narrow"]


def narrow_suits(w_shape, groups):
    """True for fewer than 16 input channels (groups=1): the convolutions ``conv_narrow`` computes faster."""
    return groups == 1 and w_shape[1] < 16


def _block(x_shape, w_shape, stride, pads, dilation):
    """Columns per block: enough to give XLA's convolution >= 4 input channels (4 for 1-2 channels, else 2).

    With more channels and >= 10k output positions, the kernel width when it divides the output width: wider
    blocks cost more work on the blocked weight per step and repay it in the convolutions only at large batches
    (LeNet5's conv2 at 5 columns, step_ab: batch 256 10.75 -> 10.07 ms, 128 5.44 -> 5.35; 64 2.95 -> 3.04,
    32 1.72 -> 1.83; 3 columns was slower at 256 than 2, 10 3x slower).
    """
    ci, kh, kw = w_shape[1:]
    if ci <= 2:
        return 4
    ow = _out_size(x_shape[2], kw, 1, 1, pads[1])
    positions = x_shape[0] * _out_size(x_shape[1], kh, stride[0], dilation[0], pads[0]) * ow
    return kw if isinstance(positions, int) and positions >= 10_000 and ow % kw == 0 else 2


def _blockable(x_shape, w_shape, stride, pads, dilation):
    b = _block(x_shape, w_shape, stride, pads, dilation)
    return stride[1] == 1 and dilation[1] == 1 and _out_size(x_shape[2], w_shape[3], 1, 1, pads[1]) >= 2 * b


@functools.lru_cache(maxsize=None)
def _toeplitz(kw, b):
    """0/1 array ``s[j, jb, src, dst]``: tap ``j`` joins input column ``src`` of block ``jb`` to output ``dst``."""
    kb = -(-(b + kw - 1) // b)
    s = np.zeros((kw, kb, b, b), np.float32)
    for jb in range(kb):
        for src in range(b):
            for dst in range(b):
                if 0 <= b * jb + src - dst < kw:
                    s[b * jb + src - dst, jb, src, dst] = 1
    return s


def _blocked(x, w, stride, pads, dilation):
    """The convolution with the width blocked (see the module docstring); stride and dilation along H only."""
    n, h, wd, ci = x.shape
    co, _, kh, kw = w.shape
    b = _block(x.shape, w.shape, stride, pads, dilation)
    ow = _out_size(wd, kw, 1, 1, pads[1])
    s = _toeplitz(kw, b)
    kb, blocks = s.shape[1], -(-ow // b)
    width = (blocks + kb - 1) * b                     # padded so every output block has its kb input blocks
    x = jnp.pad(x, ((0, 0), (0, 0), (pads[1][0], width - wd - pads[1][0]), (0, 0)))
    xb = x.reshape(n, h, blocks + kb - 1, b * ci)
    wb = jnp.einsum("oihj,jksd->hksido", w, jnp.asarray(s, w.dtype)).reshape(kh, kb, b * ci, b * co)
    y = lax.conv_general_dilated(xb, wb, (stride[0], 1), (tuple(pads[0]), (0, 0)), rhs_dilation=(dilation[0], 1),
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y.reshape(n, y.shape[1], blocks * b, co)[:, :, :ow]


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4))
def conv_narrow(x, w, stride, pads, dilation):
    """NHWC convolution of ``x`` with an OIHW weight ``w`` (groups=1; stride, pads, dilation as tuples)."""
    blocked = _blockable(x.shape, w.shape, stride, pads, dilation)
    return (_blocked if blocked else conv_xla)(x, w, stride, pads, dilation)


@functools.partial(conv_narrow.defjvp, symbolic_zeros=True)
def _conv_narrow_jvp(stride, pads, dilation, primals, tangents):
    # Linear in (tx, tw), so reverse mode transposes each term separately into the weight and input gradients.
    # The product form's input gradient adds 25 shifted patches back into place, and XLA fused those adds into
    # a following pool gradient's loop and recomputed them there (LeNet5 conv2): blocked where it can be.
    x, w = primals
    tx, tw = tangents
    out = conv_narrow(x, w, stride, pads, dilation)
    blocked = _blockable(x.shape, w.shape, stride, pads, dilation) and w.shape[1] >= 4
    terms = []
    if not isinstance(tw, SymbolicZero):
        terms.append((_blocked if blocked else conv_xla)(x, tw, stride, pads, dilation))
    if not isinstance(tx, SymbolicZero):
        terms.append((_blocked if blocked else conv_gemm)(tx, w, stride, pads, dilation))
    return out, sum(terms[1:], terms[0]) if terms else jnp.zeros_like(out)
