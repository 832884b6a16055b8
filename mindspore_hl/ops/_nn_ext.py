"""``ops.interpolate`` / ``upsample``, pairwise distances and the margin / embedding losses."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ..common import seed
from ..common.tensor import Tensor
from ._core import check, op
from ._nn_loss import reduce_loss
from ._nn_resize import resize_matrix

__all__ = ["interpolate", "upsample", "pdist", "margin_ranking_loss", "soft_margin_loss", "cosine_embedding_loss",
           "hinge_embedding_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss", "triplet_margin_loss",
           "multi_margin_loss", "dropout1d", "dropout2d", "dropout3d"]

_MODES = {"nearest": None, "linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2, "area": None,
          "nearest-exact": None}


def _weights(mode, n_in, n_out, align_corners, scale):
    """(n_out, n_in) matrix mapping input samples to output samples along one axis (NumPy, static)."""
    w = np.zeros((n_out, n_in), np.float64)
    o = np.arange(n_out, dtype=np.float64)
    if mode == "nearest":
        src = np.minimum(np.floor(o * scale).astype(np.int64), n_in - 1)
        w[np.arange(n_out), src] = 1
        return w
    if mode == "nearest-exact":
        src = np.minimum(np.floor((o + 0.5) * scale).astype(np.int64), n_in - 1)
        w[np.arange(n_out), src] = 1
        return w
    if mode == "bicubic":
        # MindSpore computes it as ResizeBicubic with half_pixel_centers = not align_corners.
        return resize_matrix("tf_cubic", n_in, n_out, align_corners, half_pixel=not align_corners)
    if mode == "area":
        for i in range(n_out):
            lo, hi = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
            w[i, lo:hi] = 1.0 / (hi - lo)
        return w
    if align_corners:
        src = o * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        src = np.maximum((o + 0.5) * scale - 0.5, 0.0)
    i0 = np.floor(src).astype(np.int64)
    t = src - i0
    i1 = np.minimum(i0 + 1, n_in - 1)
    i0 = np.minimum(i0, n_in - 1)
    np.add.at(w, (np.arange(n_out), i0), 1 - t)
    np.add.at(w, (np.arange(n_out), i1), t)
    return w


@op("interpolate")
def interpolate(input: Tensor, size: int | tuple[int, ...] | None = None,
                scale_factor: float | tuple[float, ...] | None = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Resize the spatial axes (all but N, C) of ``input`` to ``size`` or by ``scale_factor``.

    Modes: 'nearest', 'nearest-exact', 'linear' (3-D input), 'bilinear' and 'bicubic' (4-D), 'trilinear' (5-D),
    'area'. ``align_corners`` applies to the linear and cubic modes; 'bicubic' takes float input and, as
    MindSpore's, a ``scale_factor`` only with ``recompute_scale_factor=True``.
    """
    name = "interpolate"
    check(mode in _MODES, name, f"'mode' must be one of {sorted(_MODES)}, but got {mode!r}.")
    spatial = input.ndim - 2
    check(spatial >= 1, name, f"the input must be at least 3-D (N, C, ...), but got shape {list(input.shape)}.")
    check(_MODES[mode] in (None, spatial), name,
          f"mode {mode!r} needs a {(_MODES[mode] or 0) + 2}-D input, but got shape {list(input.shape)}.")
    check(align_corners is None or mode in ("linear", "bilinear", "trilinear", "bicubic"), name,
          f"'align_corners' only applies to the linear and cubic modes, not {mode!r}.")
    if mode == "bicubic":
        if not jnp.issubdtype(input.dtype, jnp.floating):
            raise TypeError(f"For '{name}', mode 'bicubic' needs a float16, float32 or float64 input, but got "
                            f"{input.dtype}.")
        check(scale_factor is None or recompute_scale_factor, name, "'scale_factor' option cannot currently be set "
              "with the mode = bicubic and dim = 4D (give 'size', or recompute_scale_factor=True).")
    check((size is None) != (scale_factor is None), name, "exactly one of 'size' and 'scale_factor' must be set.")
    in_sizes = input.shape[2:]
    if size is not None:
        out = [int(size)] * spatial if isinstance(size, int) else [int(s) for s in size]
        scales = [i / o for i, o in zip(in_sizes, out)]
    else:
        sf = [float(scale_factor)] * spatial if isinstance(scale_factor, (int, float)) else list(scale_factor)
        out = [int(math.floor(i * s)) for i, s in zip(in_sizes, sf)]
        scales = [i / o for i, o in zip(in_sizes, out)] if recompute_scale_factor else [1.0 / s for s in sf]
    check(len(out) == spatial, name, f"'size' must have {spatial} values for input {list(input.shape)}, got {out}.")
    x = input if jnp.issubdtype(input.dtype, jnp.floating) else input.astype(jnp.float32)
    for axis, (n_in, n_out, sc) in enumerate(zip(in_sizes, out, scales)):
        w = jnp.asarray(_weights(mode, n_in, n_out, bool(align_corners), sc), jnp.float32)
        x = jnp.moveaxis(jnp.tensordot(jnp.moveaxis(x, axis + 2, -1).astype(jnp.float32), w.T, axes=1),  # type: ignore[assignment]  # @op body: a jax.Array here
                         -1, axis + 2).astype(x.dtype)
    return x


