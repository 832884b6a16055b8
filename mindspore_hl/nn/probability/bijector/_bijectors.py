"""Bijectors: ``Exp``, ``PowerTransform``, ``ScalarAffine``, ``Softplus``, ``GumbelCDF`` and ``Invert``."""
import jax
import jax.numpy as jnp

from ....common.tensor import to_array, wrap
from ...cell import Cell

__all__ = ["Bijector", "PowerTransform", "Exp", "ScalarAffine", "Softplus", "GumbelCDF", "Invert"]


def _a(x):
    return jnp.asarray(to_array(x), jnp.float32)


class Bijector(Cell):
    """Base class: subclasses give ``_forward``, ``_inverse`` and ``_forward_log_jacobian`` over arrays (the inverse
    log-Jacobian is minus the forward one at the inverse point); ``construct(name, *args)`` calls a method."""

    def __init__(self, is_constant_jacobian=False, is_injective=True, name=None, dtype=None, param=None):
        super().__init__()
        self._name = name or type(self).__name__
        self.is_constant_jacobian, self.is_injective = is_constant_jacobian, is_injective
        self.dtype, self.parameters = dtype, dict(param or {})

    @property
    def name(self):
        return self._name

    def forward(self, value):
        return wrap(self._forward(_a(value)))

    def inverse(self, value):
        return wrap(self._inverse(_a(value)))

    def forward_log_jacobian(self, value):
        return wrap(self._forward_log_jacobian(_a(value)))

    def inverse_log_jacobian(self, value):
        return wrap(-self._forward_log_jacobian(self._inverse(_a(value))))

    def construct(self, name, *args, **kwargs):
        if name not in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
            raise ValueError(f"{self._name}: unknown method {name!r}.")
        return getattr(self, name)(*args, **kwargs)


class PowerTransform(Bijector):
    """y = (1 + power * x) ** (1 / power); power = 0 gives exp(x)."""

    def __init__(self, power=0.0, name="PowerTransform"):
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

    def __init__(self, name="Exp"):
        super().__init__(0.0, name)


class ScalarAffine(Bijector):
    """y = scale * x + shift."""

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
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

    def __init__(self, sharpness=1.0, name="Softplus"):
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

    def __init__(self, loc=0.0, scale=1.0, name="GumbelCDF"):
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

    def __init__(self, bijector, name=""):
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
