"""Computational graphs: a common node model for TensorBoard GraphDefs and MindSpore anf_ir graphs, and the
Cell view (operations folded under the Cell that emitted them); the page draws it with dagre."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tensorboardX.proto import graph_pb2

from ._msproto import DTYPE_NAMES


@dataclass
class GNode:
    """One op (or parameter) node; ``name`` is its slash-separated scope path."""

    name: str
    op: str
    inputs: list[str] = field(default_factory=list)
    shape: str = ""


@dataclass
class GraphModel:
    """Nodes by name, plus where they came from."""

    nodes: dict[str, GNode]
    source: str
    params: list[tuple[str, list[int], str]] = field(default_factory=list)

    def scopes(self) -> dict[str, int]:
        """Every name scope (proper prefix of a node name) with the number of nodes inside it."""
        out: dict[str, int] = {}
        for name in self.nodes:
            parts = name.split("/")
            for d in range(1, len(parts)):
                s = "/".join(parts[:d])
                out[s] = out.get(s, 0) + 1
        return out


def _shape_text(dims) -> str:
    return "[" + ", ".join("?" if d < 0 else str(d) for d in dims) + "]"


def from_graphdef(data: bytes) -> GraphModel:
    """Parse a TensorBoard GraphDef (NodeDef name/op/input, attr ``_output_shapes``)."""
    g = graph_pb2.GraphDef.FromString(data)
    nodes = {}
    for n in g.node:
        inputs = [i.lstrip("^").split(":")[0] for i in n.input]
        shape = ""
        if "_output_shapes" in n.attr:
            shapes = n.attr["_output_shapes"].list.shape
            shape = " ".join(_shape_text([d.size for d in s.dim]) for s in shapes if not s.unknown_rank)
        nodes[n.name] = GNode(n.name, n.op, inputs, shape)
    for node in nodes.values():  # drop edges to nodes that are not in the graph
        node.inputs = [i for i in node.inputs if i in nodes and i != node.name]
    return GraphModel(nodes, "TensorBoard GraphDef")


def _ms_type(t) -> tuple[list[int], str]:
    tt = t.tensor_type
    return [d.size for d in tt.shape.dim], DTYPE_NAMES.get(tt.elem_type, f"type{tt.elem_type}")


def from_ms_graph(g: Any) -> GraphModel:
    """Convert a MindSpore anf_ir GraphProto (the ``graph_def`` of a ``*_MS`` summary).

    Op nodes are named by ``full_name`` (e.g. ``Default/network-WithLossCell/.../Conv2D-op0``).
    Parameters become nodes inside the scope of their first consumer; constants are left out.
    """
    by_id = {}
    for n in g.node:
        by_id[n.name] = n.full_name or f"{n.scope}/{n.op_type}-{n.name}"
    params = {}
    plist = []
    for p in g.parameters:
        dims, dtype = _ms_type(p.type)
        params[p.name] = _shape_text(dims)
        plist.append((p.name, dims, dtype))
    nodes: dict[str, GNode] = {}
    placed: dict[str, str] = {}
    for n in g.node:
        name = by_id[n.name]
        inputs = []
        for i in n.input:
            if i.name in by_id:
                inputs.append(by_id[i.name])
            elif i.name in params:
                if i.name not in placed:
                    scope = name.rsplit("/", 1)[0] if "/" in name else ""
                    placed[i.name] = f"{scope}/{i.name}" if scope else i.name
                inputs.append(placed[i.name])
        dims, _ = _ms_type(n.output_type)
        shape = _shape_text(dims) if n.output_type.HasField("tensor_type") else ""
        nodes[name] = GNode(name, n.op_type, inputs, shape)
    for pname, where in placed.items():
        nodes.setdefault(where, GNode(where, "Parameter", [], params[pname]))
    return GraphModel(nodes, "MindSpore anf_ir graph", plist)


def build_model(graph: tuple[str, Any, int]) -> GraphModel:
    """GraphModel from a run's ``graph`` tuple (fmt, payload, step)."""
    fmt, payload, _ = graph
    return from_graphdef(payload) if fmt == "tb" else from_ms_graph(payload)


