"""The stateless scope: how a Cell's ``construct`` becomes a pure function of arrays.

While a scope is active, reading a Parameter returns the scope's value for it (a JAX tracer inside
``jit``/``grad``) and assigning a Parameter records the new value in the scope instead of mutating it.
Scopes nest: a lookup that misses the innermost scope falls through to the enclosing one, so
``grad`` inside a jitted train step sees the step's traced weights.

The scope also owns the random key that Dropout and the random ops draw from, so randomness is
threaded through compiled steps as state (reproducible from ``set_seed``). The stack is per thread
(``_state.trace.scopes``).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jax

from . import _state

__all__ = ["StatelessScope", "current", "active"]


class _Stack:
    """This thread's scope stack, readable as a list (``if _stack:``, ``_stack[-1]``) from any thread."""
    __slots__ = ()

    def __len__(self):
        return len(_state.trace.scopes)

    def __bool__(self):
        return bool(_state.trace.scopes)

    def __getitem__(self, i):
        return _state.trace.scopes[i]

    def append(self, scope):
        _state.trace.scopes.append(scope)

    def pop(self):
        return _state.trace.scopes.pop()


_stack = _Stack()


class StatelessScope:
    """Maps ``id(Parameter)`` to array values and records assignments made while active."""

    __slots__ = ("values", "assigned", "rng", "parent", "params", "reads")

    def __init__(self, params: Iterable[Any] = (), values: Iterable[Any] = (), rng: jax.Array | None = None,
                 record_reads: bool = False) -> None:
        self.params: dict[int, Any] = {}
        self.values: dict[int, Any] = {}
        for p, v in zip(params, values):
            self.params[id(p)] = p
            self.values[id(p)] = v
        self.assigned: dict[int, Any] = {}
        self.rng = rng
        self.parent: StatelessScope | None = None
        # When recording, Parameters read but unknown to every scope are noted (used by ms.jit to find state).
        self.reads: dict[int, Any] | None = {} if record_reads else None

    def __enter__(self):
        scopes = _state.trace.scopes
        self.parent = scopes[-1] if scopes else None
        scopes.append(self)
        return self

    def __exit__(self, *exc):
        _state.trace.scopes.pop()
        return False

    def lookup(self, param: Any) -> Any:
        """The scope's current value for ``param``, or None when no enclosing scope knows it."""
        key = id(param)
        scope: StatelessScope | None = self
        while scope is not None:
            v = scope.values.get(key)
            if v is not None:
                return v
            scope = scope.parent
        scope = self
        while scope is not None:
            if scope.reads is not None:
                scope.reads[key] = param
                return None
            scope = scope.parent
        return None

    def assign(self, param: Any, value: Any) -> None:
        key = id(param)
        self.params[key] = param
        self.values[key] = value
        self.assigned[key] = param

    def next_key(self) -> jax.Array | None:
        """Split a fresh PRNG key off the scope's key (or the nearest enclosing scope that has one)."""
        scope: StatelessScope | None = self
        while scope is not None:
            if scope.rng is not None:
                scope.rng, sub = jax.random.split(scope.rng)
                return sub
            scope = scope.parent
        return None

    def updates(self) -> list[tuple[Any, Any]]:
        """``[(param, new_value)]`` for every Parameter assigned in this scope."""
        return [(p, self.values[k]) for k, p in self.assigned.items()]


def current() -> StatelessScope | None:
    """The innermost active scope of this thread, or None."""
    scopes = _state.trace.scopes
    return scopes[-1] if scopes else None


def active() -> bool:
    """Whether this thread is tracing (inside a compiled step or a gradient transformation)."""
    return bool(_state.trace.scopes)
