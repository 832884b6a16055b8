"""``ScaleAndTranslate``: TensorFlow's kernel resampling of NHWC images (scale, then translate, with one of eight
filter kernels, optionally antialiased), as a weight matrix per spatial axis.

Output pixel ``i`` samples the input at ``(i + 0.5 - translation) / scale`` (pixel centres at ``k + 0.5``); the
filter is stretched by ``1 / scale`` when downscaling with ``antialias``; the weights of each output pixel are
normalised to sum 1 and are zero when the sample falls outside ``[0, input_size]``.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op
from ._primitives import primitive_class

__all__ = ["ScaleAndTranslate"]


def _lanczos(radius: float) -> Callable[[jax.Array], jax.Array]:
    # jnp.sinc is the normalised sinc, sin(pi x) / (pi x)
    return lambda x: jnp.where(x < radius, jnp.sinc(x) * jnp.sinc(x / radius), 0.0)


def _cubic(b: float, c: float) -> Callable[[jax.Array], jax.Array]:
    """The (B, C) family of cubic filters: Keys (0, 0.5), Mitchell-Netravali (1/3, 1/3)."""
    def kernel(x: jax.Array) -> jax.Array:
        near = ((12 - 9 * b - 6 * c) * x ** 3 + (-18 + 12 * b + 6 * c) * x ** 2 + (6 - 2 * b)) / 6
        far = ((-b - 6 * c) * x ** 3 + (6 * b + 30 * c) * x ** 2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        return jnp.where(x < 1, near, jnp.where(x < 2, far, 0.0))
    return kernel


_KERNELS: dict[str, Callable[[jax.Array], jax.Array]] = {
    "lanczos1": _lanczos(1.0),
    "lanczos3": _lanczos(3.0),
    "lanczos5": _lanczos(5.0),
    # sigma 0.5, cut at 3 sigma
    "gaussian": lambda x: jnp.where(x < 1.5, jnp.exp(-x * x / (2 * 0.5 * 0.5)), 0.0),
    "box": lambda x: jnp.where(x < 0.5, 1.0, jnp.where(x == 0.5, 0.5, 0.0)),
    "triangle": lambda x: jnp.maximum(1.0 - x, 0.0),
    "keyscubic": _cubic(0.0, 0.5),
    "mitchellcubic": _cubic(1.0 / 3.0, 1.0 / 3.0),
}


def _weights(n_in: int, n_out: int, scale: jax.Array, translation: jax.Array, kernel_type: str,
             antialias: bool) -> jax.Array:
    """(n_in, n_out) float32 resampling weights along one axis."""
    inv_scale = 1.0 / scale
    kernel_scale = jnp.maximum(inv_scale, 1.0) if antialias else jnp.float32(1.0)
    sample = (jnp.arange(n_out, dtype=jnp.float32) + 0.5) * inv_scale - translation * inv_scale
    dist = jnp.abs(sample[None, :] - (jnp.arange(n_in, dtype=jnp.float32)[:, None] + 0.5)) / kernel_scale
    w = _KERNELS[kernel_type](dist).astype(jnp.float32)
    total = jnp.sum(w, axis=0, keepdims=True)
    w = jnp.where(jnp.abs(total) > 1000 * np.finfo(np.float32).tiny, w / jnp.where(total == 0, 1, total), 0.0)
    return jnp.where(((sample >= 0) & (sample <= n_in))[None, :], w, 0.0)


@op("scale_and_translate")
def _scale_and_translate(images: Any, size: tuple[int, int], scale: Any, translation: Any, kernel_type: str,
                         antialias: bool) -> Any:
    return _resample(images, scale, translation, size, kernel_type, antialias)


@functools.partial(jax.jit, static_argnums=(3, 4, 5))
def _resample(images: jax.Array, scale: jax.Array, translation: jax.Array, size: tuple[int, int], kernel_type: str,
              antialias: bool) -> jax.Array:
    x = images.astype(jnp.float32)
    rows = _weights(x.shape[1], size[0], scale[0], translation[0], kernel_type, antialias)
    cols = _weights(x.shape[2], size[1], scale[1], translation[1], kernel_type, antialias)
    return jnp.einsum("nhwc,hi,wj->nijc", x, rows, cols, precision=jax.lax.Precision.HIGHEST)


def _init(p: Any) -> None:
    check(isinstance(p.kernel_type, str), p.name, f"'kernel_type' must be a str, but got {p.kernel_type!r}.",
          TypeError)
    check(p.kernel_type in _KERNELS, p.name, f"'kernel_type' must be one of {list(_KERNELS)}, but got "
          f"{p.kernel_type!r}.")
    check(isinstance(p.antialias, bool), p.name, f"'antialias' must be a bool, but got {p.antialias!r}.", TypeError)


_IMAGE_DTYPES = ("int8", "int16", "int32", "int64", "float16", "float32", "float64")


def _call(p: Any, images: Tensor, size: Tensor, scale: Tensor, translation: Tensor) -> Tensor:
    for arg, value, dtypes in (("images", images, _IMAGE_DTYPES), ("size", size, ("int32",)),
                               ("scale", scale, ("float32",)), ("translation", translation, ("float32",))):
        check(isinstance(value, Tensor) and str(np.dtype(value._value.dtype)) in dtypes, p.name,
              f"'{arg}' must be a Tensor of {dtypes}, but got {getattr(value, 'dtype', type(value).__name__)}.",
              TypeError)
    check(images.ndim == 4, p.name, f"the rank of 'images' must be 4 (N, H, W, C), but got {images.ndim}.")
    for arg, value in (("size", size), ("scale", scale), ("translation", translation)):
        check(tuple(value.shape) == (2,), p.name, f"the shape of '{arg}' must be (2,), but got {tuple(value.shape)}.")
    check(not isinstance(size._value, jax.core.Tracer), p.name,
          "'size' must be a constant Tensor: it gives the output shape.")
    oh, ow = (int(v) for v in np.asarray(size._value))
    out = (oh, ow)
    check(all(v > 0 for v in out), p.name, f"the elements of 'size' must be positive, but got {out}.")
    return _scale_and_translate(images, out, scale, translation, p.kernel_type, p.antialias)


ScaleAndTranslate = primitive_class(
    "ScaleAndTranslate", [("kernel_type", "lanczos3"), ("antialias", True)], _call,
    "``ScaleAndTranslate(kernel_type, antialias)(images, size, scale, translation)``: NHWC ``images`` resampled "
    "to ``size`` (float32) with the given filter kernel, scaled by ``scale`` and shifted by ``translation``.",
    __name__, _init)
