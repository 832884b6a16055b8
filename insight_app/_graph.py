"""Computational graphs: a common node model for TensorBoard GraphDefs and MindSpore anf_ir graphs,
name-scope collapsing, and a layered layout for drawing."""

from __future__ import annotations

from dataclasses import dataclass, field

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


def from_ms_graph(g) -> GraphModel:
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


def build_model(graph) -> GraphModel:
    """GraphModel from a run's ``graph`` tuple (fmt, payload, step)."""
    fmt, payload, _ = graph
    return from_graphdef(payload) if fmt == "tb" else from_ms_graph(payload)


def unit_of(name: str, expanded: set[str]) -> str:
    """The visible unit for a node: its outermost collapsed scope, or the node itself."""
    parts = name.split("/")
    for d in range(1, len(parts)):
        s = "/".join(parts[:d])
        if s not in expanded:
            return s
    return name


def auto_expand(model: GraphModel, budget: int) -> set[str]:
    """Expand scopes breadth-first while the number of visible units stays within ``budget``."""
    scopes = model.scopes()
    expanded: set[str] = set()
    frontier = sorted({n.split("/")[0] for n in model.nodes if "/" in n})
    while frontier:
        nxt = []
        for s in frontier:
            trial = expanded | {s}
            if len({unit_of(n, trial) for n in model.nodes}) <= budget or scopes.get(s, 0) <= 1:
                expanded = trial
                nxt += [c for c in scopes if c.startswith(s + "/") and c.count("/") == s.count("/") + 1]
        frontier = sorted(nxt)
    return expanded


def visible_graph(model: GraphModel, expanded: set[str]):
    """Units (name -> kind "scope"/"op", node count, op) and deduplicated edges between them."""
    scopes = model.scopes()
    units: dict[str, dict] = {}
    unit = {}
    for name, node in model.nodes.items():
        u = unit_of(name, expanded)
        unit[name] = u
        if u == name:
            units[u] = {"kind": "op", "op": node.op, "count": 1, "shape": node.shape}
        else:
            units[u] = {"kind": "scope", "op": "", "count": scopes.get(u, 0), "shape": ""}
    edges = set()
    for name, node in model.nodes.items():
        for src in node.inputs:
            a, b = unit[src], unit[name]
            if a != b:
                edges.add((a, b))
    return units, sorted(edges)


def layout(units: dict, edges: list) -> dict[str, tuple[float, float]]:
    """Layered (Sugiyama-style) positions: rank = longest path from a source, order by barycentre."""
    names = sorted(units)
    succ: dict[str, list[str]] = {n: [] for n in names}
    pred: dict[str, list[str]] = {n: [] for n in names}
    state: dict[str, int] = {}
    order: list[str] = []
    for a, b in edges:
        succ[a].append(b)
    dag = []

    def visit(root: str) -> None:  # iterative DFS; back edges are dropped to break cycles
        stack = [(root, iter(succ[root]))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                order.append(node)
                stack.pop()
            elif state.get(nxt) is None:
                dag.append((node, nxt))
                state[nxt] = 1
                stack.append((nxt, iter(succ[nxt])))
            elif state[nxt] == 2:
                dag.append((node, nxt))

    for n in names:
        if n not in state:
            visit(n)
    for a, b in dag:
        pred[b].append(a)
    rank = {}
    for n in reversed(order):  # reverse post-order is a topological order
        rank[n] = max((rank[p] + 1 for p in pred[n]), default=0)
    layers: dict[int, list[str]] = {}
    for n in reversed(order):
        layers.setdefault(rank[n], []).append(n)
    pos = {n: float(i) for layer in layers.values() for i, n in enumerate(layer)}
    for _ in range(4):  # barycentre sweeps, down then up
        for r in sorted(layers)[1:]:
            _reorder(layers[r], pred, pos)
        for r in sorted(layers, reverse=True)[1:]:
            _reorder(layers[r], {n: [b for a, b in dag if a == n] for n in layers[r]}, pos)
    out = {}
    for r, layer in layers.items():
        width = len(layer)
        for i, n in enumerate(layer):
            out[n] = (i - (width - 1) / 2.0, -float(r))
    return out


def _reorder(layer: list[str], nbrs: dict, pos: dict) -> None:
    def key(n):
        ps = [pos[p] for p in nbrs.get(n, []) if p in pos]
        return sum(ps) / len(ps) if ps else pos[n]
    layer.sort(key=key)
    for i, n in enumerate(layer):
        pos[n] = float(i)
