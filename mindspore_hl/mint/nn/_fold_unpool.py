"""``mint.nn.Unfold`` / ``Fold`` (PyTorch's im2col / col2im) and ``mint.nn.MaxUnpool2d``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...nn.cell import Cell
from ...nn.layer import _unpool_unfold as _uu
from ...nn.layer._checks import check_input

if TYPE_CHECKING:
    from ...common.tensor import Tensor

__all__ = ["Unfold", "Fold", "MaxUnpool2d"]


def _pair(cls, name, value):
    value = (value, value) if isinstance(value, int) else tuple(value)
    if len(value) != 2 or not all(isinstance(v, int) and v >= 0 for v in value):
        raise ValueError(f"For '{cls}', '{name}' must be an int or 2 non-negative ints, but got {value!r}.")
    return value


class Unfold(Cell):
    """Sliding local blocks as columns: (N, C, H, W) -> (N, C * kh * kw, L) (depth ordered channel, row, col)."""

    def __init__(self, kernel_size: int | tuple[int, ...], dilation: int | tuple[int, ...] = 1,
                 padding: int | tuple[int, ...] = 0, stride: int | tuple[int, ...] = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = _pair("Unfold", "kernel_size", kernel_size), _pair("Unfold", "dilation",
                                                                                             dilation)
        self.padding, self.stride = _pair("Unfold", "padding", padding), _pair("Unfold", "stride", stride)

    def construct(self, input: Tensor) -> Tensor:
        check_input(self, input, ("N", "C", "H", "W"))
        return _uu.im2col(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Cell):
    """Columns back to an image, overlaps summed: (N, C * kh * kw, L) -> (N, C, *output_size)."""

    def __init__(self, output_size: int | tuple[int, ...], kernel_size: int | tuple[int, ...],
                 dilation: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] = 0,
                 stride: int | tuple[int, ...] = 1) -> None:
        super().__init__()
        self.output_size = _pair("Fold", "output_size", output_size)
        self.kernel_size, self.dilation = _pair("Fold", "kernel_size", kernel_size), _pair("Fold", "dilation",
                                                                                           dilation)
        self.padding, self.stride = _pair("Fold", "padding", padding), _pair("Fold", "stride", stride)

    def construct(self, input: Tensor) -> Tensor:
        kk = self.kernel_size[0] * self.kernel_size[1]
        blocks = [(o + 2 * p - d * (k - 1) - 1) // s + 1 for o, p, d, k, s in
                  zip(self.output_size, self.padding, self.dilation, self.kernel_size, self.stride)]
        check_input(self, input, ("N", "C*kh*kw", blocks[0] * blocks[1]),
                    note=f"kernel_size={self.kernel_size}, output_size={self.output_size}")
        if input.shape[1] % kk:
            raise ValueError(f"Fold: input.shape[1] {input.shape[1]} must be divisible by kh*kw={kk}.")
        return _uu.col2im(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class MaxUnpool2d(_uu.MaxUnpool2d):
    """Inverse of max_pool2d with indices; PyTorch-style ``construct(input, indices, output_size=None)``."""

    def construct(self, input: Tensor, indices: Tensor, output_size: int | tuple[int, ...] | None = None) -> Tensor:
        return super().construct(input, indices, output_size)
