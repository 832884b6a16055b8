"""Compiled functions (Cell calls in GRAPH_MODE, ``ms.jit``, GRAPH_MODE ``grad``) and eager parallel steps.

:class:`CompiledFunction` compiles a function over Tensors and Parameters once per input signature (the
step of ``_step``: Parameters are threaded state, read before the call and written back after it). Whether
a call compiles is :func:`_mode.should_compile`'s one rule.

In a parallel mode, PYNATIVE_MODE runs a top-level step (a Cell call, a ``grad`` / ``value_and_grad``
call) op by op on the device mesh (:func:`eager_step`): its batch inputs are split over 'data', its
Parameters are put on their layouts (replicated in DATA_PARALLEL), and every op runs as one SPMD computation,
so gradients come out all-reduced; compiled calls made inside it (an optimizer's ``@jit`` update) split nothing.

Static-graph syntax hook: :func:`graph_function` is where the engine obtains the Python function it traces
for a ``@jit`` function and for every Cell ``construct`` run while compiling.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import jax

from .. import _dump
from .._syntax import convert
from ..common import seed
from ..common._symbol import check_enable_dynamic
from . import _flops, _mode, _plan, _scope, _state
from ._step import Entry, build, explain, make_pure, signature, split_args, unshare

__all__ = ["CompiledFunction", "jit", "jit_class", "eager_step", "graph_function", "compiling"]


def graph_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The Python function traced when ``fn`` (a ``@jit`` function, or a Cell's ``construct`` run while
    compiling) is compiled: ``fn`` in MindSpore's static-graph syntax, where ``if`` / ``while`` / ``for`` on
    Tensor values become ``lax`` control flow (``_syntax.convert``, cached per function). PYNATIVE runs ``fn``
    itself."""
    return convert(fn)


def compiling() -> bool:
    """Whether a compiled step is being traced on this thread (Cells then trace ``graph_function(construct)``)."""
    return _state.trace.compiling > 0


class CompiledFunction:
    """Compile ``fn`` once per input signature and run it with the Parameters as threaded state.

    Args:
        fn: a function of Tensors (a Cell's ``construct`` bound method, or any function).
        params_fn: returns the Parameters that are the state (a Cell's parameters); when None the state is
            discovered by tracing ``fn`` once and noting every Parameter it reads or assigns.
        name: used in error messages.
        donate: donate the state buffers to the step (they are replaced by the new state right after).
        syntax: trace ``graph_function(fn)`` (a user's ``@jit`` function) rather than ``fn``.
    """

    def __init__(self, fn: Callable[..., Any], params_fn: Callable[[], Iterable[Any]] | None = None,
                 name: str | None = None, donate: bool = True, syntax: bool = False) -> None:
        self.fn = fn
        self.syntax = syntax
        self.params_fn = params_fn
        self.name: str = name or str(getattr(fn, "__qualname__", "function"))
        self.donate = donate
        self._cache: dict[Any, Entry] = {}
        self._last: tuple[Entry, Any, Any] | None = None  # (entry, key, inputs) of the last call, for phase_name
        _state.compiled.add(self)  # a change of the parallel context clears the cache

    def clear_cache(self) -> None:
        self._cache.clear()

    def phase_name(self, owner: Any, prefix: str) -> str:
        """MindSpore's phase name of the executable the last call ran (``owner.current_phase``), registered
        once for :func:`_flops.flops_collection`."""
        entry, key, dyn = self._last or (None, None, ())
        self._last = None  # (the inputs are not kept alive past the call)
        if entry is None:
            raise RuntimeError(f"phase_name: '{self.name}' has not been called.")
        name = entry.phases.get(prefix)
        if name is None:
            arrays = _flops.abstract(dyn)

            def count():
                current = self._cache.get(key)
                if current is None:
                    raise RuntimeError(f"flops_collection: '{self.name}' was compiled again since this phase.")
                return _flops.count_entry(current, arrays)

            name = entry.phases[prefix] = _flops.register_phase(owner, prefix, count)
        return name

    def _discover(self, args):
        dyn, rebuild = split_args(args)
        fn = graph_function(self.fn) if self.syntax else self.fn
        _state.trace.compiling += 1  # nested Cells trace their construct in the static-graph syntax, as _build does
        try:
            with _scope.StatelessScope(record_reads=True, rng=seed.global_key()) as scope:
                jax.eval_shape(lambda arrays: fn(*rebuild(arrays)), dyn)
        finally:
            _state.trace.compiling -= 1
        found = dict(scope.reads)
        found.update(scope.assigned)
        return tuple(found.values())

    def _build(self, args):
        params = tuple(self.params_fn()) if self.params_fn is not None else self._discover(args)
        dyn, rebuild = split_args(args)
        pure = make_pure(graph_function(self.fn) if self.syntax else self.fn, params)

        def step(state, rng, arrays):
            return pure(state, rng, arrays, rebuild)  # Tensors in the output are pytrees of arrays

        return build(self.name, step, params, dyn, donate=self.donate, top_level=_mode.top_level(),
                     input_checks=pure.input_checks)

    def _entry(self, key, args):
        entry = self._cache.get(key)
        if entry is None:
            try:
                entry = self._build(args)
            except Exception as e:
                raise explain(e, self.name) from None
            self._cache[key] = entry
        return entry

    def __call__(self, *args: Any) -> Any:
        key = signature(args) + _dump.key()  # (a program traced with dump hooks is not reused without them)
        entry = self._entry(key, args)
        dyn, _ = split_args(args)
        params = entry.params
        state = tuple(p._value for p in params)
        if self.donate:
            state = unshare(params, state)
        try:
            out, new_state, new_rng = entry(state, seed.global_key(), dyn)
        except Exception:
            self._cache.pop(key, None)
            raise
        self._last = (entry, key, dyn)
        for p, v in zip(params, new_state):
            p._data = v
        seed.set_global_key(new_rng)
        return out

    def lower(self, *args: Any) -> Any:
        """The ``jax.stages.Lowered`` computation for these arguments (for graphs, HLO text and costs)."""
        key = signature(args)
        entry = self._cache.get(key) or self._build(args)
        dyn, _ = split_args(args)
        return entry.lower(tuple(p._value for p in entry.params), seed.global_key(), dyn)


