"""Pooling layers: ``MaxPool2d`` (stride defaults to 1, as in MindSpore), ``AvgPool2d``, ``AdaptiveAvgPool2d``."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ... import ops
from ..cell import Cell
from ._checks import check_input, choice, int_tuple

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]


def _pad_arg(name, pad_mode, padding):
    """Validate ``padding``: an int, (pad_h, pad_w) or (top, bottom, left, right); non-zero only with 'pad'."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        ok = padding >= 0
    else:
        ok = isinstance(padding, (tuple, list)) and len(padding) in (2, 4) and \
            all(isinstance(p, int) and p >= 0 for p in padding)
        padding = tuple(padding) if ok else padding
    if not ok:
        raise ValueError(f"{name}: 'padding' must be a non-negative int, 2 or 4 non-negative ints, "
                         f"but got {padding!r}.")
    if pad_mode != "pad" and padding not in (0, (0, 0), (0, 0, 0, 0)):
        raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is '{pad_mode}', but got {padding!r}; use "
                         f"pad_mode='pad'.")
    return padding


class _PoolNd(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, data_format):
        super().__init__()
        name = type(self).__name__
        int_tuple(name, "kernel_size", kernel_size)
        int_tuple(name, "stride", stride)
        self.kernel_size, self.stride = kernel_size, stride
        self.pad_mode = choice(name, "pad_mode", str(pad_mode).upper(), ("SAME", "VALID", "PAD"))
        self.padding = _pad_arg(name, self.pad_mode.lower(), padding)
        if ceil_mode and self.pad_mode != "PAD":
            raise ValueError(f"{name}: 'ceil_mode' needs pad_mode='pad', but pad_mode is '{pad_mode}'.")
        self.ceil_mode = bool(ceil_mode)
        self.format = choice(name, "data_format", data_format, ("NCHW", "NHWC"))

    def _check(self, x):
        if self.format == "NHWC":
            return check_input(self, x, ("N", "H", "W", "C"))
        return check_input(self, x, ("N", "C", "H", "W"), ("C", "H", "W"))

    def _apply(self, x, fn):
        unbatched = x.ndim == 3
        y = fn(x.expand_dims(0) if unbatched else x)
        if isinstance(y, tuple):
            return tuple(t.squeeze(0) for t in y) if unbatched else y
        return y.squeeze(0) if unbatched else y

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_PoolNd):
    """2-D max pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size: int or 2 ints (default 1). stride: default 1 (MindSpore's default, not kernel_size).
        pad_mode: 'valid' (default), 'same' (output ceil(H/stride)) or 'pad' (``padding``, -inf fill).
        padding: int or (pad_h, pad_w) with pad_mode='pad'. dilation: int or 2 ints.
        return_indices: also return the flat (h * W + w) index of each maximum. ceil_mode: round the output up.
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.dilation = int_tuple("MaxPool2d", "dilation", dilation)
        if self.dilation != (1, 1) and self.pad_mode != "PAD":
            raise ValueError(f"MaxPool2d: 'dilation' needs pad_mode='pad', but pad_mode is '{pad_mode}'.")
        self.return_indices = bool(return_indices)
        if isinstance(self.padding, tuple) and len(self.padding) == 4:
            raise ValueError(f"MaxPool2d: 'padding' must be an int or (pad_h, pad_w), but got {self.padding}.")

    def construct(self, x: Tensor) -> Tensor:
        self._check(x)
        return self._apply(x, lambda t: ops.max_pool2d(
            t, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices, self.ceil_mode,
            pad_mode=self.pad_mode.lower(), data_format=self.format))


class AvgPool2d(_PoolNd):
    """2-D average pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size, stride: default 1. pad_mode: 'valid' (default), 'same' (padding not counted) or 'pad'.
        padding: int, (pad_h, pad_w) or (top, bottom, left, right) with pad_mode='pad'.
        ceil_mode, count_include_pad (default True), divisor_override: as in ``ops.avg_pool2d``.
    """

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.count_include_pad = bool(count_include_pad)
        if divisor_override is not None and (not isinstance(divisor_override, int) or divisor_override <= 0):
            raise ValueError(f"AvgPool2d: 'divisor_override' must be a positive int or None, got {divisor_override!r}.")
        self.divisor_override = divisor_override

    def construct(self, x: Tensor) -> Tensor:
        self._check(x)
        return self._apply(x, lambda t: ops.avg_pool2d(
            t, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
            self.divisor_override, pad_mode=self.pad_mode.lower(), data_format=self.format))


class AdaptiveAvgPool2d(Cell):
    """Average pooling to a fixed ``output_size`` (int, or (H, W) where None keeps that input size)."""

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__()
        if isinstance(output_size, int) and not isinstance(output_size, bool):
            ok = output_size > 0
        else:
            ok = isinstance(output_size, (tuple, list)) and len(output_size) == 2 and all(
                s is None or (isinstance(s, int) and s > 0) for s in output_size)
            output_size = tuple(cast("tuple[int, ...]", output_size)) if ok else output_size  # ok: a tuple/list
        if not ok:
            raise ValueError(f"AdaptiveAvgPool2d: 'output_size' must be a positive int or 2 positive ints/None, but "
                             f"got {output_size!r}.")
        self.output_size = output_size

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", "C", "H", "W"), ("C", "H", "W"))
        return ops.adaptive_avg_pool2d(x, self.output_size)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"
