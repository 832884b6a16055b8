"""Image ops: sampling grids, crops, box coding, block rearrangements, mirror padding, bidense, rotary embedding
(and ``ctc_loss`` from ``_nn_ctc``).

Built from ``jnp`` gathers and arithmetic so ``jax.grad`` differentiates them (integer outputs aside).
Arguments that decide an output's shape (paddings, crop sizes, block shapes) are read on the host.
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from ._core import check, op
from ._nn_ctc import ctc_loss

__all__ = ["affine_grid", "grid_sample", "mirror_pad", "padding", "batch_to_space_nd", "space_to_batch_nd",
           "crop_and_resize", "bounding_box_decode", "bounding_box_encode", "bidense", "rotary_position_embedding",
           "ctc_loss"]


def host_ints(value: Any, name: str, what: str) -> np.ndarray:
    """A shape-deciding argument (ints, nested lists or a Tensor) as a NumPy int array."""
    try:
        return np.asarray(value).astype(np.int64)
    except (TypeError, jax.errors.ConcretizationTypeError):
        raise ValueError(f"For '{name}', '{what}' must be constant ints (it decides the output shape), but got "
                         f"{type(value).__name__}.") from None


def _base_coords(size, align_corners, dtype):
    if align_corners:
        return jnp.linspace(-1.0, 1.0, size, dtype=dtype)
    return (jnp.arange(size, dtype=dtype) * 2 + 1) / size - 1


@op("affine_grid")
def affine_grid(theta: Tensor, size: tuple[int, ...], align_corners: bool = False) -> Tensor:
    """Sampling grid of affine maps ``theta``: (N, 2, 3) -> (N, H, W, 2) for size (N, C, H, W), or
    (N, 3, 4) -> (N, D, H, W, 3) for size (N, C, D, H, W); coordinates in [-1, 1], (x, y[, z]) order."""
    name = "affine_grid"
    size = tuple(int(s) for s in size)
    check(len(size) in (4, 5), name, f"'size' must have 4 (N, C, H, W) or 5 (N, C, D, H, W) values, but got {size}.")
    nd = len(size) - 2
    check(theta.ndim == 3 and theta.shape == (size[0], nd, nd + 1), name, f"'theta' must have shape "
          f"{[size[0], nd, nd + 1]} for size {list(size)}, but got {list(theta.shape)}.")
    check(jnp.issubdtype(theta.dtype, jnp.floating), name, f"'theta' must be float, but got {theta.dtype}.",
          TypeError)
    return _affine_grid_core(theta, size[2:], bool(align_corners))


@functools.partial(jax.jit, static_argnums=(1, 2))
def _affine_grid_core(theta, spatial, align_corners):
    axes = [_base_coords(s, align_corners, theta.dtype) for s in spatial[::-1]]  # x (W), y (H)[, z (D)]
    mesh = jnp.meshgrid(*axes[::-1], indexing="ij")                                  # each (D,) H, W
    base = jnp.stack([*mesh[::-1], jnp.ones_like(mesh[0])], axis=-1)                 # (..., nd + 1)
    return jnp.einsum("...k,nik->n...i", base, theta)


def _reflect(coord, low2, high2):
    """Reflect ``coord`` into [low2 / 2, high2 / 2] (twice the bounds, as in the sampling reference)."""
    if low2 == high2:
        return jnp.zeros_like(coord)
    lo, span = low2 / 2, (high2 - low2) / 2
    c = jnp.abs(coord - lo)
    extra = jnp.fmod(c, span)
    flips = jnp.floor(c / span)
    return jnp.where(jnp.fmod(flips, 2) == 0, extra + lo, span - extra + lo)


def _source_coords(g, size, padding_mode, align_corners):
    c = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
    if padding_mode == "border":
        c = jnp.clip(c, 0, size - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0, 2 * (size - 1)) if align_corners else _reflect(c, -1, 2 * size - 1)
        c = jnp.clip(c, 0, size - 1)
    return c


@op("grid_sample")
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample (N, C, H, W) at grid (N, H_out, W_out, 2) (or (N, C, D, H, W) at (N, D_out, H_out, W_out, 3)).

    Args:
        mode: 'bilinear' (trilinear for 5-D) or 'nearest'. padding_mode: 'zeros', 'border' or 'reflection'.
        align_corners: -1 and 1 are the corner pixels' centres (True) or their outer edges (False / None).
    """
    name = "grid_sample"
    check(input.ndim in (4, 5), name, f"'input' must be 4-D or 5-D, but got shape {list(input.shape)}.")
    nd = input.ndim - 2
    check(grid.ndim == input.ndim and grid.shape[0] == input.shape[0] and grid.shape[-1] == nd, name,
          f"'grid' must have shape (N, {', '.join('DHW'[3 - nd:])}_out..., {nd}) with N={input.shape[0]}, but got "
          f"{list(grid.shape)}.")
    check(mode in ("bilinear", "nearest"), name, f"'mode' must be 'bilinear' or 'nearest', but got {mode!r}.")
    check(padding_mode in ("zeros", "border", "reflection"), name, f"'padding_mode' must be 'zeros', 'border' or "
          f"'reflection', but got {padding_mode!r}.")
    return _grid_sample_core(input, grid, mode, padding_mode, bool(align_corners))


