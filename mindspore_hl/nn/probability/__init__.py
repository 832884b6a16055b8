"""``mindspore.nn.probability``: probability distributions and bijectors (maths from ``jax.scipy``)."""
from . import bijector, distribution

__all__ = ["bijector", "distribution"]
