"""Scalars page: one chart per tag (grouped by tag prefix, pinned tags first), runs overlaid, smoothing
(slider or typed value), x-axis mode (step, relative, local wall time), log scale, streamed export.

Renders read one immutable snapshot of the store, never a lock. The zoom of each chart is kept in
``sc-zoom`` (per tag) and sent back with every re-render, with a constant ``uirevision``, so neither a
live refresh nor a change of settings resets it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import numpy as np
from dash import ALL, MATCH, Input, Output, State, ctx, dcc, html, no_update

from . import _ui
from ._cache import LRU
from ._smooth import decimate, ema_smooth

if TYPE_CHECKING:
    import dash
    from dash.development.base_component import Component

    from ._store import LogStore, RunView, Snapshot

PATH = "/scalars"
TITLE = "Scalars"
DEFAULT_SMOOTHING = 0.6
X_MODES = {"step": "step", "relative": "relative time (s)", "wall": "wall time"}
NO_GROUP = "(no prefix)"
_TRACES = LRU(256)      # (run, epoch, tag, points, settings) -> the traces of that run in that chart
_SMOOTHED = LRU(64)     # (run, epoch, tag, points, weight) -> the smoothed series


def layout(store: LogStore) -> html.Div:
    snap = store.snapshot()
    runs = [r for r in snap.sorted_runs() if r.scalars]
    tags = sorted({t for r in runs for t in r.scalars})
    charts, status = render(snap, [r.id for r in runs], "", "", DEFAULT_SMOOTHING, "step", [], [], {}, None)
    controls = _ui.sidebar(
        _ui.labelled("Runs (RE2 regex filter)", dcc.Input(id="sc-run-regex", type="text", debounce=True,
                                                      placeholder="e.g. lr_.*", value="")),
        dcc.Checklist(id="sc-runs", options=_ui.run_options(runs), value=[r.id for r in runs],
                      className="insight-runlist"),
        dcc.Store(id="sc-known", data=[r.id for r in runs]),
        _ui.labelled("Tags (RE2 regex filter)", dcc.Input(id="sc-tag-regex", type="text", debounce=True, value="")),
        _ui.labelled("Pinned tags (shown first)", dcc.Dropdown(
            id="sc-pinned", options=[{"label": t, "value": t} for t in tags], value=[], multi=True,
            persistence=True, persistence_type="local")),
        _ui.labelled("Smoothing", html.Div([
            html.Div(dcc.Slider(id="sc-smoothing", min=0, max=0.999, step=0.001, value=DEFAULT_SMOOTHING,
                                marks={0: "0", 0.5: "0.5", 0.9: "0.9"}, updatemode="mouseup"),
                     style={"flex": "1"}),
            dcc.Input(id="sc-smoothing-num", type="number", min=0, max=0.999, step=0.001, debounce=True,
                      value=DEFAULT_SMOOTHING, style={"width": "64px"})], style={"display": "flex"})),
        _ui.labelled("Horizontal axis", dcc.RadioItems(id="sc-xaxis", options=[
            {"label": v, "value": k} for k, v in X_MODES.items()], value="step")),
        dcc.Checklist(id="sc-logy", options=[{"label": "log-scale y axis", "value": "log"}], value=[]),
        html.Div([html.A("Download CSV", id="sc-dl-csv", download="scalars.csv", className="insight-button"),
                  html.A("Download JSON", id="sc-dl-json", download="scalars.json", className="insight-button")],
                 className="insight-buttons"),
        dcc.Store(id="sc-zoom", data={}),
        _ui.note(status, id="sc-status"),
        _ui.note("Long runs are drawn min/max-downsampled to about "
                 f"{_ui.MAX_POINTS} points per line (every spike kept); zoom in for every point."),
    )
    # The first charts are part of the page, which saves the browser a round trip before drawing.
    return html.Div([controls, html.Div(charts, id="sc-charts", className="insight-main")], className="insight-page")


def _xy(run, tag, xmode):
    step, wall, value = run.scalars[tag].arrays()
    if xmode == "relative":
        x = wall - (run.first_wall if np.isfinite(run.first_wall) else 0.0)
    elif xmode == "wall":
        x = wall
    else:
        x = step.astype(np.float64)
    return x, value


def _x_out(x: np.ndarray, xmode: str, tz=None):
    if xmode == "wall":
        return _ui.local_times(x, tz)
    if xmode == "step":
        return x.astype(np.int64).tolist()
    return x.tolist()


def _x_range(relayout, xmode, tz=None):
    """The visible x range from a relayoutData event, "auto" for a reset, or None if x did not change."""
    if not isinstance(relayout, dict) or not relayout:
        return None
    if relayout.get("xaxis.autorange"):
        return "auto"
    lo: Any  # values from the browser; anything float() refuses is ignored below
    hi: Any
    if "xaxis.range[0]" in relayout:
        lo, hi = relayout["xaxis.range[0]"], relayout.get("xaxis.range[1]")
    elif isinstance(relayout.get("xaxis.range"), list) and len(relayout["xaxis.range"]) == 2:
        lo, hi = relayout["xaxis.range"]
    else:
        return None
    try:
        if xmode == "wall":
            lo, hi = _ui.parse_local_time(lo, tz), _ui.parse_local_time(hi, tz)
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError, OverflowError):  # not a range this page produced: ignore it
        return None
    return (lo, hi) if np.isfinite(lo) and np.isfinite(hi) else None


def smoothed(run: RunView, tag: str, y: np.ndarray, w: float) -> np.ndarray:
    """The smoothed series, cached per (run, tag, length, weight): a live refresh or a zoom reuses it."""
    return _SMOOTHED.get_or_compute((run.id, run.epoch, tag, y.size, w), lambda: ema_smooth(y, w))


def _run_traces(run, tag, w, xmode, x_range, tz, color, name) -> list[dict]:
    x, y = _xy(run, tag, xmode)
    if y.size == 0:
        return []
    rng = None if x_range is None else (float(x_range[0]), float(x_range[1]))
    key = (run.id, run.epoch, tag, y.size, w, xmode, rng, _ui.tz_key(tz), color, name, run.first_wall, _ui.MAX_POINTS)
    return _TRACES.get_or_compute(key, lambda: _build_traces(run, tag, x, y, w, xmode, rng, tz, color, name))


def _build_traces(run, tag, x, y, w, xmode, rng, tz, color, name) -> list[dict]:
    rx, ry = decimate(x, y, _ui.MAX_POINTS, rng)
    mode = "lines+markers" if y.size <= 30 else "lines"  # a handful of points (or one) must stay visible
    raw = {"type": "scatter", "mode": mode, "x": _x_out(rx, xmode, tz),
           "y": ry.tolist(), "name": name, "legendgroup": run.id, "line": {"color": color, "width": 1},
           "meta": {"run": run.id, "kind": "raw", "points": int(y.size)}}
    traces = [raw]
    if w > 0:
        raw.update(opacity=0.3, showlegend=False, hoverinfo="skip")
        sx, sy = decimate(x, smoothed(run, tag, y, w), _ui.MAX_POINTS, rng)
        traces.append({"type": "scatter", "mode": mode, "x": _x_out(sx, xmode, tz), "y": sy.tolist(),
                       "name": name, "legendgroup": run.id, "line": {"color": color, "width": 2},
                       "meta": {"run": run.id, "kind": "smoothed", "points": int(y.size)}})
    return traces


def figure(store: LogStore | Snapshot, tag: str, runs: Sequence[RunView], smoothing: float, xmode: str, logy: bool,
           x_range: tuple[float, float] | None = None, tz: Any = None) -> dict:
    """The chart of one tag: per run a faint raw trace and a smoothed trace, each min/max decimated."""
    data = []
    nonpos = False
    w = _ui.smoothing_weight(smoothing)
    for run in runs[:_ui.MAX_SERIES]:
        if tag not in run.scalars:
            continue
        if logy:
            y = run.scalars[tag].arrays()[2]
            nonpos |= bool(np.any(y[np.isfinite(y)] <= 0))
        data += _run_traces(run, tag, w, xmode, x_range, tz, _ui.run_color(store, run.id), _ui.esc(run.name))
    title = X_MODES.get(xmode, "step")
    if xmode == "wall":
        title = f"local time ({_ui.tz_label(tz)})"
    xaxis: dict[str, Any] = {"title": {"text": title}, "type": "date" if xmode == "wall" else "linear",
                             "zeroline": False}
    if x_range is not None:
        xaxis["range"] = (_x_out(np.asarray(x_range, np.float64), xmode, tz) if xmode == "wall"
                          else [float(v) for v in x_range])
    # The uirevision stays the same across refreshes and setting changes, so Plotly keeps what the
    # user did (legend clicks, y zoom); the x zoom itself comes back from sc-zoom in xaxis.range.
    lay = _ui.base_layout(tag, xaxis=xaxis, yaxis={"type": "log" if logy else "linear"},
                          uirevision=f"{tag}|{xmode}", hovermode="x unified")
    if nonpos:
        lay["annotations"] = [{"text": "values <= 0 are not drawn on a log axis", "showarrow": False,
                               "xref": "paper", "yref": "paper", "x": 1, "y": 1.08, "font": {"size": 10}}]
    return {"data": data, "layout": lay}


def shown(snap: Snapshot, run_ids: Any, run_regex: str | None, tag_regex: str | None
          ) -> tuple[list[RunView], list[str], str]:
    """(runs, tags, filter error) for these controls."""
    runs = _ui.selected_runs(snap, run_ids, run_regex)
    trx, err = _ui.compile_filter(tag_regex)
    tags = sorted({t for r in runs for t in r.scalars if trx is None or trx.search(t)})
    return runs, tags, err


def tag_groups(tags: list[str], pinned: Sequence[str] | None) -> list[tuple[str, list[str]]]:
    """Sorted tags grouped by the prefix before their first "/", pinned tags first in a group of their own.

    >>> tag_groups(["eval/acc", "lr", "train/acc", "train/loss"], ["lr"])
    [('pinned', ['lr']), ('eval', ['eval/acc']), ('train', ['train/acc', 'train/loss'])]
    """
    pins = [t for t in (pinned or []) if t in tags]
    groups: dict[str, list[str]] = {}
    for t in tags:
        if t not in pins:
            groups.setdefault(t.split("/", 1)[0] if "/" in t else NO_GROUP, []).append(t)
    out = [("pinned", pins)] if pins else []
    return out + sorted(groups.items(), key=lambda kv: (kv[0] == NO_GROUP, kv[0]))


def render(snap: Snapshot, run_ids: Any, run_regex: str | None, tag_regex: str | None, smoothing: float, xmode: str,
           logy: Sequence[str] | None, pinned: Sequence[str] | None, zoom: Any, tz: Any) -> tuple[list[Component], str]:
    """The grouped chart list and the status line for these control values."""
    runs, tags, err = shown(snap, run_ids, run_regex, tag_regex)
    if not runs:
        return [_ui.note("No runs with scalars selected.")], err
    zoom = zoom if isinstance(zoom, dict) else {}
    budget = _ui.MAX_CHARTS
    blocks: list[Component] = []
    for group, members in tag_groups(tags, pinned):
        charts = []
        for t in members[:max(budget, 0)]:
            rng = zoom.get(f"{xmode}|{t}")
            rng = tuple(rng) if isinstance(rng, list) and len(rng) == 2 else None
            charts.append(dcc.Graph(id={"type": "sc-graph", "tag": t}, className="insight-chart",
                                    figure=figure(snap, t, runs, smoothing, xmode, "log" in (logy or []), rng, tz),
                                    config={"displaylogo": False}))
        budget -= len(charts)
        if charts:
            blocks.append(html.Details([html.Summary(f"{group} ({len(members)})", className="insight-group"),
                                        *charts], open=True, id={"type": "sc-group", "group": group}))
    status = f"{len(runs)} runs, {len(tags)} tags"
    if len(tags) > _ui.MAX_CHARTS:
        status += f" (first {_ui.MAX_CHARTS} shown; narrow the tag filter)"
    return blocks, " ".join(s for s in (status, err) if s)


def export_href(fmt: str, run_ids: Any, run_regex: str | None, tag_regex: str | None, smoothing: Any) -> str:
    """The URL of a streamed export of what the page shows (run ids only, never paths)."""
    ids = [r for r in (run_ids or []) if isinstance(r, str)]
    q = {"runs": ",".join(ids), "run_regex": run_regex or "", "tag_regex": tag_regex or "",
         "smoothing": _ui.smoothing_weight(smoothing)}
    return f"/insight/export/scalars.{fmt}?" + urlencode(q)


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("sc-runs", "options"), Output("sc-runs", "value"), Output("sc-known", "data"),
                  Output("sc-pinned", "options"),
                  Input("insight-gen", "data"), Input("sc-run-regex", "value"), State("sc-runs", "value"),
                  State("sc-known", "data"), prevent_initial_call=True)
    def _run_list(_gen, regex, value, known):
        runs = [r for r in store.snapshot().sorted_runs() if r.scalars]
        known = set(known or [])
        # Runs that appeared while the page was open are selected, like TensorBoard does; the regex
        # filter hides the runs it does not match from the list (and from the charts).
        value = list(value or []) + [r.id for r in runs if r.id not in known]
        rx, _ = _ui.compile_filter(regex)
        shown_runs = [r for r in runs if rx is None or rx.search(r.name)]
        tags = sorted({t for r in runs for t in r.scalars})
        return (_ui.run_options(shown_runs), value, [r.id for r in runs],
                [{"label": t, "value": t} for t in tags])

    @app.callback(Output("sc-smoothing", "value"), Output("sc-smoothing-num", "value"),
                  Input("sc-smoothing", "value"), Input("sc-smoothing-num", "value"), prevent_initial_call=True)
    def _sync_smoothing(slider, typed):
        if ctx.triggered_id == "sc-smoothing-num":
            if typed is None:
                return no_update, no_update
            w = _ui.smoothing_weight(typed)
            return w, (no_update if w == typed else w)
        return no_update, slider

    @app.callback(Output("sc-charts", "children"), Output("sc-status", "children"),
                  Input("sc-runs", "value"), Input("sc-run-regex", "value"), Input("sc-tag-regex", "value"),
                  Input("sc-smoothing", "value"), Input("sc-xaxis", "value"), Input("sc-logy", "value"),
                  Input("sc-pinned", "value"), Input("insight-gen", "data"), Input("insight-tz", "data"),
                  State("sc-zoom", "data"), prevent_initial_call=True)
    def _charts(run_ids, run_regex, tag_regex, smoothing, xmode, logy, pinned, _gen, tz, zoom):
        return render(store.snapshot(), run_ids, run_regex, tag_regex, smoothing, xmode, logy, pinned, zoom, tz)

    @app.callback(Output("sc-zoom", "data"), Input({"type": "sc-graph", "tag": ALL}, "relayoutData"),
                  State("sc-zoom", "data"), State("sc-xaxis", "value"), State("insight-tz", "data"),
                  prevent_initial_call=True)
    def _remember_zoom(_relayouts, zoom, xmode, tz):
        trig = ctx.triggered_id
        if not isinstance(trig, dict) or not isinstance(trig.get("tag"), str):
            return no_update
        rng = _x_range(ctx.triggered[0]["value"], xmode, tz)
        if rng is None:
            return no_update
        zoom = dict(zoom or {})
        key = f"{xmode}|{trig['tag']}"
        if rng == "auto":
            zoom.pop(key, None)
        else:
            zoom[key] = list(rng)
        return zoom

    @app.callback(Output({"type": "sc-graph", "tag": MATCH}, "figure"),
                  Input({"type": "sc-graph", "tag": MATCH}, "relayoutData"),
                  State({"type": "sc-graph", "tag": MATCH}, "id"),
                  State("sc-runs", "value"), State("sc-run-regex", "value"), State("sc-smoothing", "value"),
                  State("sc-xaxis", "value"), State("sc-logy", "value"), State("insight-tz", "data"),
                  prevent_initial_call=True)
    def _zoom(relayout, gid, run_ids, run_regex, smoothing, xmode, logy, tz):
        rng = _x_range(relayout, xmode, tz)
        tag = gid.get("tag") if isinstance(gid, dict) else None
        if rng is None or not isinstance(tag, str):
            return no_update
        snap = store.snapshot()
        runs = _ui.selected_runs(snap, run_ids, run_regex)
        return figure(snap, tag, runs, smoothing, xmode, "log" in (logy or []), None if rng == "auto" else rng, tz)

    @app.callback(Output("sc-dl-csv", "href"), Output("sc-dl-json", "href"),
                  Input("sc-runs", "value"), Input("sc-run-regex", "value"), Input("sc-tag-regex", "value"),
                  Input("sc-smoothing", "value"))
    def _export_links(run_ids, run_regex, tag_regex, smoothing):
        return (export_href("csv", run_ids, run_regex, tag_regex, smoothing),
                export_href("json", run_ids, run_regex, tag_regex, smoothing))
