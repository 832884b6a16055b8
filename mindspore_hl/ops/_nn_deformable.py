"""``ops.deformable_conv2d``: deformable convolution v2 (bilinear sampling at learned offsets, modulated by a
mask, then a convolution whose stride is the kernel), as MindSpore's DeformableOffsets + Conv2D pair computes it.
"""
from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp

from ..common.tensor import Tensor, wrap
from ._core import check, unwrap

__all__ = ["deformable_conv2d"]

_NAME = "deformable_conv2d"


def _int_tuple(arg: str, value: Any, size: int) -> tuple[int, ...]:
    check(isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value), _NAME,
          f"'{arg}' must be a tuple of ints, but got {value!r}.", TypeError)
    check(len(value) == size, _NAME, f"'{arg}' must be a tuple of {size} ints, but got {value!r}.")
    return tuple(value)


def _sample(x: Any, y: Any, xs: Any) -> Any:
    """Bilinear samples of ``x`` (N, G, Cg, H, W) at rows ``y`` / columns ``xs`` (N, G, P); zero outside."""
    n, g, cg, h, w = x.shape
    flat = x.reshape(n, g, cg, h * w)
    y0, x0 = jnp.floor(y), jnp.floor(xs)
    out = jnp.zeros((n, g, cg, y.shape[-1]), x.dtype)
    for dy in (0, 1):
        for dx in (0, 1):
            yy, xx = y0 + dy, x0 + dx
            weight = (1 - jnp.abs(y - yy)) * (1 - jnp.abs(xs - xx))
            inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            idx = (jnp.clip(yy, 0, h - 1) * w + jnp.clip(xx, 0, w - 1)).astype(jnp.int32)
            vals = jnp.take_along_axis(flat, jnp.broadcast_to(idx[:, :, None], (n, g, cg, idx.shape[-1])), -1)
            out = out + vals * jnp.where(inside, weight, 0)[:, :, None]
    return out


def deformable_conv2d(x: Tensor, weight: Tensor, offsets: Tensor, kernel_size: tuple[int, int],
                      strides: tuple[int, int, int, int], padding: tuple[int, int, int, int],
                      bias: Tensor | None = None, dilations: tuple[int, int, int, int] = (1, 1, 1, 1),
                      groups: int = 1, deformable_groups: int = 1, modulated: bool = True) -> Tensor:
    """2-D deformable convolution (v2) of NCHW ``x``. ``offsets`` is (N, 3 * deformable_groups * kh * kw, H_out,
    W_out): the x offsets, then the y offsets, then the mask, each ordered (group, kernel row, kernel column);
    ``strides`` / ``dilations`` are (1, 1, h, w) and ``padding`` is (top, bottom, left, right).

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, ops
    >>> x, w = Tensor(np.ones((1, 1, 3, 3), np.float32)), Tensor(np.ones((1, 1, 2, 2), np.float32))
    >>> off = np.zeros((1, 12, 2, 2), np.float32); off[:, 8:] = 1  # no shift, mask 1: a plain convolution
    >>> ops.deformable_conv2d(x, w, Tensor(off), (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)).asnumpy().tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    kh, kw = _int_tuple("kernel_size", kernel_size, 2)
    st, pad, dil = (_int_tuple("strides", strides, 4), _int_tuple("padding", padding, 4),
                    _int_tuple("dilations", dilations, 4))
    check(isinstance(modulated, bool), _NAME, f"'modulated' must be a bool, but got {type(modulated).__name__}.",
          TypeError)
    check(modulated, _NAME, "only 'modulated=True' (deformable convolution v2) is supported, but got False.")
    check(st[0] == st[1] == 1 and dil[0] == dil[1] == 1, _NAME,
          f"the N and C dimensions of 'strides' and 'dilations' must be 1, but got {st} and {dil}.")
    xv, wv, ov = unwrap(x), unwrap(weight), unwrap(offsets)
    check(xv.ndim == 4 and wv.ndim == 4 and ov.ndim == 4, _NAME, f"'x', 'weight' and 'offsets' must be 4-D, but got "
          f"{list(xv.shape)}, {list(wv.shape)} and {list(ov.shape)}.")
    n, c, h, w = xv.shape
    dg, k = deformable_groups, kh * kw
    check(dg > 0 and c % dg == 0 and groups > 0 and c % groups == 0 and wv.shape[0] % groups == 0, _NAME,
          f"in_channels {c} must be divisible by 'deformable_groups' ({dg}) and 'groups' ({groups}), and out_channels "
          f"{wv.shape[0]} by 'groups'.")
    ho = (h + pad[0] + pad[1] - (kh - 1) * dil[2] - 1) // st[2] + 1
    wo = (w + pad[2] + pad[3] - (kw - 1) * dil[3] - 1) // st[3] + 1
    check(ov.shape == (n, 3 * dg * k, ho, wo), _NAME, f"'offsets' must have shape {[n, 3 * dg * k, ho, wo]}, but got "
          f"{list(ov.shape)}.")
    check(wv.shape[1:] == (c // groups, kh, kw), _NAME, f"'weight' must have shape [C_out, {c // groups}, {kh}, "
          f"{kw}], but got {list(wv.shape)}.")
    b = None if bias is None else unwrap(bias)
    return wrap(_deform(xv, wv, ov, b, kh, kw, st[2:], pad, dil[2:], groups, dg))


# one compile per geometry: eagerly, the sampling is dozens of small dispatches, each compiled on its own
@functools.partial(jax.jit, static_argnums=(4, 5, 6, 7, 8, 9, 10))
def _deform(xv: Any, wv: Any, ov: Any, bias: Any, kh: int, kw: int, st: tuple[int, ...], pad: tuple[int, ...],
            dil: tuple[int, ...], groups: int, dg: int) -> Any:
    n, c, h, w = xv.shape
    k, ho, wo = kh * kw, ov.shape[2], ov.shape[3]
    dtype = xv.dtype
    work = jnp.promote_types(dtype, jnp.float32)  # float16 inputs are sampled and accumulated in float32
    off = ov.astype(work).reshape(n, 3, dg, k, ho, wo)
    ki, kj = jnp.divmod(jnp.arange(k), kw)
    base_y = (jnp.arange(ho) * st[0] - pad[0])[None, :, None] + (ki * dil[0])[:, None, None]
    base_x = (jnp.arange(wo) * st[1] - pad[2])[None, None, :] + (kj * dil[1])[:, None, None]
    ys = (base_y + off[:, 1]).reshape(n, dg, -1)
    xs = (base_x + off[:, 0]).reshape(n, dg, -1)
    cols = _sample(xv.astype(work).reshape(n, dg, c // dg, h, w), ys, xs).reshape(n, dg, c // dg, k, ho, wo)
    cols = (cols * off[:, 2][:, :, None]).reshape(n, groups, c // groups, k, ho, wo)
    co = wv.shape[0]
    wg = wv.astype(work).reshape(groups, co // groups, c // groups, k)
    out = jnp.einsum("ngckhw,gock->ngohw", cols, wg).reshape(n, co, ho, wo)
    if bias is not None:
        out = out + bias.astype(work)[None, :, None, None]
    return out.astype(dtype)
