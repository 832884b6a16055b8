"""Continuous distributions: Normal, Uniform, Exponential, Gamma, Beta, LogNormal, Gumbel, Logistic, Cauchy,
HalfNormal, Laplace, StudentT."""
import math

import jax
import jax.numpy as jnp
from jax.scipy import special as sp
from jax.scipy import stats

from ....common import dtype as mstype
from ._base import Distribution

__all__ = ["Normal", "Uniform", "Exponential", "Gamma", "Beta", "LogNormal", "Gumbel", "Logistic", "Cauchy",
           "HalfNormal", "Laplace", "StudentT"]

_EULER = 0.5772156649015329
_LOG_2PI = math.log(2 * math.pi)


def _dist(cls_name, names, defaults=None):
    """An ``__init__`` taking the parameters ``names`` (MindSpore's keyword names), then seed, dtype, name."""
    def __init__(self, *args, **kwargs):
        extra = dict(zip(("seed", "dtype", "name"), args[len(names):]))
        unknown = [k for k in kwargs if k not in names + ("seed", "dtype", "name")]
        if unknown or len(args) > len(names) + 3:
            raise TypeError(f"{cls_name}: unexpected arguments {unknown or args[len(names) + 3:]}.")
        values = {k: kwargs.get(k, (defaults or {}).get(k)) for k in names}
        values.update(zip(names, args))
        seed = kwargs.get("seed", extra.get("seed"))
        dtype = kwargs.get("dtype", extra.get("dtype", mstype.float32))
        Distribution.__init__(self, seed, dtype, kwargs.get("name", extra.get("name", cls_name)), values)
        self._set_params(**values)
    return __init__


class Normal(Distribution):
    """Normal(mean, sd)."""

    _param_names = ("mean", "sd")
    __init__ = _dist("Normal", ("mean", "sd"))

    def _log_prob(self, x, m, s):
        return -0.5 * jnp.square((x - m) / s) - jnp.log(s) - 0.5 * _LOG_2PI

    def _cdf(self, x, m, s):
        return 0.5 * (1 + sp.erf((x - m) / (s * math.sqrt(2))))

    def _mean(self, m, s):
        return m * jnp.ones_like(s)

    def _var(self, m, s):
        return jnp.square(s) * jnp.ones_like(m)

    def _mode(self, m, s):
        return self._mean(m, s)

    def _entropy(self, m, s):
        return 0.5 * (_LOG_2PI + 1) + jnp.log(s) + jnp.zeros_like(m)

    def _kl(self, a, b):
        (ma, sa), (mb, sb) = a, b
        return jnp.log(sb / sa) + (jnp.square(sa) + jnp.square(ma - mb)) / (2 * jnp.square(sb)) - 0.5

    def _sample(self, key, shape, m, s):
        return m + s * jax.random.normal(key, shape, jnp.float32)


class Uniform(Distribution):
    """Uniform(low, high)."""

    _param_names = ("low", "high")
    __init__ = _dist("Uniform", ("low", "high"))

    def _log_prob(self, x, lo, hi):
        return jnp.where((x >= lo) & (x <= hi), -jnp.log(hi - lo), -jnp.inf)

    def _cdf(self, x, lo, hi):
        return jnp.clip((x - lo) / (hi - lo), 0.0, 1.0)

    def _mean(self, lo, hi):
        return (lo + hi) / 2

    def _var(self, lo, hi):
        return jnp.square(hi - lo) / 12

    def _entropy(self, lo, hi):
        return jnp.log(hi - lo)

    def _kl(self, a, b):
        (la, ha), (lb, hb) = a, b
        return jnp.where((lb <= la) & (ha <= hb), jnp.log((hb - lb) / (ha - la)), jnp.inf)

    def _sample(self, key, shape, lo, hi):
        return lo + (hi - lo) * jax.random.uniform(key, shape, jnp.float32)


class Exponential(Distribution):
    """Exponential(rate)."""

    _param_names = ("rate",)
    __init__ = _dist("Exponential", ("rate",))

    def _log_prob(self, x, r):
        return jnp.where(x >= 0, jnp.log(r) - r * x, -jnp.inf)

    def _cdf(self, x, r):
        return jnp.where(x >= 0, -jnp.expm1(-r * x), 0.0)

    def _mean(self, r):
        return 1 / r

    def _var(self, r):
        return 1 / jnp.square(r)

    def _mode(self, r):
        return jnp.zeros_like(r)

    def _entropy(self, r):
        return 1 - jnp.log(r)

    def _kl(self, a, b):
        return jnp.log(a[0] / b[0]) + b[0] / a[0] - 1

    def _sample(self, key, shape, r):
        return jax.random.exponential(key, shape, jnp.float32) / r


