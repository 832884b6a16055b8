"""Bijectors: ``Exp``, ``PowerTransform``, ``ScalarAffine``, ``Softplus``, ``GumbelCDF`` and ``Invert``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from ....common.tensor import to_array, wrap
from ...cell import Cell

if TYPE_CHECKING:
    from typing import Any, Callable

    from ....common import dtype as mstype
    from ....common.tensor import Tensor

__all__ = ["Bijector", "PowerTransform", "Exp", "ScalarAffine", "Softplus", "GumbelCDF", "Invert"]


def _a(x):
    return jnp.asarray(to_array(x), jnp.float32)


class Bijector(Cell):
    """Base class: subclasses give ``_forward``, ``_inverse`` and ``_forward_log_jacobian`` over arrays (the inverse
    log-Jacobian is minus the forward one at the inverse point); ``construct(name, *args)`` calls a method."""

    _forward: Callable[..., Any]
    _inverse: Callable[..., Any]
    _forward_log_jacobian: Callable[..., Any]

    def __init__(self, is_constant_jacobian: bool = False, is_injective: bool = True, name: str | None = None,
                 dtype: mstype.Type | None = None, param: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._name = name or type(self).__name__
        self.is_constant_jacobian, self.is_injective = is_constant_jacobian, is_injective
        self.dtype, self.parameters = dtype, dict(param or {})

    @property
    def name(self) -> str:
        return self._name

    def forward(self, value: Tensor) -> Tensor:
        return wrap(self._forward(_a(value)))

    def inverse(self, value: Tensor) -> Tensor:
        return wrap(self._inverse(_a(value)))

    def forward_log_jacobian(self, value: Tensor) -> Tensor:
        return wrap(self._forward_log_jacobian(_a(value)))

    def inverse_log_jacobian(self, value: Tensor) -> Tensor:
        return wrap(-self._forward_log_jacobian(self._inverse(_a(value))))

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Tensor:
        if name not in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
            raise ValueError(f"{self._name}: unknown method {name!r}.")
        return getattr(self, name)(*args, **kwargs)


class PowerTransform(Bijector):
    """y = (1 + power * x) ** (1 / power); power = 0 gives exp(x)."""

    def __init__(self, power: float = 0.0, name: str = "PowerTransform") -> None:
        if isinstance(power, bool) or not isinstance(power, (int, float)) or power < 0:
            raise ValueError(f"{name}: 'power' must be a non-negative number, but got {power!r}.")
        super().__init__(name=name, param={"power": power})
        self.power = float(power)

    def _forward(self, x):
        return jnp.exp(x) if self.power == 0 else jnp.power(1 + self.power * x, 1 / self.power)

    def _inverse(self, y):
        return jnp.log(y) if self.power == 0 else (jnp.power(y, self.power) - 1) / self.power

    def _forward_log_jacobian(self, x):
        return x if self.power == 0 else (1 / self.power - 1) * jnp.log1p(self.power * x)


class Exp(PowerTransform):
    """y = exp(x)."""

    def __init__(self, name: str = "Exp") -> None:
        super().__init__(0.0, name)


class ScalarAffine(Bijector):
    """y = scale * x + shift."""

    def __init__(self, scale: float = 1.0, shift: float = 0.0, name: str = "ScalarAffine") -> None:
        super().__init__(is_constant_jacobian=True, name=name, param={"scale": scale, "shift": shift})
        self.scale, self.shift = float(scale), float(shift)

    def _forward(self, x):
        return self.scale * x + self.shift

    def _inverse(self, y):
        return (y - self.shift) / self.scale

    def _forward_log_jacobian(self, x):
        return jnp.log(jnp.abs(jnp.asarray(self.scale, jnp.float32)))  # constant: a scalar, as in MindSpore


class Softplus(Bijector):
    """y = log(1 + exp(sharpness * x)) / sharpness."""

    def __init__(self, sharpness: float = 1.0, name: str = "Softplus") -> None:
        super().__init__(name=name, param={"sharpness": sharpness})
        self.sharpness = float(sharpness)

    def _forward(self, x):
        return jax.nn.softplus(self.sharpness * x) / self.sharpness

    def _inverse(self, y):
        k = self.sharpness * y
        return (k + jnp.log(-jnp.expm1(-k))) / self.sharpness

    def _forward_log_jacobian(self, x):
        return jax.nn.log_sigmoid(self.sharpness * x)


class GumbelCDF(Bijector):
    """y = exp(-exp(-(x - loc) / scale))."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0, name: str = "GumbelCDF") -> None:
        super().__init__(name=name, param={"loc": loc, "scale": scale})
        self.loc, self.scale = float(loc), float(scale)

    def _forward(self, x):
        return jnp.exp(-jnp.exp(-(x - self.loc) / self.scale))

    def _inverse(self, y):
        return self.loc - self.scale * jnp.log(-jnp.log(y))

    def _forward_log_jacobian(self, x):
        z = (x - self.loc) / self.scale
        return -z - jnp.exp(-z) - jnp.log(jnp.asarray(self.scale, jnp.float32))


class Invert(Bijector):
    """The inverse of ``bijector``: forward and inverse swapped."""

    def __init__(self, bijector: Bijector, name: str = "") -> None:
        if not isinstance(bijector, Bijector):
            raise TypeError(f"Invert: 'bijector' must be a Bijector, but got {type(bijector).__name__}.")
        super().__init__(bijector.is_constant_jacobian, bijector.is_injective, name or "Invert" + bijector.name)
        self.bijector = bijector

    def _forward(self, x):
        return self.bijector._inverse(x)

    def _inverse(self, y):
        return self.bijector._forward(y)

    def _forward_log_jacobian(self, x):
        return -self.bijector._forward_log_jacobian(self.bijector._inverse(x))
