"""Scalars page: one chart per tag, runs overlaid, smoothing, x-axis mode, log scale, export."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
from dash import MATCH, Input, Output, State, ctx, dcc, html, no_update

from . import _ui
from ._smooth import decimate, ema_smooth

PATH = "/scalars"
TITLE = "Scalars"
DEFAULT_SMOOTHING = 0.6
X_MODES = {"step": "step", "relative": "relative time (s)", "wall": "wall time"}


def layout(store) -> html.Div:
    runs = [r for r in store.sorted_runs() if r.scalars]
    charts, status = render(store, [r.id for r in runs], "", "", DEFAULT_SMOOTHING, "step", [])
    controls = _ui.sidebar(
        _ui.labelled("Runs (regex filter)", dcc.Input(id="sc-run-regex", type="text", debounce=True,
                                                      placeholder="e.g. lr_.*", value="")),
        dcc.Checklist(id="sc-runs", options=_ui.run_options(runs), value=[r.id for r in runs],
                      className="insight-runlist"),
        dcc.Store(id="sc-known", data=[r.id for r in runs]),
        _ui.labelled("Tags (regex filter)", dcc.Input(id="sc-tag-regex", type="text", debounce=True, value="")),
        _ui.labelled("Smoothing", dcc.Slider(id="sc-smoothing", min=0, max=0.999, step=0.001, value=DEFAULT_SMOOTHING,
                                             marks={0: "0", 0.5: "0.5", 0.9: "0.9"},
                                             updatemode="mouseup")),
        _ui.labelled("Horizontal axis", dcc.RadioItems(id="sc-xaxis", options=[
            {"label": v, "value": k} for k, v in X_MODES.items()], value="step")),
        dcc.Checklist(id="sc-logy", options=[{"label": "log-scale y axis", "value": "log"}], value=[]),
        html.Div([html.Button("Download CSV", id="sc-dl-csv"), html.Button("Download JSON", id="sc-dl-json")],
                 className="insight-buttons"),
        dcc.Download(id="sc-download"),
        _ui.note(status, id="sc-status"),
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


def _x_out(x: np.ndarray, xmode: str):
    if xmode == "wall":
        return np.array(np.round(x * 1000.0), "datetime64[ms]").astype(str).tolist()
    if xmode == "step":
        return x.astype(np.int64).tolist()
    return x.tolist()


def _x_range(relayout, xmode):
    """The visible x range from a relayoutData event, "auto" for a reset, or None if x did not change."""
    if not relayout:
        return None
    if relayout.get("xaxis.autorange"):
        return "auto"
    if "xaxis.range[0]" in relayout:
        lo, hi = relayout["xaxis.range[0]"], relayout["xaxis.range[1]"]
    elif "xaxis.range" in relayout:
        lo, hi = relayout["xaxis.range"]
    else:
        return None
    try:
        if xmode == "wall":
            lo, hi = (np.datetime64(str(v).replace(" ", "T"), "ms").astype(np.int64) / 1000.0 for v in (lo, hi))
        return float(lo), float(hi)
    except (TypeError, ValueError):  # not a range this page produced: ignore it
        return None


def figure(store, tag: str, runs, smoothing: float, xmode: str, logy: bool, x_range=None) -> dict:
    """The chart of one tag: per run a faint raw trace and a smoothed trace, each min/max decimated."""
    data = []
    nonpos = False
    w = _ui.smoothing_weight(smoothing)
    for run in runs[:_ui.MAX_SERIES]:
        if tag not in run.scalars:
            continue
        x, y = _xy(run, tag, xmode)
        if y.size == 0:
            continue
        color = _ui.run_color(store, run.id)
        name = _ui.esc(run.name)
        nonpos |= bool(logy and np.any(y[np.isfinite(y)] <= 0))
        rx, ry = decimate(x, y, _ui.MAX_POINTS, x_range)
        mode = "lines+markers" if y.size <= 30 else "lines"  # a handful of points (or one) must stay visible
        raw = {"type": "scatter", "mode": mode, "x": _x_out(rx, xmode),
               "y": ry.tolist(), "name": name, "legendgroup": run.id, "line": {"color": color, "width": 1},
               "meta": {"run": run.id, "kind": "raw", "points": int(y.size)}}
        if w > 0:
            raw.update(opacity=0.3, showlegend=False, hoverinfo="skip")
            sx, sy = decimate(x, ema_smooth(y, w), _ui.MAX_POINTS, x_range)
            data.append(raw)
            data.append({"type": raw["type"], "mode": mode, "x": _x_out(sx, xmode), "y": sy.tolist(),
                         "name": name, "legendgroup": run.id, "line": {"color": color, "width": 2},
                         "meta": {"run": run.id, "kind": "smoothed", "points": int(y.size)}})
        else:
            data.append(raw)
    xaxis = {"title": {"text": X_MODES.get(xmode, "step")}, "type": "date" if xmode == "wall" else "linear",
             "zeroline": False}
    if x_range is not None:
        xaxis["range"] = _x_out(np.asarray(x_range, np.float64), xmode) if xmode == "wall" else list(x_range)
    lay = _ui.base_layout(tag, xaxis=xaxis, yaxis={"type": "log" if logy else "linear"},
                          uirevision=f"{tag}|{xmode}|{logy}", hovermode="x unified")
    if nonpos:
        lay["annotations"] = [{"text": "values <= 0 are not drawn on a log axis", "showarrow": False,
                               "xref": "paper", "yref": "paper", "x": 1, "y": 1.08, "font": {"size": 10}}]
    return {"data": data, "layout": lay}


def _shown(store, run_ids, run_regex, tag_regex):
    runs = _ui.selected_runs(store, run_ids, run_regex)
    trx, err = _ui.compile_filter(tag_regex)
    tags = sorted({t for r in runs for t in r.scalars if trx is None or trx.search(t)})
    return runs, tags, err


def render(store, run_ids, run_regex, tag_regex, smoothing, xmode, logy):
    """The chart list and the status line for these control values."""
    with store.lock:
        runs, tags, err = _shown(store, run_ids, run_regex, tag_regex)
        if not runs:
            return [_ui.note("No runs with scalars selected.")], err
        charts = [dcc.Graph(id={"type": "sc-graph", "tag": t}, className="insight-chart",
                            figure=figure(store, t, runs, smoothing, xmode, "log" in (logy or [])),
                            config={"displaylogo": False})
                  for t in tags[:_ui.MAX_CHARTS]]
    status = f"{len(runs)} runs, {len(tags)} tags"
    if len(tags) > _ui.MAX_CHARTS:
        status += f" (first {_ui.MAX_CHARTS} shown; narrow the tag filter)"
    return charts, " ".join(s for s in (status, err) if s)


def register(app, store) -> None:
    @app.callback(Output("sc-runs", "options"), Output("sc-runs", "value"), Output("sc-known", "data"),
                  Input("insight-gen", "data"), Input("sc-run-regex", "value"), State("sc-runs", "value"),
                  State("sc-known", "data"), prevent_initial_call=True)
    def _run_list(_gen, regex, value, known):
        runs = [r for r in store.sorted_runs() if r.scalars]
        known = set(known or [])
        # Runs that appeared while the page was open are selected, like TensorBoard does; the regex
        # filter hides the runs it does not match from the list (and from the charts).
        value = list(value or []) + [r.id for r in runs if r.id not in known]
        rx, _ = _ui.compile_filter(regex)
        shown = [r for r in runs if rx is None or rx.search(r.name)]
        return _ui.run_options(shown), value, [r.id for r in runs]

    @app.callback(Output("sc-charts", "children"), Output("sc-status", "children"),
                  Input("sc-runs", "value"), Input("sc-run-regex", "value"), Input("sc-tag-regex", "value"),
                  Input("sc-smoothing", "value"), Input("sc-xaxis", "value"), Input("sc-logy", "value"),
                  Input("insight-gen", "data"), prevent_initial_call=True)
    def _charts(run_ids, run_regex, tag_regex, smoothing, xmode, logy, _gen):
        return render(store, run_ids, run_regex, tag_regex, smoothing, xmode, logy)

    @app.callback(Output({"type": "sc-graph", "tag": MATCH}, "figure"),
                  Input({"type": "sc-graph", "tag": MATCH}, "relayoutData"),
                  State({"type": "sc-graph", "tag": MATCH}, "id"),
                  State("sc-runs", "value"), State("sc-run-regex", "value"), State("sc-smoothing", "value"),
                  State("sc-xaxis", "value"), State("sc-logy", "value"), prevent_initial_call=True)
    def _zoom(relayout, gid, run_ids, run_regex, smoothing, xmode, logy):
        rng = _x_range(relayout, xmode)
        tag = gid.get("tag") if isinstance(gid, dict) else None
        if rng is None or not isinstance(tag, str):
            return no_update
        with store.lock:
            runs = _ui.selected_runs(store, run_ids, run_regex)
            return figure(store, tag, runs, smoothing, xmode, "log" in (logy or []),
                          None if rng == "auto" else rng)

    @app.callback(Output("sc-download", "data"), Input("sc-dl-csv", "n_clicks"), Input("sc-dl-json", "n_clicks"),
                  State("sc-runs", "value"), State("sc-run-regex", "value"), State("sc-tag-regex", "value"),
                  State("sc-smoothing", "value"), prevent_initial_call=True)
    def _download(_c, _j, run_ids, run_regex, tag_regex, smoothing):
        with store.lock:
            runs, tags, _ = _shown(store, run_ids, run_regex, tag_regex)
            series = export_series(runs, tags[:_ui.MAX_CHARTS], _ui.smoothing_weight(smoothing))
        if ctx.triggered_id == "sc-dl-json":
            return {"content": json.dumps(series), "filename": "scalars.json"}
        return {"content": to_csv(series), "filename": "scalars.csv"}


def export_series(runs, tags, smoothing: float) -> dict:
    """Every point of the shown (run, tag) series, with the smoothed value, up to MAX_DOWNLOAD_POINTS."""
    out, budget, truncated = [], _ui.MAX_DOWNLOAD_POINTS, False
    for run in runs[:_ui.MAX_SERIES]:
        for tag in tags:
            if tag not in run.scalars or budget <= 0:
                truncated |= tag in run.scalars
                continue
            step, wall, value = (a[:budget] for a in run.scalars[tag].arrays())
            truncated |= len(run.scalars[tag]) > budget
            budget -= step.size
            rel = wall - (run.first_wall if np.isfinite(run.first_wall) else 0.0)
            sm = ema_smooth(value, smoothing) if smoothing > 0 else value
            out.append({"run": run.name, "tag": tag, "step": step.tolist(), "wall_time": wall.tolist(),
                        "relative_time": rel.tolist(), "value": _json_floats(value), "smoothed": _json_floats(sm)})
    return {"smoothing": smoothing, "truncated": truncated, "series": out}


def _json_floats(a: np.ndarray) -> list:
    vals = a.tolist()
    if not np.all(np.isfinite(a)):  # JSON has no NaN/inf: write them as strings
        vals = [v if np.isfinite(v) else str(v) for v in vals]
    return vals


def to_csv(export: dict) -> str:
    """CSV with one row per point: run, tag, step, wall_time, relative_time, value, smoothed."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["run", "tag", "step", "wall_time", "relative_time", "value", "smoothed"])
    for s in export["series"]:
        prefix = io.StringIO()
        csv.writer(prefix, lineterminator="").writerow([s["run"], s["tag"]])
        p = prefix.getvalue()
        for row in zip(s["step"], s["wall_time"], s["relative_time"], s["value"], s["smoothed"]):
            buf.write(p + "," + ",".join(map(str, row)) + "\n")
    return buf.getvalue()