class _EagerPlans:
    """The plans of one callable's eager parallel steps, per input signature (cleared with the context)."""

    def __init__(self) -> None:
        self._cache: dict[Any, _plan.Plan | None] = {}
        _state.compiled.add(self)

    def clear_cache(self):
        self._cache.clear()

    def get(self, name, fn, params, args):
        try:
            key = signature(args)
        except TypeError:
            key = None
        plan = self._cache.get(key) if key is not None else None
        if plan is None:
            dyn, rebuild = split_args(args)
            pure = make_pure(fn, params)
            plan = _plan.plan_step(name, params, dyn, lambda state, rng, arrays: pure(state, rng, arrays, rebuild))
            if key is not None:
                self._cache[key] = plan
        return plan


def eager_step(owner: Any, fn: Callable[..., Any], params: Iterable[Any], args: Sequence[Any],
               name: str | None = None) -> Any:
    """Run ``fn(*args)`` op by op as a top-level parallel step (PYNATIVE_MODE in a parallel mode).

    ``owner`` keys the cached plans (a Cell, a gradient function); ``params`` are the Parameters put on their
    layouts. Array arguments not yet on the mesh are split over 'data'; others keep their layout.
    """
    name = name or getattr(fn, "__qualname__", type(owner).__name__)
    plans = owner.__dict__.get("_eager_plans")  # (a Cell, or a function object: both have a __dict__)
    if plans is None:
        plans = owner.__dict__["_eager_plans"] = _EagerPlans()
    params = tuple(params)
    plan = plans.get(name, fn, params, args)
    dyn, rebuild = split_args(args)
    state, rng, dyn = plan.place(tuple(p._value for p in params), seed.global_key(), dyn)
    for p, v in zip(params, state):
        if p._data is not v:
            p._data = v
    trace = _state.trace
    prev = trace.plan
    trace.step_depth += 1
    trace.plan = plan  # DistributedGradReducer and Cell.shard read the step's mesh
    try:
        return fn(*rebuild(dyn))
    finally:
        trace.step_depth -= 1
        trace.plan = prev


def parallel_step_now(args: Sequence[Any] = ()) -> bool:
    """Whether a call now is a top-level eager step on a mesh (PYNATIVE, a parallel mode, nothing traced)."""
    return (_state.parallel.get("parallel_mode", "stand_alone") != "stand_alone" and _mode.top_level()
            and not _mode.has_tracer(args))


def _is_cell(obj):
    # (duck-typed: nn.Cell is built on this module, not the other way round)
    return hasattr(obj, "get_parameters") and hasattr(obj, "cells_and_names") and hasattr(obj, "construct")


def jit(function: Callable[..., Any] | None = None, *, capture_mode: str = "ast", jit_level: str = "O0",
        dynamic: int = 0, fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
    """Compile a function (or a Cell method) with XLA; Parameters it reads become threaded state.

    It compiles in both modes (``_mode.should_compile(explicit=True)``); called inside a compiled step or a
    gradient transformation, or on values a JAX transformation traces, it is traced through.

    Example:
        >>> @ms.jit
        ... def step(x): return net(x)
    """
    def decorate(fn):
        compiled: dict[None, CompiledFunction] = {}
        attr = f"_jit_{fn.__name__}_{id(fn)}"

        def wrapper(*args):
            if not _mode.should_compile(args, explicit=True):  # inside a trace: just trace through
                return fn(*args)
            check_enable_dynamic(fn, args)  # the inputs enable_dynamic describes (Symbol constraints)
            if args and _is_cell(args[0]):  # @jit on a Cell method: compile per instance, kept on it
                cell = args[0]
                cf = cell.__dict__.get(attr)
                if cf is None:
                    cf = CompiledFunction(_bind(fn, cell), lambda: cell.get_parameters(expand=True),
                                          name=f"{type(cell).__name__}.{fn.__name__}")
                    cell.__dict__[attr] = cf
                return cf(*args[1:])
            cf = compiled.get(None)
            if cf is None:
                cf = compiled[None] = CompiledFunction(fn, None, name=getattr(fn, "__qualname__", "function"),
                                                       syntax=True)
            return cf(*args)

        wrapped: Any = wrapper  # (a function object takes attributes; the type checker's Callable does not)
        wrapped.__wrapped__ = fn
        wrapped.__name__ = getattr(fn, "__name__", "jit_function")
        wrapped._ms_jit = True
        return wrapped

    return decorate(function) if function is not None else decorate


class _bind:
    """``fn`` with ``cell`` as first argument, whose ``graph_function`` is that of ``fn`` (not of a lambda)."""
    __slots__ = ("fn", "cell", "__qualname__")

    def __init__(self, fn, cell):
        self.fn, self.cell = fn, cell
        self.__qualname__ = getattr(fn, "__qualname__", "function")

    def __call__(self, *args):
        fn = graph_function(self.fn) if _state.trace.compiling else self.fn
        return fn(self.cell, *args)


def jit_class(cls: type) -> type:
    """Accepted for compatibility: objects of ``cls`` may be used inside compiled functions."""
    return cls
