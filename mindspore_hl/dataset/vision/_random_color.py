"""Random vision transforms built on the deterministic ones (``_color``, ``_geometry``), plus batch mixing
(MixUpBatch, CutMixBatch), patch erasing (CutOut, RandomErasing), PCA lighting and augmentation policies."""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ..transforms._ops import _check_ops, apply_op
from ._color import (
    AdjustBrightness,
    AdjustContrast,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    Invert,
    Posterize,
    Solarize,
    rgb_to_gray,
)
from ._hue import AdjustHue
from ._resize import output_size, resize_block
from ._utils import ImageBatchFormat, check_size

__all__ = ["RandomColorAdjust", "RandomInvert", "RandomEqualize", "RandomAutoContrast", "RandomAdjustSharpness",
           "RandomPosterize", "RandomSolarize", "RandomSharpness", "RandomColor", "RandomGrayscale",
           "RandomErasing", "CutOut", "MixUpBatch", "CutMixBatch", "RandomLighting", "RandomResize",
           "UniformAugment", "RandomSelectSubpolicy"]


def _prob(op, prob):
    if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0 <= float(prob) <= 1:
        raise ValueError(f"{op}: prob must be a number in [0, 1], but got {prob!r}")
    return float(prob)


def _range(op, name, value, center=None, low=0.0):
    """A number f -> [max(low, center - f), center + f]; a pair -> itself (checked)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{op}: {name} must be non-negative, but got {value}")
        if center is None:
            raise TypeError(f"{op}: {name} must be a (min, max) pair, but got {value!r}")
        return max(low, center - value), center + value
    if isinstance(value, (list, tuple)) and len(value) == 2 and \
            all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        if value[0] > value[1] or value[0] < low:
            raise ValueError(f"{op}: {name} must be (min, max) with {low} <= min <= max, but got {value!r}")
        return float(value[0]), float(value[1])
    raise TypeError(f"{op}: {name} must be a number or a (min, max) pair, but got {value!r}")


class _WithProb(TensorOperation):
    """Apply ``self._op`` to each image with probability ``prob``."""
    random = True
    prob: float   # set by each subclass's __init__
    _op: TensorOperation

    def _apply(self, rng, x):
        return self._op._apply(rng, x) if rng.random() < self.prob else x


class RandomInvert(_WithProb):
    """Invert with probability ``prob`` (default 0.5)."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob, self._op = _prob("RandomInvert", prob), Invert()


class RandomEqualize(_WithProb):
    """Equalize the histogram with probability ``prob`` (default 0.5)."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob, self._op = _prob("RandomEqualize", prob), Equalize()


class RandomAutoContrast(_WithProb):
    """AutoContrast(cutoff, ignore) with probability ``prob`` (default 0.5)."""

    def __init__(self, cutoff: float = 0.0, ignore: int | Sequence[int] | None = None, prob: float = 0.5) -> None:
        self.prob, self._op = _prob("RandomAutoContrast", prob), AutoContrast(cutoff, ignore)


class RandomAdjustSharpness(_WithProb):
    """AdjustSharpness(degree) with probability ``prob`` (default 0.5)."""

    def __init__(self, degree: float, prob: float = 0.5) -> None:
        self.prob, self._op = _prob("RandomAdjustSharpness", prob), AdjustSharpness(degree)


class RandomGrayscale(TensorOperation):
    """With probability ``prob`` (default 0.1), the grey version of an RGB image, kept at 3 channels."""
    random = True

    def __init__(self, prob: float = 0.1) -> None:
        self.prob = _prob("RandomGrayscale", prob)

    def _apply(self, rng, x):
        if rng.random() >= self.prob:
            return x
        return np.repeat(rgb_to_gray(x)[..., None], 3, axis=-1)


class RandomColorAdjust(TensorOperation):
    """Random brightness, contrast and saturation factors, each drawn from its range (a number f means
    [max(0, 1 - f), 1 + f]), and a hue shift drawn from ``hue`` (a number h means [-h, h], within [-0.5, 0.5]),
    applied in that order; the hue shift is ``AdjustHue``'s (MindSpore's RandomColorAdjust with a hue range alone
    gives exactly AdjustHue's output)."""
    random = True

    def __init__(self, brightness: float | Sequence[float] = (1, 1), contrast: float | Sequence[float] = (1, 1),
                 saturation: float | Sequence[float] = (1, 1), hue: float | Sequence[float] = (0, 0)) -> None:
        self.brightness = _range("RandomColorAdjust", "brightness", brightness, 1.0)
        self.contrast = _range("RandomColorAdjust", "contrast", contrast, 1.0)
        self.saturation = _range("RandomColorAdjust", "saturation", saturation, 1.0)
        self.hue = _range("RandomColorAdjust", "hue", hue, 0.0, low=-0.5)
        if self.hue[1] > 0.5:
            raise ValueError(f"RandomColorAdjust: hue must lie within [-0.5, 0.5], but got {hue!r}")

    def _apply(self, rng, x):
        for (lo, hi), op, neutral in ((self.brightness, AdjustBrightness, 1.0), (self.contrast, AdjustContrast, 1.0),
                                      (self.saturation, AdjustSaturation, 1.0), (self.hue, AdjustHue, 0.0)):
            if (lo, hi) != (neutral, neutral):
                x = op(float(rng.uniform(lo, hi)))._apply(rng, x)
        return x


