"""Printing and summary ops that work eagerly and inside compiled code (host callbacks).

Summary ops (``ops.ScalarSummary()('loss', x)`` ...) hand ``(kind, name, numpy_value)`` to every listener
registered with :func:`add_summary_listener` (the summary writer registers one); without listeners they do
nothing, as in MindSpore without a SummaryRecord.
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import numpy as np

from ..common.tensor import Tensor

__all__ = ["print_", "add_summary_listener", "remove_summary_listener", "summary"]

_Listener = Callable[[str, str, np.ndarray], Any]  # fn(kind, name, value)

_listeners: list[_Listener] = []
_KINDS = ("scalar", "image", "tensor", "histogram")


def add_summary_listener(fn: _Listener) -> _Listener:
    """Register ``fn(kind, name, value)`` to receive summary values; returns ``fn``."""
    _listeners.append(fn)
    return fn


def remove_summary_listener(fn: _Listener) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def _emit(kind, name, value):
    for fn in list(_listeners):
        fn(kind, name, np.asarray(value))


def summary(kind: str, name: str, value: Any) -> None:
    """Send one summary value (kind: scalar / image / tensor / histogram) to the listeners."""
    if kind not in _KINDS:
        raise ValueError(f"summary: 'kind' must be one of {_KINDS}, but got {kind!r}.")
    if not isinstance(name, str) or not name:
        raise ValueError(f"For '{kind.capitalize()}Summary', 'name' must be a non-empty str, but got {name!r}.")
    arr = value._value if isinstance(value, Tensor) else np.asarray(value)
    if kind == "scalar" and np.size(arr) != 1:
        raise ValueError(f"For 'ScalarSummary', the value must have one element, but got shape {list(np.shape(arr))}.")
    if kind == "image" and np.ndim(arr) != 4:
        raise ValueError(f"For 'ImageSummary', the value must be 4-D (N, C, H, W), but got shape "
                         f"{list(np.shape(arr))}.")
    if _listeners:
        if isinstance(arr, jax.core.Tracer):
            jax.debug.callback(lambda v: _emit(kind, name, v), arr)
        else:
            _emit(kind, name, arr)


def _show(x):
    return str(np.asarray(x)) if isinstance(x, (jax.Array, np.ndarray)) else str(x)


def print_(*input_x: Any) -> None:
    """Print strings and Tensors, one per line; inside compiled code the values print when the step runs."""
    parts = [x._value if isinstance(x, Tensor) else x for x in input_x]
    traced = [i for i, p in enumerate(parts) if isinstance(p, jax.core.Tracer)]
    if not traced:
        print("\n".join(_show(p) for p in parts))
        return

    def host(*values):
        shown = list(parts)
        for i, v in zip(traced, values):
            shown[i] = v
        print("\n".join(_show(p) for p in shown))

    jax.debug.callback(host, *[parts[i] for i in traced])
