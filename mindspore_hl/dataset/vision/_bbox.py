"""Transforms of an image and its bounding boxes ``(N, 4+)`` float32 rows ``[x, y, w, h, ...]`` (pixels)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ._resize import output_size, resize_block
from ._utils import Inter, check_size, interp_mode

__all__ = ["RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox", "ResizeWithBBox", "RandomResizeWithBBox"]


def _boxes(op, bboxes):
    b = np.asarray(bboxes)
    if b.ndim != 2 or b.shape[1] < 4:
        raise RuntimeError(f"{op}: bounding boxes must be <N, 4+> rows [x, y, w, h, ...], but got shape "
                           f"{tuple(b.shape)}")
    return b


def _prob(op, prob):
    if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
        raise ValueError(f"{op}: prob must be a number in [0, 1], but got {prob!r}")
    return float(prob)


class _FlipWithBBox(TensorOperation):
    random = True
    _axis = 1

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = _prob(type(self).__name__, prob)

    def _apply(self, rng, img, bboxes):
        check_rank(type(self).__name__, img, (2, 3), "<H,W> or <H,W,C>")
        b = _boxes(type(self).__name__, bboxes)
        if rng.random() >= self.prob:
            return img, b
        out = b.copy()
        if self._axis == 1:
            out[:, 0] = img.shape[1] - b[:, 0] - b[:, 2]
        else:
            out[:, 1] = img.shape[0] - b[:, 1] - b[:, 3]
        return np.ascontiguousarray(np.flip(img, axis=self._axis)), out


class RandomHorizontalFlipWithBBox(_FlipWithBBox):
    """Mirror the image left-right with probability ``prob`` and move the boxes with it."""
    _axis = 1


class RandomVerticalFlipWithBBox(_FlipWithBBox):
    """Flip the image upside down with probability ``prob`` and move the boxes with it."""
    _axis = 0


def _resize_with_boxes(op, img, bboxes, size, mode):
    check_rank(op, img, (2, 3), "<H,W> or <H,W,C>")
    b = _boxes(op, bboxes)
    h, w = img.shape[:2]
    oh, ow = output_size(h, w, size)
    out = b.astype(np.float32).copy()
    out[:, [0, 2]] *= np.float32(ow / w)
    out[:, [1, 3]] *= np.float32(oh / h)
    return resize_block(img[None], oh, ow, mode)[0], out.astype(b.dtype) if b.dtype.kind == "f" else out


class ResizeWithBBox(TensorOperation):
    """Resize the image (as ``Resize``) and scale its boxes to match."""

    def __init__(self, size: int | Sequence[int], interpolation: Inter = Inter.LINEAR) -> None:
        self.size = check_size("ResizeWithBBox", size)
        self._mode = interp_mode("ResizeWithBBox", interpolation, allow_area=True)

    def _apply(self, rng, img, bboxes):
        return _resize_with_boxes("ResizeWithBBox", img, bboxes, self.size, self._mode)


class RandomResizeWithBBox(TensorOperation):
    """ResizeWithBBox with an interpolation drawn from NEAREST, BILINEAR, BICUBIC and AREA."""
    random = True

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = check_size("RandomResizeWithBBox", size)

    def _apply(self, rng, img, bboxes):
        mode = ("nearest", "linear", "cubic", "area")[int(rng.integers(4))]
        return _resize_with_boxes("RandomResizeWithBBox", img, bboxes, self.size, mode)
