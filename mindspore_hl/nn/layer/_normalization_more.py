"""More normalisation layers: ``InstanceNorm1d/2d/3d``, ``BatchNorm3d``, ``SyncBatchNorm`` and ``LRN``.

``SyncBatchNorm`` is ``BatchNorm2d``'s maths. On one device that is exactly MindSpore's SyncBatchNorm. Under
data parallelism a compiled step here sees the global batch as one (sharded) array, so the batch mean and
variance are already taken over the whole global batch: XLA inserts the cross-device reductions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
from jax import lax

from ...common import dtype as mstype
from ...ops._core import op
from ..cell import Cell
from ._checks import check_float, check_input, choice, make_param, positive_int
from ._normalization import BatchNorm2d, _BatchNorm

if TYPE_CHECKING:
    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "BatchNorm3d", "SyncBatchNorm", "LRN"]


@op("instance_norm")
def _instance_norm(x, gamma, beta, eps):
    axes = tuple(range(2, x.ndim))
    xs = x.astype(jnp.float32)
    m = xs.mean(axes, keepdims=True)
    v = jnp.square(xs - m).mean(axes, keepdims=True)
    shape = (-1,) + (1,) * (x.ndim - 2)
    y = (xs - m) * lax.rsqrt(v + eps) * gamma.reshape(shape) + beta.reshape(shape)
    return y.astype(x.dtype)


class _InstanceNorm(Cell):
    """Normalise each sample's channel over its spatial dims with the instance's own mean and biased variance.

    Parameters (MindSpore's names): ``moving_mean`` / ``moving_variance`` (kept for checkpoint compatibility;
    MindSpore's InstanceNorm always normalises with the instance statistics), ``gamma``, ``beta``.
    """

    _nd = 1

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = positive_int(name, "num_features", num_features)
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"{name}: 'eps' must be > 0, but got {eps!r}.")
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"{name}: 'momentum' must be in [0, 1], but got {momentum!r}.")
        self.eps, self.momentum, self.affine = float(eps), float(momentum), bool(affine)
        c = (num_features,)
        self.moving_mean = make_param("zeros", c, mstype.float32, False, name)
        self.moving_variance = make_param("ones", c, mstype.float32, False, name)
        self.gamma = make_param(gamma_init, c, dtype, self.affine, name, "gamma_init")
        self.beta = make_param(beta_init, c, dtype, self.affine, name, "beta_init")

    def construct(self, x):
        spatial = tuple(f"D{i}" for i in range(self._nd))
        check_input(self, x, ("N", self.num_features) + spatial, note=f"num_features={self.num_features}")
        check_float(self, x)
        return _instance_norm(x, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}"


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L)."""


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W)."""

    _nd = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W)."""

    _nd = 3


class BatchNorm3d(Cell):
    """Batch normalisation of (N, C, D, H, W) as MindSpore builds it: a ``BatchNorm2d`` named ``bn2d`` over
    (N, C, D * H, W), so its Parameters are ``bn2d.moving_mean`` ... as in MindSpore checkpoints."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: str | float | Tensor | Initializer = "ones",
                 beta_init: str | float | Tensor | Initializer = "zeros",
                 moving_mean_init: str | float | Tensor | Initializer = "zeros",
                 moving_var_init: str | float | Tensor | Initializer = "ones", use_batch_statistics: bool | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.num_features = positive_int("BatchNorm3d", "num_features", num_features)
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, dtype=dtype)

    def construct(self, x: Tensor) -> Tensor:
        shape = check_input(self, x, ("N", self.num_features, "D", "H", "W"), note=f"num_features={self.num_features}")
        y = self.bn2d(x.reshape(shape[0], shape[1], shape[2] * shape[3], shape[4]))
        return y.reshape(shape)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, H, W) whose statistics cover the global batch (see the module
    docstring). ``process_groups`` (lists of ranks) is accepted for compatibility: with one compiled data-parallel
    step the statistics always cover every device's samples."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: str | float | Tensor | Initializer = "ones",
                 beta_init: str | float | Tensor | Initializer = "zeros",
                 moving_mean_init: str | float | Tensor | Initializer = "zeros",
                 moving_var_init: str | float | Tensor | Initializer = "ones", use_batch_statistics: bool | None = None,
                 process_groups: list[list[int]] | None = None, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        if process_groups is not None and not (isinstance(process_groups, (list, tuple)) and all(
                isinstance(g, (list, tuple)) for g in process_groups)):
            raise TypeError(f"SyncBatchNorm: 'process_groups' must be a list of lists of ranks, but got "
                            f"{process_groups!r}.")
        self.process_groups = process_groups

    @property
    def _specs(self):  # type: ignore[override]  # a class attribute in the base
        return (("N", self.num_features), ("N", self.num_features, "H", "W"))


@op("lrn")
def _lrn(x, radius, bias, alpha, beta):
    sq = jnp.square(x.astype(jnp.float32))
    win = (1, 2 * radius + 1) + (1,) * (x.ndim - 2)
    total = lax.reduce_window(sq, 0.0, lax.add, win, (1,) * x.ndim, [(0, 0), (radius, radius)] + [(0, 0)] *
                              (x.ndim - 2))
    return (x.astype(jnp.float32) * (bias + alpha * total) ** (-beta)).astype(x.dtype)


class LRN(Cell):
    """Local response normalisation across channels of (N, C, H, W):
    ``x / (bias + alpha * sum of x^2 over channels c - depth_radius .. c + depth_radius) ** beta``."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
            raise ValueError(f"LRN: 'depth_radius' must be a non-negative int, but got {depth_radius!r}.")
        for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"LRN: '{name}' must be a float, but got {v!r}.")
        choice("LRN", "norm_region", norm_region, ("ACROSS_CHANNELS",))
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, float(bias), float(alpha), float(beta)
        self.norm_region = norm_region

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", "C", "H", "W"))
        check_float(self, x)
        return _lrn(x, self.depth_radius, self.bias, self.alpha, self.beta)
