"""Small vision helpers: type conversion, NormalizePad, LinearTransformation, image file I/O and queries."""
from __future__ import annotations

import enum
import io
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, to_numpy_dtype
from ._ops import _check_mean_std, decode_bytes

__all__ = ["ToType", "ToNumpy", "NormalizePad", "LinearTransformation", "ImageReadMode", "get_image_num_channels",
           "get_image_size", "read_file", "write_file", "read_image", "encode_png", "encode_jpeg", "write_png",
           "write_jpeg", "RgbToHsv", "HsvToRgb", "ToPIL"]


class ToType(TensorOperation):
    """Cast to ``data_type`` (a mindspore or NumPy dtype)."""
    batchable = True

    def __init__(self, data_type: Any) -> None:
        self.data_type = to_numpy_dtype(data_type, "ToType")

    def _apply_batch(self, rng, x):
        return x.astype(self.data_type)


class ToNumpy(TensorOperation):
    """A PIL image (or array) as a NumPy array."""

    def __call__(self, *inputs: Any) -> Any:
        return tuple(np.asarray(x) for x in inputs) if len(inputs) > 1 else np.asarray(inputs[0])

    def _apply(self, rng, x):
        return np.asarray(x)


class NormalizePad(TensorOperation):
    """``(img - mean) / std`` and one more channel of zeros (4 channels for RGB), as ``dtype``."""
    batchable = True

    def __init__(self, mean: Sequence[float], std: Sequence[float], dtype: str = "float32",
                 is_hwc: bool = True) -> None:
        _check_mean_std("NormalizePad", mean, std)
        self.mean, self.std = list(mean), list(std)
        if dtype not in ("float32", "float16"):
            raise ValueError(f"NormalizePad: dtype must be 'float32' or 'float16', but got {dtype!r}")
        self.dtype, self.is_hwc = np.dtype(dtype), bool(is_hwc)

    def _apply_batch(self, rng, x):
        mean = np.asarray(self.mean, np.float32)
        std = np.asarray(self.std, np.float32)
        if self.is_hwc:
            y = (x.astype(np.float32) - mean) / std
            return np.concatenate([y, np.zeros(y.shape[:-1] + (1,), np.float32)], axis=-1).astype(self.dtype)
        y = (x.astype(np.float32) - mean[:, None, None]) / std[:, None, None]
        return np.concatenate([y, np.zeros((y.shape[0], 1) + y.shape[2:], np.float32)], axis=1).astype(self.dtype)


class LinearTransformation(TensorOperation):
    """Flatten the (C, H, W) image, subtract ``mean_vector`` and multiply by ``transformation_matrix``
    (D x D, D = C*H*W): the whitening step of ZCA."""

    def __init__(self, transformation_matrix: np.ndarray, mean_vector: np.ndarray) -> None:
        m = np.asarray(transformation_matrix, np.float64)
        v = np.asarray(mean_vector, np.float64)
        if m.ndim != 2 or m.shape[0] != m.shape[1] or v.shape != (m.shape[0],):
            raise ValueError(f"LinearTransformation: transformation_matrix must be D x D and mean_vector of length "
                             f"D, but got {m.shape} and {v.shape}")
        self.transformation_matrix, self.mean_vector = m, v

    def _apply(self, rng, x):
        flat = x.reshape(-1).astype(np.float64)
        if flat.size != self.mean_vector.size:
            raise RuntimeError(f"LinearTransformation: the image has {flat.size} values, but the matrix is "
                               f"{self.transformation_matrix.shape[0]} x {self.transformation_matrix.shape[0]}")
        return ((flat - self.mean_vector) @ self.transformation_matrix).reshape(x.shape).astype(
            x.dtype if x.dtype.kind == "f" else np.float32)


class ImageReadMode(enum.IntEnum):
    """How ``read_image`` decodes: as stored, one grey channel, or RGB."""
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def _hw_c(op, image):
    arr = np.asarray(image)
    if arr.ndim not in (2, 3):
        raise RuntimeError(f"{op}: expected an image <H, W> or <H, W, C>, but got shape {tuple(arr.shape)}")
    return arr


def get_image_num_channels(image: Any) -> int:
    """Channels of an image (<H, W> has 1)."""
    arr = _hw_c("get_image_num_channels", image)
    return 1 if arr.ndim == 2 else int(arr.shape[-1])


def get_image_size(image: Any) -> list[int]:
    """[height, width] of an image."""
    arr = _hw_c("get_image_size", image)
    return [int(arr.shape[0]), int(arr.shape[1])]


def read_file(filename: str) -> np.ndarray:
    """The bytes of a file as a 1-D uint8 array."""
    if not isinstance(filename, (str, os.PathLike)) or not os.path.isfile(filename):
        raise ValueError(f"read_file: {filename!r} does not exist or is not a file")
    with open(filename, "rb") as f:
        return np.frombuffer(f.read(), np.uint8)


