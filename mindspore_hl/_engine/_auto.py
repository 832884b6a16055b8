"""AUTO_PARALLEL: choose a mesh and a layout per layer from XLA's own cost and memory analyses.

Every candidate is the real train step compiled (not run) for that layout: ``memory_analysis()`` gives the
bytes one device needs (arguments + outputs + temporaries - donated aliases), ``cost_analysis()`` the FLOPs,
and the compiled HLO's collectives (all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute)
the bytes each device communicates per step. The search:

1. pure data parallelism (every weight replicated) when it fits the budget;
2. otherwise, for model-axis sizes m = 2, 4, ... (the most data parallelism first): measure each layer's
   options alone (shard its weight's dimension 0 or 1 over 'model'; a bias follows a dimension-0 split) in
   decreasing order of weight size until the savings cover the excess, then take the options with the least
   extra communication per byte saved until the estimate fits, and confirm the combined plan with one more
   compile. The first m whose plan fits wins.

Layers are the parameters that share a Cell (``fc1.weight`` + ``fc1.bias``); optimizer slots follow their
weight (``moments.fc1.weight``). Layouts the user set (``Cell.shard``, ``Parameter.sharding``) stay fixed.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np

from . import _layout
from . import _parallel_context as _context

__all__ = ["search", "last_strategy"]

_last: list[Report | None] = [None]
_COLLECTIVE = re.compile(r"=\s*(.*?)\s(all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)"
                         r"(?:-start)?\(")
_SHAPE = re.compile(r"\b(pred|[suf](?:8|16|32|64)|bf16|c64|c128)\[([0-9,]*)\]")
_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
          "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}


def communication_bytes(hlo_text: str) -> int:
    """Bytes produced by the collective instructions of a compiled HLO module (per device)."""
    total = 0
    for line in hlo_text.splitlines():
        m = _COLLECTIVE.search(line)
        if m is None:
            continue
        for dt, dims in _SHAPE.findall(m.group(1)):
            total += _BYTES.get(dt, 4) * int(np.prod([int(d) for d in dims.split(",") if d] or [1]))
    return total


class Cost:
    """One compiled candidate: per-device memory, communication and FLOPs."""

    def __init__(self, label: str, model: int, chosen: dict[str, Any], memory: int, comm: int, flops: float) -> None:
        self.label, self.model, self.chosen = label, model, chosen
        self.memory, self.comm, self.flops = memory, comm, flops


class _Evaluator:
    def __init__(self, name, params, arrays, shapes, step, n, make_plan):
        self.name, self.params, self.step, self.n = name, params, step, n
        self.make_plan = make_plan  # the Plan class (passed in: _plan imports this module)
        self.arrays, self.shapes = arrays, shapes
        self.log, self.memo = [], {}

    def __call__(self, model, chosen, label):
        key = (model, tuple(sorted((k, tuple(v)) for k, v in chosen.items())))
        if key in self.memo:  # the combined plan may equal a layout already measured
            return self.memo[key]
        mesh = _context.mesh(model)
        data = mesh.shape["data"]
        specs = _layout.parameter_specs(self.params, data, model, chosen)
        plan = self.make_plan(self.name, mesh, specs, [_layout.batch_spec(s, data) for s in self.shapes], True, False)
        state = tuple(jax.ShapeDtypeStruct(tuple(p.shape), p._value.dtype, sharding=s)
                      for p, s in zip(self.params, plan.state_shardings))
        raw = jax.random.key_data(jax.random.key(0))
        rng = jax.ShapeDtypeStruct(raw.shape, raw.dtype, sharding=plan.replicated)
        arrays = [jax.ShapeDtypeStruct(shape, a.dtype, sharding=s)
                  for a, shape, s in zip(self.arrays, self.shapes, plan.input_shardings)]
        compiled = plan.jit(self.step, (0,)).lower(state, rng, arrays).compile()
        mem = compiled.memory_analysis()
        memory = (mem.argument_size_in_bytes + mem.output_size_in_bytes + mem.temp_size_in_bytes
                  - mem.alias_size_in_bytes)
        costs = compiled.cost_analysis()
        costs = costs[0] if isinstance(costs, (list, tuple)) else costs
        flops = float((costs or {}).get("flops", 0.0))
        cost = Cost(label, model, dict(chosen), int(memory), communication_bytes(compiled.as_text()), flops)
        self.log.append(cost)
        self.memo[key] = cost
        return cost


def _layers(params):
    """``[(bytes, [(option label, {name: spec})...] per model size)]`` for the searchable layers."""
    fixed = {p.name for p in params if getattr(p, "sharding", None) is not None}
    slots = _layout.optimizer_slots(params)
    weights = [p for p in params if p.requires_grad and len(p.shape) >= 2 and p.name not in fixed
               and p.name not in slots]
    groups: dict[str, list[Any]] = {}
    for p in params:
        groups.setdefault(p.name.rsplit(".", 1)[0] if "." in p.name else p.name, []).append(p)
    layers = []
    for w in weights:
        prefix = w.name.rsplit(".", 1)[0] if "." in w.name else w.name
        siblings = [q for q in groups.get(prefix, []) if q is not w and q.name not in fixed and len(q.shape) == 1
                    and q.shape[0] == w.shape[0]]
        size = int(np.prod(w.shape)) * np.dtype(w._value.dtype).itemsize
        layers.append((size, w, siblings))
    layers.sort(key=lambda t: -t[0])
    return layers


def _options(weight, siblings, m):
    P = jax.sharding.PartitionSpec
    out = []
    for dim in (0, 1):
        if weight.shape[dim] % m:
            continue
        spec = P(*["model" if i == dim else None for i in range(len(weight.shape))])
        assign = {weight.name: spec}
        if dim == 0:
            assign.update({q.name: P("model") for q in siblings})
        out.append((f"{weight.name} dim {dim}", assign))
    return out


def search(name: str, params: Sequence[Any], arrays: Sequence[Any], shapes: Sequence[tuple[int, ...]],
           step: Callable[..., Any], n: int, budget: int | None, fixed_model: int = 1,
           make_plan: Any = None) -> tuple[int, dict[str, Any], Report]:
    """Pick ``(model_axis_size, {parameter name: PartitionSpec}, report)`` for a step (see module docstring).

    ``fixed_model`` > 1: the user's layouts (Cell.shard / Parameter.sharding) need that model-axis size, so
    only that mesh is searched, with those layouts kept. ``make_plan``: the ``_plan.Plan`` class.
    """
    ev = _Evaluator(name, params, arrays, shapes, step, n, make_plan)
    m0 = fixed_model
    base = ev(m0, {}, f"data parallel {n}x1" if m0 == 1 else f"mesh {n // m0}x{m0}, user layouts only")
    choice = base if budget is None or base.memory <= budget else None
    layers = _layers(params)
    for m in ([d for d in range(2, n + 1) if n % d == 0] if m0 == 1 else [m0]) if choice is None else ():
        choice = _search_mesh(ev, m, layers, budget)
        if choice is not None:
            break
    report = Report(name, n, budget, base, choice, ev.log, params)
    print(report.text(), flush=True)
    _last[0] = report
    if choice is None:
        raise MemoryError(f"AUTO_PARALLEL could not fit '{name}' into the memory budget: {report.text()}\n"
                          f"Raise set_context(max_device_memory=...) or use more devices.")
    return choice.model, choice.chosen, report


def _search_mesh(ev, m, layers, budget):
    ref = ev(m, {}, f"mesh {ev.n // m}x{m}, all replicated")
    need = ref.memory - budget
    options, covered = [], 0
    for _, weight, siblings in layers:
        best = None
        for label, assign in _options(weight, siblings, m):
            try:
                c = ev(m, assign, f"mesh {ev.n // m}x{m}, {label}")
            except Exception:  # a layout XLA cannot partition: not a candidate
                continue
            saving, extra = ref.memory - c.memory, c.comm - ref.comm
            if saving > 0 and (best is None or (extra, -saving) < (best[2], -best[1])):
                best = (assign, saving, extra, label)
        if best is not None:
            options.append(best)
            covered += best[1]
        if covered >= need:
            break
    if not options:
        return None
    chosen, predicted, labels = {}, ref.memory, []
    for assign, saving, _extra, label in sorted(options, key=lambda o: o[2] / o[1]):
        chosen.update(assign)
        labels.append(label)
        predicted -= saving
        if predicted <= budget:
            break
    final = ev(m, chosen, f"mesh {ev.n // m}x{m}, " + " + ".join(labels))
    if final.memory > budget and len(chosen) < sum(len(o[0]) for o in options):
        every = {}
        for assign, *_ in options:
            every.update(assign)
        final = ev(m, every, f"mesh {ev.n // m}x{m}, every measured layer sharded")
    return final if final.memory <= budget else None


def _mb(b):
    return f"{b / (1 << 20):.2f} MB" if abs(b) >= 1 << 20 else f"{b / 1024:.1f} KB"


class Report:
    """What AUTO_PARALLEL chose and why: printed when the step compiles, kept by ``last_strategy()``."""

    def __init__(self, name: str, n: int, budget: int | None, base: Cost, choice: Cost | None,
                 evaluated: Sequence[Cost], params: Sequence[Any]) -> None:
        self.name, self.devices, self.budget = name, n, budget
        self.evaluated = [(c.label, c.memory, c.comm, c.flops) for c in evaluated]
        self.replicated_memory = base.memory
        self.mesh = None if choice is None else (n // choice.model, choice.model)
        self.memory = None if choice is None else choice.memory
        self.communication = None if choice is None else choice.comm
        self.flops = None if choice is None else choice.flops
        self.layouts: dict[str, tuple[Any, ...]] = {}
        if choice is not None:
            specs = _layout.parameter_specs(params, n // choice.model, choice.model, choice.chosen)
            self.layouts = {p.name: tuple(s) for p, s in zip(params, specs) if tuple(s)}

    def text(self) -> str:
        budget = "none" if self.budget is None else _mb(self.budget)
        lines = [f"[mindspore_hl AUTO_PARALLEL] '{self.name}' on {self.devices} devices, memory budget {budget} "
                 f"per device; candidates compiled by XLA:"]
        for label, mem, comm, flops in self.evaluated:
            fits = "" if self.budget is None else ("  fits" if mem <= self.budget else "  over budget")
            lines.append(f"  {label:<58} memory {_mb(mem):>10}  comm {_mb(comm):>10}/step  "
                         f"{flops / 1e6:9.2f} MFLOP{fits}")
        if self.mesh is None or self.flops is None:
            lines.append("  no candidate fits.")
            return "\n".join(lines)
        lines.append(f"  chosen: mesh data={self.mesh[0]} x model={self.mesh[1]}; sharded parameters:"
                     if self.layouts else f"  chosen: data parallel (mesh data={self.mesh[0]} x model=1)")
        for pname, spec in self.layouts.items():
            lines.append(f"    {pname:<40} {spec}")
        lines.append(f"  estimated per device and step: memory {_mb(self.memory)} (replicated: "
                     f"{_mb(self.replicated_memory)}), communication {_mb(self.communication)}, "
                     f"{self.flops / 1e6:.2f} MFLOP")
        return "\n".join(lines)

    def __repr__(self):
        return self.text()


def last_strategy() -> Report | None:
    """The :class:`Report` of the most recent AUTO_PARALLEL search (mesh, layouts, estimated costs), or None."""
    return _last[0]
