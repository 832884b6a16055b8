"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv2dTranspose`` (MindSpore defaults: pad_mode='same', no bias)."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ... import ops
from ...common import dtype as mstype
from ..cell import Cell
from ._checks import (
    check_float,
    check_input,
    check_kernel_fits,
    choice,
    default_bias_init,
    default_weight_init,
    int_tuple,
    make_param,
    positive_int,
)

if TYPE_CHECKING:
    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["Conv1d", "Conv2d", "Conv2dTranspose"]


def _padding(name, pad_mode, padding, n_pairs):
    """Validate MindSpore's ``padding``: non-zero only with pad_mode='pad'; an int or 2 * n_pairs ints."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        ok = padding >= 0
    else:
        ok = isinstance(padding, (tuple, list)) and len(padding) == 2 * n_pairs and \
            all(isinstance(p, int) and p >= 0 for p in padding)
        padding = tuple(padding) if ok else padding
    if not ok:
        raise ValueError(f"{name}: 'padding' must be a non-negative int or {2 * n_pairs} non-negative ints, but got "
                         f"{padding!r}.")
    if pad_mode != "pad" and padding not in (0, (0,) * (2 * n_pairs)):
        raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is '{pad_mode}', but got {padding!r}; "
                         f"use pad_mode='pad' for explicit padding.")
    return padding


class _Conv(Cell):
    """Shared constructor: validation, weight (default HeUniform(sqrt(5))), bias (default Uniform(1/sqrt(fan_in)))."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                 weight_init, bias_init, data_format, dtype, transposed=False, nd=2):
        super().__init__()
        name = type(self).__name__
        self.in_channels = positive_int(name, "in_channels", in_channels)
        self.out_channels = positive_int(name, "out_channels", out_channels)
        self.group = positive_int(name, "group", group)
        if in_channels % group or out_channels % group:
            raise ValueError(f"{name}: 'group' ({group}) must divide in_channels ({in_channels}) and out_channels "
                             f"({out_channels}).")
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, nd)
        self.stride = int_tuple(name, "stride", stride, nd)
        self.dilation = int_tuple(name, "dilation", dilation, nd)
        self.pad_mode = choice(name, "pad_mode", str(pad_mode).lower(), ("same", "valid", "pad"))
        self.padding = _padding(name, self.pad_mode, padding, nd)
        self.format = choice(name, "data_format", data_format, ("NCHW", "NHWC") if nd == 2 and not transposed
                             else ("NCHW",))
        self.has_bias = bool(has_bias)
        self.weight_init = default_weight_init(weight_init)
        self.bias_init = bias_init
        if transposed:
            shape = (in_channels, out_channels // group) + self.kernel_size
        elif self.format == "NHWC":
            shape = (out_channels,) + self.kernel_size + (in_channels // group,)
        else:
            shape = (out_channels, in_channels // group) + self.kernel_size
        self.weight = make_param(self.weight_init, shape, dtype, cell_name=name)
        self.bias = None
        if self.has_bias:
            fan_in = math.prod(shape[1:]) if not transposed else (out_channels // group) * math.prod(self.kernel_size)
            self.bias = make_param(default_bias_init(bias_init, fan_in), (out_channels,), dtype, cell_name=name,
                                   what="bias_init")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format={self.format}")


class Conv2d(_Conv):
    """2-D convolution over (N, C_in, H, W).

    Args:
        in_channels, out_channels, kernel_size (int or 2 ints), stride (default 1).
        pad_mode: 'same' (default; output ceil(H/stride)), 'valid', or 'pad' (uses ``padding``).
        padding: with pad_mode='pad': an int or (top, bottom, left, right).
        dilation, group: as usual. has_bias: default False.
        weight_init: default HeUniform(sqrt(5)); weight shape (out, in/group, kH, kW).
        data_format: 'NCHW' (default) or 'NHWC' (then the weight is (out, kH, kW, in/group)).
    Outputs: (N, C_out, H_out, W_out).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, data_format: str = "NCHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype)

    def construct(self, x: Tensor) -> Tensor:
        c = self.in_channels
        if self.format == "NHWC":
            check_input(self, x, ("N", "H", "W", c), note=f"in_channels={c}")
            w = self.weight.transpose(0, 3, 1, 2)
        else:
            check_input(self, x, ("N", c, "H", "W"), note=f"in_channels={c}")
            w = self.weight
        check_float(self, x)
        spatial = x.shape[1:3] if self.format == "NHWC" else x.shape[2:]
        check_kernel_fits(self, x.shape, spatial, self.kernel_size, self.dilation, self.pad_mode, self.padding)
        return ops.conv2d(x, w, self.bias, self.stride, self.pad_mode, self.padding, self.dilation, self.group,
                          data_format=self.format)


class Conv1d(_Conv):
    """1-D convolution over (N, C_in, L).

    The weight is (out, in/group, kernel_size) (MindSpore 2.x; 1.x stored a 2-D kernel of height 1).
    ``padding`` (pad_mode='pad'): an int or (left, right).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype, nd=1)
        # MindSpore's Conv1d exposes ints
        self.kernel_size, self.stride, self.dilation = (
            self.kernel_size[0], self.stride[0], self.dilation[0])  # type: ignore[assignment]

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "L"), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        check_kernel_fits(self, x.shape, x.shape[2:], (self.kernel_size,), (self.dilation,),  # type: ignore[arg-type]
                          self.pad_mode, self.padding)
        return ops.conv1d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)

    def extend_repr(self) -> str:
        return super().extend_repr().rsplit(", format=", 1)[0]


class Conv2dTranspose(_Conv):
    """Transposed 2-D convolution (the gradient of Conv2d w.r.t. its input), e.g. for upsampling.

    Args:
        pad_mode: 'same' (default; output H*stride), 'valid' (output (H-1)*stride + dilation*(k-1) + 1) or 'pad'
            (``padding`` int or (top, bottom, left, right) removed from the 'valid' output).
        output_padding: extra rows/cols added at the bottom/right (pad_mode='pad').
        weight: (in_channels, out_channels/group, kH, kW).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 output_padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1, group: int = 1,
                 has_bias: bool = False, weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype, transposed=True)
        self.output_padding = int_tuple("Conv2dTranspose", "output_padding", output_padding, 2, allow_zero=True)
        if self.output_padding != (0, 0) and self.pad_mode != "pad":
            raise ValueError(f"Conv2dTranspose: 'output_padding' needs pad_mode='pad', but pad_mode is "
                             f"'{self.pad_mode}'.")

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "H", "W"), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        return ops.conv_transpose2d(x, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                    self.group, self.dilation, pad_mode=self.pad_mode)

    def extend_repr(self) -> str:
        return super().extend_repr().rsplit(", format=", 1)[0] + f", output_padding={self.output_padding}"
