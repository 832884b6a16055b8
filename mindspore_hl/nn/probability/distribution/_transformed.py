"""``TransformedDistribution``: the distribution of ``bijector(X)`` for X from ``distribution``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ....common.tensor import to_array, wrap
from ..bijector import Bijector
from ._base import Distribution

if TYPE_CHECKING:
    from typing import Any, NoReturn

    from ....common.tensor import Tensor

__all__ = ["TransformedDistribution"]


class TransformedDistribution(Distribution):
    """log_prob(y) = base.log_prob(inverse(y)) + inverse_log_jacobian(y); cdf(y) = base.cdf(inverse(y)) (for an
    increasing bijector); samples are bijector(base samples)."""

    def __init__(self, bijector: Bijector, distribution: Distribution, seed: int | None = None,
                 name: str = "transformed_distribution") -> None:
        if not isinstance(bijector, Bijector):
            raise TypeError(f"TransformedDistribution: 'bijector' must be a Bijector, got {type(bijector).__name__}.")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"TransformedDistribution: 'distribution' must be a Distribution, got "
                            f"{type(distribution).__name__}.")
        super().__init__(seed, distribution.dtype, name, {})
        self.bijector, self.distribution = bijector, distribution

    def log_prob(self, value: Tensor, *args: Any) -> Tensor:
        y = jnp.asarray(to_array(value), jnp.float32)
        x = self.bijector._inverse(y)
        return wrap(to_array(self.distribution.log_prob(wrap(x), *args)) - self.bijector._forward_log_jacobian(x))

    def prob(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.exp(to_array(self.log_prob(value, *args))))

    def cdf(self, value: Tensor, *args: Any) -> Tensor:
        x = self.bijector._inverse(jnp.asarray(to_array(value), jnp.float32))
        return self.distribution.cdf(wrap(x), *args)

    def log_cdf(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.log(to_array(self.cdf(value, *args))))

    def survival_function(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(1 - to_array(self.cdf(value, *args)))

    def log_survival(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.log1p(-to_array(self.cdf(value, *args))))

    def mean(self, *args: Any) -> NoReturn:
        raise NotImplementedError("TransformedDistribution: the mean has no closed form; estimate it from samples.")

    def sample(self, shape: tuple[int, ...] = (), *args: Any) -> Tensor:
        return wrap(self.bijector._forward(to_array(self.distribution.sample(shape, *args))))
