"""``nn.probability.bijector``: invertible maps with log-Jacobians (``forward``, ``inverse``,
``forward_log_jacobian``, ``inverse_log_jacobian``)."""
from ._bijectors import Bijector, Exp, GumbelCDF, Invert, PowerTransform, ScalarAffine, Softplus

__all__ = ["Bijector", "PowerTransform", "Exp", "ScalarAffine", "Softplus", "GumbelCDF", "Invert"]
