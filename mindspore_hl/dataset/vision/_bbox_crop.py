"""Transforms of an image with its bounding boxes ``(N, 4+)`` rows ``[x, y, w, h, ...]``: ``RandomCropWithBBox``,
``RandomResizedCropWithBBox`` and ``BoundingBoxAugment``. Crops move boxes into the window, clip them to it and
drop those wholly outside (MindSpore's rule: a box touching the window's edge stays, with zero width or
height)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ..transforms._ops import apply_op
from ._bbox import _boxes
from ._random_ops import RandomCrop, RandomResizedCrop, _crop_box
from ._resize import resize_block
from ._utils import Border, Inter, pad_image

__all__ = ["RandomCropWithBBox", "RandomResizedCropWithBBox", "BoundingBoxAugment"]


def _checked_boxes(op, img, bboxes):
    b = _boxes(op, bboxes)
    h, w = img.shape[:2]
    if b.size and ((b[:, :4] < 0).any() or (b[:, 0] + b[:, 2] > w).any() or (b[:, 1] + b[:, 3] > h).any()):
        raise RuntimeError(f"{op}: bounding boxes must lie inside the image of width {w} and height {h}, but got "
                           f"{b[:, :4].tolist()}")
    return b


def crop_boxes(b: np.ndarray, x0: int, y0: int, cw: int, ch: int) -> np.ndarray:
    """Boxes ``b`` in the coordinates of the crop window (x0, y0, cw, ch): clipped, those outside removed."""
    xmin, ymin = b[:, 0], b[:, 1]
    xmax, ymax = xmin + b[:, 2], ymin + b[:, 3]
    keep = ~((xmax < x0) | (ymax < y0) | (xmin > x0 + cw) | (ymin > y0 + ch))
    out = b[keep].copy()
    nx0, ny0 = np.maximum(xmin[keep], x0), np.maximum(ymin[keep], y0)
    nx1, ny1 = np.minimum(xmax[keep], x0 + cw), np.minimum(ymax[keep], y0 + ch)
    out[:, 0], out[:, 1] = nx0 - x0, ny0 - y0
    out[:, 2], out[:, 3] = nx1 - nx0, ny1 - ny0
    return out


class RandomCropWithBBox(RandomCrop):
    """``RandomCrop`` (same arguments) that also moves, clips and filters the image's bounding boxes."""
    batchable = False   # one window per image, shared with its boxes

    def __init__(self, size: int | Sequence[int], padding: int | Sequence[int] | None = None,
                 pad_if_needed: bool = False, fill_value: int | tuple[int, ...] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        super().__init__(size, padding, pad_if_needed, fill_value, padding_mode)

    def _apply(self, rng, img, bboxes):
        check_rank("RandomCropWithBBox", img, (2, 3), "<H,W> or <H,W,C>")
        b = _checked_boxes("RandomCropWithBBox", img, bboxes)
        left, top, right, bottom = self.padding
        x = pad_image(img[None], left, top, right, bottom, self.padding_mode, self.fill_value, 1)
        ch, cw = self.size
        if self.pad_if_needed and (x.shape[1] < ch or x.shape[2] < cw):
            dh, dw = max(ch - x.shape[1], 0), max(cw - x.shape[2], 0)
            x = pad_image(x, dw, dh, dw, dh, self.padding_mode, self.fill_value, 1)
            left, top = left + dw, top + dh
        h, w = x.shape[1], x.shape[2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCropWithBBox: crop size {self.size} is larger than the (padded) image size "
                               f"{(h, w)}; set pad_if_needed=True or a larger padding")
        y0, x0 = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
        shifted = b.copy()
        shifted[:, 0] += left
        shifted[:, 1] += top
        return x[0, y0:y0 + ch, x0:x0 + cw], crop_boxes(shifted, x0, y0, cw, ch)


class RandomResizedCropWithBBox(RandomResizedCrop):
    """``RandomResizedCrop`` (same arguments) that also crops and rescales the image's bounding boxes."""
    _name = "RandomResizedCropWithBBox"

    def __init__(self, size: int | Sequence[int], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3. / 4., 4. / 3.), interpolation: Inter = Inter.LINEAR,
                 max_attempts: int = 10) -> None:
        super().__init__(size, scale, ratio, interpolation, max_attempts)

    def _apply(self, rng, img, bboxes):  # type: ignore[override]  # a bbox op takes (image, bboxes)
        check_rank(self._name, img, (2, 3), "<H,W> or <H,W,C>")
        b = _checked_boxes(self._name, img, bboxes)
        y, x, ch, cw = _crop_box(rng, img.shape[0], img.shape[1], self.scale, self.ratio, self.max_attempts)
        out = resize_block(img[None, y:y + ch, x:x + cw], self.size[0], self.size[1], self._mode, h_axis=1)[0]
        boxes = crop_boxes(b.astype(np.float32) if b.dtype.kind != "f" else b, x, y, cw, ch)
        boxes[:, [0, 2]] *= np.float32(self.size[1] / cw)
        boxes[:, [1, 3]] *= np.float32(self.size[0] / ch)
        return out, boxes


class BoundingBoxAugment(TensorOperation):
    """Apply ``transform`` to the image patch inside each of ``int(ratio * N)`` randomly chosen boxes (all of them
    with ratio 1), in place; the boxes themselves are returned unchanged. The transform must keep the patch's
    shape. Args: transform (a vision transform), ratio (float in [0, 1], default 0.3)."""
    random = True

    def __init__(self, transform: Callable[..., Any], ratio: float = 0.3) -> None:
        if not callable(transform):
            raise TypeError(f"BoundingBoxAugment: transform must be a transform, but got {transform!r}")
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 <= ratio <= 1:
            raise ValueError(f"BoundingBoxAugment: ratio must be a number in [0, 1], but got {ratio!r}")
        self.transform, self.ratio = transform, float(ratio)

    def _apply(self, rng, img, bboxes):
        check_rank("BoundingBoxAugment", img, (2, 3), "<H,W> or <H,W,C>")
        b = _checked_boxes("BoundingBoxAugment", img, bboxes)
        out = np.array(img, copy=True)
        count = int(self.ratio * len(b))
        for i in rng.permutation(len(b))[:count]:
            x, y, w, h = (int(v) for v in b[i, :4])
            if w == 0 or h == 0:
                continue
            patch = out[y:y + h, x:x + w]
            new = np.asarray(apply_op(self.transform, rng, [patch])[0])
            if new.shape != patch.shape:
                raise RuntimeError(f"BoundingBoxAugment: the transform changed a box patch from {patch.shape} to "
                                   f"{new.shape}; use one that keeps the shape")
            out[y:y + h, x:x + w] = new
        return out, b
