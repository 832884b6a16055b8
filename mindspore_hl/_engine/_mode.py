"""The one rule for whether a call is compiled, and whether it is a top-level step.

``should_compile(args, explicit)``: a call made outside any trace (not inside a compiled step or a gradient
transformation, no traced values among its arguments) compiles in GRAPH_MODE, or in any mode when the
function asked for it (``explicit``: ``ms.jit``); everything else runs as called (PYNATIVE op by op; inside a
trace, traced through). Cell calls, ``ms.jit`` functions, GRAPH_MODE ``grad`` / ``value_and_grad`` and
Model's steps all ask this one function.

``top_level()``: a call outside any trace and outside an eager parallel step is a *top-level step*: in a
parallel mode its batch inputs are split over the devices. Calls inside one (an optimizer's ``@jit`` update
run from an eager train step) split nothing.
"""
from collections.abc import Iterable
from typing import Any

import jax
import numpy as np

from . import _state

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "graph_mode", "tracing", "top_level", "should_compile", "has_tracer"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1


def graph_mode() -> bool:
    """Whether ``set_context(mode=GRAPH_MODE)`` is in effect."""
    return _state.context.get("mode") == GRAPH_MODE


def tracing() -> bool:
    """Whether this thread is inside a compiled step or a gradient transformation."""
    return bool(_state.trace.scopes)


def top_level() -> bool:
    """Whether a call now would be a top-level step (not traced, not inside an eager parallel step)."""
    return not _state.trace.scopes and _state.trace.step_depth == 0


def has_tracer(args: Iterable[Any]) -> bool:
    """Whether a JAX tracer (a value being traced by a foreign transformation) is among ``args``."""
    return any(isinstance(getattr(a, "_value", a), jax.core.Tracer) for a in args)


def should_compile(args: Iterable[Any] = (), explicit: bool = False) -> bool:
    """The rule: GRAPH_MODE (or ``explicit``: an ``ms.jit`` function), not tracing, no traced argument.

    A Cell called with a NumPy array runs as called in both modes, as in MindSpore, where ``construct``
    receives the array unconverted (layers then reject it, naming themselves).
    """
    if _state.trace.scopes or has_tracer(args):
        return False
    if explicit:
        return True
    return _state.context.get("mode") == GRAPH_MODE and not any(isinstance(a, np.ndarray) for a in args)