class Gamma(Distribution):
    """Gamma(concentration, rate)."""

    _param_names = ("concentration", "rate")
    __init__ = _dist("Gamma", ("concentration", "rate"))

    def _log_prob(self, x, a, b):
        return stats.gamma.logpdf(x * b, a) + jnp.log(b)

    def _cdf(self, x, a, b):
        return sp.gammainc(a, jnp.maximum(x, 0) * b)

    def _mean(self, a, b):
        return a / b

    def _var(self, a, b):
        return a / jnp.square(b)

    def _mode(self, a, b):
        return jnp.where(a >= 1, (a - 1) / b, jnp.nan)

    def _entropy(self, a, b):
        return a - jnp.log(b) + sp.gammaln(a) + (1 - a) * sp.digamma(a)

    def _kl(self, p, q):
        (a1, b1), (a2, b2) = p, q
        return ((a1 - a2) * sp.digamma(a1) - sp.gammaln(a1) + sp.gammaln(a2) + a2 * (jnp.log(b1) - jnp.log(b2))
                + a1 * (b2 - b1) / b1)

    def _sample(self, key, shape, a, b):
        return jax.random.gamma(key, jnp.broadcast_to(a, shape), shape, jnp.float32) / b


class Beta(Distribution):
    """Beta(concentration1, concentration0)."""

    _param_names = ("concentration1", "concentration0")
    __init__ = _dist("Beta", ("concentration1", "concentration0"))

    def _log_prob(self, x, a, b):
        return stats.beta.logpdf(x, a, b)

    def _cdf(self, x, a, b):
        return sp.betainc(a, b, jnp.clip(x, 0, 1))

    def _mean(self, a, b):
        return a / (a + b)

    def _var(self, a, b):
        t = a + b
        return a * b / (jnp.square(t) * (t + 1))

    def _mode(self, a, b):
        return jnp.where((a > 1) & (b > 1), (a - 1) / (a + b - 2), jnp.nan)

    def _entropy(self, a, b):
        t = a + b
        lbeta = sp.gammaln(a) + sp.gammaln(b) - sp.gammaln(t)
        return lbeta - (a - 1) * sp.digamma(a) - (b - 1) * sp.digamma(b) + (t - 2) * sp.digamma(t)

    def _sample(self, key, shape, a, b):
        return jax.random.beta(key, a, b, shape, jnp.float32)


class LogNormal(Distribution):
    """LogNormal(loc, scale): exp of Normal(loc, scale)."""

    _param_names = ("loc", "scale")
    __init__ = _dist("LogNormal", ("loc", "scale"))

    def _log_prob(self, x, m, s):
        lx = jnp.log(x)
        return -0.5 * jnp.square((lx - m) / s) - jnp.log(s) - 0.5 * _LOG_2PI - lx

    def _cdf(self, x, m, s):
        return 0.5 * (1 + sp.erf((jnp.log(x) - m) / (s * math.sqrt(2))))

    def _mean(self, m, s):
        return jnp.exp(m + jnp.square(s) / 2)

    def _var(self, m, s):
        return jnp.expm1(jnp.square(s)) * jnp.exp(2 * m + jnp.square(s))

    def _mode(self, m, s):
        return jnp.exp(m - jnp.square(s))

    def _entropy(self, m, s):
        return m + 0.5 + jnp.log(s) + 0.5 * _LOG_2PI

    def _kl(self, a, b):
        return Normal._kl(self, a, b)

    def _sample(self, key, shape, m, s):
        return jnp.exp(m + s * jax.random.normal(key, shape, jnp.float32))


class Gumbel(Distribution):
    """Gumbel(loc, scale)."""

    _param_names = ("loc", "scale")
    __init__ = _dist("Gumbel", ("loc", "scale"))

    def _log_prob(self, x, m, s):
        z = (x - m) / s
        return -(z + jnp.exp(-z)) - jnp.log(s)

    def _cdf(self, x, m, s):
        return jnp.exp(-jnp.exp(-(x - m) / s))

    def _mean(self, m, s):
        return m + _EULER * s

    def _var(self, m, s):
        return jnp.square(math.pi * s) / 6 * jnp.ones_like(m)

    def _mode(self, m, s):
        return m * jnp.ones_like(s)

    def _entropy(self, m, s):
        return jnp.log(s) + _EULER + 1 + jnp.zeros_like(m)

    def _sample(self, key, shape, m, s):
        return m + s * jax.random.gumbel(key, shape, jnp.float32)


class Logistic(Distribution):
    """Logistic(loc, scale)."""

    _param_names = ("loc", "scale")
    __init__ = _dist("Logistic", ("loc", "scale"))

    def _log_prob(self, x, m, s):
        z = (x - m) / s
        return -z - 2 * jax.nn.softplus(-z) - jnp.log(s)

    def _cdf(self, x, m, s):
        return jax.nn.sigmoid((x - m) / s)

    def _mean(self, m, s):
        return m * jnp.ones_like(s)

    def _var(self, m, s):
        return jnp.square(math.pi * s) / 3 * jnp.ones_like(m)

    def _mode(self, m, s):
        return self._mean(m, s)

    def _entropy(self, m, s):
        return jnp.log(s) + 2 + jnp.zeros_like(m)

    def _sample(self, key, shape, m, s):
        return m + s * jax.random.logistic(key, shape, jnp.float32)


