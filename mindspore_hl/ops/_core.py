"""How ops are written: a pure function over JAX arrays, wrapped to take and return Tensors.

``@op("matmul")`` turns ``fn(*arrays) -> array`` into ``matmul(*tensors) -> Tensor``: Tensor arguments
(also inside lists/tuples) are unwrapped, results wrapped, and shape/dtype errors re-raised naming the op
and the inputs, never a C++ stack dump.
"""
import functools

import jax
import numpy as np

from ..common.tensor import Tensor, wrap


def unwrap(x):
    """Tensor -> array; lists/tuples unwrapped element-wise; everything else unchanged."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (list, tuple)) and any(isinstance(v, Tensor) for v in x):
        return type(x)(unwrap(v) for v in x)
    return x


def describe(x):
    """A short description of an op input for error messages."""
    if isinstance(x, Tensor) or isinstance(x, (jax.Array, np.ndarray)):
        v = x._value if isinstance(x, Tensor) else x
        return f"Tensor(shape={list(v.shape)}, dtype={x.dtype if isinstance(x, Tensor) else v.dtype})"
    if isinstance(x, (list, tuple)) and len(x) <= 8:
        return "[" + ", ".join(describe(v) for v in x) + "]"
    return repr(x) if len(repr(x)) < 60 else type(x).__name__


def op(name):
    """Decorator: make a function over arrays into a MindSpore op over Tensors named ``name``."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            a = [unwrap(x) for x in args]
            k = {key: unwrap(v) for key, v in kwargs.items()}
            try:
                out = fn(*a, **k)
            except (TypeError, ValueError) as e:
                if isinstance(e, OpError) or type(e).__name__ in ("TracerBoolConversionError",
                                                                   "ConcretizationTypeError"):
                    raise
                shown = ", ".join(describe(x) for x in args)
                raise type(e)(f"For '{name}', the inputs are invalid: {e}. Got: {shown}.") from None
            return wrap(out)
        wrapper._op_name = name
        return wrapper
    return deco


class OpError(ValueError):
    """A validation error raised by an op itself (already names the op)."""


def check(cond, name, message):
    """Raise OpError ``For 'name', message`` unless ``cond``."""
    if not cond:
        raise OpError(f"For '{name}', {message}")
