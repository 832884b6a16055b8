"""Custom backward passes: a function over Tensors whose gradient is given by a MindSpore-style ``bprop``.

``custom_bprop(fn, bprop)`` is the mechanism behind ``Cell.bprop``: ``bprop(*inputs, out, dout)`` returns one
gradient per positional input. It is a ``jax.custom_vjp``, so it composes with ``grad``, ``jit`` and ``vmap``.
"""
from collections.abc import Callable, Iterable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor, to_array, wrap
from . import _scope

__all__ = ["custom_bprop"]


def _zero_cotangent(a):
    if jnp.issubdtype(a.dtype, jnp.inexact):
        return jnp.zeros_like(a)
    return np.zeros(np.shape(a), jax.dtypes.float0)


def custom_bprop(fn: Callable[..., Any], bprop: Callable[..., Any],
                 params: Iterable[Any] | Callable[[], Iterable[Any]] = (),
                 name: str | None = None) -> Callable[..., Any]:
    """Return ``fn`` with its backward pass replaced by ``bprop``.

    Args:
        fn: a function of Tensors (and other Python values) returning a Tensor or a tuple of Tensors.
        bprop: ``bprop(*inputs, out, dout) -> tuple`` with one gradient per positional input of ``fn``
            (``None`` means zero); for non-Tensor inputs the entry is ignored.
        params: Parameters that ``fn`` reads (or a zero-argument callable returning them, e.g.
            ``cell.get_parameters``). They get zero gradients, as in MindSpore, where a Cell with a custom
            ``bprop`` gives no gradient to its own Parameters; listing them lets ``fn`` be differentiated
            inside ``grad(..., weights=...)`` and compiled steps.
        name: used in error messages (default: ``fn``'s name).

    Example:
        >>> def f(x, y): return x * y
        >>> def f_bprop(x, y, out, dout): return 10 * dout, 20 * dout
        >>> g = ops.custom_bprop(f, f_bprop)
        >>> dx, dy = ms.grad(g, (0, 1))(Tensor(2.0), Tensor(3.0))
        >>> float(dx.asnumpy()), float(dy.asnumpy())
        (10.0, 20.0)
    """
    label = name or getattr(fn, "__qualname__", "function")

    def wrapper(*args):
        ps = tuple(params() if callable(params) else params)
        pos = [i for i, a in enumerate(args) if isinstance(a, (Tensor, jax.Array, jax.core.Tracer, np.ndarray))]

        def rebuild(arrays):
            full = list(args)
            for i, a in zip(pos, arrays):
                full[i] = wrap(a)
            return full

        @jax.custom_vjp
        def f(arrays, p_vals):
            with _scope.StatelessScope(ps, p_vals):
                return fn(*rebuild(arrays))

        def fwd(arrays, p_vals):
            out = f(arrays, p_vals)
            return out, (arrays, p_vals, out)

        def bwd(res, dout):
            arrays, p_vals, out = res
            with _scope.StatelessScope(ps, p_vals):
                grads = bprop(*rebuild(arrays), out, dout)
            if not isinstance(grads, (tuple, list)):
                grads = (grads,)
            if len(grads) != len(args):
                raise ValueError(f"{label}: bprop must return one gradient per input ({len(args)}), "
                              f"but returned {len(grads)}.")
            cts = []
            for k, i in enumerate(pos):
                g, a = grads[i], arrays[k]
                if g is None or not jnp.issubdtype(a.dtype, jnp.inexact):
                    cts.append(_zero_cotangent(a))
                    continue
                g = to_array(g)
                if jnp.shape(g) != jnp.shape(a):
                    if jnp.size(g) != jnp.size(a):
                        raise ValueError(f"{label}: bprop returned a gradient of shape {list(jnp.shape(g))} for input "
                                      f"{i} of shape {list(jnp.shape(a))}.")
                    g = jnp.reshape(g, jnp.shape(a))
                cts.append(g.astype(a.dtype))
            return tuple(cts), [_zero_cotangent(v) for v in p_vals]

        f.defvjp(fwd, bwd)
        return f(tuple(to_array(args[i]) for i in pos), [p._value for p in ps])

    wrapped: Any = wrapper  # (a function object takes attributes; the type checker's Callable does not)
    wrapped.__name__ = getattr(fn, "__name__", "custom_bprop")
    wrapped.__wrapped__ = fn  # inspect.signature follows it to fn
    return wrapped
