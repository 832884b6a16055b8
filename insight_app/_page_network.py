"""Network page: the Cell tree with parameter shapes and counts, and the traced graph with
collapsible name scopes (click a scope to open it, click a node to close its scope)."""

from __future__ import annotations

import math
import re

from dash import Input, Output, State, ctx, dcc, html, no_update

from . import _ui
from ._graph import auto_expand, build_model, layout as graph_layout, visible_graph

PATH = "/network"
TITLE = "Network"
INITIAL_UNITS = 30
_GRAPH_INPUT = re.compile(r"^inputs\d+$")  # MindSpore names the graph's data inputs inputs0, inputs1, ...


def layout(store) -> html.Div:
    runs = [r for r in store.sorted_runs() if r.graph is not None or r.cell_tree is not None]
    controls = _ui.sidebar(
        _ui.labelled("Run", dcc.Dropdown(id="net-run", options=_ui.run_options(runs),
                                         value=runs[0].id if runs else None, clearable=False)),
        html.Div([html.Button("Collapse all", id="net-collapse"), html.Button("Expand all", id="net-expand"),
                  html.Button("Reset", id="net-reset")], className="insight-buttons"),
        _ui.note("Click a scope (square) to open it; click a node to close the scope around it."),
        html.Div(id="net-node", className="insight-node"),
    )
    main = html.Div([
        html.H3("Cell tree"), html.Div(id="net-cells"),
        html.H3("Graph"), _ui.note("", id="net-summary"),
        dcc.Store(id="net-expanded"),
        dcc.Graph(id="net-graph", config={"displaylogo": False}, className="insight-graph"),
    ], className="insight-main")
    return html.Div([controls, main], className="insight-page")


def _count(shape) -> int:
    return int(math.prod(int(d) for d in shape)) if shape else 1


def _tree_from_params(params) -> dict:
    """A Cell tree guessed from dotted parameter names (``conv1.weight`` -> cell conv1)."""
    root = {"name": "(parameters of the traced graph)", "type": "", "params": [], "children": []}
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
    body = []
    if rows:
        body.append(html.Table([html.Thead(html.Tr([html.Th(h) for h in ("parameter", "shape", "dtype", "count")])),
                                html.Tbody(rows)], className="insight-params"))
    body += [cell_tree_view(c, depth + 1) for c in tree.get("children", []) if isinstance(c, dict)]
    kind = f" ({tree.get('type')})" if tree.get("type") else ""
    summary = html.Summary([html.B(str(tree.get("name", "?"))), kind, f" — {_total(tree):,} parameters"])
    return html.Details([summary] + body, open=depth < 2, className="insight-cell")


