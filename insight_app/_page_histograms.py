"""Histograms page: each (run, tag) histogram over steps, as overlaid lines or an offset (ridge) view."""

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

PATH = "/histograms"
TITLE = "Histograms"
BINS = 30
MAX_RIDGES = 20


def layout(store: LogStore) -> html.Div:
    runs = [r for r in store.snapshot().sorted_runs() if r.histograms]
    controls = _ui.sidebar(
        _ui.labelled("Runs", dcc.Dropdown(id="hi-runs", options=_ui.run_options(runs),
                                          value=[r.id for r in runs[:1]], multi=True)),
        _ui.labelled("Tags (RE2 regex filter)", dcc.Input(id="hi-tag-regex", type="text", debounce=True, value="")),
        _ui.labelled("View", dcc.RadioItems(id="hi-mode", options=[{"label": "offset (ridge)", "value": "offset"},
                                                                   {"label": "overlay", "value": "overlay"}],
                                            value="offset", persistence=True, persistence_type="session")),
        _ui.note("", id="hi-status"),
    )
    return html.Div([controls, html.Div(id="hi-charts", className="insight-main")], className="insight-page")


def pick_steps(n: int, k: int) -> np.ndarray:
    """Up to k evenly spaced indices of n, always including the first and the last."""
    if n <= k:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, k)).astype(np.int64))


def rebin(hists: Sequence[Histogram], bins: int = BINS) -> tuple[np.ndarray, np.ndarray]:
    """Re-bin histograms onto one uniform grid (as TensorBoard does), spreading each bucket's count
    uniformly over its width. Returns (edges, counts matrix steps x bins)."""
    lo = min((float(h.left[0]) for h in hists if h.left.size), default=0.0)
    hi = max((float(h.right[-1]) for h in hists if h.right.size), default=1.0)
    if not hi > lo:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    out = np.zeros((len(hists), bins))
    for i, h in enumerate(hists):
        if h.counts.size == 0:
            continue
        # Piecewise-linear CDF through the bucket edges, sampled at the grid edges.
        xs = np.concatenate([h.left[:1], h.right])
        cdf = np.concatenate([[0.0], np.cumsum(h.counts)])
        out[i] = np.diff(np.interp(edges, xs, cdf))
    return edges, out


def figure(run: RunView, tag: str, mode: str) -> dict:
    """The chart of one (run, tag): one trace per shown step (meta holds the step and its count)."""
    hists: Sequence[Histogram] = run.histograms.get(tag, [])
    if not hists:
        return _ui.empty_figure("no histograms")
    # An offset view stays legible with about 20 ridges at 22 px each; an overlay takes more lines.
    idx = pick_steps(len(hists), MAX_RIDGES if mode != "overlay" else _ui.MAX_HIST_STEPS)
    shown = [hists[i] for i in idx]
    edges, counts = rebin(shown)
    centers = (edges[:-1] + edges[1:]) / 2
    steps = [int(h.step) for h in shown]
    data = []
    peak = float(counts.max()) if counts.size and counts.max() > 0 else 1.0
    for k, (h, c) in enumerate(zip(shown, counts)):
        frac = k / max(len(shown) - 1, 1)
        color = f"rgba({int(255 * (1 - frac))}, {int(90 + 60 * frac)}, {int(60 + 180 * frac)}, 1)"
        meta = {"step": steps[k], "total": float(h.counts.sum())}
        hover = f"step {steps[k]}<br>%{{x:.4g}}: %{{customdata:.4g}}<extra></extra>"
        if mode == "overlay":
            data.append({"type": "scatter", "mode": "lines", "x": centers.tolist(), "y": c.tolist(),
                         "customdata": c.tolist(), "name": f"step {steps[k]}", "line": {"color": color, "width": 1.5},
                         "meta": meta, "hovertemplate": hover, "showlegend": False})
        else:
            base = -k  # later steps lower down, drawn last so they sit in front
            y = base + 1.8 * c / peak  # the tallest ridge overlaps less than two rows behind it
            # A closed polygon down to the baseline, filled, so nearer ridges hide the ones behind.
            data.append({"type": "scatter", "mode": "lines", "x": centers.tolist() + [centers[-1], centers[0]],
                         "y": y.tolist() + [base, base], "customdata": c.tolist() + [0.0, 0.0],
                         "fill": "toself", "fillcolor": color.replace(", 1)", ", 0.25)"),
                         "name": f"step {steps[k]}", "line": {"color": color, "width": 1.2},
                         "meta": meta, "hovertemplate": hover, "showlegend": False})
    title = f"{tag} — {run.name}"
    if mode == "overlay":
        lay = _ui.base_layout(title, xaxis={"title": {"text": "value"}, "zeroline": False},
                              yaxis={"title": {"text": "count"}})
    else:
        ticks = pick_steps(len(shown), 8)
        lay = _ui.base_layout(title, height=max(320, 140 + 22 * len(shown)),
                              xaxis={"title": {"text": "value"}, "zeroline": False},
                              yaxis={"title": {"text": "step"}, "tickvals": [-int(i) for i in ticks],
                                     "ticktext": [str(steps[i]) for i in ticks]})
    note = f"{len(hists)} steps" + (f", {len(shown)} drawn" if len(shown) < len(hists) else "")
    lay["annotations"] = [{"text": note, "showarrow": False, "xref": "paper", "yref": "paper", "x": 0, "y": 1.08,
                           "xanchor": "left", "font": {"size": 10}}]
    return {"data": data, "layout": lay}


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("hi-runs", "options"), Input("insight-gen", "data"), State("hi-runs", "options"),
                  prevent_initial_call=True)
    def _new_runs(_gen, options):
        opts = _ui.run_options([r for r in store.snapshot().sorted_runs() if r.histograms])
        return no_update if opts == options else opts

    @app.callback(Output("hi-charts", "children"), Output("hi-status", "children"),
                  Input("hi-runs", "value"), Input("hi-tag-regex", "value"), Input("hi-mode", "value"),
                  Input("insight-gen", "data"))
    def _charts(run_ids, tag_regex, mode, _gen):
        trx, err = _ui.compile_filter(tag_regex)
        runs = _ui.selected_runs(store.snapshot(), run_ids, None)
        pairs = [(r, t) for r in runs for t in sorted(r.histograms) if trx is None or trx.search(t)]
        charts: list[Component] = [dcc.Graph(id={"type": "hi-graph", "run": r.id, "tag": t}, className="insight-chart",
                            figure=figure(r, t, mode), config={"displaylogo": False})
                  for r, t in pairs[:_ui.MAX_CHARTS]]
        if not charts:
            charts = [_ui.note("No histograms for the selected runs.")]
        status = f"{len(pairs)} histogram tags" + (f" (first {_ui.MAX_CHARTS} shown)" if len(pairs) > _ui.MAX_CHARTS
                                                   else "")
        return charts, " ".join(s for s in (status, err) if s)
