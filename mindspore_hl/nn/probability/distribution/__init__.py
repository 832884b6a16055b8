"""``nn.probability.distribution``: ``Normal``, ``Bernoulli``, ``Gamma`` ... with MindSpore's methods (``prob``,
``log_prob``, ``cdf``, ``log_cdf``, ``survival_function``, ``log_survival``, ``mean``, ``var``, ``sd``, ``mode``,
``entropy``, ``kl_loss``, ``cross_entropy``, ``sample``)."""
from ._base import Distribution
from ._continuous import (
    Beta,
    Cauchy,
    Exponential,
    Gamma,
    Gumbel,
    HalfNormal,
    Laplace,
    Logistic,
    LogNormal,
    Normal,
    StudentT,
    Uniform,
)
from ._discrete import Bernoulli, Categorical, Geometric, Poisson
from ._transformed import TransformedDistribution

__all__ = ["Distribution", "TransformedDistribution", "Normal", "Bernoulli", "Categorical", "Uniform", "Exponential",
           "Gamma", "Beta", "Poisson", "Geometric", "LogNormal", "Gumbel", "Logistic", "Cauchy", "HalfNormal",
           "Laplace", "StudentT"]
