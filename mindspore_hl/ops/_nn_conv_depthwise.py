"""Depthwise convolutions (one input channel per group) as a sum of shifted, per-channel scaled views.

XLA:CPU runs a grouped convolution with one channel per group at well under 1 GFLOP/s: MobileNetV2's stride-2
3x3 depthwise layer on a 112x112x96 map (batch 8, 43 MFLOP) took 94 ms forward on two cores, and the depthwise
layers were most of that network's 1.7 s training step (``docs/performance.md``). Written as the sum over the
kernel taps of a strided view of the padded input times that tap's per-channel weights (the views of the matrix
product form's patches, ``_nn_conv_gemm``, taps reading padding only left out), the forward is one fused
element-wise loop, and so is the input gradient: at stride 1 the same sum over the taps, of the views of the
padded output cotangent (``_tap_products_transposed``), at other strides autodiff's (each view's cotangent padded
back into place, and the terms added).

The weight gradient, one sum over the batch and the map per tap and channel, is where plain autodiff falls
short: it gives one reduction per tap, each reading a copy of its view and the whole output cotangent (MobileNetV2's
step spent 121 of 267 ms in them). So the sum of products is a primitive, ``depthwise_tap_products``, bilinear in
the padded input and the taps' weights, whose transpose in the weights is its twin ``depthwise_tap_sums``: all the
taps' sums in one pass per image (a variadic reduction that reads the cotangent once and slices the input in
place), then a sum over the images. Each transposes into the other, and in the input each transposes into plain
JAX expressions (the one above for the products, autodiff's of its reference form for the sums), so forward mode,
higher derivatives and ``vmap`` work as for any other expression. The weights and the output pass through
``_materialize.materialized``, so the loops that read them once per tap read buffers instead of recomputing their
producers.

The products are accumulated in float32 (or the input's wider type) and rounded once, as XLA's convolution does
with bfloat16 operands.
"""

from __future__ import annotations

import functools
from typing import Sequence

import jax
import jax.numpy as jnp
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from ..common._device_arrays import default_platform
from ._materialize import materialized
from ._nn_conv_gemm import _live_taps, _out_hw, _padded, _strided_views, _tap_offsets

__all__ = ["depthwise_suits", "conv_depthwise"]


def depthwise_suits(x_shape: Sequence[int], w_shape: Sequence[int], groups: int) -> bool:
    """True for a depthwise convolution (every group one input channel) on the CPU; NHWC input, OIHW weight."""
    return default_platform() == "cpu" and groups > 1 and groups == x_shape[-1] and w_shape[1] == 1


def conv_depthwise(x: jax.Array, w: jax.Array, stride: Sequence[int], pads: Sequence[Sequence[int]],
                   dilation: Sequence[int]) -> jax.Array:
    """Depthwise convolution of NHWC ``x`` (C channels) with an OIHW weight of shape (C * m, 1, kH, kW).

    Output channel ``c * m + j`` is input channel ``c`` convolved with filter ``c * m + j``, as in a grouped
    convolution with ``groups = C``.

    >>> import numpy as np
    >>> from jax import lax
    >>> x = jnp.arange(2 * 4 * 4 * 3, dtype=jnp.float32).reshape(2, 4, 4, 3)
    >>> w = jnp.ones((6, 1, 3, 3), jnp.float32)
    >>> ref = lax.conv_general_dilated(x, jnp.transpose(w, (2, 3, 1, 0)), (1, 1), ((1, 1), (1, 1)),
    ...                                dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=3)
    >>> bool(np.allclose(conv_depthwise(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1)), ref))
    True
    """
    c = x.shape[-1]
    m, kh, kw = w.shape[0] // c, w.shape[2], w.shape[3]
    acc_dtype = jnp.promote_types(x.dtype, jnp.float32)
    rows, cols = _live_taps(x.shape, w.shape, stride, pads, dilation)
    # (taps, C, m): each live tap's weights for every input channel and multiplier, in a buffer of their own:
    # fused into the loops that read them, the weights' rounding to bfloat16 (O2) and this transpose were redone
    # for every element and tap (MobileNetV2 step: bfloat16 358 -> 233 ms, float32 276 -> 258 ms).
    w_taps = jnp.transpose(w.reshape(c, m, kh, kw), (2, 3, 0, 1))
    taps = materialized(jnp.stack([w_taps[i, j] for i in rows for j in cols]).astype(acc_dtype), w)
    out = tap_products_p.bind(_padded(x.astype(acc_dtype), pads), taps,
                              offsets=_tap_offsets(x.shape, w.shape, stride, pads, dilation),
                              out_hw=_out_hw(x.shape, w.shape, stride, pads, dilation), stride=tuple(stride))
    # The input gradient reads the output's cotangent once per tap; computed in place, the layers behind it
    # (BatchNorm's backward, the activation's, and this convolution's forward again for BatchNorm) ran nine times
    # per element.
    return materialized(out.reshape(*out.shape[:3], c * m).astype(x.dtype), x)


def _tap_products(xp, taps, *, offsets, out_hw, stride):
    """(N, H_out, W_out, C, m): the sum over the taps of each tap's view of ``xp`` times its (C, m) weights."""
    out = None
    for view, tap in zip(_strided_views(xp, offsets, out_hw, stride), taps):
        term = view[..., None] * tap
        out = term if out is None else out + term
    return out


