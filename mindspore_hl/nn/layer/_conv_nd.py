"""``Conv3d``, ``Conv1dTranspose`` and ``Conv3dTranspose`` (MindSpore defaults: pad_mode='same', no bias).

The maths is one private N-d convolution and one N-d transposed convolution over channel-first arrays
(``lax.conv_general_dilated``); the transposed one is the stride-1 convolution of the stride-dilated input with
the flipped, in/out-swapped kernel, padded or cropped to MindSpore's output size for each pad_mode.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from jax import lax

from ..._engine._precision import conv_precision
from ...common import dtype as mstype
from ...ops._core import op
from ._checks import check_float, check_input, int_tuple
from ._conv import _Conv

if TYPE_CHECKING:
    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["Conv3d", "Conv1dTranspose", "Conv3dTranspose"]

_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _same_pads(size, k, s, d):
    """TensorFlow/MindSpore 'same': output ceil(size / s), the extra padding at the end."""
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def _pairs(padding, nd):
    """MindSpore's padding (an int or 2 * nd ints, (before, after) per dim) as nd (before, after) pairs."""
    if isinstance(padding, int):
        return ((padding, padding),) * nd
    return tuple((padding[2 * i], padding[2 * i + 1]) for i in range(nd))


def _dims(nd):
    sp = _SPATIAL[nd]
    return lax.conv_dimension_numbers((1, 1) + (1,) * nd, (1, 1) + (1,) * nd, ("NC" + sp, "OI" + sp, "NC" + sp))


@op("conv_nd")
def _conv_nd(x, w, b, stride, pad_mode, padding, dilation, groups):
    nd = x.ndim - 2
    if pad_mode == "same":
        pads = tuple(_same_pads(x.shape[2 + i], w.shape[2 + i], stride[i], dilation[i]) for i in range(nd))
    elif pad_mode == "valid":
        pads = ((0, 0),) * nd
    else:
        pads = _pairs(padding, nd)
    y = lax.conv_general_dilated(x, w.astype(x.dtype), stride, pads, rhs_dilation=dilation,
                                 dimension_numbers=_dims(nd), feature_group_count=groups, precision=conv_precision())
    if b is not None:
        y = y + b.astype(y.dtype).reshape((-1,) + (1,) * nd)
    return y


@op("conv_transpose_nd")
def _conv_transpose_nd(x, w, b, stride, pad_mode, padding, dilation, groups, output_padding):
    nd = x.ndim - 2
    sizes, kernel = x.shape[2:], w.shape[2:]
    if pad_mode == "same":
        outs = [sizes[i] * stride[i] for i in range(nd)]
        pads = [_same_pads(outs[i], kernel[i], stride[i], dilation[i]) for i in range(nd)]
    else:
        pads = _pairs(padding, nd) if pad_mode == "pad" else ((0, 0),) * nd
        outs = [(sizes[i] - 1) * stride[i] - sum(pads[i]) + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i]
                for i in range(nd)]
    conv_pads, crops = [], []
    for i in range(nd):
        lo = dilation[i] * (kernel[i] - 1) - pads[i][0]
        hi = outs[i] - 1 + pads[i][0] - (sizes[i] - 1) * stride[i]
        conv_pads.append((max(lo, 0), max(hi, 0)))
        crops.append((max(-lo, 0), max(-hi, 0)))
    cin, cout_g = w.shape[:2]
    wt = w.reshape((groups, cin // groups, cout_g) + kernel).swapaxes(1, 2)
    wt = wt.reshape((groups * cout_g, cin // groups) + kernel)
    wt = wt[(slice(None), slice(None)) + (slice(None, None, -1),) * nd]
    y = lax.conv_general_dilated(x, wt.astype(x.dtype), (1,) * nd, conv_pads, lhs_dilation=stride,
                                 rhs_dilation=dilation, dimension_numbers=_dims(nd), feature_group_count=groups,
                                 precision=conv_precision())
    y = y[(slice(None), slice(None)) + tuple(slice(lo, y.shape[2 + i] - hi) for i, (lo, hi) in enumerate(crops))]
    if b is not None:
        y = y + b.astype(y.dtype).reshape((-1,) + (1,) * nd)
    return y


def _bias(cell):
    return None if cell.bias is None else cell.bias._value


class Conv3d(_Conv):
    """3-D convolution over (N, C_in, D, H, W).

    Args: as ``Conv2d``; ``padding`` (pad_mode='pad') an int or (head, tail, top, bottom, left, right);
        ``data_format`` 'NCDHW' only. Weight: (out, in/group, kD, kH, kW).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, data_format: str = "NCDHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        if data_format != "NCDHW":
            raise ValueError(f"Conv3d: 'data_format' must be 'NCDHW', but got {data_format!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype, nd=3)
        self.format = data_format

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "D", "H", "W"), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        return _conv_nd(x, self.weight, _bias(self), self.stride, self.pad_mode, self.padding, self.dilation,
                        self.group)


class Conv1dTranspose(_Conv):
    """Transposed 1-D convolution over (N, C_in, L); weight (in, out/group, k).

    pad_mode: 'same' (output L * stride), 'valid' ((L-1)*stride + dilation*(k-1) + 1) or 'pad' (``padding``, an
    int or (left, right), removed from the 'valid' output).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        for name, v in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"Conv1dTranspose: '{name}' must be an int, but got {v!r}.")
        # MindSpore keeps a 2-D kernel of height 1: weight (in, out/group, 1, k), as its checkpoints hold.
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0) + ((padding,) * 2 if isinstance(padding, int) else tuple(padding)), (1, dilation),
                         group, has_bias, weight_init, bias_init, "NCHW", dtype, transposed=True, nd=2)
        # MindSpore's Conv1dTranspose exposes the ints it was given
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation  # type: ignore[assignment]
        self.padding = padding

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "L"), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        w = self.weight._value[:, :, 0]
        return _conv_transpose_nd(x, w, _bias(self), (self.stride,), self.pad_mode, self.padding,
                                  (self.dilation,), self.group, (0,))


class Conv3dTranspose(_Conv):
    """Transposed 3-D convolution over (N, C_in, D, H, W); weight (in, out/group, kD, kH, kW).

    pad_mode as ``Conv1dTranspose``; ``output_padding`` (int or 3 ints) adds to the end of each output dim.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, output_padding: int | tuple[int, ...] = 0,
                 has_bias: bool = False, weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, data_format: str = "NCDHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        if data_format != "NCDHW":
            raise ValueError(f"Conv3dTranspose: 'data_format' must be 'NCDHW', but got {data_format!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype, transposed=True, nd=3)
        self.format = data_format
        self.output_padding = int_tuple("Conv3dTranspose", "output_padding", output_padding, 3, allow_zero=True)
        if any(o >= max(s, d) for o, s, d in zip(self.output_padding, self.stride, self.dilation)):
            raise ValueError(f"Conv3dTranspose: 'output_padding' {self.output_padding} must be smaller than the "
                             f"stride {self.stride} or the dilation {self.dilation}.")

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "D", "H", "W"), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        return _conv_transpose_nd(x, self.weight, _bias(self), self.stride, self.pad_mode, self.padding,
                                  self.dilation, self.group, self.output_padding)

