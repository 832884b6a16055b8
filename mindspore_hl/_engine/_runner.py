"""The compiled step loop of Model: one cell's pure step, run many times with the state held between calls.

The step is ``_step.make_pure(cell, params)`` compiled by ``_step.build`` -- the same step and executable
``CompiledFunction`` uses for a GRAPH_MODE call, with the same shardings in a parallel mode. What differs is
where the state lives: ``CompiledFunction`` reads every Parameter before a call and writes every one back after
it; this runner keeps the state tuple (whose buffers are donated each step, and which stays on the device mesh
in a parallel mode) and writes it into the Parameters only when asked (``push``), so the per-step host work
does not grow with the number of parameters.

Sink mode runs several steps per device call as a ``jax.lax.scan`` of the same step over stacked batches
(chunks of up to ``_SINK_BYTES`` of input). One exception, measured on LeNet5 with jaxlib 0.10: XLA:CPU does
not apply its YNNPACK convolution rewrite inside loop bodies, so in a rolled scan a convolution's weight
gradient runs 5-8x slower than in a single step, and unrolling the scan instead costs ~2.5 s of compile
time per step. On CPU a step with convolutions is therefore dispatched one call per step inside a sink
(callbacks still fire once per sink); that is as fast as the per-step mode, whose dispatch overhead is a
few percent of such a step. In a parallel mode the stacked batches are split along their second axis.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .. import _dump
from ..common import seed
from ..common.tensor import wrap
from . import _flops, _state
from ._step import Entry, build, explain, make_pure, unshare

__all__ = ["StepRunner"]

_SINK_BYTES = 256 * 2 ** 20   # input bytes per sink call, so a whole epoch is not copied at once
_LOOP_SLOW_PRIMITIVES = ("conv_general_dilated",)


def _rebuild(arrays):
    return [wrap(a) for a in arrays]


def _primitives(jaxpr, found):
    for eqn in jaxpr.eqns:
        found.add(eqn.primitive.name)
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", value)
            if hasattr(inner, "eqns"):
                _primitives(inner, found)
    return found


class StepRunner:
    """Runs ``cell(*batch)`` compiled, with the cell's Parameters as state held by the runner.

    Args:
        cell: the Cell to run (a train network such as ``TrainOneStepCell``, or an eval network).
        name: used in error messages.
    """

    def __init__(self, cell: Any, name: str | None = None) -> None:
        self.cell = cell
        self.name = name or type(cell).__name__
        self.params = tuple(cell.get_parameters())
        self._cache: dict[Any, Entry] = {}
        self._per_step_sink: bool | None = None
        self.state: tuple[Any, ...] | None = None   # tuple of arrays while the runner owns the state, else None
        self.rng: Any = None
        _state.compiled.add(self)  # a change of the parallel context clears the cache

    def clear_cache(self) -> None:
        self.push()
        self._cache.clear()

    # ---- state ownership ----------------------------------------------------------------------
    def pull(self) -> None:
        """Take the current Parameter values (and the global RNG key) as the state."""
        if self.state is None:
            self.state = unshare(self.params, tuple(p._value for p in self.params))
            self.rng = seed.global_key()

    def push(self) -> None:
        """Write the state back into the Parameters (and the RNG key); the Parameters own it again."""
        if self.state is not None:
            for p, v in zip(self.params, self.state):
                p._data = v
            seed.set_global_key(self.rng)
            self.state = None

    # ---- compiled functions -------------------------------------------------------------------
    def _pure_step(self):
        pure = make_pure(self.cell, self.params)

        def step(state, rng, arrays):
            return pure(state, rng, arrays, _rebuild)

        step.input_checks = pure.input_checks  # type: ignore[attr-defined]
        return step

    def _key(self, columns, sink):
        return (sink, self.cell.training) + tuple((c.shape, c.dtype) for c in columns) + _dump.key()

    def _entry(self, key, columns, sink):
        entry = self._cache.get(key)
        if entry is None:
            try:
                step = self._pure_step()
                entry = build(self.name, step, self.params, list(columns), sink=sink,
                              input_checks=step.input_checks)
            except Exception as e:
                raise explain(e, self.name) from None
            self._cache[key] = entry
        return entry

    def steps_per_sink_call(self, columns: Sequence[Any]) -> int:
        """How many batches like ``columns`` one sink call takes (1: one call per step, see the module doc)."""
        if self._per_step_sink is None:
            self._per_step_sink = jax.default_backend() == "cpu" and bool(
                _primitives(self.jaxpr(columns).jaxpr, set()) & set(_LOOP_SLOW_PRIMITIVES))
        if self._per_step_sink:
            return 1
        nbytes = sum(int(np.prod(np.shape(c), dtype=np.int64)) * np.dtype(c.dtype).itemsize for c in columns)
        return max(1, _SINK_BYTES // max(nbytes, 1))

    def _call(self, columns, sink):
        key = self._key(columns, sink)
        entry = self._entry(key, columns, sink)
        self.pull()
        state, self.state = self.state, None  # donated to the call
        try:
            out, new_state, new_rng = entry(state, self.rng, list(columns))
        except Exception:
            # A call that failed before running (tracing, compiling) did not consume the state: keep it.
            if state is not None and not any(getattr(v, "is_deleted", lambda: False)() for v in state):
                self.state = state
            raise
        self.state, self.rng = new_state, new_rng
        prefix = self.cell.phase
        self.cell.__dict__["current_phase"] = entry.phases.get(prefix) or self._name_phase(entry, prefix, columns,
                                                                                             sink)
        return out

    def _name_phase(self, entry, prefix, columns, sink):
        """Name ``entry`` as MindSpore names a phase, counted per step by flops_collection."""
        single = _flops.abstract(columns)
        if sink:  # (counted on the single step: XLA counts a loop's body once)
            single = [jax.ShapeDtypeStruct(c.shape[1:], c.dtype) for c in single]

        def count():  # (kept by the Cell: the count outlives the Model, as MindSpore's graph does)
            return _flops.count_entry(self._entry(self._key(single, False), single, False), single)

        name = entry.phases[prefix] = _flops.register_phase(self.cell, prefix, count)
        return name

    def step(self, columns: Sequence[Any]) -> Any:
        """Run one step on a batch (list of arrays); returns the cell's output (Tensors, not synced)."""
        return self._call(columns, False)

    def sink(self, batches: Sequence[Sequence[Any]]) -> Any:
        """Run the batches (lists of arrays of equal shapes) as one scan; returns the last step's output."""
        if self.steps_per_sink_call(batches[0]) == 1:
            for columns in batches:
                out = self.step(columns)
            return out
        stacked = [np.stack(col) if isinstance(col[0], np.ndarray) else jax.numpy.stack(col)
                   for col in zip(*batches)]
        outs = self._call(stacked, True)
        return jax.tree_util.tree_map(lambda x: x[-1], outs)

    def compile(self, columns: Sequence[Any], sink_steps: int = 0) -> Entry:
        """Compile ahead of time the step for batches like ``columns`` (a scan of ``sink_steps`` when > 0);
        returns the compiled entry (its ``plan`` holds the Parameters' layouts in a parallel mode)."""
        sink = bool(sink_steps) and self.steps_per_sink_call(columns) > 1
        if sink:
            columns = [np.stack([np.asarray(c)] * sink_steps) for c in columns]
        self.pull()
        key = self._key(columns, sink)
        entry = self._entry(key, columns, sink)
        entry.jitted = entry.lower(self.state, self.rng, list(columns)).compile()
        self.state, self.rng = entry.place_state(self.state, self.rng)
        return entry

    def jaxpr(self, columns: Sequence[Any]) -> Any:
        """The ClosedJaxpr of one step on ``columns`` (its equations carry the Cells' name scopes)."""
        self.pull()
        return jax.make_jaxpr(self._pure_step())(self.state, self.rng, list(columns))
