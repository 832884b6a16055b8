"""Special functions (``ops.lgamma``, ``ops.digamma``, ``ops.igamma``, ``ops.bessel_j0`` ...), as in MindSpore 2.10.

Integer and Bool inputs compute in Float32, like MindSpore. Bessel functions that JAX lacks are evaluated in
Float64 and cast back: power series for small arguments, Hankel's asymptotic expansion for large ones, and for
``K`` the integral ``K_n(x) = int_0^inf exp(-x cosh t) cosh(n t) dt`` with the trapezoid rule (its integrand
is even and analytic, so the rule converges exponentially).
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import jax.scipy.special as jss

from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["lgamma", "digamma", "polygamma", "igamma", "igammac", "zeta", "mvlgamma", "i0", "bessel_i0", "bessel_i0e",
           "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e"]

_EULER = 0.5772156649015329
_SERIES_TERMS = 48      # (6 ** 2k / k!^2 < 1e-17 for k >= 48: enough below the switch point)
_SWITCH = 12.0          # series below, asymptotic expansion above (both better than 1e-10 there)
_ASYMPTOTIC_TERMS = 12
_K_NODES = 160


def _float(name, x, allow_int=True):
    """The input in its floating dtype (Int/Bool -> Float32 where MindSpore accepts them)."""
    check(not jnp.issubdtype(x.dtype, jnp.complexfloating), name,
          f"the input must be a real tensor, but got {x.dtype}.", TypeError)
    check(allow_int or jnp.issubdtype(x.dtype, jnp.floating), name,
          f"the input must be a Float16, Float32 or Float64 tensor, but got {x.dtype}.", TypeError)
    return x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(jnp.float32)


def _unary(name, fn):
    def impl(x):
        x = _float(name, x)
        return fn(x.astype(jnp.float32) if x.dtype == jnp.float16 or x.dtype == jnp.bfloat16 else x).astype(x.dtype)
    impl.__name__ = name
    return impl


@op("lgamma")
def lgamma(input: Tensor) -> Tensor:
    """log|Gamma(input)|."""
    return _unary("lgamma", jss.gammaln)(input)


@op("digamma")
def digamma(input: Tensor) -> Tensor:
    """The logarithmic derivative of Gamma."""
    _float("digamma", input, allow_int=False)
    out = _unary("digamma", jss.digamma)(input)
    return jnp.where(input == 0, -jnp.inf, out).astype(out.dtype)      # MindSpore: -inf at 0


@op("polygamma")
def polygamma(n: int, input: Tensor) -> Tensor:
    """The ``n``-th derivative of digamma."""
    x = _float("polygamma", input)
    order = jnp.asarray(n)
    check(jnp.ndim(order) == 0, "polygamma", f"n must be a scalar, but got shape {list(jnp.shape(order))}.")
    return jss.polygamma(order.astype(jnp.int32), x.astype(jnp.float32) if x.dtype == jnp.float16 else x
                         ).astype(x.dtype)


def _pair(name, a, b):
    a, b = _float(name, a), _float(name, b)
    dt = jnp.promote_types(a.dtype, b.dtype)
    return a.astype(dt), b.astype(dt)


@op("igamma")
def igamma(input: Tensor, other: Tensor | float) -> Tensor:
    """The regularized lower incomplete gamma function P(input, other)."""
    a, x = _pair("igamma", input, other)
    return jss.gammainc(a, x)


@op("igammac")
def igammac(input: Tensor, other: Tensor | float) -> Tensor:
    """The regularized upper incomplete gamma function Q(input, other)."""
    a, x = _pair("igammac", input, other)
    return jss.gammaincc(a, x)


@op("zeta")
def zeta(input: Tensor, other: Tensor | float) -> Tensor:
    """The Hurwitz zeta function zeta(input, other)."""
    x, q = _pair("zeta", input, other)
    return jss.zeta(x, q)


@op("mvlgamma")
def mvlgamma(input: Tensor, p: float) -> Tensor:
    """The multivariate log-gamma function of dimension ``p`` (every element must exceed (p - 1) / 2)."""
    check(isinstance(p, int) and p >= 1, "mvlgamma", f"p must be a positive int, but got {p!r}.")
    x = _float("mvlgamma", input)
    # Eager values are checked, as MindSpore does (compiled, no check: NaN where the domain is left).
    if not isinstance(x, jax.core.Tracer) and not bool(jnp.all(x > (p - 1) / 2)):
        check(False, "mvlgamma", f"all elements of 'x' must be greater than (p-1)/2 = {(p - 1) / 2}, "
              f"but got min {float(jnp.min(x))}.")
    return jss.multigammaln(x, p).astype(x.dtype)


def _bessel(name, fn):
    def impl(x):
        x = _float(name, x, allow_int=False)
        return fn(x.astype(jnp.float64)).astype(x.dtype)
    impl.__name__ = name
    impl.__doc__ = f"The Bessel function ``{name[7:]}`` (MindSpore's ``ops.{name}``)."
    return op(name)(impl)


def _hankel(x, n):
    """(P, Q, chi) of Hankel's expansion: J_n = sqrt(2/(pi x)) (P cos chi - Q sin chi), Y_n = ... (P sin + Q cos)."""
    mu = 4.0 * n * n
    p, q = jnp.ones_like(x), jnp.zeros_like(x)
    term = jnp.ones_like(x)
    for k in range(1, 2 * _ASYMPTOTIC_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        sign = (-1) ** (k // 2)
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    chi = x - (n / 2.0 + 0.25) * math.pi
    return p, q, chi


def _harmonic():
    return jnp.cumsum(1.0 / jnp.arange(1, _SERIES_TERMS + 1, dtype=jnp.float64))


def _j_series(x, n):
    """J_n(x) for n in (0, 1) by its power series (x in any range where the series is accurate)."""
    k = jnp.arange(_SERIES_TERMS, dtype=jnp.float64)
    h = (x[..., None] / 2.0)
    log_den = jax.lax.lgamma(k + 1) + jax.lax.lgamma(k + 1 + n)
    terms = (-1.0) ** k * jnp.exp(2 * k * jnp.log(jnp.abs(h) + 1e-300) - log_den)
    return jnp.sum(terms, -1) * (h[..., 0] if n else 1.0)


def _y_series(x, n):
    """Y_n(x), x > 0, by the series in J_n, log(x / 2) and harmonic numbers."""
    hk = jnp.concatenate([jnp.zeros(1, jnp.float64), _harmonic()[:-1]])   # H_0 .. H_{K-1}
    k = jnp.arange(_SERIES_TERMS, dtype=jnp.float64)
    h = x[..., None] / 2.0
    log_den = jax.lax.lgamma(k + 1) + jax.lax.lgamma(k + 1 + n)
    power = jnp.exp(2 * k * jnp.log(h) - log_den) * (-1.0) ** k
    log_term = 2.0 / math.pi * (jnp.log(x / 2.0) + _EULER) * _j_series(x, n)
    if n == 0:
        return log_term - 2.0 / math.pi * jnp.sum(power * hk, -1)
    hk1 = hk + 1.0 / (k + 1)                                        # H_{k+1}
    return (2.0 / math.pi * jnp.log(x / 2.0) * _j_series(x, 1) - 2.0 / (math.pi * x)
            - jnp.sum(power * (hk + hk1 - 2 * _EULER), -1) * x / (2 * math.pi))


@functools.partial(jax.jit, static_argnums=1)
def _j(x, n):
    ax = jnp.abs(x)
    big = ax >= _SWITCH
    safe = jnp.where(big, ax, _SWITCH)
    p, q, chi = _hankel(safe, n)
    far = jnp.sqrt(2.0 / (math.pi * safe)) * (p * jnp.cos(chi) - q * jnp.sin(chi))
    near = _j_series(jnp.where(big, 0.0, ax), n)
    out = jnp.where(big, far, near)
    return out * jnp.sign(x) if n else out


@functools.partial(jax.jit, static_argnums=1)
def _y(x, n):
    big = x >= _SWITCH
    safe = jnp.where(big, x, _SWITCH)
    p, q, chi = _hankel(safe, n)
    far = jnp.sqrt(2.0 / (math.pi * safe)) * (p * jnp.sin(chi) + q * jnp.cos(chi))
    near = _y_series(jnp.where(big | (x <= 0), 1.0, x), n)
    out = jnp.where(big, far, near)
    # MindSpore: -inf below 0; at 0, -inf for Y0 and NaN for Y1
    return jnp.where(x < 0, -jnp.inf, jnp.where(x == 0, -jnp.inf if n == 0 else jnp.nan, out))


@functools.partial(jax.jit, static_argnums=1)
def _k_scaled(x, n):
    """exp(x) K_n(x) for x > 0 (inf at 0 and below, as MindSpore)."""
    safe = jnp.where(x > 0, x, 1.0)
    top = jnp.arccosh(1.0 + 60.0 / safe)                 # where exp(-x (cosh t - 1)) < e^-60
    t = top[..., None] * jnp.linspace(0.0, 1.0, _K_NODES + 1, dtype=jnp.float64)
    f = jnp.exp(-safe[..., None] * (jnp.cosh(t) - 1.0)) * (jnp.cosh(n * t) if n else 1.0)
    step = top / _K_NODES
    out = step * (jnp.sum(f, -1) - 0.5 * f[..., 0] - 0.5 * f[..., -1])
    return jnp.where(x <= 0, jnp.inf, out)       # MindSpore: inf at 0 and below


i0 = _bessel("i0", jss.i0)
bessel_i0 = _bessel("bessel_i0", jss.i0)
bessel_i0e = _bessel("bessel_i0e", jss.i0e)
bessel_i1 = _bessel("bessel_i1", jss.i1)
bessel_i1e = _bessel("bessel_i1e", jss.i1e)
bessel_j0 = _bessel("bessel_j0", lambda x: _j(x, 0))
bessel_j1 = _bessel("bessel_j1", lambda x: _j(x, 1))
bessel_y0 = _bessel("bessel_y0", lambda x: _y(x, 0))
bessel_y1 = _bessel("bessel_y1", lambda x: _y(x, 1))
bessel_k0e = _bessel("bessel_k0e", lambda x: _k_scaled(x, 0))
bessel_k1e = _bessel("bessel_k1e", lambda x: _k_scaled(x, 1))
bessel_k0 = _bessel("bessel_k0", lambda x: _k_scaled(x, 0) * jnp.exp(-x))
bessel_k1 = _bessel("bessel_k1", lambda x: _k_scaled(x, 1) * jnp.exp(-x))
