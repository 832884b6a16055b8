"""Perspective warps: ``Perspective`` and ``RandomPerspective``.

NumPy images follow MindSpore's CPU kernel, OpenCV's ``getPerspectiveTransform`` + ``warpPerspective`` (constant
zero border): source coordinates are quantised to 1/32 pixel, uint8 bilinear and bicubic weights are OpenCV's
fixed-point ones (bicubic: its table's rounding fix-up is approximated, so a few pixels may differ by 1), and
nearest rounds the source coordinate half to even. PIL images follow MindSpore's Python path, PIL's
``Image.transform(PERSPECTIVE)`` with least-squares coefficients.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

from .._block import as_array
from ..transforms._base import TensorOperation, eager_rng
from ._utils import Inter, _is_int, check_inter

__all__ = ["Perspective", "RandomPerspective", "perspective_matrix", "warp_perspective"]

_WARP_DTYPES = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.int16, np.float32, np.float64))
_TAB = 32             # OpenCV INTER_TAB_SIZE: sub-pixel steps of a source coordinate
_INT_MIN, _INT_MAX = -2.0 ** 31, 2.0 ** 31 - 1
_PIL_RESAMPLE = {Inter.NEAREST: Image.Resampling.NEAREST, Inter.BILINEAR: Image.Resampling.BILINEAR,
                 Inter.BICUBIC: Image.Resampling.BICUBIC}
# modes warpPerspective has no kernel for fall back to bilinear in OpenCV (INTER_AREA) or in MindSpore's mapping
_CV_MODE = {Inter.NEAREST: "nearest", Inter.BILINEAR: "linear", Inter.BICUBIC: "cubic", Inter.AREA: "linear",
            Inter.PILCUBIC: "linear"}


def _check_points(name: str, points: Any) -> list[tuple[int, int]]:
    """MindSpore's rule: a list / tuple of four (x, y) lists / tuples of int32 values."""
    kinds = "[<class 'list'>, <class 'tuple'>]"
    if not isinstance(points, (list, tuple)):
        raise TypeError(f"Perspective: Argument {name} with value {points} is not of type {kinds}, but got "
                        f"{type(points)}.")
    for i, p in enumerate(points):
        if not isinstance(p, (list, tuple)):
            raise TypeError(f"Perspective: Argument {name}[{i}] with value {p} is not of type {kinds}, but got "
                            f"{type(p)}.")
    if len(points) != 4:
        raise TypeError(f"Perspective: {name} should be a list or tuple of length 4.")
    for i, p in enumerate(points):
        if len(p) != 2:
            raise TypeError(f"Perspective: {name}[{i}] should be a list or tuple of length 2.")
        for j, v in enumerate(p):
            if not _is_int(v):
                ints = "(<class 'int'>,)" if isinstance(v, bool) else "[<class 'int'>]"
                raise TypeError(f"Perspective: Argument {name}[{i}][{j}] with value {v} is not of type {ints}, "
                                f"but got {type(v)}.")
            if not -2 ** 31 <= v <= 2 ** 31 - 1:
                raise ValueError(f"Perspective: Input {name}[{i}][{j}] is not within the required interval of "
                                 f"[-2147483648, 2147483647].")
    return [(int(p[0]), int(p[1])) for p in points]


def perspective_matrix(start_points: Sequence[Sequence[float]], end_points: Sequence[Sequence[float]]) -> np.ndarray:
    """The 3x3 map taking each start point to its end point (OpenCV ``getPerspectiveTransform``)."""
    a = np.zeros((8, 8), np.float64)
    b = np.zeros(8, np.float64)
    for i, ((x, y), (u, v)) in enumerate(zip(start_points, end_points)):
        a[i] = (x, y, 1, 0, 0, 0, -x * u, -y * u)
        a[i + 4] = (0, 0, 0, x, y, 1, -x * v, -y * v)
        b[i], b[i + 4] = u, v
    return np.append(np.linalg.solve(a, b), 1.0).reshape(3, 3)