class RandomPosterize(TensorOperation):
    """Posterize with a bit depth drawn uniformly from ``bits`` (min, max) in [1, 8] (default (8, 8))."""
    random = True

    def __init__(self, bits: int | Sequence[int] = (8, 8)) -> None:
        if isinstance(bits, int) and not isinstance(bits, bool):
            bits = (bits, bits)
        if not isinstance(bits, (list, tuple)) or len(bits) != 2 or \
                not all(isinstance(b, int) and 1 <= b <= 8 for b in bits) or bits[0] > bits[1]:
            raise ValueError(f"RandomPosterize: bits must be (min, max) ints in [1, 8], but got {bits!r}")
        self.bits = tuple(bits)

    def _apply(self, rng, x):
        return Posterize(int(rng.integers(self.bits[0], self.bits[1] + 1)))._apply(rng, x)


class RandomSolarize(TensorOperation):
    """Solarize between two thresholds drawn uniformly from ``threshold`` (min, max) (default (0, 255))."""
    random = True

    def __init__(self, threshold: float | Sequence[float] = (0, 255)) -> None:
        lo, hi = _range("RandomSolarize", "threshold", threshold)
        if hi > 255:
            raise ValueError(f"RandomSolarize: threshold must lie in [0, 255], but got {threshold!r}")
        self.threshold = (int(lo), int(hi))

    def _apply(self, rng, x):
        a, b = sorted(int(v) for v in rng.integers(self.threshold[0], self.threshold[1] + 1, size=2))
        return Solarize((a, b))._apply(rng, x)


class RandomSharpness(TensorOperation):
    """AdjustSharpness with a factor drawn uniformly from ``degrees`` (default (0.1, 1.9))."""
    random = True

    def __init__(self, degrees: float | Sequence[float] = (0.1, 1.9)) -> None:
        self.degrees = _range("RandomSharpness", "degrees", degrees)

    def _apply(self, rng, x):
        return AdjustSharpness(float(rng.uniform(*self.degrees)))._apply(rng, x)


class RandomColor(TensorOperation):
    """Blend with the grey image by a factor drawn uniformly from ``degrees`` (default (0.1, 1.9))."""
    random = True

    def __init__(self, degrees: float | Sequence[float] = (0.1, 1.9)) -> None:
        self.degrees = _range("RandomColor", "degrees", degrees)

    def _apply(self, rng, x):
        return AdjustSaturation(float(rng.uniform(*self.degrees)))._apply(rng, x)


class RandomResize(TensorOperation):
    """Resize to ``size`` with an interpolation drawn from NEAREST, BILINEAR, BICUBIC and AREA."""
    random = True

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = check_size("RandomResize", size)

    def _apply(self, rng, x):
        check_rank("RandomResize", x, (2, 3), "<H, W> or <H, W, C>")
        h, w = output_size(x.shape[0], x.shape[1], self.size)
        mode = ("nearest", "linear", "cubic", "area")[int(rng.integers(4))]
        return resize_block(x[None], h, w, mode)[0]


