"""Deterministic vision transforms (``mindspore.dataset.vision``): each runs on one image or a stacked block."""
from __future__ import annotations

import io
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, check_rank
from ._resize import output_size, resize_block
from ._utils import Border, Inter, check_fill, check_padding, check_size, interp_mode, pad_image

__all__ = ["Decode", "Resize", "Rescale", "Normalize", "HWC2CHW", "CenterCrop", "ToTensor", "Pad",
           "decode_bytes"]


def decode_bytes(data: Any, op: str = "Decode", where: str = "") -> np.ndarray:
    """Encoded image bytes (1-D uint8 array) -> RGB HWC uint8 array, decoded with Pillow."""
    if not where and getattr(data, "source_file", None):
        where = f" for file {data.source_file}"
    if isinstance(data, np.ndarray) and data.dtype.kind == "S" and data.size == 1:
        data = np.frombuffer(data.tobytes(), np.uint8)   # a bytes field of MindDataset / TFRecordDataset
    if not isinstance(data, np.ndarray) or data.ndim != 1 or data.dtype != np.uint8:
        shape = getattr(data, "shape", None)
        raise RuntimeError(f"{op}: expected encoded image bytes (a 1-D uint8 array){where}, but got "
                           f"{'shape ' + str(tuple(shape)) if shape is not None else type(data).__name__}"
                           f"{' dtype ' + str(data.dtype) if shape is not None else ''}; "
                           f"the image may already be decoded")
    try:
        from PIL import Image
    except ImportError as e:  # pillow is a declared dependency; say so if an install lacks it
        raise RuntimeError(f"{op}: decoding images needs Pillow (pip install pillow)") from e
    try:
        with Image.open(io.BytesIO(data.tobytes())) as img:
            return np.asarray(img.convert("RGB"))
    except Exception as e:  # Pillow raises several types for corrupt data
        raise RuntimeError(f"{op}: image decode failed{where}: {type(e).__name__}: {e}") from e


class Decode(TensorOperation):
    """Decode JPEG/PNG/BMP/... bytes to an RGB image of shape (H, W, 3) uint8.

    Args: to_pil (bool): return a PIL image instead of a NumPy array."""

    def __init__(self, to_pil: bool = False) -> None:
        if not isinstance(to_pil, bool):
            raise TypeError(f"Decode: to_pil must be a bool, but got {to_pil!r}")
        self.to_pil = to_pil

    def _apply(self, rng, data):
        img = decode_bytes(data)
        if self.to_pil:
            from PIL import Image
            return Image.fromarray(img)
        return img


class Resize(TensorOperation):
    """Resize an image <H,W> or <H,W,C> (OpenCV ``cv::resize`` semantics, see ``_resize``).

    Args: size (int | (h, w)): int resizes the shorter side keeping the aspect ratio.
        interpolation (Inter): LINEAR/BILINEAR (default), NEAREST or BICUBIC."""
    batchable = True

    def __init__(self, size: int | Sequence[int], interpolation: Inter = Inter.LINEAR) -> None:
        self.size = check_size("Resize", size)
        self.interpolation = interpolation
        self._mode = interp_mode("Resize", interpolation, allow_area=True)

    def _apply_batch(self, rng, x):
        check_rank("Resize", x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        out_h, out_w = output_size(x.shape[1], x.shape[2], self.size)
        if out_h > 1000 * x.shape[1] or out_w > 1000 * x.shape[2]:
            raise RuntimeError(f"Resize: the output size ({out_h}, {out_w}) is more than 1000 times the image "
                               f"size {x.shape[1:3]}")
        return resize_block(x, out_h, out_w, self._mode, h_axis=1)

    def __repr__(self):
        return f"Resize(size={self.size}, interpolation={self.interpolation})"


class Rescale(TensorOperation):
    """``x * rescale + shift`` as float32. Args: rescale (float), shift (float)."""
    batchable = True

    def __init__(self, rescale: float, shift: float) -> None:
        for name, v in (("rescale", rescale), ("shift", shift)):
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise TypeError(f"Rescale: {name} must be a number, but got {v!r}")
        self.rescale, self.shift = float(rescale), float(shift)
        self._r, self._s = np.float32(rescale), np.float32(shift)

    def _apply_batch(self, rng, x):
        out = x.astype(np.float32)  # always a fresh array: safe to update in place
        out *= self._r
        out += self._s
        return out

    def __repr__(self):
        return f"Rescale(rescale={self.rescale}, shift={self.shift})"


def _check_mean_std(op, mean, std):
    for name, seq, low, high in (("mean", mean, 0.0, 255.0), ("std", std, 0.0, 255.0)):
        if not isinstance(seq, (list, tuple)) or not seq or \
                not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in seq):
            raise TypeError(f"{op}: {name} must be a non-empty list or tuple of numbers, but got {seq!r}")
        for v in seq:
            if not low <= v <= high or (name == "std" and v == 0):
                raise ValueError(f"{op}: {name} value {v} is not within the required interval of "
                                 f"{'(0, 255]' if name == 'std' else '[0, 255]'}")
    if len(mean) != len(std):
        raise ValueError(f"{op}: mean and std must have the same length, got {len(mean)} and {len(std)}")