def _source_coords(inv: np.ndarray, h: int, w: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's per-pixel source position times ``scale``, rounded to int, for every output pixel. OpenCV walks
    the output in blocks and starts each row of a block from the block's first column, as done here."""
    bh = min(16, h)
    bw = min(1024 // bh, w)
    xs = np.arange(w, dtype=np.float64)
    x_block = (np.arange(w) // bw * bw).astype(np.float64)
    x_off = xs - x_block
    ys = np.arange(h, dtype=np.float64)[:, None]
    x0 = inv[0, 0] * x_block + inv[0, 1] * ys + inv[0, 2]
    y0 = inv[1, 0] * x_block + inv[1, 1] * ys + inv[1, 2]
    w0 = inv[2, 0] * x_block + inv[2, 1] * ys + inv[2, 2]
    wgt = w0 + inv[2, 0] * x_off
    with np.errstate(divide="ignore"):
        wgt = np.where(wgt != 0, scale / np.where(wgt != 0, wgt, 1.0), 0.0)
    fx = np.clip((x0 + inv[0, 0] * x_off) * wgt, _INT_MIN, _INT_MAX)
    fy = np.clip((y0 + inv[1, 0] * x_off) * wgt, _INT_MIN, _INT_MAX)
    return np.rint(fx).astype(np.int64), np.rint(fy).astype(np.int64)


def _cubic_coeffs(t: np.ndarray) -> list[np.ndarray]:
    a = np.float32(-0.75)
    t = t.astype(np.float32)
    one = np.float32(1.0)
    c0 = ((a * (t + one) - 5 * a) * (t + one) + 8 * a) * (t + one) - 4 * a
    c1 = ((a + 2) * t - (a + 3)) * t * t + one
    c2 = ((a + 2) * (one - t) - (a + 3)) * (one - t) * (one - t) + one
    return [c0, c1, c2, one - c0 - c1 - c2]


def warp_perspective(img: np.ndarray, matrix: np.ndarray, mode: str) -> np.ndarray:
    """Warp ``img`` (H, W[, C]) by the forward 3x3 ``matrix``; outside the source: 0 (OpenCV semantics)."""
    h, w = img.shape[:2]
    inv = np.linalg.inv(matrix)
    extra = img.shape[2:]

    def gather(px, py):
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        vals = img[np.clip(py, 0, h - 1), np.clip(px, 0, w - 1)]
        return np.where(ok.reshape(ok.shape + (1,) * len(extra)), vals, 0)

    if mode == "nearest":
        ix, iy = _source_coords(inv, h, w, 1.0)
        return gather(np.clip(ix, -32768, 32767), np.clip(iy, -32768, 32767)).astype(img.dtype)
    ix, iy = _source_coords(inv, h, w, float(_TAB))
    x0, y0 = np.clip(ix >> 5, -32768, 32767), np.clip(iy >> 5, -32768, 32767)
    ax, ay = ix & (_TAB - 1), iy & (_TAB - 1)
    expand = (Ellipsis,) + (None,) * len(extra)
    if mode == "linear":
        if img.dtype == np.uint8:
            # OpenCV's integer weights: products of (32 - a, a) pairs, scaled to 2**15 in all
            wx = [(_TAB - ax) * 32, ax * 32]
            wy = [_TAB - ay, ay]
            acc = np.zeros(img.shape, np.int64)
            for dy in (0, 1):
                for dx in (0, 1):
                    acc += (wy[dy] * wx[dx])[expand] * gather(x0 + dx, y0 + dy).astype(np.int64)
            return np.clip((acc + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
        fx, fy = (ax / np.float32(_TAB)).astype(np.float32), (ay / np.float32(_TAB)).astype(np.float32)
        wxf = [np.float32(1) - fx, fx]
        wyf = [np.float32(1) - fy, fy]
        accf = np.zeros(img.shape, np.float32)
        for dy in (0, 1):
            for dx in (0, 1):
                accf += (wyf[dy] * wxf[dx])[expand] * gather(x0 + dx, y0 + dy).astype(np.float32)
        return _cast(accf, img.dtype)
    cx = _cubic_coeffs(ax / np.float32(_TAB))
    cy = _cubic_coeffs(ay / np.float32(_TAB))
    if img.dtype == np.uint8:
        acc = np.zeros(img.shape, np.int64)
        wts = _cubic_int_weights()[ay, ax]          # (H, W, 4, 4) fixed-point weights
        for dy in range(4):
            for dx in range(4):
                acc += wts[..., dy, dx][expand] * gather(x0 + dx - 1, y0 + dy - 1).astype(np.int64)
        return np.clip((acc + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
    acc64 = np.zeros(img.shape, np.float64)
    for dy in range(4):
        for dx in range(4):
            acc64 += (cy[dy] * cx[dx]).astype(np.float64)[expand] * gather(x0 + dx - 1, y0 + dy - 1)
    return _cast(acc64, img.dtype)


def _cubic_int_weights() -> np.ndarray:
    """OpenCV's fixed-point bicubic table (32 x 32 sub-pixel positions, 4 x 4 taps summing to 2**15): rounded
    products of the float coefficients, the rounding error taken off the largest / put on the smallest central
    tap."""
    if _CUBIC_TABLE:
        return _CUBIC_TABLE[0]
    c = np.stack(_cubic_coeffs(np.arange(_TAB, dtype=np.float32) / np.float32(_TAB)), axis=-1)   # (32, 4)
    # indexed [ay, ax, ky, kx]
    table = np.rint(c[:, None, :, None] * c[None, :, None, :] * np.float32(1 << 15)).astype(np.int64)
    for iy in range(_TAB):
        for ix in range(_TAB):
            t = table[iy, ix]
            diff = int(t.sum()) - (1 << 15)
            if diff:
                centre = [(ky, kx) for ky in (1, 2) for kx in (1, 2)]
                lo = min(centre, key=lambda k: t[k])
                hi = max(centre, key=lambda k: t[k])
                if diff < 0:
                    t[hi] -= diff
                else:
                    t[lo] -= diff
    _CUBIC_TABLE.append(table)
    return table


_CUBIC_TABLE: list[np.ndarray] = []


def _cast(acc: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(acc), info.min, info.max).astype(dtype)
    return acc.astype(dtype)


def _pil_coeffs(start_points, end_points):
    """PIL's PERSPECTIVE coefficients (output -> input), by least squares as MindSpore's Python path."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(end_points, start_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.linalg.lstsq(np.array(rows, np.float64), np.array(rhs, np.float64), rcond=None)[0].tolist()


def _check_image(op: str, img: np.ndarray) -> None:
    if img.ndim not in (2, 3):
        hint = " You may need to perform Decode first." if img.ndim == 1 else ""
        raise RuntimeError(f"{op}: the dimension of image tensor does not match the requirement of operator. "
                           f"Expecting tensor in dimension of (2, 3), in shape of <H, W> or <H, W, C>. But got "
                           f"dimension {img.ndim}.{hint}")
    if img.dtype not in _WARP_DTYPES:
        raise RuntimeError(f"{op}: the image type should be one of uint8, uint16, int16, float32, float64 (what "
                           f"OpenCV's remap takes), but got {img.dtype}")


def apply_perspective(img: Any, start_points: Sequence[Sequence[int]], end_points: Sequence[Sequence[int]],
                      interpolation: Inter, op: str = "Perspective") -> Any:
    """Warp a NumPy image (OpenCV semantics) or a PIL image (PIL semantics) so that start points land on end
    points."""
    if isinstance(img, Image.Image):
        if interpolation not in _PIL_RESAMPLE:
            raise ValueError(f"{op}: interpolation {interpolation} is not supported for PIL images; use "
                             f"Inter.NEAREST, Inter.BILINEAR or Inter.BICUBIC")
        return img.transform(img.size, Image.Transform.PERSPECTIVE, _pil_coeffs(start_points, end_points),
                             _PIL_RESAMPLE[interpolation])
    _check_image(op, img)
    if interpolation not in _CV_MODE:
        raise TypeError(f"{op}: img should be PIL image. Got {type(img)}. Use Decode() for encoded data or ToPIL() "
                        f"for decoded data. (Inter.ANTIALIAS runs on PIL images only.)")
    return warp_perspective(img, perspective_matrix(start_points, end_points), _CV_MODE[interpolation])


class _MaybePIL(TensorOperation):
    def __call__(self, *inputs: Any) -> Any:
        """Apply eagerly to one NumPy image (H, W[, C]) or one PIL image (which stays a PIL image)."""
        if len(inputs) != 1:
            raise TypeError(f"{type(self).__name__}: expected one image, but got {len(inputs)} inputs")
        img = inputs[0]
        return self._apply(eager_rng(), img if isinstance(img, Image.Image) else as_array(img))


class Perspective(_MaybePIL):
    """Warp the image so that ``start_points`` ([top-left, top-right, bottom-right, bottom-left], (x, y) ints)
    land on ``end_points``; pixels mapped from outside the image are 0.

    >>> import numpy as np
    >>> pts = [[0, 0], [3, 0], [3, 3], [0, 3]]
    >>> img = np.arange(16, dtype=np.uint8).reshape(4, 4)
    >>> bool((Perspective(pts, pts)(img) == img).all())
    True
    """

    def __init__(self, start_points: Sequence[Sequence[int]], end_points: Sequence[Sequence[int]],
                 interpolation: Inter = Inter.BILINEAR) -> None:
        self.start_points = _check_points("start_points", start_points)
        self.end_points = _check_points("end_points", end_points)
        self.interpolation = check_inter("Perspective", interpolation)

    def _apply(self, rng, img):
        return apply_perspective(img, self.start_points, self.end_points, self.interpolation)


def _check_unit(op: str, name: str, value: Any) -> float:
    if not isinstance(value, float):
        raise TypeError(f"{op}: Argument {name} with value {value} is not of type [<class 'float'>], but got "
                        f"{type(value)}.")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{op}: Input {name} is not within the required interval of [0.0, 1.0].")
    return value


class RandomPerspective(_MaybePIL):
    """With probability ``prob``, a ``Perspective`` whose end points move each corner inwards by up to
    ``distortion_scale`` of half the width / height (integer offsets, drawn uniformly)."""
    random = True

    def __init__(self, distortion_scale: float = 0.5, prob: float = 0.5,
                 interpolation: Inter = Inter.BICUBIC) -> None:
        self.distortion_scale = _check_unit("RandomPerspective", "distortion_scale", distortion_scale)
        self.prob = _check_unit("RandomPerspective", "prob", prob)
        self.interpolation = check_inter("RandomPerspective", interpolation)

    def get_params(self, rng: np.random.Generator, width: int,
                   height: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The (start_points, end_points) of one draw: the image corners and where they go."""
        dw, dh = int(width / 2 * self.distortion_scale), int(height / 2 * self.distortion_scale)

        def pick(lo, hi):
            return int(rng.integers(lo, hi + 1))

        end = [(pick(0, dw), pick(0, dh)), (pick(width - dw - 1, width - 1), pick(0, dh)),
               (pick(width - dw - 1, width - 1), pick(height - dh - 1, height - 1)),
               (pick(0, dw), pick(height - dh - 1, height - 1))]
        start = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
        return start, end

    def _apply(self, rng, img):
        if not isinstance(img, Image.Image):
            _check_image("RandomPerspective", img)
        if not rng.random() < self.prob:
            return img
        width, height = img.size if isinstance(img, Image.Image) else (img.shape[1], img.shape[0])
        start, end = self.get_params(rng, width, height)
        return apply_perspective(img, start, end, self.interpolation, "RandomPerspective")
