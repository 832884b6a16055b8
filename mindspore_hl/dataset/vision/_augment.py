"""Automatic augmentation: ``RandAugment`` and ``TrivialAugmentWide`` (torchvision's operation spaces and
magnitudes, applied with this package's colour and affine ops; the random draws are this package's own)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from ..transforms._base import TensorOperation
from ._affine import affine_matrix, warp
from ._color import (
    AdjustBrightness,
    AdjustContrast,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    Posterize,
    Solarize,
)
from ._random_ops import rotate
from ._utils import Inter, check_fill, interp_mode

__all__ = ["RandAugment", "TrivialAugmentWide", "augment_op"]


def _space(wide, bins, h, w):
    """name -> (magnitudes, signed)."""
    lin = lambda hi: np.linspace(0.0, hi, bins)  # noqa: E731
    if wide:
        shear, tx, ty, rot, enh, post_div = 0.99, 32.0, 32.0, 135.0, 0.99, 6
    else:
        shear, tx, ty, rot, enh, post_div = 0.3, 150.0 / 331.0 * w, 150.0 / 331.0 * h, 30.0, 0.9, 4
    return {
        "Identity": (np.zeros(bins), False), "ShearX": (lin(shear), True), "ShearY": (lin(shear), True),
        "TranslateX": (lin(tx), True), "TranslateY": (lin(ty), True), "Rotate": (lin(rot), True),
        "Brightness": (lin(enh), True), "Color": (lin(enh), True), "Contrast": (lin(enh), True),
        "Sharpness": (lin(enh), True),
        "Posterize": (8 - np.round(np.arange(bins) / ((bins - 1) / post_div)).astype(int), False),
        "Solarize": (np.linspace(255.0, 0.0, bins), False), "AutoContrast": (np.zeros(bins), False),
        "Equalize": (np.zeros(bins), False),
    }


def augment_op(img: np.ndarray, name: str, magnitude: float, mode: str, fill: int | tuple[int, ...]) -> np.ndarray:
    """One named augmentation with its magnitude (torchvision's ``_apply_op``)."""
    if name == "Identity":
        return img
    if name in ("ShearX", "ShearY"):
        shear = (math.degrees(math.atan(magnitude)), 0.0) if name == "ShearX" else \
            (0.0, math.degrees(math.atan(magnitude)))
        return warp(img, affine_matrix((0.0, 0.0), 0.0, (0.0, 0.0), 1.0, shear), mode, fill)
    if name in ("TranslateX", "TranslateY"):
        t = (int(magnitude), 0) if name == "TranslateX" else (0, int(magnitude))
        return warp(img, affine_matrix((0.0, 0.0), 0.0, t, 1.0, (0.0, 0.0)), mode, fill)
    if name == "Rotate":
        return rotate(img, magnitude, mode, False, None, fill)
    if name == "Brightness":
        return AdjustBrightness(1.0 + magnitude)._apply(None, img)
    if name == "Color":
        return AdjustSaturation(1.0 + magnitude)._apply(None, img)
    if name == "Contrast":
        return AdjustContrast(1.0 + magnitude)._apply(None, img)
    if name == "Sharpness":
        return AdjustSharpness(1.0 + magnitude)._apply(None, img)
    if name == "Posterize":
        return Posterize(int(magnitude))._apply(None, img)
    if name == "Solarize":
        return Solarize((float(magnitude), 255.0))._apply(None, img)
    if name == "AutoContrast":
        return AutoContrast()._apply(None, img)
    if name == "Equalize":
        return Equalize()._apply(None, img)
    raise ValueError(f"unknown augmentation {name!r}")


def _check_rgb(op, img):
    if img.ndim != 3 or img.shape[-1] != 3 or img.dtype != np.uint8:
        raise RuntimeError(f"{op}: the input should be a uint8 <H, W, 3> RGB image, but got {img.dtype} "
                           f"{tuple(img.shape)}")


def _bins(op, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 2:
        raise ValueError(f"{op}: num_magnitude_bins must be an int >= 2, but got {v!r}")
    return int(v)


class RandAugment(TensorOperation):
    """``num_ops`` operations drawn uniformly from torchvision's RandAugment space, each at ``magnitude``
    (bin index of ``num_magnitude_bins``) with a random sign where it has one."""
    random = True

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 interpolation: Inter = Inter.NEAREST, fill_value: int | tuple[int, ...] = 0) -> None:
        self.num_magnitude_bins = _bins("RandAugment", num_magnitude_bins)
        if isinstance(num_ops, bool) or not isinstance(num_ops, int) or num_ops < 0:
            raise ValueError(f"RandAugment: num_ops must be a non-negative int, but got {num_ops!r}")
        if isinstance(magnitude, bool) or not isinstance(magnitude, int) or \
                not 0 <= magnitude < self.num_magnitude_bins:
            raise ValueError(f"RandAugment: magnitude must be an int in [0, {self.num_magnitude_bins}), got "
                             f"{magnitude!r}")
        self.num_ops, self.magnitude = num_ops, magnitude
        self._mode = interp_mode("RandAugment", interpolation)
        self.fill_value = check_fill("RandAugment", fill_value)

    def _apply(self, rng, img):
        _check_rgb("RandAugment", img)
        space = _space(False, self.num_magnitude_bins, img.shape[0], img.shape[1])
        names = list(space)
        for _ in range(self.num_ops):
            name = names[int(rng.integers(len(names)))]
            mags, signed = space[name]
            m = float(mags[self.magnitude])
            if signed and rng.random() < 0.5:
                m = -m
            img = augment_op(img, name, m, self._mode, self.fill_value)
        return img


class TrivialAugmentWide(TensorOperation):
    """One operation drawn uniformly from torchvision's TrivialAugmentWide space, at a uniformly drawn
    magnitude bin, with a random sign where it has one."""
    random = True

    def __init__(self, num_magnitude_bins: int = 31, interpolation: Inter = Inter.NEAREST,
                 fill_value: int | tuple[int, ...] = 0) -> None:
        self.num_magnitude_bins = _bins("TrivialAugmentWide", num_magnitude_bins)
        self._mode = interp_mode("TrivialAugmentWide", interpolation)
        self.fill_value = check_fill("TrivialAugmentWide", fill_value)

    def _apply(self, rng, img):
        _check_rgb("TrivialAugmentWide", img)
        space = _space(True, self.num_magnitude_bins, img.shape[0], img.shape[1])
        names = list(space)
        name = names[int(rng.integers(len(names)))]
        mags, signed = space[name]
        m = float(mags[int(rng.integers(self.num_magnitude_bins))])
        if signed and rng.random() < 0.5:
            m = -m
        return augment_op(img, name, m, self._mode, self.fill_value)
