"""PR curves page: precision against recall (tensorboardX ``add_pr_curve``), one chart per tag, runs
overlaid, at a chosen step (the latest by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from dash import Input, Output, dcc, html

from . import _ui

if TYPE_CHECKING:
    import dash
    from dash.development.base_component import Component

    from ._series import PRCurve
    from ._store import LogStore, RunView, Snapshot

PATH = "/pr_curves"
TITLE = "PR curves"


def curve_at(curves: Sequence[PRCurve], step: int | None) -> PRCurve | None:
    """The curve logged at the latest step <= ``step`` (the latest curve when ``step`` is None)."""
    if not curves:
        return None
    if step is None:
        return curves[-1]
    before = [c for c in curves if c.step <= step]
    return before[-1] if before else curves[0]


def figure(snap: Snapshot, tag: str, runs: Sequence[RunView], step: int | None) -> dict:
    """Precision (y) against recall (x) for each run at ``step``; hover shows the threshold."""
    data = []
    for run in runs[:_ui.MAX_SERIES]:
        c = curve_at(run.pr_curves.get(tag, ()), step)
        if c is None:
            continue
        precision, recall = c.data[4], c.data[5]
        thresholds = np.linspace(0.0, 1.0, precision.size)
        data.append({"type": "scatter", "mode": "lines", "x": recall.tolist(), "y": precision.tolist(),
                     "customdata": thresholds.tolist(), "name": _ui.esc(f"{run.name} (step {c.step})"),
                     "line": {"color": _ui.run_color(snap, run.id), "width": 2},
                     "hovertemplate": "recall %{x:.3f}<br>precision %{y:.3f}<br>threshold %{customdata:.3f}",
                     "meta": {"run": run.id, "step": int(c.step)}})
    lay = _ui.base_layout(tag, xaxis={"title": {"text": "recall"}, "range": [0, 1.02]},
                          yaxis={"title": {"text": "precision"}, "range": [0, 1.02]}, uirevision=tag)
    return {"data": data, "layout": lay}


def layout(store: LogStore) -> html.Div:
    runs = [r for r in store.snapshot().sorted_runs() if r.pr_curves]
    steps = sorted({int(c.step) for r in runs for v in r.pr_curves.values() for c in v})
    controls = _ui.sidebar(
        _ui.labelled("Runs", dcc.Dropdown(id="pr-runs", options=_ui.run_options(runs), value=[r.id for r in runs],
                                          multi=True)),
        _ui.labelled("Step (latest at or before)", dcc.Dropdown(
            id="pr-step", options=[{"label": str(s), "value": s} for s in steps],
            value=steps[-1] if steps else None)),
        _ui.note("", id="pr-status"),
    )
    return html.Div([controls, html.Div(id="pr-charts", className="insight-main")], className="insight-page")


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("pr-charts", "children"), Output("pr-status", "children"),
                  Input("pr-runs", "value"), Input("pr-step", "value"), Input("insight-gen", "data"))
    def _charts(run_ids, step, _gen):
        snap = store.snapshot()
        runs = _ui.selected_runs(snap, run_ids, None)
        step = step if isinstance(step, int) else None
        tags = sorted({t for r in runs for t in r.pr_curves})
        charts: list[Component] = [dcc.Graph(id={"type": "pr-graph", "tag": t}, className="insight-chart",
                            figure=figure(snap, t, runs, step), config={"displaylogo": False})
                  for t in tags[:_ui.MAX_CHARTS]]
        return charts or [_ui.note("No PR curves for the selected runs.")], f"{len(tags)} PR-curve tags"