@functools.partial(jax.jit, static_argnums=(2, 3, 4))
def _grid_sample_core(input, grid, mode, padding_mode, align_corners):
    nd = input.ndim - 2
    n, c = input.shape[:2]
    sizes = input.shape[2:]
    out_shape = grid.shape[1:-1]
    g = grid.astype(input.dtype).reshape(n, -1, nd)
    coords = [_source_coords(g[..., nd - 1 - i], sizes[i], padding_mode, align_corners) for i in range(nd)]
    flat = input.reshape(n, c, -1)

    def gather(idx):  # idx: per-dim integer positions (n, P); out-of-range taps read zero
        inside = jnp.ones(idx[0].shape, bool)
        lin = jnp.zeros(idx[0].shape, jnp.int64)
        for i in range(nd):
            inside = inside & (idx[i] >= 0) & (idx[i] < sizes[i])
            lin = lin * sizes[i] + jnp.clip(idx[i], 0, sizes[i] - 1).astype(jnp.int64)
        vals = jnp.take_along_axis(flat, lin[:, None, :], axis=2)
        return jnp.where(inside[:, None, :], vals, jnp.zeros((), input.dtype))

    if mode == "nearest":
        out = gather([jnp.round(cd).astype(jnp.int64) for cd in coords])
    else:
        lows = [jnp.floor(cd) for cd in coords]
        fracs = [cd - lo for cd, lo in zip(coords, lows)]
        out = jnp.zeros((n, c, g.shape[1]), input.dtype)
        for corner in range(2 ** nd):
            bits = [(corner >> (nd - 1 - i)) & 1 for i in range(nd)]
            w = jnp.ones_like(fracs[0])
            for i, b in enumerate(bits):
                w = w * (fracs[i] if b else 1 - fracs[i])
            out = out + gather([(lows[i] + bits[i]).astype(jnp.int64) for i in range(nd)]) * w[:, None, :]
    return out.reshape((n, c) + tuple(out_shape))


@op("mirror_pad")
def mirror_pad(input_x: Tensor, paddings: tuple[tuple[int, int], ...], mode: str) -> Tensor:
    """Pad by mirroring: ``paddings`` (ndim, 2) ints (a Tensor or nested lists); mode 'REFLECT' (edge not
    repeated) or 'SYMMETRIC' (edge repeated)."""
    name = "mirror_pad"
    check(mode in ("REFLECT", "SYMMETRIC"), name, f"'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
    p = host_ints(paddings, name, "paddings")
    check(p.shape == (input_x.ndim, 2) and (p >= 0).all(), name, f"'paddings' must be non-negative with shape "
          f"({input_x.ndim}, 2), but got {p.tolist()}.")
    limit = np.array(input_x.shape) - (1 if mode == "REFLECT" else 0)
    check(bool((p.max(axis=1) <= limit).all()), name, f"'paddings' {p.tolist()} must be at most the input's size "
          f"{list(input_x.shape)}{' - 1' if mode == 'REFLECT' else ''} per dim in mode {mode}.")
    return jnp.pad(input_x, [tuple(r) for r in p.tolist()], mode="reflect" if mode == "REFLECT" else "symmetric")


@op("padding")
def padding(x: Tensor, pad_dim_size: int = 8) -> Tensor:
    """Extend the last dimension (of size 1) to ``pad_dim_size``: the value first, then zeros."""
    check(x.ndim >= 1 and x.shape[-1] == 1, "padding", f"the last dimension of 'x' must be 1, but got shape "
          f"{list(x.shape)}.")
    check(isinstance(pad_dim_size, int) and pad_dim_size >= 1, "padding", f"'pad_dim_size' must be a positive "
          f"int, but got {pad_dim_size!r}.")
    return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, pad_dim_size - 1)])


