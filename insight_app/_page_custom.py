"""Custom scalars page: the chart layouts a run declared with tensorboardX ``add_custom_scalars``
(categories of multiline charts, whose lines are the tags matching regular expressions, and margin
charts: a value with a lower/upper band)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dash import Input, Output, dcc, html

from . import _ui
from ._smooth import decimate

if TYPE_CHECKING:
    import dash

    from ._store import LogStore, RunView, Snapshot

PATH = "/custom_scalars"
TITLE = "Custom scalars"


def merged_layout(runs: Sequence[RunView]) -> list:
    """The categories of every run's layout, each (category, chart) once, in first-seen order."""
    out: dict[str, dict] = {}
    for r in runs:
        for cat, charts in r.custom_layout or []:
            slot = out.setdefault(cat, {})
            for title, kind, spec in charts:
                slot.setdefault(title, (kind, spec))
    return [(cat, [(t, k, s) for t, (k, s) in charts.items()]) for cat, charts in out.items()]


def _line(snap, run, tag, name, **kw) -> dict:
    step, _, value = run.scalars[tag].arrays()
    x, y = decimate(step.astype(float), value, _ui.MAX_POINTS)
    trace = {"type": "scatter", "mode": "lines", "x": x.astype(int).tolist(), "y": y.tolist(),
             "name": _ui.esc(name), "line": {"color": _ui.run_color(snap, run.id), "width": 1.5},
             "meta": {"run": run.id, "tag": tag}}
    trace.update(kw)
    return trace


def figure(snap: Snapshot, runs: Sequence[RunView], title: str, kind: str, spec: Any) -> dict:
    """One custom chart over the given runs."""
    data = []
    if kind == "margin":
        for run in runs[:_ui.MAX_SERIES]:
            for value, lower, upper in spec:
                if not all(t in run.scalars for t in (value, lower, upper)):
                    continue
                data.append(_line(snap, run, upper, f"{run.name}/{upper}", line={"width": 0}, showlegend=False))
                data.append(_line(snap, run, lower, f"{run.name}/{lower}", line={"width": 0}, fill="tonexty",
                                  fillcolor="rgba(31, 119, 180, 0.2)", showlegend=False))
                data.append(_line(snap, run, value, f"{run.name}/{value}"))
    else:
        rxs = [rx for rx, _ in (_ui.compile_filter(p) for p in spec) if rx is not None]
        for run in runs[:_ui.MAX_SERIES]:
            for tag in sorted(run.scalars):
                if any(rx.search(tag) for rx in rxs) and len(data) < _ui.MAX_SERIES:
                    data.append(_line(snap, run, tag, f"{run.name}/{tag}"))
    if not data:
        return _ui.empty_figure(f"{title}: no matching scalars")
    return {"data": data, "layout": _ui.base_layout(title, xaxis={"title": {"text": "step"}}, uirevision=title)}


def layout(store: LogStore) -> html.Div:
    runs = [r for r in store.snapshot().sorted_runs() if r.scalars]
    controls = _ui.sidebar(
        _ui.labelled("Runs", dcc.Dropdown(id="cs-runs", options=_ui.run_options(runs), value=[r.id for r in runs],
                                          multi=True)),
        _ui.note("Layouts come from tensorboardX add_custom_scalars in any run.", id="cs-status"),
    )
    return html.Div([controls, html.Div(id="cs-charts", className="insight-main")], className="insight-page")


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("cs-charts", "children"), Input("cs-runs", "value"), Input("insight-gen", "data"))
    def _charts(run_ids, _gen):
        snap = store.snapshot()
        lay = merged_layout(snap.sorted_runs())
        if not lay:
            return [_ui.note("No run declares a custom-scalars layout (tensorboardX add_custom_scalars).")]
        runs = _ui.selected_runs(snap, run_ids, None)
        blocks, budget = [], _ui.MAX_CHARTS
        for cat, charts in lay:
            figs = [dcc.Graph(id={"type": "cs-graph", "cat": cat, "chart": t}, className="insight-chart",
                              figure=figure(snap, runs, t, k, s), config={"displaylogo": False})
                    for t, k, s in charts[:max(budget, 0)]]
            budget -= len(figs)
            blocks.append(html.Details([html.Summary(cat, className="insight-group"), *figs], open=True))
        return blocks
