"""How a step runs on a device mesh: shardings for its state and inputs, placement, and failure messages.

The engine asks :func:`plan_step` once per compiled signature (``_step.build``). In STAND_ALONE mode the
answer is None and nothing changes. Otherwise the step is ``jax.jit``-compiled with ``in_shardings`` over the
mesh (and the same compiler options as a single-device step): every Parameter gets its layout (replicated in
DATA_PARALLEL, a ``Cell.shard`` / AUTO_PARALLEL layout otherwise), and the new state is constrained to the same
layouts, so XLA inserts the collectives (the gradient all-reduce of data parallelism) inside the one program.

Inputs: only a *top-level step's batch* is split along its first dimension over 'data' -- arrays coming from
the host or from one device. Arrays already laid out on the mesh (the outputs of an earlier parallel step, the
gradients of an eager parallel step) keep their layout, and an inner call (a ``@jit`` function called from an
eager parallel step, such as an optimizer's update) splits nothing. With several processes each one feeds its
own part of the batch (``jax.make_array_from_process_local_data``).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from ..communication import _management
from . import _auto, _layout, _options, _state, _strategy_ckpt
from . import _parallel_context as _context
from ._parallel_context import ParallelMode

__all__ = ["plan_step", "Plan", "active_plan", "on_mesh"]


class Plan:
    """The layouts of one compiled step: mesh, state/rng/input shardings, and the AUTO_PARALLEL report."""

    def __init__(self, name: str, mesh: jax.sharding.Mesh, state_specs: Sequence[P], input_specs: Sequence[Any],
                 constrain: bool, local_inputs: bool, report: Any = None) -> None:
        self.name, self.mesh = name, mesh
        self.data, self.model = mesh.shape["data"], mesh.shape["model"]
        self.state_shardings = tuple(NamedSharding(mesh, s) for s in state_specs)
        self.replicated = NamedSharding(mesh, P())
        self.input_shardings = [s if isinstance(s, NamedSharding) else NamedSharding(mesh, s) for s in input_specs]
        self.constrain = constrain          # apply Cell.shard in/out layouts while tracing
        self.local_inputs = local_inputs    # several processes, each feeding its part of the batch
        self.report = report
        self.multi_process = jax.process_count() > 1
        self.record: Any = None  # (used by the abstract trace that finds sharded Cells)

    def jit(self, step: Callable[..., Any], donate_argnums: tuple[int, ...]) -> Any:
        """``jax.jit`` of ``step(state, rng, arrays)`` with this plan's shardings and the engine's options."""
        def sharded_step(state, rng, arrays):
            prev = _state.trace.plan
            _state.trace.plan = self
            try:
                out, new_state, new_rng = step(state, rng, arrays)
            finally:
                _state.trace.plan = prev
            new_state = tuple(jax.lax.with_sharding_constraint(v, s)
                              for v, s in zip(new_state, self.state_shardings))
            return out, new_state, new_rng

        return jax.jit(sharded_step, in_shardings=(self.state_shardings, self.replicated, self.input_shardings),
                       donate_argnums=donate_argnums, compiler_options=_options.compiler_options())

    def place_state(self, state: Sequence[Any], rng: Any) -> tuple[tuple[Any, ...], Any]:
        """The state and key on their shardings (a cheap check once they are there).

        Without this the first call would see single-device arrays and the second the step's sharded outputs,
        and jit would compile the step twice.
        """
        put = _global if self.multi_process else jax.device_put
        state = tuple(v if isinstance(v, jax.Array) and v.sharding == s else put(v, s)
                      for v, s in zip(state, self.state_shardings))
        if not (isinstance(rng, jax.Array) and rng.sharding == self.replicated):
            rng = put(rng, self.replicated)
        return state, rng

    def place(self, state: Sequence[Any], rng: Any, arrays: Sequence[Any]) -> tuple[tuple[Any, ...], Any, list[Any]]:
        """State, key and inputs on the plan's shardings. With several processes, this process's arrays
        become global arrays (its inputs are its part of the global batch)."""
        state, rng = self.place_state(state, rng)
        if self.multi_process:
            arrays = [(_from_local(a, s) if self.local_inputs and s.spec != P() else _global(a, s))
                      for a, s in zip(arrays, self.input_shardings)]
        else:  # a committed array elsewhere (another device, another layout) is moved; host data jit copies in
            arrays = [jax.device_put(a, s) if isinstance(a, jax.Array) and a.sharding != s else a
                      for a, s in zip(arrays, self.input_shardings)]
        return state, rng, arrays

    def explain(self, e: Exception) -> Exception:
        """A clear error when a collective failed because another process is gone."""
        if not self.multi_process or not _management.is_peer_failure(e):
            return e
        _management._mark_failed()
        text = str(e)
        first = text.strip().splitlines()[0] if text.strip() else type(e).__name__
        return RuntimeError(
            f"Distributed step '{self.name}' failed on process {jax.process_index()} of {jax.process_count()}: "
            f"another process stopped or became unreachable, so the collective communication could not complete "
            f"({first}). Check the other processes' logs for the first error; this process exits.")


def _global(v, sharding):
    if isinstance(v, jax.Array) and v.sharding == sharding:
        return v
    if isinstance(v, jax.Array) and not v.is_fully_addressable:
        return jax.device_put(v, sharding)
    host = np.asarray(v)
    return jax.make_array_from_callback(host.shape, sharding, lambda idx: host[idx])


def _from_local(v, sharding):
    if isinstance(v, jax.Array) and not v.is_fully_addressable:
        return v if v.sharding == sharding else jax.device_put(v, sharding)
    host = np.asarray(v)
    return jax.make_array_from_process_local_data(sharding, host)


def active_plan() -> Plan | None:
    """The plan of the step being traced, or None (eager code, STAND_ALONE)."""
    return _state.trace.plan


def on_mesh(a: Any, mesh: jax.sharding.Mesh) -> bool:
    """Whether ``a`` is already laid out over ``mesh`` (then a step keeps its layout instead of splitting it)."""
    s = getattr(a, "sharding", None)
    return isinstance(a, jax.Array) and isinstance(s, NamedSharding) and s.mesh == mesh


def plan_step(name: str, params: Sequence[Any], arrays: Sequence[Any], step: Callable[..., Any], top_level: bool = True,
              stacked: bool = False) -> Plan | None:
    """The :class:`Plan` for a step over ``params`` called with input ``arrays``, or None in STAND_ALONE.

    Args:
        name: the step's name, for messages.
        params: the state Parameters, in order. arrays: the input arrays of this call (this process's part).
        step: ``step(state, rng, arrays)``; AUTO_PARALLEL compiles it for candidate layouts.
        top_level: whether the inputs are a step's batch (split over 'data'); an inner call splits nothing.
        stacked: the inputs are batches stacked along a leading axis (a sink's scan): split dimension 1.
    """
    mode = _context.mode()
    if mode == ParallelMode.STAND_ALONE:
        return None
    n = len(_context.devices())
    multi = jax.process_count() > 1
    full_batch = _context._ctx["full_batch"] and mode != ParallelMode.DATA_PARALLEL
    local_inputs = multi and not full_batch and top_level
    lead = 1 if stacked else 0
    shapes = [_global_shape(a, local_inputs, lead) for a in arrays]
    one_step = [s[lead:] for s in shapes]
    step_arrays: Sequence[Any]
    chosen: dict[Any, Any]
    if stacked:  # the layouts are those of one step; its step function takes one batch
        step_arrays = [jax.ShapeDtypeStruct(s, a.dtype) for a, s in zip(arrays, one_step)]
    else:
        step_arrays = arrays
    if mode == ParallelMode.DATA_PARALLEL:
        model, chosen, report = 1, {}, None
    elif mode in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.HYBRID_PARALLEL):
        cells = _layout.sharded_cells_called(step, params, step_arrays, one_step)
        model, chosen, report = _layout.model_size_hint(params, cells, n), {}, None
    else:
        fixed = _layout.model_size_hint(params, _layout.sharded_cells_called(step, params, step_arrays, one_step), n)
        model, chosen, report = _auto.search(name, params, step_arrays, one_step, step, n, _context.memory_budget(),
                                             fixed, make_plan=Plan)
    mesh = _context.mesh(model)
    data = mesh.shape["data"]
    state_specs = _layout.parameter_specs(params, data, model, chosen, hints=mode != ParallelMode.DATA_PARALLEL)
    if mode != ParallelMode.DATA_PARALLEL:  # MindSpore writes strategy_ckpt_save_file when it shards a graph
        _strategy_ckpt.save_plan_strategy(params, state_specs, data, model)
    input_specs = []
    for a, s in zip(arrays, one_step):
        if on_mesh(a, mesh) and not stacked:
            input_specs.append(a.sharding)   # already laid out by an earlier parallel computation: kept
            continue
        spec = _layout.batch_spec(s, data) if top_level else P()
        if top_level and len(s) >= 1 and spec == P() and data > 1:
            if local_inputs:
                raise ValueError(f"'{name}': with {jax.process_count()} processes each process feeds its part of "
                                 f"the batch, but an input of shape {tuple(np.shape(a))} (global {s}) cannot be "
                                 f"split over the {data} data-parallel devices.")
            warnings.warn(f"'{name}': an input of shape {s} is not split over the {data} data-parallel devices "
                          f"(its first dimension is not a multiple of {data}); every device processes all of it.",
                          stacklevel=5)
        input_specs.append(P(None, *spec) if stacked else spec)
    return Plan(name, mesh, state_specs, input_specs, mode != ParallelMode.DATA_PARALLEL, local_inputs, report)


def _global_shape(a, local_inputs, lead):
    shape = tuple(np.shape(a))
    if local_inputs and len(shape) > lead:
        shape = shape[:lead] + (shape[lead] * jax.process_count(),) + shape[lead + 1:]
    return shape