def _blocks(name, value, what, m=None):
    b = host_ints(value, name, what).reshape(-1)
    if m is not None and b.size == 1:
        b = np.repeat(b, m)
    check(b.size >= 1 and (b >= 1).all(), name, f"'{what}' must be positive ints, but got {b.tolist()}.")
    return [int(i) for i in b]


@op("space_to_batch_nd")
def space_to_batch_nd(input_x: Tensor, block_size: int | tuple[int, ...],
                      paddings: tuple[tuple[int, int], ...]) -> Tensor:
    """Zero-pad the M spatial dims after (N, C) by ``paddings`` (M, 2), split them into ``block_size`` blocks and
    move the blocks into the batch: (N, C, H, W) -> (N * b0 * b1, C, (H + p) / b0, (W + p) / b1)."""
    name = "space_to_batch_nd"
    p = host_ints(paddings, name, "paddings")
    block = _blocks(name, block_size, "block_size", p.shape[0] if p.ndim == 2 else None)
    m = len(block)
    check(input_x.ndim >= 2 + m and p.shape == (m, 2), name, f"'input_x' must have at least {2 + m} dims and "
          f"'paddings' shape ({m}, 2), but got {list(input_x.shape)} and {p.tolist()}.")
    x = jnp.pad(input_x, [(0, 0), (0, 0)] + [tuple(r) for r in p.tolist()] + [(0, 0)] * (input_x.ndim - 2 - m))
    sp = x.shape[2:2 + m]
    check(all(s % b == 0 for s, b in zip(sp, block)), name, f"the padded spatial sizes {list(sp)} must be "
          f"divisible by the block {block}.")
    n, c, rest = x.shape[0], x.shape[1], x.shape[2 + m:]
    x = x.reshape((n, c) + tuple(d for s, b in zip(sp, block) for d in (s // b, b)) + rest)
    perm = [3 + 2 * i for i in range(m)] + [0, 1] + [2 + 2 * i for i in range(m)] + list(range(2 + 2 * m, x.ndim))
    return x.transpose(perm).reshape((n * int(np.prod(block)), c) + tuple(s // b for s, b in zip(sp, block)) + rest)


@op("batch_to_space_nd")
def batch_to_space_nd(input_x: Tensor, block_shape: tuple[int, ...], crops: tuple[tuple[int, int], ...]) -> Tensor:
    """Inverse of space_to_batch_nd: move batch blocks back into the M spatial dims after (N, C), then crop
    ``crops`` (M, 2) from their ends."""
    name = "batch_to_space_nd"
    cr = host_ints(crops, name, "crops")
    block = _blocks(name, block_shape, "block_shape", cr.shape[0] if cr.ndim == 2 else None)
    m, bprod = len(block), int(np.prod(block))
    check(input_x.ndim >= 2 + m and cr.shape == (m, 2) and input_x.shape[0] % bprod == 0, name,
          f"'input_x' must have at least {2 + m} dims with a batch divisible by {bprod}, and 'crops' shape "
          f"({m}, 2); got {list(input_x.shape)} and {cr.tolist()}.")
    n, c, sp, rest = input_x.shape[0] // bprod, input_x.shape[1], input_x.shape[2:2 + m], input_x.shape[2 + m:]
    x = input_x.reshape(tuple(block) + (n, c) + sp + rest)
    perm = [m, m + 1] + [d for i in range(m) for d in (m + 2 + i, i)] + list(range(2 + 2 * m, x.ndim))
    x = x.transpose(perm).reshape((n, c) + tuple(s * b for s, b in zip(sp, block)) + rest)
    full = x.shape[2:2 + m]
    check(all(lo + hi < f for (lo, hi), f in zip(cr.tolist(), full)), name, f"'crops' {cr.tolist()} must leave a "
          f"non-empty result of the spatial sizes {list(full)}.")
    idx = (slice(None), slice(None)) + tuple(slice(lo, f - hi) for (lo, hi), f in zip(cr.tolist(), full))
    return x[idx]


@op("crop_and_resize")
def crop_and_resize(image: Tensor, boxes: Tensor, box_indices: Tensor, crop_size: tuple[int, ...],
                    method: str = "bilinear", extrapolation_value: float = 0.0) -> Tensor:
    """Crop normalised ``boxes`` (num_boxes, 4: y1, x1, y2, x2) from NHWC ``image`` (of batch ``box_indices``)
    and resize each to ``crop_size`` (h, w): (num_boxes, h, w, C) float32. Outside the image:
    ``extrapolation_value``. ``method``: 'bilinear' / 'bilinear_v2' or 'nearest'."""
    name = "crop_and_resize"
    check(image.ndim == 4, name, f"'image' must be 4-D (N, H, W, C), but got shape {list(image.shape)}.")
    check(boxes.ndim == 2 and boxes.shape[1] == 4, name, f"'boxes' must have shape (num_boxes, 4), but got "
          f"{list(boxes.shape)}.")
    check(box_indices.shape == (boxes.shape[0],), name, f"'box_indices' must have shape ({boxes.shape[0]},), but "
          f"got {list(box_indices.shape)}.")
    check(method in ("bilinear", "nearest", "bilinear_v2"), name, f"'method' must be 'bilinear', 'nearest' or "
          f"'bilinear_v2', but got {method!r}.")
    ch, cw = (int(s) for s in crop_size)
    check(ch > 0 and cw > 0, name, f"'crop_size' must be positive, but got {tuple(crop_size)}.")
    return _crop_core(image, boxes, box_indices, ch, cw, method, extrapolation_value)


@functools.partial(jax.jit, static_argnums=(3, 4, 5))
def _crop_core(image, boxes, box_indices, ch, cw, method, extrapolation_value):
    h, w = image.shape[1:3]
    img = image[box_indices.astype(jnp.int32)].astype(jnp.float32)          # (B, H, W, C)
    b = boxes.astype(jnp.float32)

    def positions(lo, hi, size, n):
        if n > 1:
            return lo[:, None] * (size - 1) + jnp.arange(n, dtype=jnp.float32)[None] * ((hi - lo) * (size - 1)
                                                                                          / (n - 1))[:, None]
        return (0.5 * (lo + hi) * (size - 1))[:, None]

    ys, xs = positions(b[:, 0], b[:, 2], h, ch), positions(b[:, 1], b[:, 3], w, cw)     # (B, ch), (B, cw)
    valid = ((ys >= 0) & (ys <= h - 1))[:, :, None] & ((xs >= 0) & (xs <= w - 1))[:, None, :]
    rows = jnp.arange(img.shape[0])[:, None, None]

    def pick(yi, xi):
        return img[rows, jnp.clip(yi, 0, h - 1)[:, :, None], jnp.clip(xi, 0, w - 1)[:, None, :]]

    if method == "nearest":
        out = pick(jnp.floor(ys + 0.5).astype(jnp.int32), jnp.floor(xs + 0.5).astype(jnp.int32))  # half away from 0
    else:
        y0, x0 = jnp.floor(ys), jnp.floor(xs)
        y1, x1 = jnp.ceil(ys), jnp.ceil(xs)
        fy, fx = (ys - y0)[:, :, None, None], (xs - x0)[:, None, :, None]
        y0, x0, y1, x1 = (v.astype(jnp.int32) for v in (y0, x0, y1, x1))
        top = pick(y0, x0) + (pick(y0, x1) - pick(y0, x0)) * fx
        bottom = pick(y1, x0) + (pick(y1, x1) - pick(y1, x0)) * fx
        out = top + (bottom - top) * fy
    return jnp.where(valid[..., None], out, jnp.asarray(extrapolation_value, jnp.float32))


def _box_check(name, *pairs):
    for what, v in pairs:
        check(v.ndim == 2 and v.shape[1] == 4, name, f"'{what}' must have shape (n, 4), but got {list(v.shape)}.")
    check(pairs[0][1].shape == pairs[1][1].shape, name, f"'{pairs[0][0]}' and '{pairs[1][0]}' must have the same "
          f"shape, but got {list(pairs[0][1].shape)} and {list(pairs[1][1].shape)}.")


def _centres(b):
    w, h = b[:, 2] - b[:, 0] + 1.0, b[:, 3] - b[:, 1] + 1.0
    return (b[:, 0] + b[:, 2]) * 0.5, (b[:, 1] + b[:, 3]) * 0.5, w, h


@op("bounding_box_encode")
def bounding_box_encode(anchor_box: Tensor, groundtruth_box: Tensor, means: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0),
                        stds: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)) -> Tensor:
    """Deltas (dx, dy, dw, dh) of ground-truth boxes from anchors (both (n, 4): x1, y1, x2, y2; widths + 1),
    normalised by ``means`` and ``stds``."""
    _box_check("bounding_box_encode", ("anchor_box", anchor_box), ("groundtruth_box", groundtruth_box))
    return _encode_core(anchor_box, groundtruth_box, tuple(map(float, means)), tuple(map(float, stds)))


@functools.partial(jax.jit, static_argnums=(2, 3))
def _encode_core(anchor_box, groundtruth_box, means, stds):
    px, py, pw, ph = _centres(anchor_box)
    gx, gy, gw, gh = _centres(groundtruth_box.astype(anchor_box.dtype))
    d = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], axis=1)
    return (d - jnp.asarray(means, d.dtype)) / jnp.asarray(stds, d.dtype)


@op("bounding_box_decode")
def bounding_box_decode(anchor_box: Tensor, deltas: Tensor, max_shape: tuple[int, ...],
                        means: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0), stds: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip: float = 0.016) -> Tensor:
    """Boxes (n, 4: x1, y1, x2, y2) from anchors and ``deltas`` (inverse of bounding_box_encode), clipped to
    ``max_shape`` (height, width); |dw|, |dh| are limited to |log(wh_ratio_clip)|."""
    name = "bounding_box_decode"
    _box_check(name, ("anchor_box", anchor_box), ("deltas", deltas))
    check(len(tuple(max_shape)) == 2, name, f"'max_shape' must be (height, width), but got {max_shape!r}.")
    return _decode_core(anchor_box, deltas, (float(max_shape[0]), float(max_shape[1])), tuple(map(float, means)),
                        tuple(map(float, stds)), abs(float(np.log(wh_ratio_clip))))


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5))
def _decode_core(anchor_box, deltas, max_shape, means, stds, limit):
    d = deltas * jnp.asarray(stds, deltas.dtype) + jnp.asarray(means, deltas.dtype)
    dw, dh = jnp.clip(d[:, 2], -limit, limit), jnp.clip(d[:, 3], -limit, limit)
    px, py, pw, ph = _centres(anchor_box.astype(deltas.dtype))
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    hmax, wmax = max_shape  # (MindSpore clips to the size itself, not size - 1)
    x1, y1 = jnp.clip(gx - gw * 0.5 + 0.5, 0, wmax), jnp.clip(gy - gh * 0.5 + 0.5, 0, hmax)
    x2, y2 = jnp.clip(gx + gw * 0.5 - 0.5, 0, wmax), jnp.clip(gy + gh * 0.5 - 0.5, 0, hmax)
    return jnp.stack([x1, y1, x2, y2], axis=1)


