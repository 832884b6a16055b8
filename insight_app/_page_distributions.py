"""Distributions page: TensorBoard's view of histograms over steps as percentile bands (min, ±1σ, ±1.5σ
equivalents, median, max) -- the same basis points TensorBoard's compressed histograms use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from dash import Input, Output, State, dcc, html, no_update

from . import _ui

if TYPE_CHECKING:
    import dash
    from dash.development.base_component import Component

    from ._series import Histogram
    from ._store import LogStore, RunView

PATH = "/distributions"
TITLE = "Distributions"
# TensorBoard's NORMAL_HISTOGRAM_BPS: percentiles at -inf, -1.5σ, -1σ, -0.5σ, 0, 0.5σ, 1σ, 1.5σ, +inf.
BASIS_POINTS = (0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000)
MAX_STEPS = 500


def percentiles(h: Histogram, bps: Sequence[int] = BASIS_POINTS) -> np.ndarray:
    """Values at the given basis points of one histogram, interpolating linearly inside buckets.

    >>> from insight_app._series import Histogram
    >>> h = Histogram(0, 0.0, np.array([0.0, 1.0]), np.array([1.0, 2.0]), np.array([1.0, 1.0]), 0.0, 2.0, 2.0)
    >>> percentiles(h, (0, 5000, 10000)).tolist()
    [0.0, 1.0, 2.0]
    """
    if h.counts.size == 0 or not np.sum(h.counts) > 0:
        return np.full(len(bps), np.nan)
    xs = np.concatenate([h.left[:1], h.right])
    cdf = np.concatenate([[0.0], np.cumsum(h.counts)])
    cdf /= cdf[-1]
    # np.interp needs increasing xp: drop the flat steps of empty buckets (keep their first edge).
    keep = np.concatenate([[True], np.diff(cdf) > 0])
    return np.interp(np.asarray(bps, np.float64) / 10000.0, cdf[keep], xs[keep])


def figure(run: RunView, tag: str) -> dict:
    """Bands between symmetric percentiles, darker towards the median, over steps."""
    hists = run.histograms.get(tag, ())
    if not hists:
        return _ui.empty_figure("no histograms")
    idx = np.unique(np.round(np.linspace(0, len(hists) - 1, min(len(hists), MAX_STEPS))).astype(np.int64))
    steps = [int(hists[i].step) for i in idx]
    pct = np.array([percentiles(hists[i]) for i in idx])  # steps x 9
    data = []
    k = len(BASIS_POINTS)
    for j in range(k // 2):  # outermost band first, so inner bands are drawn over it
        lo, hi = pct[:, j], pct[:, k - 1 - j]
        alpha = 0.15 + 0.2 * j
        data.append({"type": "scatter", "mode": "lines", "x": steps, "y": hi.tolist(), "line": {"width": 0},
                     "hoverinfo": "skip", "showlegend": False})
        data.append({"type": "scatter", "mode": "lines", "x": steps, "y": lo.tolist(), "line": {"width": 0},
                     "fill": "tonexty", "fillcolor": f"rgba(31, 119, 180, {alpha:.2f})", "hoverinfo": "skip",
                     "name": f"{BASIS_POINTS[j] / 100:g}–{BASIS_POINTS[k - 1 - j] / 100:g}%", "showlegend": False})
    data.append({"type": "scatter", "mode": "lines", "x": steps, "y": pct[:, k // 2].tolist(), "name": "median",
                 "line": {"color": "#1f4e79", "width": 1.5}, "showlegend": False,
                 "meta": {"bands": k // 2, "steps": len(steps)}})
    lay = _ui.base_layout(f"{tag} — {run.name}", xaxis={"title": {"text": "step"}},
                          yaxis={"title": {"text": "value"}}, uirevision=f"{run.id}|{tag}")
    return {"data": data, "layout": lay}


def layout(store: LogStore) -> html.Div:
    runs = [r for r in store.snapshot().sorted_runs() if r.histograms]
    controls = _ui.sidebar(
        _ui.labelled("Runs", dcc.Dropdown(id="di-runs", options=_ui.run_options(runs),
                                          value=[r.id for r in runs[:1]], multi=True)),
        _ui.labelled("Tags (RE2 regex filter)", dcc.Input(id="di-tag-regex", type="text", debounce=True, value="")),
        _ui.note("Bands: min–max, then the 6.7–93.3, 15.9–84.1 and 30.9–69.1 percentiles; line: median."),
        _ui.note("", id="di-status"),
    )
    return html.Div([controls, html.Div(id="di-charts", className="insight-main")], className="insight-page")


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("di-runs", "options"), Input("insight-gen", "data"), State("di-runs", "options"),
                  prevent_initial_call=True)
    def _new_runs(_gen, options):
        opts = _ui.run_options([r for r in store.snapshot().sorted_runs() if r.histograms])
        return no_update if opts == options else opts

    @app.callback(Output("di-charts", "children"), Output("di-status", "children"),
                  Input("di-runs", "value"), Input("di-tag-regex", "value"), Input("insight-gen", "data"))
    def _charts(run_ids, tag_regex, _gen):
        trx, err = _ui.compile_filter(tag_regex)
        runs = _ui.selected_runs(store.snapshot(), run_ids, None)
        pairs = [(r, t) for r in runs for t in sorted(r.histograms) if trx is None or trx.search(t)]
        charts: list[Component] = [dcc.Graph(id={"type": "di-graph", "run": r.id, "tag": t}, className="insight-chart",
                            figure=figure(r, t), config={"displaylogo": False}) for r, t in pairs[:_ui.MAX_CHARTS]]
        status = f"{len(pairs)} distributions"
        return charts or [_ui.note("No histograms for the selected runs.")], " ".join(x for x in (status, err) if x)
