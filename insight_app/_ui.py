"""Shared UI pieces: limits on what one response may carry, escaping, run pickers, figure styling."""

from __future__ import annotations

import html as _html
import re

from dash import html

# Caps on one response (a request can never make the server send more than this).
MAX_POINTS = 2000             # points per drawn series, after min/max decimation
MAX_CHARTS = 48               # scalar charts (tags) per page
MAX_SERIES = 40               # runs per chart
MAX_HIST_STEPS = 60           # histogram steps drawn per chart
MAX_IMAGE_BYTES = 8 << 20     # one encoded image
MAX_DOWNLOAD_POINTS = 5_000_000
MAX_GRAPH_UNITS = 400         # visible graph nodes after scope collapsing
MAX_REGEX_LEN = 200
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]


def esc(text) -> str:
    """Escape text that goes into a Plotly figure (names, titles, ticks, hover), which parse some HTML."""
    return _html.escape(str(text), quote=False)


def compile_filter(pattern: str | None):
    """Compile a user's regex filter; returns (compiled or None, error message or "")."""
    if not pattern:
        return None, ""
    if len(pattern) > MAX_REGEX_LEN:
        return None, f"filter longer than {MAX_REGEX_LEN} characters; ignored"
    try:
        return re.compile(pattern), ""
    except re.error as exc:
        return None, f"invalid regular expression: {exc}"


def smoothing_weight(value) -> float:
    """The smoothing weight from a request, clamped to [0, 0.999] (anything unreadable is 0)."""
    try:
        w = float(value or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return min(max(w, 0.0), 0.999) if w == w else 0.0


def run_color(store, run_id: str) -> str:
    """A stable colour per run (by its server-side id)."""
    try:
        k = int(run_id[1:])
    except (TypeError, ValueError):
        k = 0
    return PALETTE[k % len(PALETTE)]


def selected_runs(store, run_ids, pattern: str | None):
    """The runs named by these ids (unknown ids, paths included, are dropped) that match ``pattern``."""
    rx, _ = compile_filter(pattern)
    out = []
    for rid in run_ids or []:
        run = store.run(rid)
        if run is not None and (rx is None or rx.search(run.name)):
            out.append(run)
    return sorted(out, key=lambda r: r.name)


def run_options(runs) -> list[dict]:
    """Dropdown / checklist options for runs: the label is the run name (rendered as text)."""
    return [{"label": r.name, "value": r.id} for r in runs]


def base_layout(title: str, **kw) -> dict:
    """Common Plotly layout."""
    layout = {"title": {"text": esc(title), "font": {"size": 14}}, "margin": {"l": 50, "r": 20, "t": 40, "b": 40},
              "height": 320, "template": "plotly_white", "legend": {"font": {"size": 10}}}
    layout.update(kw)
    return layout


def empty_figure(message: str) -> dict:
    """A blank figure carrying a message."""
    return {"data": [], "layout": {"annotations": [{"text": esc(message), "showarrow": False, "x": 0.5, "y": 0.5,
                                                    "xref": "paper", "yref": "paper"}],
                                   "xaxis": {"visible": False}, "yaxis": {"visible": False}, "height": 240}}


def note(text: str, id=None) -> html.Div:
    """A muted one-line note."""
    kw = {"id": id} if id else {}
    return html.Div(text, className="insight-note", **kw)


def sidebar(*children) -> html.Div:
    """The left column of controls."""
    return html.Div(list(children), className="insight-sidebar")


def labelled(label: str, control) -> html.Div:
    """A control with a label above it."""
    return html.Div([html.Label(label, className="insight-label"), control], className="insight-control")
