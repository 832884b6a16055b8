"""Resampling Primitives' ops (ResizeBilinearV2, ResizeNearestNeighbor(V2), ResizeBicubic, ResizeArea,
ResizeLinear1D, UpsampleNearest3D, UpsampleTrilinear3D): separable per-axis matrices built on the host from the
TensorFlow / PyTorch coordinate rules and applied with ``tensordot``, so gradients flow. Not in ``ops.__all__``.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op


def _linear_matrix(n_in, n_out, src):
    """(n_out, n_in) linear-interpolation weights at source positions ``src`` (clamped to the edges)."""
    src = np.clip(src, 0, n_in - 1)
    lo = np.floor(src).astype(np.int64)
    hi = np.minimum(lo + 1, n_in - 1)
    frac = src - lo
    m = np.zeros((n_out, n_in), np.float64)
    np.add.at(m, (np.arange(n_out), lo), 1 - frac)
    np.add.at(m, (np.arange(n_out), hi), frac)
    return m


def _cubic_matrix(n_in, n_out, src, a, half_pixel, table=True):
    """Keys cubic-convolution weights (coefficient ``a``) over the 4 taps around ``src``: edges clamped, or with
    ``half_pixel`` out-of-range taps dropped and the rest renormalised (TensorFlow's two kernels). ``table``:
    TensorFlow's kernels read the weights from a 1024-entry table; PyTorch's compute them exactly."""
    base = np.floor(src)
    t = np.round((src - base) * 1024) / 1024 if table else src - base
    m = np.zeros((n_out, n_in), np.float64)
    for k in range(-1, 3):
        d = np.abs(t - k)
        w = np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                     np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a, 0.0))
        idx = base + k
        if half_pixel:
            w = np.where((idx >= 0) & (idx < n_in), w, 0.0)
        np.add.at(m, (np.arange(n_out), np.clip(idx, 0, n_in - 1).astype(np.int64)), w)
    return m / m.sum(axis=1, keepdims=True) if half_pixel else m


def _area_matrix(n_in, n_out, scale):
    """Each output pixel averages the input span [i * scale, (i + 1) * scale), partial pixels by coverage;
    positions past the edge read the last pixel (as TensorFlow's kernel)."""
    m = np.zeros((n_out, n_in), np.float64)
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(int(np.floor(lo)), int(np.ceil(hi))):
            m[i, min(j, n_in - 1)] += min(hi, j + 1) - max(lo, j)
    return m / scale


def _nearest_matrix(n_in, n_out, src):
    m = np.zeros((n_out, n_in), np.float64)
    m[np.arange(n_out), np.clip(src, 0, n_in - 1).astype(np.int64)] = 1.0
    return m


def resize_matrix(kind: str, n_in: int, n_out: int, align_corners: bool = False, half_pixel: bool = False,
                  scale: float | None = None) -> np.ndarray:
    """Per-axis resampling matrix (n_out, n_in).

    kind 'tf_linear' / 'tf_nearest' / 'tf_cubic' / 'tf_area': TensorFlow's resize rules (align_corners,
    half_pixel_centers), used by the Resize* Primitives; 'torch_linear' / 'torch_nearest' / 'torch_cubic':
    PyTorch's upsampling rules (``scale``: a given scale factor), used by the Upsample* ops and mint.
    """
    dst = np.arange(n_out, dtype=np.float64)
    if kind.startswith("tf"):
        s = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
        if kind == "tf_area":
            return _area_matrix(n_in, n_out, s)
        if kind == "tf_cubic":
            return _cubic_matrix(n_in, n_out, (dst + 0.5) * s - 0.5 if half_pixel else dst * s,
                                 -0.5 if half_pixel else -0.75, half_pixel)
        if kind == "tf_linear":
            return _linear_matrix(n_in, n_out, (dst + 0.5) * s - 0.5 if half_pixel else dst * s)
        src = np.floor((dst + 0.5) * s) if half_pixel else (np.floor(dst * s + 0.5) if align_corners
                                                            else np.floor(dst * s))
        return _nearest_matrix(n_in, n_out, src)
    s = n_in / n_out if not scale else 1.0 / scale
    if kind == "torch_nearest":
        return _nearest_matrix(n_in, n_out, np.floor(dst * s))
    if kind == "torch_cubic":  # source positions are not clamped at 0 for cubic (PyTorch's rule)
        src = dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0) if align_corners else (dst + 0.5) * s - 0.5
        return _cubic_matrix(n_in, n_out, src, -0.75, False, table=False)
    if align_corners:
        src = dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        src = np.maximum((dst + 0.5) * s - 0.5, 0)
    return _linear_matrix(n_in, n_out, src)


@functools.partial(jax.jit, static_argnums=(1,))
def _apply_matrices(x, mats):
    """Resample the last len(mats) axes of x with the given (n_out, n_in) matrices (as nested tuples)."""
    nd = len(mats)
    for i, m in enumerate(mats):
        axis = x.ndim - nd + i
        x = jnp.moveaxis(jnp.tensordot(jnp.asarray(np.array(m), x.dtype), x, axes=[[1], [axis]]), 0, axis)
    return x


def _resize(name, x, nd, sizes, kind, **opts):
    check(x.ndim == nd + 2, name, f"'x' must be {nd + 2}-D, but got shape {list(x.shape)}.")
    check(len(sizes) == nd and all(s > 0 for s in sizes), name, f"the output size must be {nd} positive ints, "
          f"but got {list(sizes)}.")
    scales = opts.pop("scales", None) or (None,) * nd
    mats = tuple(tuple(map(tuple, resize_matrix(kind, x.shape[2 + i], sizes[i], scale=scales[i], **opts)))
                 for i in range(nd))
    y = _apply_matrices(x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(jnp.float32), mats)
    return y.astype(x.dtype) if kind.endswith("nearest") else y


@op("ResizeBilinearV2")
def resize_bilinear(x: Tensor, size: tuple[int, ...], align_corners: bool = False,
                    half_pixel_centers: bool = False) -> Tensor:
    """Bilinear resize of (N, C, H, W) to ``size`` (h, w), TensorFlow's coordinate rules."""
    return _resize("ResizeBilinearV2", x, 2, tuple(int(s) for s in size), "tf_linear", align_corners=align_corners,
                   half_pixel=half_pixel_centers)


@op("ResizeBicubic")
def resize_bicubic(x: Tensor, size: tuple[int, ...], align_corners: bool = False,
                   half_pixel_centers: bool = False) -> Tensor:
    """Bicubic resize of (N, C, H, W) to ``size`` (h, w), TensorFlow's rules (Keys a = -0.75, or -0.5 with
    ``half_pixel_centers``); float32 out for non-float64 input."""
    y = _resize("ResizeBicubic", x, 2, tuple(int(s) for s in size), "tf_cubic", align_corners=align_corners,
                half_pixel=half_pixel_centers)
    return y if y.dtype == jnp.float64 else y.astype(jnp.float32)


@op("upsample_bicubic2d")
def upsample_bicubic2d(x: Tensor, output_size: tuple[int, int], scales: tuple[float, float] | None = None,
                       align_corners: bool = False) -> Tensor:
    """PyTorch's bicubic upsampling of (N, C, H, W) to ``output_size`` (``mint.nn.functional.interpolate``): Keys
    a = -0.75, taps clamped at the edges; ``scales`` (given scale factors) set the source positions instead of
    the size ratio."""
    return _resize("upsample_bicubic2d", x, 2, tuple(int(s) for s in output_size), "torch_cubic", scales=scales,
                   align_corners=align_corners)


@op("ResizeArea")
def resize_area(images: Tensor, size: tuple[int, ...], align_corners: bool = False) -> Tensor:
    """Area (box-average) resize of NHWC ``images`` to ``size`` (h, w), TensorFlow's rules; float32 out."""
    check(images.ndim == 4, "ResizeArea", f"'images' must be 4-D (N, H, W, C), but got shape {list(images.shape)}.")
    y = _resize("ResizeArea", jnp.transpose(images, (0, 3, 1, 2)).astype(jnp.float32), 2,
                tuple(int(s) for s in size), "tf_area", align_corners=align_corners)
    return jnp.transpose(y, (0, 2, 3, 1))


@op("ResizeNearestNeighbor")
def resize_nearest(x: Tensor, size: tuple[int, ...], align_corners: bool = False,
                   half_pixel_centers: bool = False) -> Tensor:
    """Nearest-neighbour resize of (N, C, H, W) to ``size`` (h, w), TensorFlow's coordinate rules (rounding half
    away from zero with ``align_corners``). ``ResizeNearestNeighbor`` passes ``half_pixel_centers=False``: MindSpore
    2.10's CPU kernel of that Primitive ignores the attribute (``ResizeNearestNeighborV2`` honours it)."""
    return _resize("ResizeNearestNeighbor", x, 2, tuple(int(s) for s in size), "tf_nearest",
                   align_corners=align_corners, half_pixel=half_pixel_centers)


@op("ResizeLinear1D")
def resize_linear_1d(x: Tensor, size: tuple[int, ...],
                     coordinate_transformation_mode: str = "align_corners") -> Tensor:
    """Linear resize of (N, C, W) to ``size`` (w,); modes 'align_corners' or 'half_pixel'."""
    mode = coordinate_transformation_mode
    check(mode in ("align_corners", "half_pixel"), "ResizeLinear1D", f"'coordinate_transformation_mode' must be "
          f"'align_corners' or 'half_pixel' (MindSpore 2.10 does not run 'asymmetric'), but got {mode!r}.")
    return _resize("ResizeLinear1D", x, 1, tuple(int(s) for s in size), "tf_linear",
                   align_corners=mode == "align_corners", half_pixel=mode == "half_pixel")


@op("UpsampleNearest3D")
def upsample_nearest_3d(x: Tensor, output_size: int | tuple[int, ...] | None = None,
                        scales: tuple[float, ...] | None = None) -> Tensor:
    """Nearest upsampling of (N, C, D, H, W) to ``output_size`` or by ``scales`` (floor(dst / scale))."""
    return _resize("UpsampleNearest3D", x, 3, _upsample_sizes("UpsampleNearest3D", x, output_size, scales),
                   "torch_nearest", scales=scales)


@op("UpsampleTrilinear3D")
def upsample_trilinear_3d(x: Tensor, output_size: int | tuple[int, ...] | None = None,
                          scales: tuple[float, ...] | None = None, align_corners: bool = False) -> Tensor:
    """Trilinear upsampling of (N, C, D, H, W) to ``output_size`` or by ``scales``."""
    return _resize("UpsampleTrilinear3D", x, 3, _upsample_sizes("UpsampleTrilinear3D", x, output_size, scales),
                   "torch_linear", scales=scales, align_corners=align_corners)


def _upsample_sizes(name, x, output_size, scales):
    check((output_size is None) != (scales is None), name, "exactly one of 'output_size' and 'scales' must be "
          f"given, but got {output_size!r} and {scales!r}.")
    check(x.ndim == 5, name, f"'x' must be 5-D (N, C, D, H, W), but got shape {list(x.shape)}.")
    if output_size is not None:
        return tuple(int(s) for s in output_size)
    return tuple(int(np.floor(x.shape[2 + i] * float(scales[i]))) for i in range(3))