class CutOut(TensorOperation):
    """Zero ``num_patches`` squares of side ``length`` at random centres (clipped to the image)."""
    random = True

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True) -> None:
        for name, v in (("length", length), ("num_patches", num_patches)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"CutOut: {name} must be a positive int, but got {v!r}")
        self.length, self.num_patches, self.is_hwc = length, num_patches, bool(is_hwc)

    def _apply(self, rng, x):
        check_rank("CutOut", x, (2, 3), "<H, W, C>" if self.is_hwc else "<C, H, W>")
        out = x.copy()
        h, w = (x.shape[0], x.shape[1]) if self.is_hwc or x.ndim == 2 else (x.shape[1], x.shape[2])
        for _ in range(self.num_patches):
            cy, cx = int(rng.integers(h)), int(rng.integers(w))
            y0, y1 = max(0, cy - self.length // 2), min(h, cy + self.length - self.length // 2)
            x0, x1 = max(0, cx - self.length // 2), min(w, cx + self.length - self.length // 2)
            if self.is_hwc or x.ndim == 2:
                out[y0:y1, x0:x1] = 0
            else:
                out[:, y0:y1, x0:x1] = 0
        return out


class RandomErasing(TensorOperation):
    """With probability ``prob``, erase a random box of a CHW image: area fraction from ``scale``, aspect ratio
    from ``ratio`` (log-uniform), filled with ``value`` (a number, one per channel, or 'random' noise)."""
    random = True

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33), ratio: Sequence[float] = (0.3, 3.3),
                 value: float | str | Sequence[int] = 0, inplace: bool = False, max_attempts: int = 10) -> None:
        self.prob = _prob("RandomErasing", prob)
        self.scale = _range("RandomErasing", "scale", scale)
        self.ratio = _range("RandomErasing", "ratio", ratio)
        if not (value == "random" or isinstance(value, numbers.Real) or
                (isinstance(value, (list, tuple)) and all(isinstance(v, numbers.Real) for v in value))):
            raise TypeError(f"RandomErasing: value must be a number, a sequence or 'random', but got {value!r}")
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"RandomErasing: max_attempts must be a positive int, but got {max_attempts!r}")
        self.value, self.inplace, self.max_attempts = value, bool(inplace), max_attempts

    def _apply(self, rng, x):
        check_rank("RandomErasing", x, (3,), "<C, H, W>")
        if rng.random() >= self.prob:
            return x
        c, h, w = x.shape
        area = h * w
        for _ in range(self.max_attempts):
            target = area * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
            if eh < h and ew < w:
                top, left = int(rng.integers(0, h - eh + 1)), int(rng.integers(0, w - ew + 1))
                out = x if self.inplace and x.flags.writeable else x.copy()
                if self.value == "random":
                    fill = rng.standard_normal((c, eh, ew)).astype(x.dtype)
                else:
                    fill = np.asarray(self.value, x.dtype).reshape(-1, 1, 1) if not np.isscalar(self.value) \
                        else np.asarray(self.value, x.dtype)
                out[:, top:top + eh, left:left + ew] = fill
                return out
        return x


def _check_alpha(op, alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or alpha <= 0:
        raise ValueError(f"{op}: alpha must be a positive number, but got {alpha!r}")
    return float(alpha)


def _check_batch(op, images, labels):
    if images.ndim != 4:
        raise RuntimeError(f"{op}: images must be a batch <N, H, W, C> or <N, C, H, W>, but got shape "
                           f"{tuple(images.shape)}; apply it after batch()")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise RuntimeError(f"{op}: labels must be one-hot <N, num_classes> (or <N, L, num_classes>) for the "
                           f"{images.shape[0]} images, but got shape {tuple(labels.shape)}")


class MixUpBatch(TensorOperation):
    """Mix each image and one-hot label of a batch with those of a shuffled copy:
    ``lam * x + (1 - lam) * x[perm]``, ``lam ~ Beta(alpha, alpha)``. Args: alpha (float > 0, default 1)."""
    random = True

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = _check_alpha("MixUpBatch", alpha)

    def _apply(self, rng, images, labels):
        _check_batch("MixUpBatch", images, labels)
        lam = rng.beta(self.alpha, self.alpha)
        perm = rng.permutation(len(images))
        mixed = images.astype(np.float32) * lam + images[perm].astype(np.float32) * (1 - lam)
        if images.dtype.kind in "iu":
            mixed = np.clip(np.rint(mixed), np.iinfo(images.dtype).min, np.iinfo(images.dtype).max)
        out_labels = labels.astype(np.float32) * lam + labels[perm].astype(np.float32) * (1 - lam)
        return mixed.astype(images.dtype), out_labels.astype(labels.dtype if labels.dtype.kind == "f" else
                                                             np.float32)


class CutMixBatch(TensorOperation):
    """With probability ``prob`` per image, paste a random box from another image of the batch; the one-hot
    labels mix by the pasted area. The box area fraction is ``1 - lam``, ``lam ~ Beta(alpha, alpha)``.
    Args: image_batch_format (ImageBatchFormat.NHWC / NCHW), alpha (float > 0), prob (float)."""
    random = True

    def __init__(self, image_batch_format: ImageBatchFormat, alpha: float = 1.0, prob: float = 1.0) -> None:
        if not isinstance(image_batch_format, ImageBatchFormat):
            raise TypeError(f"CutMixBatch: image_batch_format must be an ImageBatchFormat, but got "
                            f"{image_batch_format!r}")
        self.image_batch_format = image_batch_format
        self.alpha, self.prob = _check_alpha("CutMixBatch", alpha), _prob("CutMixBatch", prob)

    def _apply(self, rng, images, labels):
        _check_batch("CutMixBatch", images, labels)
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        h, w = (images.shape[1], images.shape[2]) if nhwc else (images.shape[2], images.shape[3])
        out_images = images.copy()
        out_labels = labels.astype(np.float32)
        perm = rng.permutation(len(images))
        for i in range(len(images)):
            if rng.random() >= self.prob:
                continue
            lam = rng.beta(self.alpha, self.alpha)
            ch, cw = int(h * math.sqrt(1 - lam)), int(w * math.sqrt(1 - lam))
            cy, cx = int(rng.integers(h)), int(rng.integers(w))
            y0, y1 = max(0, cy - ch // 2), min(h, cy + ch // 2)
            x0, x1 = max(0, cx - cw // 2), min(w, cx + cw // 2)
            j = perm[i]
            if nhwc:
                out_images[i, y0:y1, x0:x1] = images[j, y0:y1, x0:x1]
            else:
                out_images[i, :, y0:y1, x0:x1] = images[j, :, y0:y1, x0:x1]
            frac = (y1 - y0) * (x1 - x0) / float(h * w)
            out_labels[i] = (1 - frac) * labels[i] + frac * labels[j]
        return out_images, out_labels


_EIGVAL = np.array([0.2175, 0.0188, 0.0045], np.float32)
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]],
                   np.float32)


