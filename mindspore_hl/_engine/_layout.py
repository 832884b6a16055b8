"""Layouts: MindSpore strategies (split counts per dimension) as ``PartitionSpec`` s over the (data, model) mesh.

A strategy such as ``(2, 1)`` says "split dimension 0 in 2 parts". On a mesh of ``data x model`` devices a
split count maps to the axes whose sizes multiply to it: 1 -> not split, ``data`` -> 'data', ``model`` ->
'model', ``data*model`` -> both. Parameters carry their layout hint in ``Parameter.sharding`` (a strategy
tuple); ``Cell.shard`` sets those hints and constrains the Cell's inputs and outputs.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from ..common import seed
from ..common.tensor import Tensor, wrap
from . import _state

# The plan whose step is being traced (Cell.shard constraints read it) is ``_state.trace.plan``.


def _is_strategy(s):
    return isinstance(s, tuple) and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in s)


def to_spec(layout: Sequence[int] | None, shape: Sequence[int], data: int, model: int, what: str,
            batch_first: bool = False) -> P:
    """``PartitionSpec`` for the strategy tuple ``layout`` of an array of ``shape``.

    ``batch_first`` prefers the 'data' axis for dimension 0 when data == model (inputs); parameters prefer 'model'.
    """
    if layout is None:
        return P()
    if len(layout) != len(shape):
        raise ValueError(f"{what}: the layout {tuple(layout)} has {len(layout)} entries, but the tensor has shape "
                         f"{tuple(shape)} ({len(shape)} dimensions).")
    if not _is_strategy(layout):
        raise TypeError(f"{what}: a layout must be a tuple of positive ints (split counts, e.g. (2, 1)), but got "
                        f"{layout!r}.")
    spec = P(*(_axis_for(s, i, data, model, what, layout, batch_first) for i, s in enumerate(layout)))
    sizes = {"data": data, "model": model}
    used: list[str] = []
    for dim, entry in zip(shape, spec):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        parts = 1
        for n in names:
            parts *= sizes[n]
        used += names
        if dim % parts:
            raise ValueError(f"{what}: dimension of size {dim} cannot be split in {parts} parts (layout "
                             f"{tuple(layout)} on a mesh of data={data} x model={model} devices, "
                             f"shape {tuple(shape)}).")
    if len(used) != len(set(used)):
        raise ValueError(f"{what}: the layout {tuple(layout)} uses a mesh axis twice on mesh data={data} x "
                         f"model={model}; each of 'data' and 'model' can split only one dimension.")
    return spec


def _axis_for(s, i, data, model, what, layout, batch_first):
    if s == 1:
        return None
    first, second = (("data", data), ("model", model)) if batch_first and i == 0 else (("model", model), ("data", data))
    for name, size in (first, second):
        if s == size:
            return name
    if s == data * model:
        return ("data", "model")
    raise ValueError(f"{what}: split count {s} in strategy {tuple(layout)} does not match the mesh data={data} x "
                     f"model={model} (a split count must be 1, {data}, {model} or {data * model}).")


class _Recorder:
    """Stands in for a plan during one abstract trace, to note which sharded Cells a step calls."""
    constrain = False

    def __init__(self):
        self.record: list[Any] = []


def sharded_cells_called(step: Callable[..., Any], params: Sequence[Any], arrays: Sequence[Any],
                         shapes: Sequence[tuple[int, ...]]) -> list[Any]:
    """The Cells with ``Cell.shard`` layouts that ``step`` calls (found by tracing it abstractly once)."""
    rec, prev = _Recorder(), _state.trace.plan
    _state.trace.plan = rec
    try:
        state = tuple(jax.ShapeDtypeStruct(tuple(p.shape), p._value.dtype) for p in params)
        arrays = [jax.ShapeDtypeStruct(s, a.dtype) for a, s in zip(arrays, shapes)]
        jax.eval_shape(step, state, seed.global_key(), arrays)
    finally:
        _state.trace.plan = prev
    return list({id(c): c for c in rec.record}.values())


def model_size_hint(params: Sequence[Any], cells: Sequence[Any], n_devices: int) -> int:
    """The model-axis size the layouts ask for: the largest split of a parameter or of a sharded Cell's
    input/output beyond dimension 0 (dimension 0 is the batch, split over 'data')."""
    best = 1
    for p in params:
        layout = getattr(p, "sharding", None)
        if layout is not None and _is_strategy(layout):
            prod = 1
            for s in layout:
                prod *= s
            best = max(best, prod if prod < n_devices else max(layout))
    for cell in cells:
        for strategies in cell.__dict__["_shard_strategy"][:2]:
            for s in strategies or ():
                if s is not None and _is_strategy(s) and len(s) > 1:
                    best = max([best] + list(s[1:]))
    if best > 1 and n_devices % best:
        raise ValueError(f"parallel: the layouts set by Cell.shard / Parameter.sharding split a dimension in {best} "
                         f"parts, which does not divide the {n_devices} devices.")
    return best


def parameter_specs(params: Sequence[Any], data: int, model: int, chosen: dict[str, P] | None = None,
                    hints: bool = True) -> list[P]:
    """``PartitionSpec`` per parameter: the user's hint, the AUTO choice, the layout of the weight an optimizer
    slot was cloned from (``moments.fc.weight`` follows ``fc.weight``), or replicated.

    ``hints=False`` (DATA_PARALLEL) ignores ``Parameter.sharding``, as MindSpore ignores strategies there."""
    chosen = chosen or {}
    specs: dict[str, P] = {}
    for p in params:
        layout = getattr(p, "sharding", None) if hints else None
        if layout is not None:
            specs[p.name] = to_spec(layout, p.shape, data, model, f"Parameter '{p.name}'")
        elif p.name in chosen:
            specs[p.name] = chosen[p.name]
    slots = optimizer_slots(params)
    return [specs.get(p.name) or (specs.get(slots[p.name]) if p.name in slots else None) or P() for p in params]


def optimizer_slots(params: Sequence[Any]) -> dict[str, str]:
    """``{slot name: weight name}`` for optimizer state cloned from a weight (``moments.fc.weight``).

    A name prefix is a slot prefix when every parameter under it is ``<prefix>.<another parameter's name>`` with
    that parameter's shape (MindSpore optimizers name their state so: ``moments``, ``moment1``, ``accum``...).
    """
    shapes = {p.name: tuple(p.shape) for p in params}
    groups: dict[str, list[tuple[str, str, tuple[int, ...]]]] = {}
    for p in params:
        head, _, rest = p.name.partition(".")
        if rest:
            groups.setdefault(head, []).append((p.name, rest, tuple(p.shape)))
    slots: dict[str, str] = {}
    for members in groups.values():
        if all(shapes.get(rest) == shape for _, rest, shape in members):
            slots.update((name, rest) for name, rest, _ in members)
    return slots


def batch_spec(shape: Sequence[int], data: int) -> P:
    """Inputs are split along dimension 0 over 'data' when it divides; other arrays are replicated."""
    if data > 1 and len(shape) >= 1 and shape[0] % data == 0:
        return P("data")
    return P()


# ---- Cell.shard -----------------------------------------------------------------------------------
def shard_cell(cell: Any, in_strategy: Any, out_strategy: Any = None,
               parameter_plan: dict[str, Any] | None = None) -> Any:
    """Implement ``Cell.shard``: record layouts for the Cell's inputs/outputs and set its parameters' hints."""
    name = type(cell).__name__
    in_strategy = _check_strategies(in_strategy, f"{name}.shard: in_strategy")
    out_strategy = None if out_strategy is None else _check_strategies(out_strategy, f"{name}.shard: out_strategy")
    if parameter_plan is not None:
        if not isinstance(parameter_plan, dict):
            raise TypeError(f"{name}.shard: parameter_plan must be a dict {{parameter name: strategy}}, but got "
                            f"{type(parameter_plan).__name__}.")
        params, full = _relative_params(cell)
        for key, layout in parameter_plan.items():
            rel = key[5:] if isinstance(key, str) and key.startswith("self.") else key
            layout = _from_layouts((layout,))[0]
            p = params.get(rel)
            p = full.get(key) if p is None else p
            if p is None:
                raise ValueError(f"{name}.shard: parameter_plan names {key!r}, which is not a parameter of this Cell. "
                                 f"Its parameters are: {sorted(params)}.")
            if not _is_strategy(layout):
                raise TypeError(f"{name}.shard: parameter_plan[{key!r}] must be a tuple of split counts, but got "
                                f"{layout!r}.")
            if len(layout) != len(p.shape):
                raise ValueError(f"{name}.shard: parameter_plan[{key!r}] = {layout} has {len(layout)} entries, but "
                                 f"the parameter has shape {tuple(p.shape)}.")
            if getattr(p, "sharding", None) is None:  # as in MindSpore, an existing layout is kept
                p.sharding = tuple(layout)
    cell.__dict__["_shard_strategy"] = (in_strategy, out_strategy)
    if "_shard_construct" not in cell.__dict__:
        original = type(cell).construct
        cell.__dict__["_shard_construct"] = original
        ref = weakref.ref(cell)  # the Cell keeps this function: no reference cycle through it

        def construct(*args, **kwargs):
            self = ref()
            plan = _state.trace.plan
            if plan is None:
                return original(self, *args, **kwargs)
            if plan.record is not None:
                plan.record.append(self)
            if not plan.constrain:
                return original(self, *args, **kwargs)
            ins, outs = self.__dict__["_shard_strategy"]
            args = _constrain(args, ins, plan, f"{name}.shard in_strategy", True)
            out = original(self, *args, **kwargs)
            if outs is None:
                return out
            single = not isinstance(out, tuple)
            out = _constrain((out,) if single else out, outs, plan, f"{name}.shard out_strategy", True)
            return out[0] if single else out

        cell.__dict__["construct"] = construct
    return cell


def _check_strategies(strategies, what):
    if not isinstance(strategies, tuple):
        raise TypeError(f"{what} must be a tuple with one strategy (or None) per tensor, but got "
                        f"{type(strategies).__name__} {strategies!r}.")
    strategies = _from_layouts(strategies)
    for s in strategies:
        if s is not None and not _is_strategy(s):
            raise TypeError(f"{what}: each entry must be a tuple of positive ints (e.g. (2, 1)) or None, "
                            f"but got {s!r}.")
    return strategies


def _from_layouts(strategies):
    """Strategies with each ``parallel.Layout`` (duck-typed: it is defined above the engine) as its split counts."""
    kinds = {hasattr(s, "_as_strategy") for s in strategies if s is not None}
    if len(kinds) > 1:
        raise TypeError("For 'Shard', the strategy can only pass in consistent type for all dimensions.")
    return tuple(s._as_strategy() if hasattr(s, "_as_strategy") else s for s in strategies)


def _relative_params(cell):
    """``({attribute path relative to cell: param}, {full parameter name: param})``."""
    rel, full = {}, {}
    for prefix, sub in cell.cells_and_names():
        for attr, p in sub._params.items():
            if p is not None:
                rel[f"{prefix}.{attr}" if prefix else attr] = p
                full[p.name] = p
    return rel, full


def _constrain(values, strategies, plan, what, batch_first):
    if len(strategies) != len(values):
        raise ValueError(f"{what} has {len(strategies)} entries, but the Cell got {len(values)} tensor(s).")
    out = []
    for v, s in zip(values, strategies):
        if s is not None and isinstance(v, Tensor):
            spec = to_spec(s, v.shape, plan.data, plan.model, what, batch_first)
            v = wrap(jax.lax.with_sharding_constraint(v._value, NamedSharding(plan.mesh, spec)))
        out.append(v)
    return tuple(out)
