"""Depthwise convolutions (one input channel per group) as a sum of shifted, per-channel scaled views.

XLA:CPU runs a grouped convolution with one channel per group at well under 1 GFLOP/s: MobileNetV2's stride-2
3x3 depthwise layer on a 112x112x96 map (batch 8, 43 MFLOP) took 94 ms forward on two cores, and the depthwise
layers were most of that network's 1.7 s training step (``docs/performance.md``). Written as the sum over the
kernel taps of a strided view of the padded input times that tap's per-channel weights (the views of the matrix
product form's patches, ``_nn_conv_gemm._taps``, taps reading padding only left out), the forward is one fused
element-wise loop; autodiff of it gives the input gradient as padded views added back into place (again one
loop) and the weight gradient as per-tap reductions. No custom derivative is involved, so forward mode and
higher derivatives work as for any other expression. The weights and the output pass through
``_materialize.materialized``, so the loops that read them once per tap read buffers instead of recomputing
their producers.

The products are accumulated in float32 (or the input's wider type) and rounded once, as XLA's convolution does
with bfloat16 operands.
"""

from __future__ import annotations

from typing import Sequence

import jax
import jax.numpy as jnp

from ..common._device_arrays import default_platform
from ._materialize import materialized
from ._nn_conv_gemm import _live_taps, _taps

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
    # (kH, kW, C, m): tap (i, j)'s weights for every input channel and multiplier, in a buffer of their own:
    # fused into the loops that read them, the weights' rounding to bfloat16 (O2) and this transpose were redone
    # for every element and tap (MobileNetV2 step: bfloat16 358 -> 233 ms, float32 276 -> 258 ms).
    taps = materialized(jnp.transpose(w.reshape(c, m, kh, kw), (2, 3, 0, 1)).astype(acc_dtype), w)
    rows, cols = _live_taps(x.shape, w.shape, stride, pads, dilation)
    views = _taps(x.astype(acc_dtype), w.shape, stride, pads, dilation)
    out = None
    for view, (i, j) in zip(views, [(i, j) for i in rows for j in cols]):
        term = view[..., None] * taps[i, j]
        out = term if out is None else out + term
    assert out is not None
    # The input gradient reads the output's cotangent once per tap; computed in place, the layers behind it
    # (BatchNorm's backward, the activation's, and this convolution's forward again for BatchNorm) ran nine times
    # per element.
    return materialized(out.reshape(*out.shape[:3], c * m).astype(x.dtype), x)