class Normalize(TensorOperation):
    """``(x - mean) / std`` per channel, as float32.

    Args: mean, std (sequence of float, one per channel, or one for all), is_hwc (bool): channel-last input."""
    batchable = True

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True) -> None:
        _check_mean_std("Normalize", mean, std)
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Normalize: is_hwc must be a bool, but got {is_hwc!r}")
        self.mean, self.std, self.is_hwc = list(mean), list(std), is_hwc

    def _apply_batch(self, rng, x):
        check_rank("Normalize", x, (2, 3), "<H,W,C>, <C,H,W> or <H,W>", batched=True)
        shape: tuple[int, ...]
        if x.ndim == 3:
            channels, shape = 1, (1, 1, 1)
        elif self.is_hwc:
            channels, shape = x.shape[3], (1, 1, 1, -1)
        else:
            channels, shape = x.shape[1], (1, -1, 1, 1)
        n = len(self.mean)
        if n != channels and n != 1:
            raise RuntimeError(f"Normalize: number of channels does not match the size of mean and std vectors, "
                               f"got channels: {channels}, size of mean: {n} (image shape {x.shape[1:]}, "
                               f"is_hwc={self.is_hwc})")
        if self.is_hwc and x.ndim == 4 and n > 1:
            # Channel planes: NumPy's inner loops over a last axis of 3 are slow; computing each channel as a
            # contiguous plane is ~3x faster. The result is an (N, H, W, C) view of channel-planar memory, so a
            # following HWC2CHW is a free transpose.
            planes = np.empty((x.shape[0], n) + x.shape[1:3], np.float32)
            for c in range(n):
                plane = planes[:, c]
                plane[...] = x[..., c]
                plane -= np.float32(self.mean[c])
                plane /= np.float32(self.std[c])
            return planes.transpose(0, 2, 3, 1)
        mean = np.asarray(self.mean, np.float32).reshape(shape if n > 1 else (1,))
        std = np.asarray(self.std, np.float32).reshape(shape if n > 1 else (1,))
        out = x.astype(np.float32)
        out -= mean
        out /= std
        return out

    def __repr__(self):
        return f"Normalize(mean={self.mean}, std={self.std}, is_hwc={self.is_hwc})"


class HWC2CHW(TensorOperation):
    """Transpose an image from <H,W,C> to <C,H,W>."""
    batchable = True

    def _apply_batch(self, rng, x):
        check_rank("HWC2CHW", x, (3,), "<H,W,C>", batched=True)
        return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


class CenterCrop(TensorOperation):
    """Crop the centre; a side smaller than the crop is zero-padded first (as MindSpore does).

    Args: size (int | (h, w))."""
    batchable = True

    def __init__(self, size: int | Sequence[int]) -> None:
        s = check_size("CenterCrop", size)
        self.size = (s, s) if isinstance(s, int) else s

    def _apply_batch(self, rng, x):
        check_rank("CenterCrop", x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        ch, cw = self.size
        top, left = max(ch - x.shape[1], 0), max(cw - x.shape[2], 0)
        x = pad_image(x, left // 2 + left % 2, top // 2 + top % 2, left // 2, top // 2, "constant", 0, 1)
        y0, x0 = (x.shape[1] - ch) // 2, (x.shape[2] - cw) // 2
        return x[:, y0:y0 + ch, x0:x0 + cw]

    def __repr__(self):
        return f"CenterCrop(size={self.size})"


class Pad(TensorOperation):
    """Pad the borders of an image.

    Args: padding (int | (lr, tb) | (left, top, right, bottom)), fill_value (int | 3-tuple),
        padding_mode (Border)."""
    batchable = True

    def __init__(self, padding: int | Sequence[int], fill_value: int | tuple[int, ...] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.padding = check_padding("Pad", padding)
        self.fill_value = check_fill("Pad", fill_value)
        self.padding_mode = Border(padding_mode)

    def _apply_batch(self, rng, x):
        check_rank("Pad", x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        left, top, right, bottom = self.padding
        return pad_image(x, left, top, right, bottom, self.padding_mode, self.fill_value, 1)


class ToTensor(TensorOperation):
    """HWC image in [0, 255] -> CHW ``output_type`` in [0, 1] (a 2-D image gets one channel).

    Args: output_type (numpy dtype or mindspore dtype): default float32."""
    batchable = True

    def __init__(self, output_type: Any = np.float32) -> None:
        from ..transforms._base import to_numpy_dtype
        self.output_type = to_numpy_dtype(output_type, "ToTensor")
        if self.output_type.kind != "f":
            raise TypeError(f"ToTensor: output_type must be a floating type, but got {self.output_type}")

    def _apply_batch(self, rng, x):
        check_rank("ToTensor", x, (2, 3), "<H,W> or <H,W,C>", batched=True)
        if x.ndim == 3:
            x = x[..., None]
        out = x.transpose(0, 3, 1, 2).astype(self.output_type)
        out /= self.output_type.type(255)
        return out
