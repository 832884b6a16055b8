"""``ExtractGlimpse``: windows of NHWC images around per-sample offsets (TensorFlow's ``extract_glimpse``, with
MindSpore 2.10's CPU conventions); the part of a window outside the image is filled with zeros or with noise:
``'uniform'`` draws U(-1, 1), ``'gaussian'`` N(10, 0.5 ** 2), as MindSpore's kernel does.
"""
from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common import seed as _seed
from ..common.tensor import Tensor
from ._core import check, op
from ._primitives import primitive_class

__all__ = ["ExtractGlimpse"]


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6))
def _glimpse(x: jax.Array, offsets: jax.Array, key: jax.Array, size: tuple[int, int], centered: bool,
             normalized: bool, noise: str) -> jax.Array:
    n, h, w, c = x.shape
    gh, gw = size
    y, xo = offsets[:, 0], offsets[:, 1]
    if normalized:
        y, xo = y * h, xo * w
    if centered:  # MindSpore 2.10's CPU kernel halves centred offsets whether or not they are normalized
        y, xo = y / 2 + h / 2, xo / 2 + w / 2
    # the window's top-left corner, truncated toward zero as the C++ kernel's integer cast
    top = jnp.trunc(y - gh / 2).astype(jnp.int64)
    left = jnp.trunc(xo - gw / 2).astype(jnp.int64)
    rows = top[:, None] + jnp.arange(gh, dtype=jnp.int64)[None, :]  # (N, gh)
    cols = left[:, None] + jnp.arange(gw, dtype=jnp.int64)[None, :]  # (N, gw)
    inside = ((rows >= 0) & (rows < h))[:, :, None] & ((cols >= 0) & (cols < w))[:, None, :]  # (N, gh, gw)
    b = jnp.arange(n)[:, None, None]
    vals = x[b, jnp.clip(rows, 0, h - 1)[:, :, None], jnp.clip(cols, 0, w - 1)[:, None, :]]  # (N, gh, gw, C)
    if noise == "zero":
        fill = jnp.zeros_like(vals)
    elif noise == "uniform":  # MindSpore 2.10's CPU kernel: U(-1, 1), whatever the image holds
        fill = jax.random.uniform(key, vals.shape, jnp.float32, -1.0, 1.0)
    else:  # 'gaussian': N(10, 0.5 ** 2), as MindSpore 2.10's CPU kernel draws it
        fill = 10.0 + 0.5 * jax.random.normal(key, vals.shape, jnp.float32)
    return jnp.where(inside[..., None], vals, fill.astype(vals.dtype))


@op("extract_glimpse")
def _extract_glimpse(x: Any, offsets: Any, size: tuple[int, int], centered: bool, normalized: bool,
                     noise: str) -> Any:
    key = _seed.next_key() if noise != "zero" else jax.random.PRNGKey(0)
    return _glimpse(x, offsets, key, size, centered, normalized, noise)


def _init(p: Any) -> None:
    for arg in ("centered", "normalized", "uniform_noise"):
        check(isinstance(getattr(p, arg), bool), p.name, f"the type of '{arg}' should be 'bool', but got type "
              f"'{type(getattr(p, arg)).__name__}'.", TypeError)
    check(isinstance(p.noise, str), p.name, f"the type of 'noise' should be 'str', but got {p.noise!r}.", TypeError)
    check(p.noise in ("uniform", "gaussian", "zero"), p.name,
          f"'noise' must be one of ['uniform', 'gaussian', 'zero'], but got {p.noise!r}.")


def _call(p: Any, x: Tensor, size: Tensor, offsets: Tensor) -> Tensor:
    for arg, value, dtype in (("x", x, "float32"), ("size", size, "int32"), ("offsets", offsets, "float32")):
        check(isinstance(value, Tensor) and str(np.dtype(value._value.dtype)) == dtype, p.name,
              f"'{arg}' must be a {dtype} Tensor, but got {getattr(value, 'dtype', type(value).__name__)}.",
              TypeError)
    check(x.ndim == 4, p.name, f"'x' must be 4-D (N, H, W, C), but got shape {tuple(x.shape)}.")
    check(tuple(size.shape) == (2,), p.name, f"'size' must have shape (2,), but got {tuple(size.shape)}.")
    check(offsets.ndim == 2 and offsets.shape[1] == 2, p.name,
          f"'offsets' must have shape (batch_size, 2), but got {tuple(offsets.shape)}.")
    check(offsets.shape[0] == x.shape[0], p.name, f"the batch_size of 'offsets' ({offsets.shape[0]}) must equal "
          f"that of 'x' ({x.shape[0]}).")
    check(not isinstance(size._value, jax.core.Tracer), p.name, "'size' must be a constant Tensor.")
    gh, gw = (int(v) for v in np.asarray(size._value))
    glimpse = (gh, gw)
    check(all(v > 0 for v in glimpse), p.name, f"the value of 'size' must be greater than zero, but got {glimpse}.")
    check(not (p.uniform_noise and p.noise != "uniform"), p.name,
          f"when 'uniform_noise' is True, 'noise' must be 'uniform', but got {p.noise!r}.")
    return _extract_glimpse(x, offsets, glimpse, p.centered, p.normalized, p.noise)


ExtractGlimpse = primitive_class(
    "ExtractGlimpse", [("centered", True), ("normalized", True), ("uniform_noise", True), ("noise", "uniform")],
    _call, "``ExtractGlimpse(...)(x, size, offsets)``: (N, gh, gw, C) windows of NHWC ``x`` centred at ``offsets`` "
    "(y, x); the part outside the image is zero (``noise='zero'``) or random noise (``'uniform'``: U(-1, 1), "
    "``'gaussian'``: N(10, 0.25)).", __name__, _init)
