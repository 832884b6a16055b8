"""Network page: the Cell tree with parameter shapes and counts, and the traced graph drawn as a layered
DAG (Cytoscape + dagre) with JAX operations folded under the Cell that emitted them, named by the Cell
path users know (``conv1``, ``∇ fc2`` for its backward pass), and a search."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import dash_cytoscape as cyto
from dash import Input, Output, State, ctx, dcc, html, no_update

from . import _ui
from ._graph import build_model, cell_label, cell_of, cell_units, network_root

if TYPE_CHECKING:
    import dash
    from dash import NoUpdate
    from dash.development.base_component import Component

    from ._graph import GraphModel
    from ._store import LogStore

cyto.load_extra_layouts()  # dagre (bundled with dash-cytoscape, served locally)

PATH = "/network"
TITLE = "Network"
_GRAPH_INPUT = re.compile(r"^inputs\d+$")  # MindSpore names the graph's data inputs inputs0, inputs1, ...


def layout(store: LogStore) -> html.Div:
    runs = [r for r in store.sorted_runs() if r.graph is not None or r.cell_tree is not None]
    controls = _ui.sidebar(
        _ui.labelled("Run", dcc.Dropdown(id="net-run", options=_ui.run_options(runs),
                                         value=runs[0].id if runs else None, clearable=False)),
        _ui.labelled("Search (name or op, substring)", dcc.Input(id="net-search", type="text", debounce=True,
                                                                 value="", placeholder="e.g. conv2")),
        html.Div([html.Button("Fold all Cells", id="net-collapse"), html.Button("Open all", id="net-expand")],
                 className="insight-buttons"),
        _ui.note("Operations are folded under the Cell that ran them (orange). Click a Cell to open it; "
                 "click an operation to fold its Cell again."),
        html.Div(id="net-matches", className="insight-node"),
        html.Div(id="net-node", className="insight-node"),
    )
    main = html.Div([
        html.H3("Cell tree"), html.Div(id="net-cells"),
        html.H3("Graph"), _ui.note("", id="net-summary"),
        dcc.Store(id="net-expanded"),
        cyto.Cytoscape(id="net-graph", elements=[], layout=LAYOUT, stylesheet=STYLESHEET,
                       style={"width": "100%", "height": "720px", "background": "#fff",
                              "border": "1px solid #e3e3e3"}, minZoom=0.1, maxZoom=3),
    ], className="insight-main")
    return html.Div([controls, main], className="insight-page")


def _count(shape) -> int:
    return int(math.prod(int(d) for d in shape)) if shape else 1


def _tree_from_params(params) -> dict:
    """A Cell tree guessed from dotted parameter names (``conv1.weight`` -> cell conv1)."""
    root: dict[str, Any] = {"name": "(parameters of the traced graph)", "type": "", "params": [], "children": []}
    for name, shape, dtype in params:
        node = root
        *cells, leaf = name.split(".")
        for c in cells:
            nxt = next((ch for ch in node["children"] if ch["name"] == c), None)
            if nxt is None:
                nxt = {"name": c, "type": "", "params": [], "children": []}
                node["children"].append(nxt)
            node = nxt
        node["params"].append([leaf, list(shape), dtype])
    return root


def _total(tree) -> int:
    own = sum(_count(p[1] if len(p) > 1 else []) for p in tree.get("params", []))
    return own + sum(_total(c) for c in tree.get("children", []) if isinstance(c, dict))


def cell_tree_view(tree: dict, depth: int = 0) -> html.Details:
    """Nested, collapsible view of a Cell tree; every name is rendered as text."""
    params = [p for p in tree.get("params", []) if isinstance(p, (list, tuple)) and p]
    rows = [html.Tr([html.Td(str(p[0])), html.Td(str(list(p[1])) if len(p) > 1 else ""),
                     html.Td(str(p[2]) if len(p) > 2 else ""), html.Td(f"{_count(p[1] if len(p) > 1 else []):,}")])
            for p in params]
    body: list[Component] = []
    if rows:
        body.append(html.Table([html.Thead(html.Tr([html.Th(h) for h in ("parameter", "shape", "dtype", "count")])),
                                html.Tbody(rows)], className="insight-params"))
    body += [cell_tree_view(c, depth + 1) for c in tree.get("children", []) if isinstance(c, dict)]
    kind = f" ({tree.get('type')})" if tree.get("type") else ""
    summary = html.Summary([html.B(str(tree.get("name", "?"))), kind, f" — {_total(tree):,} parameters"])
    return html.Details([summary, *body], open=depth < 2, className="insight-cell")


def cyto_elements(model: GraphModel, opened: set[str], query: str = "") -> tuple[list[dict], str, list[str]]:
    """Cytoscape elements of the Cell view and a summary; units matching ``query`` get the class "match"."""
    _, units, edges = cell_units(model, opened)
    root = network_root(model)
    q = (query or "").strip().lower()[:200]
    members: dict[str, list[str]] = {}
    if q:
        for name, node in model.nodes.items():
            if q in name.lower() or q in node.op.lower():
                members.setdefault(name, [])
    matches = set()
    nodes = []
    for u, info in units.items():
        if info["kind"] == "cell":
            path = cell_label(u, root)
            path = path if len(path) <= 40 else "…" + path[-39:]
            label = f"{path} ({info['count']} op{'s' if info['count'] != 1 else ''})"
            title = f"Cell {u}: {info['count']} operations (click to open)"
        else:
            short = u.rsplit("/", 1)[-1]
            label = short if info["op"] in ("Parameter", "Placeholder") else info["op"]
            title = f"{u}\n{info['op']} {info['shape']}"
        hit = bool(q) and (q in label.lower() or q in u.lower())
        classes = info["kind"] + (" match" if hit else "")
        if hit:
            matches.add(u)
        nodes.append({"data": {"id": u, "label": label[:56], "title": title, "kind": info["kind"]},
                      "classes": classes})
    if q:  # an op inside a folded Cell marks the Cell
        for name in members:
            c = cell_of(name)
            if c in units and c not in matches:
                matches.add(c)
                for n in nodes:
                    if n["data"]["id"] == c:
                        n["classes"] += " match"
    els = nodes + [{"data": {"source": a, "target": b}} for a, b in edges]
    summary = (f"{model.source}: {len(model.nodes)} operations in {len(units)} units "
               f"({sum(1 for i in units.values() if i['kind'] == 'cell')} Cells folded)")
    if q:
        summary += f"; {len(matches)} units match {query!r}"
    return els, summary, sorted(matches)


STYLESHEET = [
    {"selector": "node", "style": {"label": "data(label)", "font-size": 10, "text-valign": "center",
                                   "text-halign": "right", "text-margin-x": 4, "width": 12, "height": 12,
                                   "background-color": "#4a78b5"}},
    {"selector": ".cell", "style": {"shape": "round-rectangle", "width": 22, "height": 16,
                                    "background-color": "#f2a541", "border-width": 1, "border-color": "#333"}},
    {"selector": ".match", "style": {"background-color": "#d62728", "border-width": 3, "border-color": "#d62728"}},
    {"selector": "edge", "style": {"curve-style": "bezier", "target-arrow-shape": "triangle", "width": 1,
                                   "line-color": "#b0b0b0", "target-arrow-color": "#b0b0b0",
                                   "arrow-scale": 0.6}},
]
LAYOUT = {"name": "dagre", "rankDir": "TB", "nodeSep": 18, "rankSep": 28, "animate": False}


def _safe_model(model_of, run):
    """(model, error text): a graph that cannot be read is reported on the page, never a server error."""
    try:
        return model_of(run), ""
    except Exception as exc:  # noqa: BLE001 -- a damaged graph must not break the page
        return None, f"the graph of this run could not be read ({type(exc).__name__}: {str(exc)[:200]})"


def register(app: dash.Dash, store: LogStore) -> None:
    cache: dict = {}

    def model_of(run):
        if run is None or run.graph is None:
            return None
        hit = cache.get(run.id)
        if hit is None or hit[0] is not run.graph:
            hit = (run.graph, build_model(run.graph))
            cache[run.id] = hit
        return hit[1]

    @app.callback(Output("net-run", "options"), Input("insight-gen", "data"), State("net-run", "options"),
                  prevent_initial_call=True)
    def _new_runs(_gen, options):
        opts = _ui.run_options([r for r in store.sorted_runs() if r.graph is not None or r.cell_tree is not None])
        return no_update if opts == options else opts

    @app.callback(Output("net-cells", "children"), Input("net-run", "value"), Input("insight-gen", "data"))
    def _cells(run_id, _gen):
        run = store.run(run_id)
        if run is None:
            return _ui.note("No run with a graph or a Cell tree.")
        if run.cell_tree is not None:
            return cell_tree_view(run.cell_tree)
        model, err = _safe_model(model_of, run)
        params = [p for p in (model.params if model else []) if not _GRAPH_INPUT.match(p[0])]
        if params:
            return [_ui.note("No network/cell_tree summary in this run; cells guessed from the parameter names "
                             "of the traced graph."), cell_tree_view(_tree_from_params(params))]
        return _ui.note(err or "No network/cell_tree summary in this run.")

    @app.callback(Output("net-expanded", "data"), Output("net-node", "children"),
                  Input("net-run", "value"), Input("net-graph", "tapNodeData"), Input("net-collapse", "n_clicks"),
                  Input("net-expand", "n_clicks"), State("net-expanded", "data"))
    def _expand(run_id, tapped, _c, _e, opened):
        model, _ = _safe_model(model_of, store.run(run_id))
        if model is None:
            return [], ""
        trig = ctx.triggered_id
        opened = set(opened or [])
        info: list[Component] | NoUpdate = no_update
        if trig == "net-collapse" or trig == "net-run":
            opened = set()
        elif trig == "net-expand":
            cells = {cell_of(n) for n in model.nodes}
            opened = cells if len(model.nodes) <= _ui.MAX_GRAPH_UNITS else opened
        elif trig == "net-graph" and isinstance(tapped, dict) and isinstance(tapped.get("id"), str):
            name = tapped["id"]
            if tapped.get("kind") == "cell":
                opened.add(name)
            elif name in model.nodes:
                c = cell_of(name)
                opened.discard(c)  # clicking an operation folds its Cell again
                node = model.nodes[name]
                info = [html.B(node.op), html.Div(name), html.Div(f"output {node.shape}" if node.shape else ""),
                        html.Div(f"{len(node.inputs)} inputs")]
        return sorted(opened), info

    @app.callback(Output("net-graph", "elements"), Output("net-summary", "children"),
                  Output("net-matches", "children"), Output("net-graph", "layout"),
                  Input("net-expanded", "data"), Input("net-search", "value"), State("net-run", "value"))
    def _figure(opened, query, run_id):
        run = store.run(run_id)
        model, err = _safe_model(model_of, run)
        if model is None:
            return [], err or "No graph_def event in this run.", "", no_update
        q = query if isinstance(query, str) else ""
        els, summary, matches = cyto_elements(model, set(opened or []), q)
        if len(els) > 4 * _ui.MAX_GRAPH_UNITS:
            return ([], summary + f"; too many to draw (limit {_ui.MAX_GRAPH_UNITS} units): fold some Cells", "",
                    no_update)
        shown = [html.Li(m) for m in matches[:20]] + ([html.Li(f"… {len(matches) - 20} more")]
                                                      if len(matches) > 20 else [])
        # A new layout object makes Cytoscape lay the new elements out again (new run, Cell opened).
        lay = dict(LAYOUT, revision=f"{run_id}|{len(els)}|{'/'.join(sorted(opened or []))[:200]}")
        return els, summary, html.Ul(shown) if q else "", lay
