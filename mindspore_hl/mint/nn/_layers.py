"""``mint.nn`` layer classes: PyTorch-style arguments (``dim``, ``padding`` each side, ``bias``, stride defaulting
to the kernel size) and parameter names (``weight``, ``bias``, ``running_mean`` ...), computed with the same
private maths as the ``nn`` layers.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import jax.numpy as jnp
import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor, wrap
from ...nn import layer as _nn
from ...nn import loss as _loss
from ...nn.cell import Cell
from ...nn.layer._activation_more import (
    _elu,
    _hardtanh,
    _hshrink,
    _hsigmoid,
    _hswish,
    _logsigmoid,
    _mish,
    _prelu,
    _selu,
    _softmin,
    _threshold,
)
from ...nn.layer._checks import check_float, check_input, int_tuple, positive_int
from ...nn.layer._conv_nd import _conv_nd, _conv_transpose_nd
from ...nn.layer._shape_layers import _pad_last

if TYPE_CHECKING:
    from typing import Callable

__all__ = ["Linear", "Identity", "Flatten", "ReLU", "ReLU6", "Sigmoid", "Tanh", "SiLU", "GELU", "ELU", "SELU",
           "Mish", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LogSigmoid", "Threshold", "PReLU",
           "Softmax", "LogSoftmax", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "AdaptiveAvgPool2d",
           "ConstantPad1d",
           "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "PixelShuffle", "CosineEmbeddingLoss", "SoftMarginLoss"]

Linear = _nn.Linear
Identity = _nn.Identity
PixelShuffle = _nn.PixelShuffle
ConstantPad1d, ConstantPad2d, ConstantPad3d = _nn.ConstantPad1d, _nn.ConstantPad2d, _nn.ConstantPad3d
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _nn.ReflectionPad1d, _nn.ReflectionPad2d, _nn.ReflectionPad3d
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (_nn.ReplicationPad1d, _nn.ReplicationPad2d,
                                                        _nn.ReplicationPad3d)
ZeroPad2d = _nn.ZeroPad2d
CosineEmbeddingLoss, SoftMarginLoss = _loss.CosineEmbeddingLoss, _loss.SoftMarginLoss
AdaptiveAvgPool2d = _nn.AdaptiveAvgPool2d


class _ZeroPad(_nn.ConstantPad1d):  # type: ignore[valid-type,misc]  # a class built at import by nn's _pad_class
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad1d(_ZeroPad):
    """Pad the last dim with zeros: padding an int or (left, right)."""


class ZeroPad3d(_ZeroPad):
    """Pad the last 3 dims with zeros: padding an int or (left, right, top, bottom, front, back)."""

    _nd = 3


class Flatten(_nn.Flatten):
    """Merge dims ``start_dim``..``end_dim`` (default 1..-1)."""


class _Act(Cell):
    _fn: Callable[..., Tensor]  # set by every subclass

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        check_input(self, input, ("...",))
        return type(self)._fn(input)


class ReLU(_Act):
    _fn = staticmethod(ops.relu)


class ReLU6(_Act):
    _fn = staticmethod(ops.relu6)


class Sigmoid(_Act):
    _fn = staticmethod(ops.sigmoid)


class Tanh(_Act):
    _fn = staticmethod(ops.tanh)


class SiLU(_Act):
    _fn = staticmethod(ops.silu)


class SELU(_Act):
    _fn = staticmethod(_selu)


class Mish(_Act):
    _fn = staticmethod(_mish)


class Hardsigmoid(_Act):
    _fn = staticmethod(_hsigmoid)


class Hardswish(_Act):
    _fn = staticmethod(_hswish)


class LogSigmoid(_Act):
    _fn = staticmethod(_logsigmoid)


class GELU(Cell):
    """GELU: exact (approximate='none', the default) or the tanh formula (approximate='tanh')."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def construct(self, input: Tensor) -> Tensor:
        return ops.gelu(input, self.approximate)


class ELU(Cell):
    """x if x > 0 else alpha * (exp(x) - 1) (any alpha)."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = float(alpha), inplace

    def construct(self, input: Tensor) -> Tensor:
        return _elu(input, self.alpha)


class Hardshrink(Cell):
    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = float(lambd)

    def construct(self, input: Tensor) -> Tensor:
        return _hshrink(input, self.lambd)


class Hardtanh(Cell):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"Hardtanh: 'min_val' ({min_val}) must be less than 'max_val' ({max_val}).")
        self.min_val, self.max_val, self.inplace = float(min_val), float(max_val), inplace

    def construct(self, input: Tensor) -> Tensor:
        return _hardtanh(input, self.min_val, self.max_val)


class Threshold(Cell):
    def __init__(self, threshold: float, value: Tensor, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = float(threshold), float(value), inplace

    def construct(self, input: Tensor) -> Tensor:
        return _threshold(input, self.threshold, self.value)


class PReLU(Cell):
    """x where x >= 0 else weight * x; ``weight`` (num_parameters,) starts at ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: mstype.Type | None = None) -> None:
        super().__init__()
        self.num_parameters = positive_int("PReLU", "num_parameters", num_parameters)
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, np.float32)).astype(dtype or mstype.float32))

    def construct(self, input: Tensor) -> Tensor:
        check_float(self, input)
        return _prelu(input, self.weight)


