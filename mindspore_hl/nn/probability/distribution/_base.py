"""``Distribution``: the base Cell. A subclass names its parameters (``_param_names``) and gives the maths over
arrays (``_log_prob``, ``_cdf``, ``_mean``, ``_var``, ``_entropy``, ``_mode``, ``_sample`` and, where it has a
closed form, ``_kl``); the base turns them into MindSpore's methods, each taking optional parameter overrides
after its value argument (``prob(value, mean=None, sd=None)``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

from ....common import dtype as mstype
from ....common import seed as _seed
from ....common.tensor import to_array, wrap
from ...cell import Cell

if TYPE_CHECKING:
    from typing import Any, Callable

    from ....common.tensor import Tensor

__all__ = ["Distribution"]


class Distribution(Cell):
    """Base class of the distributions; ``construct(name, *args)`` calls the method ``name`` (MindSpore's form)."""

    _param_names: tuple[str, ...] = ()
    _discrete = False
    # The maths over arrays, given by each subclass (those it has).
    _log_prob: Callable[..., Any]
    _cdf: Callable[..., Any]
    _mean: Callable[..., Any]
    _var: Callable[..., Any]
    _entropy: Callable[..., Any]
    _sample: Callable[..., Any]

    def __init__(self, seed: int | None = None, dtype: mstype.Type = mstype.float32, name: str = "Distribution",
                 param: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.seed = 0 if seed is None else seed
        self.dtype = mstype.to_ms_dtype(dtype)
        self._name = name
        self.parameters = dict(param or {})
        self._values: dict[str, Any] = {}

    def _set_params(self, **values):
        for key, v in values.items():
            self._values[key] = None if v is None else jnp.asarray(to_array(v), jnp.float32)

    def _args(self, overrides):
        out = []
        for key, v in zip(self._param_names, list(overrides) + [None] * (len(self._param_names) - len(overrides))):
            v = self._values.get(key) if v is None else jnp.asarray(to_array(v), jnp.float32)
            if v is None:
                raise ValueError(f"{self._name}: parameter '{key}' was given neither at construction nor in the call.")
            out.append(v)
        return out

    @property
    def name(self) -> str:
        return self._name

    def get_dist_type(self) -> str:
        return type(self).__name__

    def get_dist_args(self, *args: Any) -> tuple[Tensor, ...]:
        return tuple(wrap(a) for a in self._args(args))

    def _value(self, value):
        return jnp.asarray(to_array(value), jnp.float32)

    # ---- MindSpore's methods -----------------------------------------------------------------------------------------
    def log_prob(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(self._log_prob(self._value(value), *self._args(args)))

    def prob(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.exp(self._log_prob(self._value(value), *self._args(args))))

    def cdf(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(self._cdf(self._value(value), *self._args(args)))

    def log_cdf(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.log(self._cdf(self._value(value), *self._args(args))))

    def survival_function(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(1.0 - self._cdf(self._value(value), *self._args(args)))

    def log_survival(self, value: Tensor, *args: Any) -> Tensor:
        return wrap(jnp.log1p(-self._cdf(self._value(value), *self._args(args))))

    def mean(self, *args: Any) -> Tensor:
        return wrap(self._mean(*self._args(args)))

    def var(self, *args: Any) -> Tensor:
        return wrap(self._var(*self._args(args)))

    def sd(self, *args: Any) -> Tensor:
        return wrap(jnp.sqrt(self._var(*self._args(args))))

    def mode(self, *args: Any) -> Tensor:
        return wrap(self._mode(*self._args(args)))

    def entropy(self, *args: Any) -> Tensor:
        return wrap(self._entropy(*self._args(args)))

    def kl_loss(self, dist: str, *args: Any) -> Tensor:
        """KL(self || other) where ``other`` is the same family with parameters ``args`` (then own overrides)."""
        if dist != type(self).__name__:
            raise ValueError(f"{self._name}: kl_loss needs dist='{type(self).__name__}', but got {dist!r}.")
        n = len(self._param_names)
        other = [jnp.asarray(to_array(a), jnp.float32) for a in args[:n]]
        return wrap(self._kl(self._args(args[n:]), other))

    def cross_entropy(self, dist: str, *args: Any) -> Tensor:
        n = len(self._param_names)
        return wrap(self._entropy(*self._args(args[n:])) + to_array(self.kl_loss(dist, *args)))

    def sample(self, shape: tuple[int, ...] = (), *args: Any) -> Tensor:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        params = self._args(args)
        batch = jnp.broadcast_shapes(*(p.shape for p in params)) if params else ()
        out = self._sample(_seed.next_key(), shape + batch, *params)
        return wrap(out.astype(self.dtype.to_numpy()) if self._discrete else out)

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Tensor:
        if name not in ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival", "mean", "var",
                        "sd", "mode", "entropy", "kl_loss", "cross_entropy", "sample"):
            raise ValueError(f"{self._name}: unknown method {name!r}.")
        return getattr(self, name)(*args, **kwargs)

    def _kl(self, a, b):
        raise NotImplementedError(f"{self._name}: kl_loss has no closed form here.")

    def _mode(self, *p):
        raise NotImplementedError(f"{self._name}: mode is not defined.")

    def extend_repr(self) -> str:
        vals = ", ".join(f"{k} = {None if self._values.get(k) is None else self._values[k].tolist()}"
                         for k in self._param_names)
        return vals or "batch_shape = None"

