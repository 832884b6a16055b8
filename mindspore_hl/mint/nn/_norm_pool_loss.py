"""``mint.nn`` normalisation, pooling, resizing and loss classes (PyTorch-style arguments and parameter names)."""
from __future__ import annotations

from typing import cast

import jax
import jax.numpy as jnp
import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor, wrap
from ...nn import layer as _nn
from ...nn import loss as _loss
from ...nn.cell import Cell
from ...nn.layer._checks import check_float, check_input, int_tuple, positive_int
from ...nn.layer._pooling_nd import _adaptive, _pool

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "GroupNorm", "AvgPool1d", "AvgPool2d",
           "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss",
           "L1Loss", "MSELoss", "SmoothL1Loss"]


class _BatchNorm(Cell):
    """PyTorch-style batch normalisation: ``weight``, ``bias``, ``running_mean``, ``running_var`` and
    ``num_batches_tracked``; ``momentum`` is the update factor (running = (1 - m) * running + m * batch;
    None: a cumulative average)."""

    _ranks: tuple[int, ...] = (4,)
    # None without affine / track_running_stats
    weight: Parameter | None
    bias: Parameter | None
    running_mean: Parameter | None
    running_var: Parameter | None
    num_batches_tracked: Parameter | None

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        name = type(self).__name__
        self.num_features = positive_int(name, "num_features", num_features)
        self.eps, self.momentum = float(eps), momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        dtype = dtype or mstype.float32
        c = (num_features,)
        self.weight = Parameter(initializer("ones", c, dtype), requires_grad=self.affine) if affine else None
        self.bias = Parameter(initializer("zeros", c, dtype), requires_grad=self.affine) if affine else None
        if self.track_running_stats:
            self.running_mean = Parameter(initializer("zeros", c, dtype), requires_grad=False)
            self.running_var = Parameter(initializer("ones", c, dtype), requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(np.array(0, np.int64)), requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ranks or input.shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: expected a {' or '.join(map(str, self._ranks))}-D input with "
                             f"{self.num_features} channels on axis 1, but got shape {tuple(input.shape)}.")
        check_float(self, input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            tracked = cast(Parameter, self.num_batches_tracked)  # set whenever track_running_stats
            tracked._set_value(tracked._value + 1)
            if self.momentum is None:
                factor = 1.0 / tracked._value.astype(jnp.float32)
        use_batch = self.training or self.running_mean is None
        if use_batch and self.running_mean is None:
            mean = Tensor(np.zeros(self.num_features, np.float32))
            var = Tensor(np.ones(self.num_features, np.float32))
            # weight/bias are None without affine, which ops.batch_norm accepts (its docstring says so).
            return ops.batch_norm(input, mean, var, self.weight, self.bias,  # type: ignore[arg-type]
                                  True, 0.0, self.eps)
        # running stats are set here (None returned above); weight/bias as above.
        return ops.batch_norm(input, self.running_mean, self.running_var,  # type: ignore[arg-type]
                              self.weight, self.bias, use_batch, factor, self.eps)  # type: ignore[arg-type]


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L)."""

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W)."""


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W)."""

    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics cover the global batch: one compiled data-parallel step sees the
    whole batch, so this is BatchNorm's maths (see ``nn.SyncBatchNorm``)."""

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group: str | None = None,
                 dtype: mstype.Type | None = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(Cell):
    """Group normalisation of (N, C, ...) with per-channel ``weight`` / ``bias``."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True,
                 dtype: mstype.Type | None = None) -> None:
        super().__init__()
        self.num_groups = positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: 'num_groups' ({num_groups}) must divide 'num_channels' ({num_channels}).")
        self.eps, self.affine = float(eps), bool(affine)
        dtype = dtype or mstype.float32
        self.weight = Parameter(initializer("ones", (num_channels,), dtype)) if affine else None
        self.bias = Parameter(initializer("zeros", (num_channels,), dtype)) if affine else None

    def construct(self, input: Tensor) -> Tensor:
        check_input(self, input, ("N", self.num_channels, "..."), note=f"num_channels={self.num_channels}")
        return ops.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class _AvgPool(Cell):
    _nd = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, nd)
        self.stride = self.kernel_size if stride is None else int_tuple(name, "stride", stride, nd)
        self.padding = int_tuple(name, "padding", padding, nd, allow_zero=True)
        if any(2 * p > k for p, k in zip(self.padding, self.kernel_size)):
            raise ValueError(f"{name}: 'padding' {self.padding} must be at most half of 'kernel_size' "
                             f"{self.kernel_size}.")
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self.divisor_override = divisor_override

    def construct(self, input):
        spatial = tuple(f"D{i}" for i in range(self._nd))
        check_input(self, input, ("N", "C") + spatial, ("C",) + spatial)
        return _pool(input, self._nd, "avg", self.kernel_size, self.stride, (1,) * self._nd, "pad", self.padding,
                     self.ceil_mode, self.count_include_pad, self.divisor_override, None)


class AvgPool1d(_AvgPool):
    """Average pooling of (N, C, L); stride defaults to kernel_size."""

    def __init__(self, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
                 padding: int | tuple[int, ...] = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2d(_AvgPool):
    """Average pooling of (N, C, H, W); stride defaults to kernel_size."""

    _nd = 2


class AvgPool3d(_AvgPool):
    """Average pooling of (N, C, D, H, W); stride defaults to kernel_size."""

    _nd = 3


class _AdaptivePool(Cell):
    _nd, _kind = 1, "avg"

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        nd = self._nd
        self.output_size, self.return_indices = output_size, bool(return_indices)
        self._sizes = (output_size,) * nd if isinstance(output_size, int) else tuple(output_size)
        if len(self._sizes) != nd:
            raise ValueError(f"{type(self).__name__}: 'output_size' must be an int or {nd} ints, but got "
                             f"{output_size!r}.")

    def construct(self, input):
        nd = self._nd
        spatial = tuple(f"D{i}" for i in range(nd))
        check_input(self, input, ("N", "C") + spatial, ("C",) + spatial)
        out = tuple(input.shape[input.ndim - nd + i] if s is None else s for i, s in enumerate(self._sizes))
        return _adaptive(input, nd, out, self._kind, self.return_indices)


class AdaptiveAvgPool1d(_AdaptivePool):
    """Average pooling of (N, C, L) to ``output_size`` (PyTorch's bins; any length)."""

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool3d(_AdaptivePool):
    """Average pooling of (N, C, D, H, W) to ``output_size``."""

    _nd = 3

    def __init__(self, output_size: int | tuple[int, ...]) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    """Max pooling of (N, C, L) to ``output_size``; ``return_indices`` adds the indices along L."""

    _kind = "max"


class AdaptiveMaxPool2d(_AdaptivePool):
    """Max pooling of (N, C, H, W) to ``output_size``; ``return_indices`` adds flat h * W + w indices."""

    _nd, _kind = 2, "max"


class Upsample(_nn.Upsample):
    """Resize by ``size`` or ``scale_factor`` ('nearest', 'linear', 'bilinear', 'trilinear')."""


class UpsamplingBilinear2d(_nn.Upsample):
    """Bilinear resizing of (N, C, H, W) with align_corners=True."""

    def __init__(self, size: int | tuple[int, ...] | None = None, scale_factor: float | None = None) -> None:
        super().__init__(size, scale_factor, "bilinear", True)


class UpsamplingNearest2d(_nn.Upsample):
    """Nearest-neighbour resizing of (N, C, H, W)."""

    def __init__(self, size: int | tuple[int, ...] | None = None, scale_factor: float | None = None) -> None:
        super().__init__(size, scale_factor, "nearest")


class BCELoss(_loss.BCELoss):
    """Binary cross-entropy of probabilities (weight, reduction)."""


class BCEWithLogitsLoss(_loss.BCEWithLogitsLoss):
    """Binary cross-entropy of logits: ``BCEWithLogitsLoss(weight=None, reduction='mean', pos_weight=None)``."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction, weight, pos_weight)


class KLDivLoss(Cell):
    """KL divergence of log-probabilities ``input`` from ``target`` (log-probabilities with ``log_target``)."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        if reduction not in ("mean", "batchmean", "sum", "none"):
            raise ValueError(f"KLDivLoss: 'reduction' must be 'mean', 'batchmean', 'sum' or 'none', but got "
                             f"{reduction!r}.")
        self.reduction, self.log_target = reduction, bool(log_target)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        x, t = input._value, target._value
        loss = jnp.exp(t) * (t - x) if self.log_target else jax.scipy.special.xlogy(t, t) - t * x
        if self.reduction == "mean":
            loss = loss.mean()
        elif self.reduction == "sum":
            loss = loss.sum()
        elif self.reduction == "batchmean":
            loss = loss.sum() / x.shape[0]
        return wrap(loss.astype(x.dtype))


class L1Loss(_loss.L1Loss):
    """|input - target|, reduced."""


class MSELoss(_loss.MSELoss):
    """(input - target)^2, reduced."""


class SmoothL1Loss(_loss.SmoothL1Loss):
    """Smooth L1 (Huber with threshold ``beta``): ``SmoothL1Loss(reduction='mean', beta=1.0)``."""

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(beta, reduction)