def _tap_products_transposed(ct, xp, taps, *, offsets, out_hw, stride):
    """``depthwise_tap_products`` transposed in the padded input ``xp``: (N, H_pad, W_pad, C).

    At stride 1 it is the forward's sum again (``_tap_products``, each channel and multiplier a channel of its own),
    of the views of the cotangent padded by the taps' reach (a tap at offset o puts its term at o; from ``ct``
    padded by the largest offset before, its view starts at that offset minus o), then summed over the channel
    multiplier. Autodiff of the reference form padded each tap's term into place and added them, and XLA:CPU tested
    every read of the nine against its own pad's bounds (MobileNetV2 step, float32, two cores: 168.8 -> 155.0 ms;
    bfloat16 unchanged). Strided layers keep autodiff's form: a strided view's cotangent lands on every stride-th
    position only.
    """
    if any(s != 1 for s in stride):
        return _transposed_in_input(_tap_products)(ct, xp, taps, offsets=offsets, out_hw=out_hw, stride=stride)
    (hp, wp), (ho, wo) = xp.aval.shape[1:3], out_hw
    top, left = (max(o[a] for o in offsets) for a in (0, 1))
    bottom, right = hp - ho - min(o[0] for o in offsets), wp - wo - min(o[1] for o in offsets)
    ctp = _padded(ct.reshape(*ct.shape[:3], -1), ((top, bottom), (left, right)))  # (channels and multipliers flat)
    shifted = tuple((top - oy, left - ox) for oy, ox in offsets)
    out = _tap_products(ctp, taps.reshape(len(offsets), -1, 1), offsets=shifted, out_hw=(hp, wp), stride=(1, 1))
    return jnp.sum(out.reshape(*out.shape[:3], *taps.shape[1:]), axis=-1).astype(xp.aval.dtype)


def _tap_sums(xp, g, *, offsets, out_hw, stride):
    """(taps, C, m): for each tap, the sum over images and positions of its view of ``xp`` times ``g``."""
    return jnp.stack([jnp.sum(view[..., None] * g, axis=(0, 1, 2))
                      for view in _strided_views(xp, offsets, out_hw, stride)])


def _tap_sums_per_image(xp, g, *, offsets, out_hw, stride):
    """``_tap_sums`` as XLA:CPU computes it fast: one variadic reduction over each image's positions (every tap's
    products in one loop that reads ``g`` once and slices ``xp`` in place), then a sum over the images. One
    reduction per tap read a copied view and ``g`` each (MobileNetV2's 56x56x144 layer alone, two cores: 9.8-36
    ms -> 2.6-2.7 ms, on a quiet and a busy day)."""
    products = [view[..., None] * g for view in _strided_views(xp, offsets, out_hw, stride)]
    zeros = [jnp.zeros((), g.dtype)] * len(products)
    per_image = lax.reduce(products, zeros, lambda a, b: [u + v for u, v in zip(a, b)], (1, 2))
    return jnp.sum(jnp.stack(per_image), axis=1)


def _transposed_in_input(reference):
    """The transpose in the padded input of a primitive bilinear in (input, other): autodiff's, of ``reference``."""
    def rule(ct, xp, other, **params):
        shape = jax.ShapeDtypeStruct(xp.aval.shape, xp.aval.dtype)
        return jax.linear_transpose(lambda v: reference(v, other, **params), shape)(ct)[0]
    return rule


def _vmapped(reference):
    """A batching rule that maps ``reference`` (the batch is rare here: per-example gradients)."""
    def rule(args, dims, **params):
        return jax.vmap(functools.partial(reference, **params), in_axes=tuple(dims))(*args), 0
    return rule


tap_products_p = Primitive("depthwise_tap_products")
tap_sums_p = Primitive("depthwise_tap_sums")
tap_products_p.def_impl(_tap_products)
tap_sums_p.def_impl(_tap_sums_per_image)
tap_products_p.def_abstract_eval(lambda xp, taps, *, offsets, out_hw, stride: xp.update(
    shape=(xp.shape[0], *out_hw, *taps.shape[1:]), dtype=jnp.promote_types(xp.dtype, taps.dtype)))
tap_sums_p.def_abstract_eval(lambda xp, g, *, offsets, out_hw, stride: xp.update(
    shape=(len(offsets), *g.shape[3:]), dtype=jnp.promote_types(xp.dtype, g.dtype)))
mlir.register_lowering(tap_products_p, mlir.lower_fun(_tap_products, multiple_results=False))
mlir.register_lowering(tap_sums_p, mlir.lower_fun(_tap_sums_per_image, multiple_results=False))
ad.defbilinear(tap_products_p, _tap_products_transposed,
               lambda ct, xp, taps, **params: tap_sums_p.bind(xp, ct, **params))
ad.defbilinear(tap_sums_p, _transposed_in_input(_tap_sums),
               lambda ct, xp, g, **params: tap_products_p.bind(xp, ct, **params))
batching.primitive_batchers[tap_products_p] = _vmapped(_tap_products)
batching.primitive_batchers[tap_sums_p] = _vmapped(_tap_sums)