def graph_figure(model, expanded: set[str]) -> tuple[dict, str]:
    """The graph drawn with the given scopes open; returns (figure, summary text)."""
    units, edges = visible_graph(model, expanded)
    summary = (f"{model.source}: {len(model.nodes)} nodes, {len(model.scopes())} name scopes; "
               f"{len(units)} shown")
    if len(units) > _ui.MAX_GRAPH_UNITS:
        return _ui.empty_figure(f"{len(units)} nodes would be shown (limit {_ui.MAX_GRAPH_UNITS}); "
                                "collapse some scopes"), summary
    pos = graph_layout(units, edges)
    ex, ey = [], []
    for a, b in edges:
        ex += [pos[a][0], pos[b][0], None]
        ey += [pos[a][1], pos[b][1], None]
    data = [{"type": "scatter", "mode": "lines", "x": ex, "y": ey, "hoverinfo": "skip", "showlegend": False,
             "line": {"color": "#b0b0b0", "width": 1}}]
    for kind, symbol, size, color in (("scope", "square", 18, "#f2a541"), ("op", "circle", 10, "#4a78b5")):
        names = [n for n in units if units[n]["kind"] == kind]
        short = [n.rsplit("/", 1)[-1] for n in names]
        def cut(t):
            return t if len(t) <= 22 else t[:21] + "…"
        labels = [f"{cut(s)} ({units[n]['count']})" if kind == "scope"
                  else cut(s if units[n]["op"] == "Parameter" else units[n]["op"]) for n, s in zip(names, short)]
        hover = [f"{n}<br>{units[n]['op'] or 'scope'} {units[n]['shape']}" for n in names]
        data.append({"type": "scatter", "mode": "markers+text", "x": [pos[n][0] for n in names],
                     "y": [pos[n][1] for n in names], "text": [_ui.esc(t) for t in labels],
                     "hovertext": [_ui.esc(h).replace("&lt;br&gt;", "<br>") for h in hover], "hoverinfo": "text",
                     "textposition": "middle right", "textfont": {"size": 10},
                     "customdata": [[n, kind] for n in names], "name": kind, "showlegend": False,
                     "marker": {"symbol": symbol, "size": size, "color": color,
                                "line": {"width": 1, "color": "#333"}},
                     "meta": {"kind": kind, "names": names}})
    layers = len({p[1] for p in pos.values()})
    lay = _ui.base_layout("", height=max(420, min(3000, 70 * layers)), hovermode="closest",
                          xaxis={"visible": False}, yaxis={"visible": False}, margin={"l": 10, "r": 10, "t": 10,
                                                                                     "b": 10},
                          uirevision="graph")
    return {"data": data, "layout": lay}, summary


def register(app, store) -> None:
    cache: dict = {}

    def model_of(run):
        if run is None or run.graph is None:
            return None
        key = run.id
        hit = cache.get(key)
        if hit is None or hit[0] is not run.graph:
            hit = (run.graph, build_model(run.graph))
            cache[key] = hit
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
        model = model_of(run)
        params = [p for p in (model.params if model else []) if not _GRAPH_INPUT.match(p[0])]
        if params:
            return [_ui.note("No network/cell_tree summary in this run; cells guessed from the parameter names "
                             "of the traced graph."), cell_tree_view(_tree_from_params(params))]
        return _ui.note("No network/cell_tree summary in this run.")

    @app.callback(Output("net-expanded", "data"), Output("net-node", "children"),
                  Input("net-run", "value"), Input("net-graph", "clickData"), Input("net-collapse", "n_clicks"),
                  Input("net-expand", "n_clicks"), Input("net-reset", "n_clicks"), State("net-expanded", "data"))
    def _expand(run_id, click, _c, _e, _r, expanded):
        model = model_of(store.run(run_id))
        if model is None:
            return [], ""
        trig = ctx.triggered_id
        exp = set(expanded or [])
        info = no_update
        if trig == "net-collapse":
            exp = set()
        elif trig == "net-expand":
            exp = auto_expand(model, _ui.MAX_GRAPH_UNITS)
        elif trig == "net-graph" and click and click.get("points"):
            cd = click["points"][0].get("customdata")
            if not (isinstance(cd, list) and len(cd) == 2):
                return no_update, no_update
            name, kind = str(cd[0]), cd[1]
            if kind == "scope" and name in model.scopes():
                exp.add(name)
            elif name in model.nodes and "/" in name:
                parent = name.rsplit("/", 1)[0]
                exp = {s for s in exp if s != parent and not s.startswith(parent + "/")}
                node = model.nodes[name]
                info = [html.B(node.op), html.Div(name), html.Div(f"output {node.shape}" if node.shape else ""),
                        html.Div(f"{len(node.inputs)} inputs")]
        else:  # new run or reset
            exp = auto_expand(model, INITIAL_UNITS)
        return sorted(exp), info

    @app.callback(Output("net-graph", "figure"), Output("net-summary", "children"),
                  Input("net-expanded", "data"), State("net-run", "value"))
    def _figure(expanded, run_id):
        run = store.run(run_id)
        model = model_of(run)
        if model is None:
            return _ui.empty_figure("no graph in this run"), "No graph_def event in this run."
        return graph_figure(model, set(expanded or []))