def write_file(filename: str, data: np.ndarray) -> None:
    """Write a 1-D uint8 array to a file."""
    arr = np.asarray(data)
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"write_file: data must be a 1-D uint8 array, but got {arr.dtype} {tuple(arr.shape)}")
    with open(filename, "wb") as f:
        f.write(arr.tobytes())


def read_image(filename: str, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode an image file to <H, W, C> uint8 (COLOR: RGB, GRAYSCALE: one channel)."""
    from PIL import Image
    data = read_file(filename)
    if mode == ImageReadMode.COLOR:
        return decode_bytes(data, "read_image", f" for file {filename}")
    try:
        with Image.open(io.BytesIO(data.tobytes())) as img:
            img = img.convert("L") if mode == ImageReadMode.GRAYSCALE else img
            arr = np.asarray(img)
    except Exception as e:  # noqa: BLE001 - Pillow raises several types for corrupt files
        raise RuntimeError(f"read_image: cannot decode {filename}: {type(e).__name__}: {e}") from e
    return arr[..., None] if arr.ndim == 2 else arr


def _encode(op, image, fmt, **kwargs):
    from PIL import Image
    arr = _hw_c(op, image)
    if arr.dtype != np.uint8:
        raise RuntimeError(f"{op}: the image must be uint8, but got {arr.dtype}")
    if arr.ndim == 3 and arr.shape[-1] == 1:
        arr = arr[..., 0]
    if arr.ndim == 3 and arr.shape[-1] != 3:
        raise RuntimeError(f"{op}: the image must have 1 or 3 channels, but got {arr.shape[-1]}")
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format=fmt, **kwargs)
    return np.frombuffer(buf.getvalue(), np.uint8)


def encode_png(image: Any, compression_level: int = 6) -> np.ndarray:
    """PNG bytes (1-D uint8) of a uint8 <H, W> / <H, W, 1> / <H, W, 3> RGB image."""
    if not isinstance(compression_level, int) or not 0 <= compression_level <= 9:
        raise ValueError(f"encode_png: compression_level must be an int in [0, 9], got {compression_level!r}")
    return _encode("encode_png", image, "PNG", compress_level=compression_level)


def encode_jpeg(image: Any, quality: int = 75) -> np.ndarray:
    """JPEG bytes (1-D uint8) of a uint8 RGB or grey image."""
    if not isinstance(quality, int) or not 1 <= quality <= 100:
        raise ValueError(f"encode_jpeg: quality must be an int in [1, 100], but got {quality!r}")
    return _encode("encode_jpeg", image, "JPEG", quality=quality)


def write_png(filename: str, image: Any, compression_level: int = 6) -> None:
    """Encode as PNG and write to ``filename``."""
    write_file(filename, encode_png(image, compression_level))


def write_jpeg(filename: str, image: Any, quality: int = 75) -> None:
    """Encode as JPEG and write to ``filename``."""
    write_file(filename, encode_jpeg(image, quality))


def _hsv_from_rgb(r, g, b):
    maxc = np.maximum(np.maximum(r, g), b)
    minc = np.minimum(np.minimum(r, g), b)
    v = maxc
    delta = maxc - minc
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(maxc > 0, delta / maxc, 0.0)
        rc, gc, bc = [(maxc - c) / delta for c in (r, g, b)]
        h = np.where(r == maxc, bc - gc, np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return h, s, v


def _rgb_from_hsv(h, s, v):
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(np.int64) % 6
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    return r, g, b


class _HsvConvert(TensorOperation):
    _convert: Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray]]   # set by each subclass

    def __init__(self, is_hwc=False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, rng, x):
        arr = np.asarray(x, np.float64)
        axis = -1 if self.is_hwc else -3
        if arr.ndim not in (3, 4) or arr.shape[axis] != 3:
            raise RuntimeError(f"{type(self).__name__}: the input should be <H, W, 3> (is_hwc=True) or <3, H, W>, "
                               f"possibly batched, but got shape {tuple(arr.shape)}")
        channels = [np.take(arr, k, axis=axis) for k in range(3)]
        return np.stack(self._convert(*channels), axis=axis)


class RgbToHsv(_HsvConvert):
    """Float RGB in [0, 1] to HSV in [0, 1] (Python's colorsys, vectorised; float64 out, as MindSpore)."""
    _convert = staticmethod(_hsv_from_rgb)


class HsvToRgb(_HsvConvert):
    """Float HSV in [0, 1] back to RGB (colorsys, vectorised)."""
    _convert = staticmethod(_rgb_from_hsv)


class ToPIL(TensorOperation):
    """A uint8 <H, W> / <H, W, 1> / <H, W, 3> / <H, W, 4> array as a PIL image."""

    def __call__(self, *inputs: Any) -> Any:
        return self._apply(None, np.asarray(inputs[0]))

    def _apply(self, rng, x):
        from PIL import Image
        arr = np.asarray(x)
        if arr.ndim == 3 and arr.shape[-1] == 1:
            arr = arr[..., 0]
        return Image.fromarray(arr)