def upsample(input: Tensor, size: int | tuple[int, ...] | None = None,
             scale_factor: float | tuple[float, ...] | None = None, mode: str = "nearest",
             align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Alias of ``interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


@op("pdist")
def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """p-norm distances between each pair of rows (upper triangle, row-major) of the (..., N, M) input."""
    n = input.shape[-2]
    i, j = np.triu_indices(n, 1)
    d = jnp.abs(input[..., i, :] - input[..., j, :])
    if p == 0:
        return jnp.sum(d != 0, -1).astype(input.dtype)
    if p == float("inf"):
        return jnp.max(d, -1)
    return jnp.sum(d ** p, -1) ** (1.0 / p)


@op("margin_ranking_loss")
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    """max(0, -target * (input1 - input2) + margin)."""
    return reduce_loss(jnp.maximum(0, -target * (input1 - input2) + margin), reduction, "margin_ranking_loss")


@op("soft_margin_loss")
def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """log(1 + exp(-target * input))."""
    return reduce_loss(jnp.logaddexp(0.0, -target * input).astype(input.dtype), reduction, "soft_margin_loss")


@op("cosine_embedding_loss")
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) for target 1, max(0, cos(x1, x2) - margin) for target -1 (cosine over the last axis)."""
    eps = 1e-12
    c = jnp.sum(input1 * input2, -1) / jnp.sqrt((jnp.sum(input1 ** 2, -1) + eps) * (jnp.sum(input2 ** 2, -1) + eps))
    loss = jnp.where(target == 1, 1 - c, jnp.maximum(0, c - margin))
    return reduce_loss(loss.astype(input1.dtype), reduction, "cosine_embedding_loss")


@op("hinge_embedding_loss")
def hinge_embedding_loss(inputs: Tensor, targets: Tensor, margin: float = 1.0, reduction: str = "mean") -> Tensor:
    """x for target 1, max(0, margin - x) for target -1 (as MindSpore: x wherever target > 0)."""
    loss = jnp.where(targets > 0, inputs, jnp.maximum(0, margin - inputs))
    return reduce_loss(loss.astype(inputs.dtype), reduction, "hinge_embedding_loss")


@op("gaussian_nll_loss")
def gaussian_nll_loss(x: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-06,
                      reduction: str = "mean") -> Tensor:
    """0.5 * (log(max(var, eps)) + (x - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) with ``full``)."""
    v = jnp.maximum(var, eps)
    loss = 0.5 * (jnp.log(v) + (x - target) ** 2 / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss.astype(x.dtype), reduction, "gaussian_nll_loss")


@op("multilabel_soft_margin_loss")
def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                reduction: str = "mean") -> Tensor:
    """Mean over classes of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)) (per-class ``weight``)."""
    loss = -(target * jax.nn.log_sigmoid(input) + (1 - target) * jax.nn.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(jnp.mean(loss, -1).astype(input.dtype), reduction, "multilabel_soft_margin_loss")


@op("triplet_margin_loss")
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-06, swap: bool = False, reduction: str = "mean") -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0) with the p-norm distance over the last axis."""
    def d(a, b):
        return jnp.sum(jnp.abs(a - b + eps) ** p, -1) ** (1.0 / p)
    dp, dn = d(anchor, positive), d(anchor, negative)
    if swap:
        dn = jnp.minimum(dn, d(positive, negative))
    return reduce_loss(jnp.maximum(dp - dn + margin, 0).astype(anchor.dtype), reduction, "triplet_margin_loss")


@op("multi_margin_loss")
def multi_margin_loss(input: Tensor, target: Tensor, p: float = 1, margin: float = 1, weight: Tensor | None = None,
                      reduction: str = "mean") -> Tensor:
    """sum over i != y of max(0, margin - x[y] + x[i]) ** p / C (per-class ``weight`` of the target)."""
    c = input.shape[-1]
    xy = jnp.take_along_axis(input, target[:, None], -1)
    m = jnp.maximum(0, margin - xy + input) ** p
    if weight is not None:
        m = m * weight[target][:, None]
    m = jnp.where(jax.nn.one_hot(target, c, dtype=bool), 0, m)
    return reduce_loss((jnp.sum(m, -1) / c).astype(input.dtype), reduction, "multi_margin_loss")


def _channel_dropout(name, input, p, training, spatial):
    check(0 <= p <= 1, name, f"'p' must be in [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    keep = jax.random.bernoulli(seed.next_key(), 1 - p, input.shape[:-spatial] + (1,) * spatial)
    return jnp.where(keep, input / (1 - p), 0).astype(input.dtype)


@op("dropout1d")
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels (the last axis is the length) with probability ``p``; scale the rest by 1/(1-p)."""
    return _channel_dropout("dropout1d", input, p, training, 1)


@op("dropout2d")
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole (H, W) channel planes with probability ``p``; scale the rest by 1/(1-p)."""
    return _channel_dropout("dropout2d", input, p, training, 2)


@op("dropout3d")
def dropout3d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole (D, H, W) channel volumes with probability ``p``; scale the rest by 1/(1-p)."""
    return _channel_dropout("dropout3d", input, p, training, 3)
