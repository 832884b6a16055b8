"""How ops are written: a pure function over JAX arrays, wrapped to take and return Tensors.

``@op("matmul")`` turns ``fn(*arrays) -> array`` into ``matmul(*tensors) -> Tensor``: Tensor arguments
(also inside lists/tuples) are unwrapped, results wrapped, and shape/dtype errors re-raised naming the op
and the inputs, never a C++ stack dump. A device plug-in may replace an op's array function by name
(see ``mindspore_hl.backends``).
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Mapping, TypeVar

import jax
import numpy as np

from .._engine import _state
from ..common.tensor import Tensor, describe, is_f64, wrap

__all__ = ["op", "check", "unwrap", "describe", "OpError", "set_overrides"]

# The decorated function keeps its signature: it is annotated with the Tensors its callers pass.
_F = TypeVar("_F", bound=Callable[..., Any])

_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)
_C128 = np.dtype(np.complex128)
_PASS_THROUGH = (jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError,
                 jax.errors.TracerIntegerConversionError)
_TRACE = _state.trace  # its op_observer sees every op call while an exporter records a network
_OVERRIDES = _state.op_overrides  # the device plug-in's ops (set by set_device, cleared by _state.reset)
_RUNTIME = _state.runtime  # "launch_blocking": eager ops wait for their results (ms.launch_blocking)


def set_overrides(mapping: Mapping[str, Callable[..., Any]] | None) -> None:
    """Install a backend's op overrides ``{op_name: array_function}`` (replacing the previous backend's)."""
    _OVERRIDES.clear()
    _OVERRIDES.update(mapping or {})


def unwrap(x: Any) -> Any:
    """Tensor -> array; lists/tuples unwrapped element-wise; everything else unchanged."""
    if isinstance(x, Tensor):
        return x._value
    if type(x) in (list, tuple):  # (exact types: namedtuples and other sequences pass through untouched)
        for v in x:
            if isinstance(v, Tensor):
                return type(x)(unwrap(v) for v in x)
    return x


def _has_f64(values):
    """Whether an input is double precision: Float64, or Complex128 (whose real and imaginary parts are)."""
    for v in values:
        if is_f64(v) or getattr(v, "dtype", None) is _C128 or isinstance(v, (list, tuple)) and _has_f64(v):
            return True
    return False


def _narrow(out, args, kwargs):
    """MindSpore keeps Float32 where JAX's x64 mode widens non-Float64 inputs (ints, Python floats) to Float64."""
    if isinstance(out, tuple):
        return tuple(_narrow(o, args, kwargs) for o in out)
    if is_f64(out) and not _has_f64(args) and not _has_f64(kwargs.values()):
        return out.astype(_F32)
    return out


def op(name: str, keep_f64: bool = False) -> Callable[[_F], _F]:
    """Decorator: make a function over arrays into a MindSpore op over Tensors named ``name``.

    Args:
        name: the op name used in error messages and by backend overrides.
        keep_f64: set for ops whose output dtype is chosen explicitly (``cast``), so Float64 is never narrowed.
    """
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            observer = _TRACE.op_observer
            if observer is not None:
                return observer(name, call, args, kwargs)
            return call(*args, **kwargs)

        def call(*args, **kwargs):
            a = [unwrap(x) for x in args]
            if kwargs:
                kwargs = {k: unwrap(v) for k, v in kwargs.items()}
            impl = _OVERRIDES.get(name, fn) if _OVERRIDES else fn
            try:
                out = impl(*a, **kwargs)
            except (TypeError, ValueError) as e:
                if isinstance(e, (OpError, OpTypeError) + _PASS_THROUGH):
                    raise
                raise _op_error(name, e, args) from None
            if not keep_f64 and kwargs.get("dtype") is None:
                out = _narrow(out, a, kwargs)
            if _RUNTIME and _RUNTIME.get("launch_blocking"):
                _block(out)
            return wrap(out)
        # Markers read by the registry and by ops that call another op's array body directly.
        wrapper._op_name = name  # type: ignore[attr-defined]
        wrapper._array_fn = fn  # type: ignore[attr-defined]
        return wrapper
    return deco


def _block(out):
    """Wait until the eager results in ``out`` are computed, so device errors and timings surface at the op."""
    for leaf in jax.tree_util.tree_leaves(out):
        if isinstance(leaf, jax.Array) and not isinstance(leaf, jax.core.Tracer):
            leaf.block_until_ready()


def _op_error(name, e, args):
    msg = str(e).rstrip(".")
    shown = ", ".join(describe(x) for x in args)
    kind = ValueError if "shape" in msg or "broadcast" in msg else type(e)
    try:
        return kind(f"For '{name}', {msg}. Got inputs: {shown}.")
    except TypeError:  # an exception type with a custom constructor
        return ValueError(f"For '{name}', {msg}. Got inputs: {shown}.")


class OpError(ValueError):
    """A validation error raised by an op itself (its message already names the op)."""

    _names_op = True


class OpTypeError(TypeError):
    """A dtype/type validation error raised by an op itself (its message already names the op)."""

    _names_op = True


def check(cond: Any, name: str, message: str, kind: type[Exception] = ValueError) -> None:
    """Raise ``For 'name', message`` (ValueError, or TypeError with ``kind=TypeError``) unless ``cond``."""
    if not cond:
        if kind is TypeError:
            raise OpTypeError(f"For '{name}', {message}")
        raise OpError(f"For '{name}', {message}")
