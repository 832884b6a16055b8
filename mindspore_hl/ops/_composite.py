"""MindSpore's composite helpers (``ops.composite`` / ``C``): MultitypeFuncGraph, HyperMap, Map, clip_by_global_norm.

ModelZoo optimizers and wrappers use them like::

    _grad_scale = C.MultitypeFuncGraph("grad_scale")

    @_grad_scale.register("Tensor", "Tensor")
    def _tensor_grad_scale(scale, grad):
        return grad * F.cast(F.reciprocal(scale), F.dtype(grad))

    grads = C.HyperMap()(F.partial(_grad_scale, scale), grads)
"""

from __future__ import annotations

import functools
import numbers
from typing import Any, Callable, Sequence

import jax.numpy as jnp

from ..common.tensor import Tensor, wrap
from ._core import OpError, OpTypeError, unwrap

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "clip_by_global_norm", "partial"]

partial = functools.partial


def _matches(type_name, value):
    if isinstance(type_name, type):
        return isinstance(value, type_name)
    t = str(type_name)
    if t in ("Tensor", "RowTensor", "COOTensor", "CSRTensor", "MapTensor"):
        return isinstance(value, Tensor) if t == "Tensor" else False
    if t == "Number":
        return isinstance(value, numbers.Number) and not isinstance(value, Tensor)
    if t == "Bool":
        return isinstance(value, bool)
    if t in ("Int", "Int64", "Int32"):
        return isinstance(value, int) and not isinstance(value, bool)
    if t in ("Float", "Float32", "Float64"):
        return isinstance(value, float)
    if t == "String":
        return isinstance(value, str)
    if t == "Tuple":
        return isinstance(value, tuple)
    if t == "List":
        return isinstance(value, list)
    if t == "Dictionary":
        return isinstance(value, dict)
    if t == "Function":
        return callable(value) and not isinstance(value, Tensor)
    if t == "None":
        return value is None
    raise OpTypeError(f"MultitypeFuncGraph: unknown type name {t!r} in register().")


class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments (``@f.register("Tensor", "Number")``).

    Args:
        name: the overload set's name (used in error messages).
        read_value: accepted for compatibility.
    """

    def __init__(self, name: str, read_value: bool = False, doc_url: str = "") -> None:
        self.name = name
        self._entries: list[Any] = []

    def register(self, *type_names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering an implementation for arguments of ``type_names``."""
        def deco(fn):
            self._entries.append((type_names, fn))
            return fn
        return deco

    def __call__(self, *args: Any) -> Any:
        for names, fn in self._entries:
            if len(names) == len(args) and all(_matches(n, a) for n, a in zip(names, args)):
                return fn(*args)
        got = ", ".join(type(a).__name__ for a in args)
        known = "; ".join(str(n) for n, _ in self._entries)
        raise OpTypeError(f"For MultitypeFuncGraph '{self.name}', no overload matches argument types ({got}). "
                          f"Registered: {known or 'none'}.")


def _map(fn, args, recursive, name):
    seqs = [a for a in args if isinstance(a, (tuple, list))]
    if not seqs:
        return fn(*args)
    n = len(seqs[0])
    if any(len(s) != n for s in seqs):
        raise OpError(f"For '{name}', all sequence arguments must have the same length, but got "
                      f"{[len(s) for s in seqs]}.")
    out = []
    for i in range(n):
        items = [a[i] if isinstance(a, (tuple, list)) else a for a in args]
        out.append(_map(fn, items, recursive, name) if recursive else fn(*items))
    return type(seqs[0])(out)


class HyperMap:
    """Apply a function to the elements of (nested) tuples/lists in lockstep.

    ``HyperMap()(fn, xs, ys)`` or ``HyperMap(fn)(xs, ys)``; non-sequence arguments are passed to every call.
    """

    def __init__(self, ops: Callable[..., Any] | None = None, reverse: bool = False) -> None:
        self.ops, self.reverse = ops, reverse

    def __call__(self, *args: Any) -> Any:
        fn, args = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return _map(fn, args, True, "HyperMap")


class Map(HyperMap):
    """Like :class:`HyperMap` but maps over the top-level sequence only."""

    def __call__(self, *args: Any) -> Any:
        fn, args = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return _map(fn, args, False, "Map")


def clip_by_global_norm(x: Tensor | Sequence[Tensor], clip_norm: float = 1.0,
                        use_norm: Tensor | None = None) -> Tensor | tuple[Tensor, ...]:
    """Scale the Tensors in ``x`` so that their joint L2 norm is at most ``clip_norm``.

    ``x`` is a tuple/list of Tensors (returns a tuple) or one Tensor (returns one Tensor).
    """
    if isinstance(x, Tensor):
        return clip_by_global_norm((x,), clip_norm, use_norm)[0]
    if not isinstance(x, (tuple, list)):
        raise OpTypeError(f"For 'clip_by_global_norm', 'x' must be a tuple or list of Tensors, got {type(x).__name__}.")
    arrays = [unwrap(t) for t in x]
    if use_norm is None:
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(a.astype(jnp.float32))) for a in arrays))
    else:
        norm = unwrap(use_norm)
    scale = clip_norm / jnp.maximum(norm, clip_norm)
    return tuple(wrap((a * scale).astype(a.dtype)) for a in arrays)