# ---- the Cell view: JAX operations folded under the Cell that emitted them ----
_NOT_A_CELL = set("(),> =")  # JAX's own name scopes (einsum specs, jvp(...), transpose(...)) hold these


def is_cell_scope(component: str) -> bool:
    """Whether a name-scope component is a Cell (an attribute name) rather than a JAX-internal scope."""
    return bool(component) and not (_NOT_A_CELL & set(component))


def cell_of(name: str) -> str:
    """The innermost Cell scope of a node (its longest leading run of Cell components), or the node itself.

    >>> cell_of("TrainOneStepCell/network/conv1/oiyx,yapq->ab/dot_general")
    'TrainOneStepCell/network/conv1'
    >>> cell_of("rng_key")
    'rng_key'
    """
    parts = name.split("/")[:-1]
    k = 0
    while k < len(parts) and is_cell_scope(parts[k]):
        k += 1
    return "/".join(parts[:k]) if k else name


def cell_units(model: GraphModel, opened: set[str]
               ) -> tuple[dict[str, str], dict[str, dict[str, Any]], list[tuple[str, str]]]:
    """Units of the Cell view: one per innermost Cell (its operations folded in) unless the Cell is
    ``opened``, then its operations one by one. Returns (unit of each node, units, edges)."""
    unit: dict[str, str] = {}
    units: dict[str, dict[str, Any]] = {}
    for name, node in model.nodes.items():
        c = cell_of(name)
        u = name if (c == name or c in opened) else c
        unit[name] = u
        if u == name:
            units[u] = {"kind": "op", "op": node.op, "count": 1, "shape": node.shape, "cell": c}
        else:
            info = units.setdefault(u, {"kind": "cell", "op": "", "count": 0, "shape": "", "cell": c})
            info["count"] += 1
    edges: set[tuple[str, str]] = set()
    for name, node in model.nodes.items():
        for src in node.inputs:
            if unit[src] != unit[name]:
                edges.add((unit[src], unit[name]))
    return unit, units, sorted(edges)


def network_root(model: GraphModel) -> str:
    """The scope the user's network sits in: the deepest scope whose Cells match parameter names
    (``TrainOneStepCell/network/_backbone`` for a ``conv1.weight``), or "" when that cannot be told."""
    names = [n.split("/", 1)[1] for n in model.nodes if n.startswith("Parameters/")]
    names += [p[0] for p in model.params]
    firsts = {p.split(".")[0] for p in names if "." in p}
    roots: dict[str, int] = {}
    for s in model.scopes():
        head, _, last = s.rpartition("/")
        # MindSpore names a Cell's scope "<attribute>-<Cell class>" (conv1-Conv2d).
        if last.split("-")[0] in firsts and not s.startswith("Gradients/"):
            roots[head] = roots.get(head, 0) + 1
    return max(roots, key=lambda r: (roots[r], -len(r))) if roots else ""


def cell_label(scope: str, root: str) -> str:
    """A Cell scope as the dotted path users know: ``TrainOneStepCell/network/_backbone/conv1`` -> ``conv1``,
    backward-pass scopes marked with a leading ``∇``.

    >>> cell_label("Gradients/T/net/_backbone/fc1", "T/net/_backbone"), cell_label("T/optimizer", "T/net/_backbone")
    ('∇ fc1', 'optimizer')
    """
    grad = scope.startswith("Gradients/")
    s = scope[len("Gradients/"):] if grad else scope
    a = root
    while a:
        if s.startswith(a + "/"):
            s = s[len(a) + 1:]
            break
        a = a.rpartition("/")[0]
    return ("∇ " if grad else "") + s.replace("/", ".")
