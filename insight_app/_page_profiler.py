"""Profiler page: what ``mindspore_hl.profiler`` recorded — step-time stacked bars, a sortable operation table,
the per-Cell time tree, one step's timeline, compiles (recompilations with both input signatures) and memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dash import Input, Output, dash_table, dcc, html

from . import _profile_reader as reader
from . import _ui

if TYPE_CHECKING:
    import dash

    from ._store import LogStore

PATH = "/profiler"
TITLE = "Profiler"
MAX_TREE_NODES = 400


def layout(store: LogStore) -> html.Div:
    sessions = reader.find_sessions(store.root)
    controls = _ui.sidebar(
        _ui.labelled("Profile", dcc.Dropdown(id="pf-session", options=[{"label": s, "value": s} for s in sessions],
                                             value=sessions[-1] if sessions else None, clearable=False)),
        _ui.labelled("Timeline step", dcc.Dropdown(id="pf-step", clearable=False)),
        _ui.note("", id="pf-status"),
    )
    table = dash_table.DataTable(  # type: ignore[attr-defined]  # dash_table creates its classes at import time
        id="pf-ops", sort_action="native", filter_action="native", page_size=15,
        columns=[{"name": n, "id": i} for n, i in (
            ("op", "op_name"), ("type", "op_type"), ("Cell", "cell"), ("pass", "pass"), ("count", "occurrences"),
            ("total ms", "total_ms"), ("avg ms", "avg_ms"), ("wall ms", "wall_ms"), ("%", "percent"))],
        style_cell={"fontSize": 12, "textAlign": "left", "maxWidth": 360, "overflow": "hidden",
                    "textOverflow": "ellipsis"}, style_table={"overflowX": "auto"})
    main = html.Div([
        dcc.Graph(id="pf-steps", className="insight-chart"),
        html.H3("Operations"), table,
        html.H3("Time per Cell (ms per step, sub-Cells included)"), html.Div(id="pf-cells"),
        dcc.Graph(id="pf-timeline", className="insight-chart"),
        html.H3("Compiles"), html.Div(id="pf-compiles"),
        dcc.Graph(id="pf-memory", className="insight-chart"),
    ], className="insight-main")
    return html.Div([controls, main], className="insight-page")


def _folder(store, session):
    return store.confine(session)


def _steps_figure(summary):
    bars = reader.step_bars(summary)
    data = [{"type": "bar", "name": name, "x": bars["step"], "y": bars[name]}
            for name, _ in reader.STEP_PARTS]
    return {"data": data, "layout": _ui.base_layout("Step time (ms)", barmode="stack",
                                                     xaxis={"title": "step", "type": "category"})}


def _tree(nodes, path, total, depth=0):
    n = nodes[path]
    flops = f", {n['flops'] / 1e6:.2f} MFLOP" if n["flops"] else ""
    label = f"{path.rsplit('.', 1)[-1] if path else 'all Cells'} — {n['total_ms']:.3f} ms " \
            f"({100 * n['total_ms'] / total:.1f} %){flops}" if total else path
    kids = [_tree(nodes, c, total, depth + 1) for c in n["children"]]
    if not kids:
        return html.Div(label, className="insight-cell pf-cell", title=path)
    return html.Details([html.Summary(label, title=path, className="pf-cell")] + kids, open=depth < 3,
                        className="insight-cell")


def _compiles(summary):
    rows = []
    for c in summary["compiles"]:
        t = c.get("trace_s", 0) + c.get("lower_s", 0) + c.get("compile_s", 0)
        if "recompile_of" in c:
            changed = "; ".join(f"input {d['arg']}: {d['before']} → {d['after']}" for d in c["changed"])
            rows.append(html.Li([html.B(f"recompiled {c['function']}"), f" ({t:.3f} s): {changed}"],
                                className="pf-recompile"))
        else:
            rows.append(html.Li(f"compiled {c['function']} ({t:.3f} s), {len(c['signature'])} inputs"))
    return html.Ul(rows) if rows else _ui.note("No compiles while profiling (the steps were compiled before).")


def _memory_figure(summary):
    mem = reader.memory_curve(summary)
    if not mem["t_ms"]:
        return _ui.empty_figure("No memory samples (profile with profile_memory=True).")
    data = [{"type": "scatter", "mode": "lines", "name": "live device arrays", "x": mem["t_ms"],
             "y": mem["device_mb"]},
            {"type": "scatter", "mode": "lines", "name": "host RSS", "x": mem["t_ms"], "y": mem["host_mb"],
             "yaxis": "y2"}]
    return {"data": data, "layout": _ui.base_layout("Memory (MiB)", xaxis={"title": "ms since start"},
                                                     yaxis={"title": "device"},
                                                     yaxis2={"title": "host RSS", "overlaying": "y",
                                                             "side": "right"})}


def _timeline_figure(folder, summary, step):
    spans = reader.timeline(folder, summary, step)
    if not spans:
        return _ui.empty_figure("No op spans in this step.")
    cell = {r["op_name"]: r["cell"] for r in summary["ops"]}
    names = [s["name"] for s in spans]
    return {"data": [{"type": "bar", "orientation": "h", "base": [s["ts"] / 1e3 for s in spans],
                      "x": [max(s["dur"], 0.01) / 1e3 for s in spans], "y": [cell.get(n, n) for n in names],
                      "text": names, "hovertemplate": "%{text}<br>%{y}<br>start %{base:.3f} ms, %{x:.3f} ms"
                                                      "<extra></extra>"}],
            "layout": _ui.base_layout(f"Step {step} timeline", xaxis={"title": "ms since the step started"},
                                      height=420, margin={"l": 260, "r": 20, "t": 40, "b": 40})}


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("pf-step", "options"), Output("pf-step", "value"), Input("pf-session", "value"))
    def _steps(session):
        if not session:
            return [], None
        try:
            summary = reader.load_summary(_folder(store, session))
        except (OSError, reader.ProfileError, ValueError):
            return [], None
        steps = [s["step"] for s in summary["steps"]]
        return [{"label": str(s), "value": s} for s in steps], (steps[len(steps) // 2] if steps else None)

    @app.callback(Output("pf-steps", "figure"), Output("pf-ops", "data"), Output("pf-cells", "children"),
                  Output("pf-compiles", "children"), Output("pf-memory", "figure"), Output("pf-status", "children"),
                  Input("pf-session", "value"), Input("insight-gen", "data"))
    def _session(session, _gen):
        empty = _ui.empty_figure("No profile.")
        if not session:
            return empty, [], _ui.note("No profiles under the log root (write one with "
                                       "mindspore_hl.Profiler(...).analyse())."), [], empty, ""
        try:
            summary = reader.load_summary(_folder(store, session))
        except (OSError, reader.ProfileError, ValueError) as e:
            return empty, [], _ui.note(f"{session}: {e}"), [], empty, f"unreadable profile: {e}"
        nodes = reader.cell_tree(summary)
        if len(nodes) > MAX_TREE_NODES:
            nodes = {k: v for k, v in nodes.items() if k.count(".") < 3}
            for v in nodes.values():
                v["children"] = [c for c in v["children"] if c in nodes]
        status = f"{len(summary['steps'])} steps, main module {summary.get('main_module')}"
        if summary.get("step_gflops_per_s"):
            status += f", {summary['step_gflops_per_s']:.2f} GFLOP/s"
        return (_steps_figure(summary), reader.op_rows(summary), _tree(nodes, "", nodes[""]["total_ms"]),
                _compiles(summary), _memory_figure(summary), status)

    @app.callback(Output("pf-timeline", "figure"), Input("pf-session", "value"), Input("pf-step", "value"))
    def _timeline(session, step):
        if not session or step is None:
            return _ui.empty_figure("Choose a step.")
        try:
            folder = _folder(store, session)
            return _timeline_figure(folder, reader.load_summary(folder), step)
        except (OSError, reader.ProfileError, ValueError) as e:
            return _ui.empty_figure(f"{session}: {e}")