class Cauchy(Distribution):
    """Cauchy(loc, scale); its mean and variance do not exist."""

    _param_names = ("loc", "scale")
    __init__ = _dist("Cauchy", ("loc", "scale"))

    def _log_prob(self, x, m, s):
        return -jnp.log(math.pi * s * (1 + jnp.square((x - m) / s)))

    def _cdf(self, x, m, s):
        return 0.5 + jnp.arctan((x - m) / s) / math.pi

    def _mean(self, m, s):
        raise ValueError("Cauchy: the mean does not exist.")

    def _var(self, m, s):
        raise ValueError("Cauchy: the variance does not exist.")

    def _mode(self, m, s):
        return m * jnp.ones_like(s)

    def _entropy(self, m, s):
        return jnp.log(4 * math.pi * s) + jnp.zeros_like(m)

    def _kl(self, a, b):
        (ma, sa), (mb, sb) = a, b
        return jnp.log(jnp.square(sa + sb) + jnp.square(ma - mb)) - jnp.log(4 * sa * sb)

    def _sample(self, key, shape, m, s):
        return m + s * jax.random.cauchy(key, shape, jnp.float32)


class HalfNormal(Distribution):
    """HalfNormal(mean, sd): |Normal(0, sd)| + mean, supported on [mean, inf)."""

    _param_names = ("mean", "sd")
    __init__ = _dist("HalfNormal", ("mean", "sd"))

    def _log_prob(self, x, m, s):
        return jnp.where(x >= m, math.log(2) - 0.5 * jnp.square((x - m) / s) - jnp.log(s) - 0.5 * _LOG_2PI, -jnp.inf)

    def _cdf(self, x, m, s):
        return jnp.where(x >= m, sp.erf((x - m) / (s * math.sqrt(2))), 0.0)

    def _mean(self, m, s):
        return m + s * math.sqrt(2 / math.pi)

    def _var(self, m, s):
        return jnp.square(s) * (1 - 2 / math.pi) * jnp.ones_like(m)

    def _mode(self, m, s):
        return m * jnp.ones_like(s)

    def _entropy(self, m, s):
        return 0.5 * jnp.log(math.pi * jnp.square(s) / 2) + 0.5 + jnp.zeros_like(m)

    def _sample(self, key, shape, m, s):
        return m + s * jnp.abs(jax.random.normal(key, shape, jnp.float32))


class Laplace(Distribution):
    """Laplace(mean, sd): location ``mean``, scale ``sd``."""

    _param_names = ("mean", "sd")
    __init__ = _dist("Laplace", ("mean", "sd"))

    def _log_prob(self, x, m, b):
        return -jnp.abs(x - m) / b - jnp.log(2 * b)

    def _cdf(self, x, m, b):
        z = (x - m) / b
        return jnp.where(z < 0, 0.5 * jnp.exp(z), 1 - 0.5 * jnp.exp(-z))

    def _mean(self, m, b):
        return m * jnp.ones_like(b)

    def _var(self, m, b):
        return 2 * jnp.square(b) * jnp.ones_like(m)

    def _mode(self, m, b):
        return self._mean(m, b)

    def _entropy(self, m, b):
        return 1 + jnp.log(2 * b) + jnp.zeros_like(m)

    def _sample(self, key, shape, m, b):
        return m + b * jax.random.laplace(key, shape, jnp.float32)


class StudentT(Distribution):
    """StudentT(df, mean, sd)."""

    _param_names = ("df", "mean", "sd")
    __init__ = _dist("StudentT", ("df", "mean", "sd"))

    def _log_prob(self, x, df, m, s):
        return stats.t.logpdf(x, df, m, s)

    def _cdf(self, x, df, m, s):
        z = (x - m) / s
        tail = 0.5 * sp.betainc(df / 2, 0.5, df / (df + jnp.square(z)))
        return jnp.where(z > 0, 1 - tail, tail)

    def _mean(self, df, m, s):
        return jnp.where(df > 1, m * jnp.ones_like(s), jnp.nan)

    def _var(self, df, m, s):
        return jnp.where(df > 2, jnp.square(s) * df / (df - 2), jnp.where(df > 1, jnp.inf, jnp.nan)) * \
            jnp.ones_like(m)

    def _mode(self, df, m, s):
        return m * jnp.ones_like(s) * jnp.ones_like(df)

    def _entropy(self, df, m, s):
        h = (df + 1) / 2 * (sp.digamma((df + 1) / 2) - sp.digamma(df / 2)) + 0.5 * jnp.log(df) + \
            sp.gammaln(df / 2) + sp.gammaln(0.5) - sp.gammaln((df + 1) / 2)
        return h + jnp.log(s) + jnp.zeros_like(m)

    def _sample(self, key, shape, df, m, s):
        return m + s * jax.random.t(key, df, shape, jnp.float32)
