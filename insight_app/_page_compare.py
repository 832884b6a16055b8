"""Run comparison: hyperparameters (tensorboardX hparams, MindSpore lineage) and final metrics,
as a sortable table and parallel coordinates."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from dash import Input, Output, dash_table, dcc, html

from . import _ui

if TYPE_CHECKING:
    import dash

    from ._store import LogStore, RunView

PATH = "/compare"
TITLE = "Compare runs"
MAX_LAST_TAGS = 20


def layout(store: LogStore) -> html.Div:
    controls = _ui.sidebar(
        _ui.labelled("Runs (RE2 regex filter)", dcc.Input(id="cmp-run-regex", type="text", debounce=True, value="")),
        dcc.Checklist(id="cmp-only-hp", options=[{"label": "only runs with hyperparameters", "value": "hp"}],
                      value=[]),
        _ui.note("", id="cmp-status"),
    )
    main = html.Div([
        dash_table.DataTable(  # type: ignore[attr-defined]  # dash_table creates its classes at import time
id="cmp-table", columns=[], data=[], sort_action="native", sort_mode="multi",
                             merge_duplicate_headers=True,
                             filter_action="native", page_size=50, style_table={"overflowX": "auto"},
                             style_cell={"fontFamily": "sans-serif", "fontSize": 12, "padding": "4px",
                                         "maxWidth": 260, "overflow": "hidden", "textOverflow": "ellipsis"},
                             style_header={"fontWeight": "bold", "textAlign": "left"}),
        dcc.Graph(id="cmp-parcoords", config={"displaylogo": False}),
    ], className="insight-main")
    return html.Div([controls, main], className="insight-page")


def _plain(v):
    """A table cell value: numbers stay numbers (sortable); booleans, non-finite floats and others are text."""
    if isinstance(v, bool) or (isinstance(v, float) and not math.isfinite(v)):
        return str(v)
    return v if isinstance(v, (int, float, str)) or v is None else str(v)


def comparison(runs: Sequence[RunView]) -> tuple[list[dict], list[dict]]:
    """Table columns and rows. Column ids are generated ("h0", "m0", "t0", ...); names come from the logs.

    Columns: hyperparameters (tensorboardX hparams and MindSpore lineage), metrics (lineage final loss and
    eval metrics), and the last value of each scalar tag (the first MAX_LAST_TAGS tags).
    """
    hp_names, metric_names, tags = [], [], []
    rows_src = []
    for r in runs:
        hp = {**r.hparams, **r.lineage}
        metrics = dict(r.lineage_metrics)
        tags += [t for t in sorted(r.scalars) if t not in tags]
        hp_names += [k for k in hp if k not in hp_names]
        metric_names += [k for k in metrics if k not in metric_names]
        rows_src.append((r, hp, metrics))
    hp_metric_tags = {t for r in runs for t in r.hparam_metrics}
    last_tags = sorted(tags, key=lambda t: (t not in hp_metric_tags, tags.index(t)))[:MAX_LAST_TAGS]
    columns: list[dict[str, Any]] = [{"id": "run", "name": ["", "run"]}]
    columns += [{"id": f"h{i}", "name": ["hyperparameter", n]} for i, n in enumerate(hp_names)]
    columns += [{"id": f"m{i}", "name": ["lineage metric", n]} for i, n in enumerate(metric_names)]
    columns += [{"id": f"t{i}", "name": ["last value", t], "hp_metric": t in hp_metric_tags}
                for i, t in enumerate(last_tags)]
    rows = []
    for r, hp, metrics in rows_src:
        row = {"run": r.name}
        row.update({f"h{i}": _plain(hp[n]) for i, n in enumerate(hp_names) if n in hp})
        row.update({f"m{i}": _plain(metrics[n]) for i, n in enumerate(metric_names) if n in metrics})
        for i, t in enumerate(last_tags):
            s = r.scalars.get(t)
            if s is not None and len(s):
                row[f"t{i}"] = _plain(float(s.arrays()[2][-1]))
        rows.append(row)
    for c in columns:
        vals = [row[c["id"]] for row in rows if c["id"] in row]
        if c["id"] != "run" and vals and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            c["type"] = "numeric"
    return columns, rows


def _axis_text(v) -> str:
    """Parallel-coordinates tick text is drawn verbatim: keep it short and free of markup characters."""
    t = str(v).replace("<", "‹").replace(">", "›")
    return t if len(t) <= 24 else t[:23] + "…"


def parcoords(columns: list[dict], rows: list[dict], with_hp: Sequence[bool]) -> dict:
    """Parallel coordinates: one line per run with hyperparameters, one axis per hyperparameter and metric.

    A run lacking a value sits on an "n/a" tick below the axis range.
    """
    rows = [row for row, hp in zip(rows, with_hp) if hp] or rows
    if not rows:
        return _ui.empty_figure("no runs")
    use = [c for c in columns if c["id"] == "run" or c["id"][0] in "hm" or c.get("hp_metric")]
    if not any(c.get("hp_metric") or c["id"][0] == "m" for c in use):
        use += [c for c in columns if c["id"][0] == "t"][:4]
    dims = []
    for c in use[:24]:
        vals = [row.get(c["id"]) for row in rows]
        present = [v for v in vals if v is not None]
        if not present:
            continue
        values: Sequence[float]
        tickvals: Sequence[float]
        if c.get("type") == "numeric":
            lo, hi = float(min(present)), float(max(present))
            span = (hi - lo) or (abs(hi) or 1.0)
            na = lo - 0.15 * span
            ticks = sorted(set(np.linspace(lo, hi, 5).tolist())) if hi > lo else [lo]
            values = [float(v) if v is not None else na for v in vals]
            tickvals, ticktext = ticks + [na], [f"{t:.4g}" for t in ticks] + ["n/a"]
        else:
            cats = sorted({str(v) for v in present})
            if c["id"] != "run" and (max(len(k) for k in cats) > 40 or (len(cats) > 8 and len(cats) == len(rows))):
                continue  # free text (paths, pipelines) is noise on an axis
            code = {k: i for i, k in enumerate(cats)}
            values = [code[str(v)] if v is not None else -1 for v in vals]
            tickvals = list(range(len(cats))) + ([-1] if None in vals else [])
            ticktext = [_axis_text(k) for k in cats] + (["n/a"] if None in vals else [])
        dims.append({"label": _axis_text(c["name"][1]), "values": values, "tickvals": tickvals,
                     "ticktext": ticktext})
    line = {"color": list(range(len(rows))), "colorscale": "Viridis"}
    return {"data": [{"type": "parcoords", "dimensions": dims, "line": line, "labelangle": -20,
                      "labelside": "top"}],
            "layout": _ui.base_layout("", height=440, margin={"l": 90, "r": 60, "t": 90, "b": 30})}


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("cmp-table", "columns"), Output("cmp-table", "data"), Output("cmp-parcoords", "figure"),
                  Output("cmp-status", "children"), Input("cmp-run-regex", "value"), Input("cmp-only-hp", "value"),
                  Input("insight-gen", "data"))
    def _table(regex, only_hp, _gen):
        rx, err = _ui.compile_filter(regex)
        runs = [r for r in store.snapshot().sorted_runs() if (rx is None or rx.search(r.name))
                and (r.scalars or r.hparams or r.lineage or r.lineage_metrics)]
        if "hp" in (only_hp or []):
            runs = [r for r in runs if r.hparams or r.lineage]
        columns, rows = comparison(runs)
        with_hp = [bool(r.hparams or r.lineage) for r in runs]
        status = f"{len(rows)} runs" + (f"; {err}" if err else "")
        table_columns = [{k: v for k, v in c.items() if k != "hp_metric"} for c in columns]
        return table_columns, rows, parcoords(columns, rows, with_hp), status