@op("bidense")
def bidense(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Bilinear map y = x1^T A x2 + b: input1 (..., in1), input2 (..., in2), weight (out, in1, in2), bias (out,)."""
    name = "bidense"
    check(weight.ndim == 3 and input1.shape[-1] == weight.shape[1] and input2.shape[-1] == weight.shape[2]
          and input1.shape[:-1] == input2.shape[:-1], name, "expected input1 (..., in1), input2 (..., in2) with the "
          f"same leading dims and weight (out, in1, in2); got {list(input1.shape)}, "
          f"{list(input2.shape)} and {list(weight.shape)}.")
    y = jnp.einsum("...i,oij,...j->...o", input1, weight.astype(input1.dtype), input2.astype(input1.dtype))
    return y if bias is None else y + bias.astype(y.dtype)


@op("rotary_position_embedding")
def rotary_position_embedding(x: Tensor, cos: Tensor, sin: Tensor, mode: int = 0) -> Tensor:
    """Rotary position embedding x * cos + rotate(x) * sin (x (B, N, S, D) layout-agnostic, cos/sin broadcast).

    ``mode`` 0 rotates halves ([-x2, x1]), 1 rotates interleaved pairs ((-x1, x0), (-x3, x2) ...).
    """
    name = "rotary_position_embedding"
    check(mode in (0, 1), name, f"'mode' must be 0 (half) or 1 (interleave), but got {mode!r}.")
    check(x.shape[-1] % 2 == 0, name, f"the last dimension of 'x' must be even, but got shape {list(x.shape)}.")
    if mode == 0:
        half = x.shape[-1] // 2
        rot = jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    else:
        rot = jnp.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
    return x * cos.astype(x.dtype) + rot * sin.astype(x.dtype)
