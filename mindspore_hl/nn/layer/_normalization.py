"""Normalisation layers: ``BatchNorm1d``, ``BatchNorm2d``, ``LayerNorm``, ``GroupNorm``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ...common import dtype as mstype
from ...common.tensor import wrap
from ...ops._nn_norm import layer_norm_axes
from ..cell import Cell
from ._checks import check_float, check_input, choice, make_param, positive_int

if TYPE_CHECKING:
    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm"]


class _BatchNorm(Cell):
    """Batch normalisation over the channel axis 1; statistics are float32 Parameters.

    ``momentum`` is MindSpore's keep factor: ``moving = momentum * moving + (1 - momentum) * batch`` (the batch
    variance is unbiased). ``use_batch_statistics``: None follows ``set_train`` (batch statistics and moving
    updates in training, moving statistics in eval); True always uses and updates batch statistics; False
    always uses the moving ones.
    """

    _specs = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = positive_int(name, "num_features", num_features)
        if not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"{name}: 'momentum' must be in [0, 1], but got {momentum!r}.")
        if not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"{name}: 'eps' must be > 0, but got {eps!r}.")
        if use_batch_statistics not in (None, True, False):
            raise ValueError(f"{name}: 'use_batch_statistics' must be None, True or False, "
                             f"got {use_batch_statistics!r}.")
        self.format = choice(name, "data_format", data_format, ("NCHW",))
        self.eps = eps
        self.momentum = 1.0 - momentum  # stored as the update factor, as MindSpore does (its repr shows this)
        self.affine = bool(affine)
        self.use_batch_statistics = use_batch_statistics
        c = (num_features,)
        # Creation order fixes the parameter order: moving_mean, moving_variance, gamma, beta (as MindSpore).
        self.moving_mean = make_param(moving_mean_init, c, dtype, False, name, "moving_mean_init")
        self.moving_variance = make_param(moving_var_init, c, dtype, False, name, "moving_var_init")
        self.gamma = make_param(gamma_init, c, dtype, self.affine, name, "gamma_init")
        self.beta = make_param(beta_init, c, dtype, self.affine, name, "beta_init")

    def construct(self, x):
        check_input(self, x, *self._specs, note=f"num_features={self.num_features}")
        check_float(self, x)
        batch_stats = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        return ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, batch_stats,
                              self.momentum, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs; see ``_BatchNorm`` for momentum and use_batch_statistics."""

    @property
    def _specs(self):  # type: ignore[override]  # a class attribute in the base
        return (("N", self.num_features, "H", "W"),)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: str | float | Tensor | Initializer = "ones",
                 beta_init: str | float | Tensor | Initializer = "zeros",
                 moving_mean_init: str | float | Tensor | Initializer = "zeros",
                 moving_var_init: str | float | Tensor | Initializer = "ones", use_batch_statistics: bool | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)

    @property
    def _specs(self):  # type: ignore[override]  # a class attribute in the base
        return (("N", self.num_features), ("N", self.num_features, "L"))


class LayerNorm(Cell):
    """Layer normalisation over the axes from ``begin_norm_axis``; gamma/beta shaped ``normalized_shape``.

    Args:
        normalized_shape: tuple/list, the shape of gamma and beta = input.shape[begin_params_axis:].
        begin_norm_axis: first axis normalised (default -1). begin_params_axis: first axis gamma/beta cover.
        epsilon: default 1e-7 (MindSpore's default).
    """

    def __init__(self, normalized_shape: int | tuple[int, ...] | list[int], begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init: str | float | Tensor | Initializer = "ones",
                 beta_init: str | float | Tensor | Initializer = "zeros", epsilon: float = 1e-7,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)) or not all(
                isinstance(s, int) and s > 0 for s in normalized_shape):
            raise TypeError(f"LayerNorm: 'normalized_shape' must be a tuple or list of positive ints, but got "
                            f"{normalized_shape!r}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = epsilon
        self.gamma = make_param(gamma_init, self.normalized_shape, dtype, cell_name="LayerNorm", what="gamma_init")
        self.beta = make_param(beta_init, self.normalized_shape, dtype, cell_name="LayerNorm", what="beta_init")

    def construct(self, x: Tensor) -> Tensor:
        shape = check_input(self, x, ("...",) + self.normalized_shape,
                            note=f"normalized_shape={self.normalized_shape}")
        check_float(self, x)
        nd = len(shape)
        if not (-nd <= self.begin_norm_axis < nd and -nd <= self.begin_params_axis < nd) or \
                shape[self.begin_params_axis % nd:] != self.normalized_shape:
            raise ValueError(f"LayerNorm: input shape {shape} does not fit begin_norm_axis={self.begin_norm_axis}, "
                             f"begin_params_axis={self.begin_params_axis} and "
                             f"normalized_shape={self.normalized_shape}.")
        if self.begin_norm_axis % nd == nd - len(self.normalized_shape):
            # The usual case is the functional op (so exporters record it as one LayerNorm).
            return ops.layer_norm(x, self.normalized_shape, self.gamma, self.beta, self.epsilon)
        return wrap(layer_norm_axes(x._value, self.begin_norm_axis, self.gamma._value, self.beta._value, self.epsilon,
                                    self.begin_params_axis))

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma={self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Group normalisation of (N, C, ...): channels in ``num_groups`` groups, per-channel gamma/beta."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 gamma_init: str | float | Tensor | Initializer = "ones",
                 beta_init: str | float | Tensor | Initializer = "zeros", dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.num_groups = positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: 'num_groups' ({num_groups}) must divide 'num_channels' ({num_channels}).")
        self.eps, self.affine = eps, bool(affine)
        self.gamma = make_param(gamma_init, (num_channels,), dtype, self.affine, "GroupNorm", "gamma_init")
        self.beta = make_param(beta_init, (num_channels,), dtype, self.affine, "GroupNorm", "beta_init")

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.num_channels, "..."), note=f"num_channels={self.num_channels}")
        check_float(self, x)
        return ops.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, gamma={self.gamma}, beta={self.beta}")
