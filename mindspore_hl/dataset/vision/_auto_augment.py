"""``AutoAugment`` and ``AutoAugmentPolicy``: the learned ImageNet / CIFAR10 / SVHN policies (25 sub-policies of
two operations each, in the order of MindSpore's kernel), their 10-bin magnitude space and MindSpore's way of
applying each operation, built from this package's colour and affine transforms. The random draws are this
package's own.

MindSpore's kernel departs from torchvision's AutoAugment, and this follows MindSpore: shears take the magnitude
as radians (not its arctangent) about the image centre; rotations fill with the fill colour's channels rotated by
one (R <- G, G <- B, B <- R); Solarize inverts the pixels >= its magnitude, which starts at 256.

One departure is not followed. MindSpore 2.10's kernel passes a translation's ``int(magnitude)`` pixels where its
affine op expects a fraction of the image size, so any non-zero translation moves the whole image out of view and
leaves only the fill colour (14% of its CIFAR10 outputs, recorded). Here a translation moves the image by
``int(magnitude)`` pixels, as its magnitude range (up to 150/331 of the image size) and torchvision intend."""
from __future__ import annotations

from enum import Enum

import numpy as np

from ..transforms._base import TensorOperation
from ._affine import apply_affine
from ._color import (
    AdjustBrightness,
    AdjustContrast,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    Invert,
    Posterize,
)
from ._random_ops import rotate
from ._utils import Inter, check_inter, interp_mode

__all__ = ["AutoAugment", "AutoAugmentPolicy", "POLICIES", "magnitude_space", "apply_sub_op"]

_BINS = 10


class AutoAugmentPolicy(str, Enum):
    """The dataset an AutoAugment policy was learned on."""
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


# (operation, probability, magnitude bin or None) pairs, one row per sub-policy
POLICIES: dict[AutoAugmentPolicy, tuple] = {
    AutoAugmentPolicy.IMAGENET: (
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    ),
    AutoAugmentPolicy.CIFAR10: (
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
    ),
    AutoAugmentPolicy.SVHN: (
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
    ),
}


def _check_fill(fill_value):
    """MindSpore's fill_value rule: an int or a 3-tuple of ints, each in [0, 255]; an int fills all channels."""
    if isinstance(fill_value, int) and not isinstance(fill_value, bool):
        values: tuple = (fill_value,) * 3
    elif isinstance(fill_value, tuple) and len(fill_value) == 3 and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in fill_value):
        values = fill_value
    else:
        raise TypeError(f"AutoAugment: fill_value should be a single integer or a 3-tuple. Got {fill_value!r}.")
    for i, v in enumerate(values):
        if not 0 <= v <= 255:
            where = "" if isinstance(fill_value, int) else f"[{i}]"
            raise ValueError(f"AutoAugment: Input fill_value{where} is not within the required interval of [0, 255].")
    return tuple(int(v) for v in values)


def _linspace(start: float, end: float) -> np.ndarray:
    return np.linspace(start, end, _BINS, dtype=np.float64).astype(np.float32)


def magnitude_space(height: int, width: int) -> dict[str, tuple[np.ndarray, bool]]:
    """Operation -> (its 10 magnitudes, whether a random sign applies), as MindSpore's AutoAugment kernel."""
    # Posterize: 8 - round(4 * bin / 9), rounding half to even (no ties occur over 10 bins)
    posterize = np.rint(np.arange(_BINS, dtype=np.float32) * np.float32(-4.0 / 9.0) + np.float32(8.0))
    return {
        "ShearX": (_linspace(0.0, 0.3), True), "ShearY": (_linspace(0.0, 0.3), True),
        "TranslateX": (_linspace(0.0, 150.0 / 331.0 * width), True),
        "TranslateY": (_linspace(0.0, 150.0 / 331.0 * height), True),
        "Rotate": (_linspace(0.0, 30.0), True), "Brightness": (_linspace(0.0, 0.9), True),
        "Color": (_linspace(0.0, 0.9), True), "Contrast": (_linspace(0.0, 0.9), True),
        "Sharpness": (_linspace(0.0, 0.9), True), "Posterize": (posterize.astype(np.float32), False),
        "Solarize": (_linspace(256.0, 0.0), False),
        "AutoContrast": (np.zeros(1, np.float32), False), "Equalize": (np.zeros(1, np.float32), False),
        "Invert": (np.zeros(1, np.float32), False),
    }