def _implicit_dim(ndim):
    """PyTorch's legacy choice when ``dim`` is None: 0 for 0-, 1- and 3-D inputs, else 1."""
    return 0 if ndim in (0, 1, 3) else 1


class Softmax(Cell):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Tensor) -> Tensor:
        dim = _implicit_dim(input.ndim) if self.dim is None else self.dim
        return _softmin(-input, dim)


class LogSoftmax(Cell):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Tensor) -> Tensor:
        return ops.log_softmax(input, _implicit_dim(input.ndim) if self.dim is None else self.dim)


class _ConvNd(Cell):
    _nd = 2
    _transposed = False
    padding: str | tuple[int, ...]

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, output_padding=0):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        self.in_channels = positive_int(name, "in_channels", in_channels)
        self.out_channels = positive_int(name, "out_channels", out_channels)
        self.groups = positive_int(name, "groups", groups)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: 'groups' ({groups}) must divide in_channels ({in_channels}) and "
                             f"out_channels ({out_channels}).")
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, nd)
        self.stride = int_tuple(name, "stride", stride, nd)
        self.dilation = int_tuple(name, "dilation", dilation, nd)
        if isinstance(padding, str):
            if padding not in ("same", "valid") or self._transposed:
                raise ValueError(f"{name}: 'padding' must be an int, a tuple or 'same'/'valid', got {padding!r}.")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(f"{name}: padding='same' needs stride 1, but got stride {self.stride}.")
            self.padding = padding
        else:
            self.padding = int_tuple(name, "padding", padding, nd, allow_zero=True)
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"{name}: 'padding_mode' must be 'zeros', 'reflect', 'replicate' or 'circular', but "
                             f"got {padding_mode!r}.")
        self.padding_mode = padding_mode
        self.output_padding = int_tuple(name, "output_padding", output_padding, nd, allow_zero=True)
        dtype = dtype or mstype.float32
        if self._transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
            fan_in = (out_channels // groups) * math.prod(self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
            fan_in = (in_channels // groups) * math.prod(self.kernel_size)
        # PyTorch's (and mint's) defaults: kaiming_uniform(a=sqrt(5)) weights, U(1/sqrt(fan_in)) biases.
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype))
        self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), (out_channels,), dtype)) if bias else None

    def _pads(self, x):
        """Explicit (before, after) pairs, padding by ``padding_mode`` first when it is not 'zeros'."""
        nd = self._nd
        if self.padding == "valid":
            return x, ((0, 0),) * nd
        if self.padding == "same":
            pairs = []
            for k, d in zip(self.kernel_size, self.dilation):
                total = d * (k - 1)
                pairs.append((total // 2, total - total // 2))
        else:
            # A str padding is 'same' or 'valid' (checked in __init__), handled above.
            pairs = [(p, p) for p in cast("tuple[int, ...]", self.padding)]
        if self.padding_mode == "zeros":
            return x, tuple(pairs)
        flat = tuple(v for pair in reversed(pairs) for v in pair)
        if self.padding_mode == "circular":
            arr = x._value
            for i, (lo, hi) in enumerate(pairs):
                arr = jnp.pad(arr, [(0, 0)] * (2 + i) + [(lo, hi)] + [(0, 0)] * (nd - 1 - i), mode="wrap")
            return wrap(arr), ((0, 0),) * nd
        return _pad_last(x, flat, "reflect" if self.padding_mode == "reflect" else "replicate", 0.0), ((0, 0),) * nd

    def construct(self, input):
        spatial = tuple(f"D{i}" for i in range(self._nd))
        check_input(self, input, ("N", self.in_channels) + spatial, note=f"in_channels={self.in_channels}")
        check_float(self, input)
        if self._transposed:
            pads = tuple(v for p in self.padding for v in (p, p))
            return _conv_transpose_nd(input, self.weight, self.bias, self.stride, "pad", pads, self.dilation,
                                      self.groups, self.output_padding)
        x, pairs = self._pads(input)
        pads = tuple(v for p in pairs for v in p)
        return _conv_nd(x, self.weight, self.bias, self.stride, "pad", pads, self.dilation, self.groups)


class Conv1d(_ConvNd):
    """1-D convolution, PyTorch-style: padding an int, tuple, 'same' or 'valid'; bias True by default."""

    _nd = 1

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] | str = 0,
                 dilation: int | tuple[int, ...] = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: mstype.Type | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv2d(_ConvNd):
    """2-D convolution, PyTorch-style (see Conv1d)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] | str = 0,
                 dilation: int | tuple[int, ...] = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: mstype.Type | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv3d(_ConvNd):
    """3-D convolution, PyTorch-style (see Conv1d)."""

    _nd = 3

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] | str = 0,
                 dilation: int | tuple[int, ...] = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: mstype.Type | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class ConvTranspose2d(_ConvNd):
    """Transposed 2-D convolution, PyTorch-style: output (H-1)*stride - 2*padding + dilation*(k-1) +
    output_padding + 1; weight (in, out/groups, kH, kW)."""

    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] = 0,
                 output_padding: int | tuple[int, ...] = 0, groups: int = 1, bias: bool = True,
                 dilation: int | tuple[int, ...] = 1, padding_mode: str = "zeros",
                 dtype: mstype.Type | None = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f"ConvTranspose2d: only padding_mode='zeros' is supported, but got {padding_mode!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)
