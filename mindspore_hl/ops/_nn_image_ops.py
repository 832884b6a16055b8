"""Ops MindSpore 2.10 exposes only as Primitives (no ``ops`` function): block/channel rearrangements, colour
space conversions, layout maps, embedding lookup with an offset, nll_loss's total weight. ``_primitives_nn2``
is their one front; they are not part of ``ops.__all__``.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op
from ._nn_fold import patches
from ._registry import lookup


def _check_nchw(name, x, block):
    check(x.ndim == 4, name, f"'x' must be 4-D (N, C, H, W), but got shape {list(x.shape)}.")
    check(isinstance(block, int) and block >= 2, name, f"'block_size' must be an int >= 2, but got {block!r}.")


@op("DepthToSpace")
def depth_to_space(x: Tensor, block_size: int) -> Tensor:
    """(N, C * b * b, H, W) -> (N, C, H * b, W * b); channel (i * b + j) * C + c goes to offset (i, j)."""
    _check_nchw("DepthToSpace", x, block_size)
    n, c, h, w = x.shape
    b = block_size
    check(c % (b * b) == 0, "DepthToSpace", f"the channels ({c}) must be divisible by block_size ** 2 ({b * b}).")
    y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(n, c // (b * b), h * b, w * b)


@op("SpaceToDepth")
def space_to_depth(x: Tensor, block_size: int) -> Tensor:
    """(N, C, H * b, W * b) -> (N, C * b * b, H, W), the inverse of DepthToSpace."""
    _check_nchw("SpaceToDepth", x, block_size)
    n, c, h, w = x.shape
    b = block_size
    check(h % b == 0 and w % b == 0, "SpaceToDepth", f"H and W ({h}, {w}) must be divisible by block_size ({b}).")
    y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return y.reshape(n, c * b * b, h // b, w // b)


def _check_rgb(name, x):
    check(x.ndim >= 1 and x.shape[-1] == 3, name, f"the last dimension of the image must be 3, but got shape "
          f"{list(x.shape)}.")
    check(jnp.issubdtype(x.dtype, jnp.floating), name, f"the image must be float, but got {x.dtype}.", TypeError)


@jax.jit
def _rgb_to_hsv(x):
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = jnp.max(x, axis=-1)
    delta = v - jnp.min(x, axis=-1)
    zero = jnp.zeros((), x.dtype)
    s = jnp.where(v > 0, delta / jnp.where(v > 0, v, 1), zero)
    safe = jnp.where(delta > 0, delta, 1)
    h = jnp.where(v == r, (g - b) / safe, jnp.where(v == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    h = jnp.where(delta > 0, h / 6, zero)
    h = jnp.where(h < 0, h + 1, h)
    return jnp.stack([h, s, v], axis=-1)


@jax.jit
def _hsv_to_rgb(x):
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    c = s * v
    m = v - c
    dh = h * 6
    category = jnp.floor(dh)
    xc = c * (1 - jnp.abs(jnp.mod(dh, 2) - 1))
    zero = jnp.zeros_like(c)
    k = jnp.mod(category, 6)
    r = jnp.select([k == 0, k == 1, k == 2, k == 3, k == 4], [c, xc, zero, zero, xc], c)
    g = jnp.select([k == 0, k == 1, k == 2, k == 3, k == 4], [xc, c, c, xc, zero], zero)
    b = jnp.select([k == 0, k == 1, k == 2, k == 3, k == 4], [zero, zero, xc, c, c], xc)
    return jnp.stack([r, g, b], axis=-1) + m[..., None]


@op("RGBToHSV")
def rgb_to_hsv(x: Tensor) -> Tensor:
    """RGB -> HSV along the last dim (values in [0, 1]; hue as a fraction of a turn)."""
    _check_rgb("RGBToHSV", x)
    return _rgb_to_hsv(x)


@op("HSVToRGB")
def hsv_to_rgb(x: Tensor) -> Tensor:
    """HSV -> RGB of a 4-D (N, H, W, 3) image (inverse of RGBToHSV)."""
    _check_rgb("HSVToRGB", x)
    check(x.ndim == 4, "HSVToRGB", f"'x' must be 4-D (N, H, W, 3), but got shape {list(x.shape)}.")
    return _hsv_to_rgb(x)


@op("AdjustHue")
def adjust_hue(image: Tensor, delta: float) -> Tensor:
    """Rotate the hue of an RGB image (last dim 3) by ``delta`` (a fraction of a turn)."""
    _check_rgb("AdjustHue", image)
    hsv = _rgb_to_hsv(image)
    h = jnp.mod(hsv[..., 0] + jnp.asarray(delta, image.dtype), 1.0)
    return _hsv_to_rgb(jnp.stack([h, hsv[..., 1], hsv[..., 2]], axis=-1))


@op("AdjustSaturation")
def adjust_saturation(image: Tensor, scale: float) -> Tensor:
    """Scale the saturation of an RGB image (last dim 3) by ``scale``, clipped to [0, 1]."""
    _check_rgb("AdjustSaturation", image)
    hsv = _rgb_to_hsv(image)
    s = jnp.clip(hsv[..., 1] * jnp.asarray(scale, image.dtype), 0, 1)
    return _hsv_to_rgb(jnp.stack([hsv[..., 0], s, hsv[..., 2]], axis=-1))


def _formats(name, src, dst):
    check(isinstance(src, str) and isinstance(dst, str) and sorted(src) == sorted(dst) and len(src) == 4, name,
          f"'src_format' and 'dst_format' must be permutations of the same 4 letters, but got {src!r} and {dst!r}.")


@op("DataFormatDimMap")
def data_format_dim_map(x: Tensor, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    """Dimension indices (in [-4, 4)) mapped as MindSpore does: i -> src_format.index(dst_format[i])."""
    _formats("DataFormatDimMap", src_format, dst_format)
    table = jnp.asarray([src_format.index(ch) for ch in dst_format], x.dtype)
    return table[jnp.mod(x, 4)]


@op("DataFormatVecPermute")
def data_format_vec_permute(x: Tensor, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    """Reorder a (4,) or (4, 2) vector of per-dimension values from ``src_format`` order to ``dst_format`` order."""
    name = "DataFormatVecPermute"
    _formats(name, src_format, dst_format)
    check(x.shape in ((4,), (4, 2)), name, f"'x' must have shape (4,) or (4, 2), but got {list(x.shape)}.")
    return x[jnp.asarray([src_format.index(ch) for ch in dst_format])]


@op("EmbeddingLookup")
def embedding_lookup(input_params: Tensor, input_indices: Tensor, offset: int) -> Tensor:
    """Rows ``input_indices - offset`` of ``input_params``; indices outside [0, rows) give zero rows."""
    idx = input_indices.astype(jnp.int64) - jnp.asarray(offset, jnp.int64)
    inside = (idx >= 0) & (idx < input_params.shape[0])
    rows = input_params[jnp.clip(idx, 0, input_params.shape[0] - 1)]
    return jnp.where(inside.reshape(inside.shape + (1,) * (input_params.ndim - 1)), rows,
                     jnp.zeros((), input_params.dtype))


@op("NLLLoss")
def nll_loss_with_weight(logits: Tensor, labels: Tensor, weight: Tensor, reduction: str = "mean",
                         ignore_index: int = -100) -> tuple[Tensor, Tensor]:
    """(nll_loss(logits, labels, weight), total weight of the non-ignored labels)."""
    check(reduction in ("mean", "sum", "none"), "NLLLoss", f"'reduction' must be 'mean', 'sum' or 'none', but got "
          f"{reduction!r}.")
    loss = lookup("nll_loss")(logits, labels, weight, ignore_index, reduction)._value
    keep = labels != ignore_index
    total = jnp.sum(jnp.where(keep, weight[jnp.where(keep, labels, 0)], jnp.zeros((), weight.dtype)))
    return loss, total


@op("ExtractVolumePatches")
def extract_volume_patches(x: Tensor, kernel_size: int | tuple[int, ...], strides: int | tuple[int, ...],
                           padding: str) -> Tensor:
    """(N, C, D, H, W) -> (N, kd * kh * kw * C, D', H', W') patches, the channel fastest; 'VALID' or 'SAME'."""
    name = "ExtractVolumePatches"
    check(x.ndim == 5, name, f"'x' must be 5-D (N, C, D, H, W), but got shape {list(x.shape)}.")
    check(padding in ("VALID", "SAME"), name, f"'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
    kernel, stride = tuple(kernel_size)[-3:], tuple(strides)[-3:]
    p = patches(x, kernel, stride, padding)
    n, c = x.shape[:2]
    k = int(np.prod(kernel))
    return p.reshape((n, c, k) + p.shape[2:]).swapaxes(1, 2).reshape(p.shape)


def _iou_matrix(b):
    x1, y1, x2, y2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    area = (x2 - x1) * (y2 - y1)
    w = jnp.maximum(jnp.minimum(x2[:, None], x2[None]) - jnp.maximum(x1[:, None], x1[None]), 0)
    h = jnp.maximum(jnp.minimum(y2[:, None], y2[None]) - jnp.maximum(y1[:, None], y1[None]), 0)
    inter = w * h
    return inter / (area[:, None] + area[None] - inter)


@functools.partial(jax.jit, static_argnums=(1,))
def _nms_core(bboxes, iou_threshold):
    order = jnp.argsort(-bboxes[:, 4], stable=True)
    boxes = bboxes[order]
    iou = _iou_matrix(boxes[:, :4])
    n = boxes.shape[0]

    def body(i, keep):
        # Box i survives when no earlier kept box overlaps it by more than the threshold.
        earlier = (jnp.arange(n) < i) & keep
        return keep.at[i].set(~jnp.any(earlier & (iou[i] > iou_threshold)))

    keep = jax.lax.fori_loop(0, n, body, jnp.ones((n,), bool))
    return boxes, order.astype(jnp.int32), keep


@op("NMSWithMask")
def nms_with_mask(bboxes: Tensor, iou_threshold: float = 0.5) -> tuple[Tensor, Tensor, Tensor]:
    """Greedy non-maximum suppression of (N, 5) boxes (x1, y1, x2, y2, score): (boxes sorted by descending score,
    their original indices (int32), a keep mask)."""
    check(bboxes.ndim == 2 and bboxes.shape[1] == 5, "NMSWithMask", f"'bboxes' must have shape (N, 5), but got "
          f"{list(bboxes.shape)}.")
    return _nms_core(bboxes, float(iou_threshold))


def _bilinear_taps(v, size):
    """Low/high indices and weights of bilinear sampling at ``v`` (the ROIAlign reference's edge rules)."""
    outside = (v < -1.0) | (v > size)
    v = jnp.maximum(v, 0.0)
    low = jnp.minimum(jnp.floor(v), size - 1)
    high = jnp.minimum(low + 1, size - 1)
    v = jnp.where(low >= size - 1, low, v)
    frac = v - low
    return low.astype(jnp.int32), high.astype(jnp.int32), 1 - frac, frac, outside


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5, 6))
def _roi_align_core(features, rois, ph, pw, scale, samples, end_mode):
    n, c, h, w = features.shape
    b = rois[:, 0].astype(jnp.int32)
    x1, y1 = rois[:, 1] * scale, rois[:, 2] * scale
    x2, y2 = (rois[:, 3] + end_mode) * scale, (rois[:, 4] + end_mode) * scale
    rw, rh = jnp.maximum(x2 - x1, 1.0), jnp.maximum(y2 - y1, 1.0)
    grid_y = (jnp.arange(ph)[:, None] + (jnp.arange(samples)[None, :] + 0.5) / samples).reshape(-1)   # (ph * s,)
    grid_x = (jnp.arange(pw)[:, None] + (jnp.arange(samples)[None, :] + 0.5) / samples).reshape(-1)
    ys = y1[:, None] + grid_y[None] * (rh / ph)[:, None]                                              # (R, ph * s)
    xs = x1[:, None] + grid_x[None] * (rw / pw)[:, None]
    yl, yh, wyl, wyh, yout = _bilinear_taps(ys, h)
    xl, xh, wxl, wxh, xout = _bilinear_taps(xs, w)
    img = features[b].astype(jnp.float32)                                                             # (R, C, H, W)
    rows = jnp.arange(rois.shape[0])[:, None, None]

    def at(yi, xi):
        return img[rows, :, yi[:, :, None], xi[:, None, :]]                                          # (R, Y, X, C)

    val = (at(yl, xl) * (wyl[:, :, None] * wxl[:, None, :])[..., None]
           + at(yl, xh) * (wyl[:, :, None] * wxh[:, None, :])[..., None]
           + at(yh, xl) * (wyh[:, :, None] * wxl[:, None, :])[..., None]
           + at(yh, xh) * (wyh[:, :, None] * wxh[:, None, :])[..., None])
    val = jnp.where((yout[:, :, None] | xout[:, None, :])[..., None], 0.0, val)
    r = rois.shape[0]
    val = val.reshape(r, ph, samples, pw, samples, c).mean(axis=(2, 4))
    return jnp.transpose(val, (0, 3, 1, 2)).astype(features.dtype)


@op("ROIAlign")
def roi_align(features: Tensor, rois: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float,
              sample_num: int = 2, roi_end_mode: int = 1) -> Tensor:
    """Average of ``sample_num`` x ``sample_num`` bilinear samples per bin of each region (batch, x1, y1, x2, y2)
    of NCHW ``features``: (num_rois, C, pooled_height, pooled_width). ``roi_end_mode`` 1 adds 1 to x2, y2."""
    name = "ROIAlign"
    check(features.ndim == 4, name, f"'features' must be 4-D (N, C, H, W), but got shape {list(features.shape)}.")
    check(rois.ndim == 2 and rois.shape[1] == 5, name, f"'rois' must have shape (num_rois, 5), but got "
          f"{list(rois.shape)}.")
    check(sample_num > 0 and roi_end_mode in (0, 1), name, f"'sample_num' must be positive and 'roi_end_mode' 0 or "
          f"1, but got {sample_num!r} and {roi_end_mode!r}.")
    return _roi_align_core(features, rois, int(pooled_height), int(pooled_width), float(spatial_scale),
                           int(sample_num), int(roi_end_mode))
