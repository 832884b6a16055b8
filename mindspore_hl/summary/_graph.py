"""The network for the dashboard: the Cell tree (JSON text) and the traced step as a TensorBoard ``GraphDef``.

Graph: every equation of the step's jaxpr becomes a ``NodeDef`` (``op`` = the JAX primitive, ``input`` =
the nodes whose outputs it reads, attr ``_output_shapes``). Node names are slash-scoped by the name stack:
Cells trace under ``jax.named_scope(<attribute name>)``, so a convolution of ``conv1`` inside the train
network is ``TrainOneStepCell/network/_backbone/conv1/conv_general_dilated``; the backward pass (JAX's
``transpose(jvp(...))`` scopes) is put under ``Gradients/``. Calls of nested jitted functions are inlined;
loops and conditionals stay one node. State inputs are ``Parameters/<parameter name>`` nodes.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from jax.extend.core import Var
from tensorboardX.proto.attr_value_pb2 import AttrValue
from tensorboardX.proto.graph_pb2 import GraphDef
from tensorboardX.proto.node_def_pb2 import NodeDef
from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboardX.proto.versions_pb2 import VersionDef

__all__ = ["cell_tree", "cell_tree_json", "jaxpr_to_graph_def", "step_input_names"]

_WRAPPED = re.compile(r"^([A-Za-z_][\w]*)\((.*)\)$")
_INLINE = {"pjit": "jaxpr", "jit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
           "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr", "custom_vjp_call_jaxpr": "fun_jaxpr",
           "remat": "jaxpr", "checkpoint": "jaxpr"}


def cell_tree(cell: Any, name: str | None = None) -> dict[str, Any]:
    """``{"name", "type", "params": [[param name, shape, dtype], ...], "children": [...]}`` for a Cell."""
    return {
        "name": type(cell).__name__ if name is None else name,
        "type": type(cell).__name__,
        "params": [[p.name, list(p.shape), str(p.dtype)] for p in cell._params.values() if p is not None],
        "children": [cell_tree(child, child_name) for child_name, child in cell._cells.items() if child is not None],
    }


def cell_tree_json(cell: Any) -> str:
    """:func:`cell_tree` as JSON text (what SummaryCollector writes as ``network/cell_tree``)."""
    return json.dumps(cell_tree(cell))


def _scope(name_stack: object) -> str:
    """'transpose(jvp(net))/fc' -> 'Gradients/net/fc'; 'jvp(net)/fc' -> 'net/fc'."""
    parts: list[str] = []
    grad = False
    for comp in str(name_stack).split("/"):
        m = _WRAPPED.match(comp)
        while m:
            grad = grad or m.group(1) == "transpose"
            comp = m.group(2)
            m = _WRAPPED.match(comp)
        if comp:
            parts.append(comp)
    return "/".join((["Gradients"] if grad else []) + parts)


def _shape_attr(avals: Sequence[Any]) -> AttrValue:
    shapes = [TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in getattr(a, "shape", ())])
              for a in avals]
    return AttrValue(list=AttrValue.ListValue(shape=shapes))


def _dtype_attr(avals: Sequence[Any]) -> AttrValue:
    return AttrValue(s=",".join(str(getattr(a, "dtype", "")) for a in avals).encode())


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[NodeDef] = []
        self.used: dict[str, int] = {}

    def unique(self, name: str) -> str:
        n = self.used.get(name, 0)
        self.used[name] = n + 1
        return name if n == 0 else f"{name}_{n}"

    def add(self, name: str, op: str, inputs: list[str], avals: Sequence[Any],
            extra: dict[str, Any] | None = None) -> str:
        node = NodeDef(name=name, op=op, input=inputs)
        node.attr["_output_shapes"].CopyFrom(_shape_attr(avals))
        node.attr["dtype"].CopyFrom(_dtype_attr(avals))
        for key, value in (extra or {}).items():
            node.attr[key].CopyFrom(AttrValue(s=str(value).encode()))
        self.nodes.append(node)
        return name

    def walk(self, jaxpr: Any, env: dict[Any, str], prefix: str) -> None:
        for eqn in jaxpr.eqns:
            scope = "/".join(p for p in (prefix, _scope(eqn.source_info.name_stack)) if p)
            inputs = [env[v] for v in eqn.invars if isinstance(v, Var) and v in env]
            sub = _INLINE.get(eqn.primitive.name)
            inner = eqn.params.get(sub) if sub else None
            if inner is not None:
                closed = getattr(inner, "jaxpr", inner)
                known = {iv: env.get(v) for iv, v in zip(closed.invars, eqn.invars) if isinstance(v, Var)}
                for c in closed.constvars:
                    known[c] = self.add(self.unique(f"{scope}/const"), "Const", [], [c.aval])
                inner_env = {k: v for k, v in known.items() if v is not None}
                self.walk(closed, inner_env, scope)
                for outer, inner_out in zip(eqn.outvars, closed.outvars):
                    if isinstance(inner_out, Var) and inner_out in inner_env:
                        env[outer] = inner_env[inner_out]
                continue
            op = eqn.primitive.name
            name = self.add(self.unique(f"{scope}/{op}" if scope else op), op, inputs,
                            [v.aval for v in eqn.outvars])
            for k, out in enumerate(eqn.outvars):
                env[out] = name if k == 0 else f"{name}:{k}"


def jaxpr_to_graph_def(closed_jaxpr: Any, input_names: Sequence[tuple[str, str] | None] = ()) -> GraphDef:
    """A TensorBoard ``GraphDef`` of ``closed_jaxpr``; ``input_names`` name its inputs in order."""
    jaxpr = closed_jaxpr.jaxpr
    b = _Builder()
    env: dict[Any, str] = {}
    for i, var in enumerate(jaxpr.invars):
        given = input_names[i] if i < len(input_names) else None
        name, op = given if given is not None else (f"inputs/{i}", "Placeholder")
        env[var] = b.add(b.unique(name), op, [], [var.aval])
    for i, var in enumerate(jaxpr.constvars):
        env[var] = b.add(b.unique(f"Const/{i}"), "Const", [], [var.aval])
    b.walk(jaxpr, env, "")
    return GraphDef(node=b.nodes, versions=VersionDef(producer=22))


def step_input_names(params: Sequence[Any], n_arrays: int) -> list[tuple[str, str]]:
    """Names of a StepRunner step's flattened inputs: state Parameters, the RNG key, the batch columns."""
    names = [(f"Parameters/{p.name}", "Parameter") for p in params]
    names.append(("rng_key", "Placeholder"))
    names += [(f"inputs/{i}", "Placeholder") for i in range(n_arrays)]
    return names