def apply_sub_op(img: np.ndarray, name: str, magnitude: float, mode: str, fill: tuple[int, ...]) -> np.ndarray:
    """One AutoAugment operation at a signed ``magnitude`` (its value, not its bin), as MindSpore applies it."""
    if name in ("ShearX", "ShearY"):
        degrees = float(np.float32(magnitude) * np.float32(180.0) / np.float32(np.pi))
        shear = (degrees, 0.0) if name == "ShearX" else (0.0, degrees)
        return apply_affine(img, 0.0, (0.0, 0.0), 1.0, shear, mode, fill)
    if name in ("TranslateX", "TranslateY"):
        pixels = float(int(magnitude))   # (apply_affine takes fractions of the image size)
        h, w = img.shape[:2]
        shift = (pixels / w, 0.0) if name == "TranslateX" else (0.0, pixels / h)
        return apply_affine(img, 0.0, shift, 1.0, (0.0, 0.0), mode, fill)
    if name == "Rotate":
        return rotate(img, magnitude, mode, False, None, (fill[1], fill[2], fill[0]))
    if name == "Solarize":
        return np.where(img >= magnitude, 255 - img, img).astype(img.dtype)
    factor = 1.0 + magnitude
    makers = {"Brightness": lambda: AdjustBrightness(factor), "Color": lambda: AdjustSaturation(factor),
              "Contrast": lambda: AdjustContrast(factor), "Sharpness": lambda: AdjustSharpness(factor),
              "Posterize": lambda: Posterize(int(magnitude)), "AutoContrast": AutoContrast, "Equalize": Equalize,
              "Invert": Invert}
    if name not in makers:
        raise ValueError(f"AutoAugment: unknown operation {name!r}")
    return makers[name]()._apply(None, img)


class AutoAugment(TensorOperation):
    """Apply one of the 25 sub-policies of ``policy``, drawn uniformly per image: each of its two operations runs
    with its probability, at the magnitude of its bin (a random sign where the operation has one).

    >>> import numpy as np
    >>> AutoAugment(AutoAugmentPolicy.CIFAR10)(np.zeros((8, 8, 3), np.uint8)).shape
    (8, 8, 3)
    """
    random = True

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET, interpolation: Inter = Inter.NEAREST,
                 fill_value: int | tuple[int, int, int] = 0) -> None:
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError(f"AutoAugment: Argument policy with value {policy} is not of type "
                            f"[<enum 'AutoAugmentPolicy'>], but got {type(policy)}.")
        check_inter("AutoAugment", interpolation)
        self.fill_value = _check_fill(fill_value)
        self._mode = interp_mode("AutoAugment", interpolation)
        self.policy, self.interpolation = policy, interpolation

    def draw(self, rng: np.random.Generator, height: int, width: int) -> list[tuple[str, float]]:
        """The operations one image gets: (name, signed magnitude) for each that fires."""
        sub_policy = POLICIES[self.policy][int(rng.integers(len(POLICIES[self.policy])))]
        space = magnitude_space(height, width)
        ops = []
        for name, prob, level in sub_policy:
            if rng.random() > prob:
                continue
            mags, signed = space[name]
            magnitude = float(mags[level]) if level is not None else 0.0
            if signed and rng.random() < 0.5:
                magnitude = -magnitude
            ops.append((name, magnitude))
        return ops

    def _apply(self, rng, img):
        if img.ndim != 3:
            raise RuntimeError(f"AutoAugment: input tensor is not in shape of <H,W,C>, but got rank: {img.ndim}")
        if img.shape[-1] != 3:
            raise RuntimeError(f"AutoAugment: channel of input image should be 3, but got: {img.shape[-1]}")
        if img.dtype != np.uint8:
            raise RuntimeError(f"AutoAugment: the input image should be uint8, but got {img.dtype}")
        for name, magnitude in self.draw(rng, img.shape[0], img.shape[1]):
            img = apply_sub_op(img, name, magnitude, self._mode, self.fill_value)
        return img

    def __repr__(self):
        return f"AutoAugment(policy={self.policy}, interpolation={self.interpolation}, fill_value={self.fill_value})"