class RandomLighting(TensorOperation):
    """AlexNet's PCA lighting noise: add ``eigvec @ (alpha_i * eigval)`` (ImageNet RGB PCA), alpha_i drawn from
    N(0, ``alpha``). Args: alpha (float >= 0, default 0.05)."""
    random = True

    def __init__(self, alpha: float = 0.05) -> None:
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or alpha < 0:
            raise ValueError(f"RandomLighting: alpha must be a non-negative number, but got {alpha!r}")
        self.alpha: float = float(alpha)

    def _apply(self, rng, x):
        if x.ndim != 3 or x.shape[-1] != 3:
            raise RuntimeError(f"RandomLighting: the input image should be <H, W, 3>, but got {tuple(x.shape)}")
        a = rng.normal(0, self.alpha, 3).astype(np.float32)
        shift = _EIGVEC @ (a * _EIGVAL) * np.float32(255.0 if x.dtype == np.uint8 else 1.0)
        out = x.astype(np.float32) + shift
        if x.dtype == np.uint8:
            return np.clip(np.rint(out), 0, 255).astype(np.uint8)
        return out.astype(x.dtype)


class UniformAugment(TensorOperation):
    """Apply ``num_ops`` of ``transforms``, chosen at random without repetition, in random order."""
    random = True

    def __init__(self, transforms: Sequence[Any], num_ops: int = 2) -> None:
        self.transforms = _check_ops("UniformAugment", transforms)
        if isinstance(num_ops, bool) or not isinstance(num_ops, int) or not 1 <= num_ops <= len(self.transforms):
            raise ValueError(f"UniformAugment: num_ops must be an int in [1, {len(self.transforms)}], but got "
                             f"{num_ops!r}")
        self.num_ops = num_ops

    def _apply(self, rng, x):
        for k in rng.choice(len(self.transforms), size=self.num_ops, replace=False):
            (x,) = apply_op(self.transforms[int(k)], rng, [x])
        return x


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy (a list of (transform, prob)) at random and apply each of its transforms with its
    probability."""
    random = True

    def __init__(self, policy: list[list[tuple[Any, float]]]) -> None:
        if not isinstance(policy, list) or not policy or not all(
                isinstance(sub, list) and sub and all(isinstance(p, tuple) and len(p) == 2 and callable(p[0]) and
                                                      isinstance(p[1], numbers.Real) and 0 <= float(p[1]) <= 1
                                                      for p in sub) for sub in policy):
            raise TypeError("RandomSelectSubpolicy: policy must be a non-empty list of non-empty lists of "
                            "(transform, prob) tuples")
        self.policy = policy

    def _apply(self, rng, x):
        for op, prob in self.policy[int(rng.integers(len(self.policy)))]:
            if rng.random() < prob:
                (x,) = apply_op(op, rng, [x])
        return x
