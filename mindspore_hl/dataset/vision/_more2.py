"""More of MindSpore's vision module: the PIL-image transforms ``FiveCrop``, ``TenCrop`` and ``Grayscale`` (each
takes a PIL image, as MindSpore's do, e.g. after ``Decode(to_pil=True)`` or ``ToPIL``) and the batch ``MixUp``."""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

from ..transforms._base import TensorOperation, eager_rng

__all__ = ["FiveCrop", "TenCrop", "Grayscale", "MixUp"]


def _pil(op, img):
    if not isinstance(img, Image.Image):
        raise TypeError(f"{op}: the input should be a PIL image, but got {type(img).__name__}. "
                        f"Use ToPIL or Decode(to_pil=True) first.")
    return img


def _crop_size(op, size):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = (int(size), int(size))
    if not (isinstance(size, (tuple, list)) and len(size) == 2 and
            all(isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0  # type: ignore[operator]
                for s in size)):  # (typeshed's numbers.Integral has no comparisons)
        raise TypeError(f"{op}: size should be a positive int or a (height, width) pair, but got {size!r}")
    return int(size[0]), int(size[1])


def _five(op, img, size):
    w, h = img.size
    ch, cw = size
    if ch > h or cw > w:
        raise ValueError(f"{op}: crop size {size} is larger than input image size {(h, w)}.")
    # the centre rounds half to even, as Python's round in MindSpore's center_crop
    top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
    return (img.crop((0, 0, cw, ch)), img.crop((w - cw, 0, w, ch)), img.crop((0, h - ch, cw, h)),
            img.crop((w - cw, h - ch, w, h)), img.crop((left, top, left + cw, top + ch)))


def _row_image(img):
    """Inside ``map`` images travel between operations as arrays: turn a uint8 array back into a PIL image."""
    if isinstance(img, np.ndarray) and img.dtype == np.uint8 and (img.ndim == 2 or
                                                                  (img.ndim == 3 and img.shape[-1] in (1, 3, 4))):
        return Image.fromarray(img[..., 0] if img.ndim == 3 and img.shape[-1] == 1 else img)
    return img


class _PILOperation(TensorOperation):
    def __call__(self, *inputs):
        """Eagerly, as in MindSpore, the input must be a PIL image."""
        if len(inputs) != 1:
            raise TypeError(f"{type(self).__name__}: expected one PIL image, but got {len(inputs)} inputs")
        _pil(type(self).__name__, inputs[0])
        return self._apply(None, inputs[0])


class FiveCrop(_PILOperation):
    """The four corner crops and the centre crop of a PIL image: (top_left, top_right, bottom_left, bottom_right,
    center). Args: size (int | (h, w)).

    >>> from PIL import Image
    >>> import numpy as np
    >>> crops = FiveCrop(2)(Image.fromarray(np.arange(16, dtype=np.uint8).reshape(4, 4)))
    >>> [int(np.asarray(c)[0, 0]) for c in crops]
    [0, 2, 8, 10, 5]
    """

    def __init__(self, size: int | Sequence[int]):
        self.size = _crop_size("FiveCrop", size)

    def _apply(self, rng, img):
        return _five("FiveCrop", _pil("FiveCrop", _row_image(img)), self.size)


class TenCrop(_PILOperation):
    """``FiveCrop`` of the image and of its horizontal (``use_vertical_flip``: vertical) flip: 10 PIL images.
    Args: size (int | (h, w)), use_vertical_flip (bool, default False)."""

    def __init__(self, size: int | Sequence[int], use_vertical_flip: bool = False):
        self.size = _crop_size("TenCrop", size)
        if not isinstance(use_vertical_flip, bool):
            raise TypeError(f"TenCrop: use_vertical_flip must be a bool, but got {use_vertical_flip!r}")
        self.use_vertical_flip = use_vertical_flip

    def _apply(self, rng, img):
        img = _pil("TenCrop", _row_image(img))
        flipped = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM if self.use_vertical_flip
                                else Image.Transpose.FLIP_LEFT_RIGHT)
        return _five("TenCrop", img, self.size) + _five("TenCrop", flipped, self.size)


class Grayscale(_PILOperation):
    """A PIL image in grey (PIL's ``convert('L')``), with 1 or 3 (equal) channels. Args: num_output_channels."""

    def __init__(self, num_output_channels: int = 1):
        if num_output_channels not in (1, 3) or isinstance(num_output_channels, bool):
            raise ValueError(f"Grayscale: num_output_channels should be either 1 or 3, got {num_output_channels!r}")
        self.num_output_channels = num_output_channels

    def _apply(self, rng, img):
        grey = _pil("Grayscale", _row_image(img)).convert("L")
        if self.num_output_channels == 1:
            return grey
        g = np.asarray(grey, dtype=np.uint8)
        return Image.fromarray(np.dstack([g, g, g]), "RGB")


class MixUp(TensorOperation):
    """Mix a batch of images (N, H, W, C) and their one-hot labels (N, classes) with weights drawn from
    Beta(``alpha``, ``alpha``): ``is_single`` mixes each image with the next one of the batch (the last with the
    first); otherwise each batch is mixed with the previous mixed batch (the first batch passes unmixed).
    Apply it after ``batch``, e.g. ``dataset.map(MixUp(32, 0.2), ["image", "label"])``.

    Args: batch_size (int), alpha (float > 0), is_single (bool, default True)."""
    random = True
    batch_size: int
    alpha: float
    is_single: bool
    _previous: tuple[Any, Any] | None

    def __init__(self, batch_size: int, alpha: float, is_single: bool = True):
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral) or batch_size <= 0:
            raise ValueError(f"MixUp: batch_size must be a positive int, but got {batch_size!r}")
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or alpha <= 0:
            raise ValueError(f"MixUp: alpha must be a positive number, but got {alpha!r}")
        if not isinstance(is_single, bool):
            raise TypeError(f"MixUp: is_single must be a bool, but got {is_single!r}")
        self.batch_size, self.alpha, self.is_single = int(batch_size), float(alpha), is_single
        self._previous = None   # (images, labels) of the last mixed batch, for is_single=False

    def __call__(self, image, label):
        return self._apply(eager_rng(), image, label)

    def _apply(self, rng, image, label):
        image, label = np.asarray(image), np.asarray(label)
        n = self.batch_size
        if image.ndim != 4 or image.shape[0] != n or label.ndim != 2 or label.shape[0] != n:
            raise RuntimeError(f"MixUp: expected images <{n}, H, W, C> and one-hot labels <{n}, classes> "
                               f"(batch_size={n}), but got {image.shape} and {label.shape}")
        lam = rng.beta(self.alpha, self.alpha, n)
        if self.is_single:
            other_img, other_lbl = np.roll(image, -1, axis=0), np.roll(label, -1, axis=0)
        elif self._previous is None:
            lam, other_img, other_lbl = np.ones(n), 0, 0
        else:
            other_img, other_lbl = self._previous
        mixed = (lam.reshape(n, 1, 1, 1) * image + (1 - lam.reshape(n, 1, 1, 1)) * other_img,
                 lam.reshape(n, 1) * label + (1 - lam.reshape(n, 1)) * other_lbl)
        if not self.is_single:
            self._previous = mixed
        return mixed
