"""Shared UI pieces: limits on what one response may carry, escaping, run pickers, figure styling."""

from __future__ import annotations

import html as _html
import zoneinfo
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np
import re2
from dash import html

if TYPE_CHECKING:
    from ._store import LogStore, RunView, Snapshot

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


def esc(text: object) -> str:
    """Escape text that goes into a Plotly figure (names, titles, ticks, hover), which parse some HTML."""
    return _html.escape(str(text), quote=False)


def _re2_options() -> re2.Options:
    opts = re2.Options()
    opts.log_errors = False      # a typo in a filter is shown to the user, not logged by the C++ library
    opts.max_mem = 8 << 20       # bounds the automaton a pattern may build
    return opts


_RE2_OPTIONS = _re2_options()


def compile_filter(pattern: str | None) -> tuple[Any, str]:
    """Compile a user's regex filter with RE2; returns (compiled or None, error message or "").

    RE2 matches in time linear in the text (no backtracking), so no pattern can stall the server;
    the syntax is RE2's (Python's without backreferences and lookaround).
    """
    if not pattern:
        return None, ""
    if not isinstance(pattern, str):
        return None, "filter must be text; ignored"
    if len(pattern) > MAX_REGEX_LEN:
        return None, f"filter longer than {MAX_REGEX_LEN} characters; ignored"
    try:
        return re2.compile(pattern, _RE2_OPTIONS), ""
    except Exception as exc:  # noqa: BLE001 -- re2 raises its own error class for a bad pattern
        msg = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        return None, f"invalid regular expression (RE2 syntax): {msg}"


# A ZoneInfo always has an offset; this only satisfies datetime.utcoffset()'s Optional return type.
_NO_OFFSET = timedelta(0)


def _zone(tz):
    """The browser's IANA zone from ``insight-tz`` data, or None when unknown or not installed here."""
    name = tz.get("name") if isinstance(tz, dict) else None
    if not isinstance(name, str) or not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _fixed_offset_s(tz) -> float:
    off = tz.get("offset") if isinstance(tz, dict) else None
    return float(off) * 60.0 if isinstance(off, (int, float)) and abs(off) <= 24 * 60 else 0.0


def tz_offsets(secs: np.ndarray, tz: Any) -> np.ndarray:
    """Seconds east of UTC at each UNIX time ``secs`` in the browser's zone (DST included when the zone
    is known; the browser's current offset otherwise; UTC before the browser has said)."""
    secs = np.asarray(secs, np.float64)
    zone = _zone(tz)
    if zone is None or secs.size == 0:
        return np.full(secs.shape, _fixed_offset_s(tz))

    def off(t: float) -> float:
        t = min(max(t, -6e10), 6e10) if np.isfinite(t) else 0.0
        return (datetime.fromtimestamp(t, zone).utcoffset() or _NO_OFFSET).total_seconds()
    first, last = off(float(secs[0])), off(float(secs[-1]))
    if first == last and secs.size > 2 and off(float(secs[secs.size // 2])) == first:
        return np.full(secs.shape, first)
    return np.array([off(float(t)) for t in secs])


def local_times(secs: np.ndarray, tz: Any) -> list[str]:
    """UNIX times as local date-time strings for a Plotly date axis."""
    secs = np.asarray(secs, np.float64)
    ms = np.round((secs + tz_offsets(secs, tz)) * 1000.0)
    return np.array(ms, "datetime64[ms]").astype(str).tolist()


def parse_local_time(text: object, tz: Any) -> float:
    """Inverse of :func:`local_times` for one value (a date string from a Plotly relayout event)."""
    naive = np.datetime64(str(text).strip().replace(" ", "T"), "ms").astype(np.int64) / 1000.0
    guess = naive - float(tz_offsets(np.array([naive]), tz)[0])
    return naive - float(tz_offsets(np.array([guess]), tz)[0])


def tz_key(tz: Any) -> tuple[Any, Any] | None:
    """A hashable form of ``insight-tz`` data (for caches)."""
    return (tz.get("name"), tz.get("offset")) if isinstance(tz, dict) else None


def tz_label(tz: Any) -> str:
    """The zone as shown on axes: "Europe/Berlin, UTC+01:00" (its current offset)."""
    zone = _zone(tz)
    off = ((datetime.now(zone).utcoffset() or _NO_OFFSET).total_seconds() if zone is not None
           else _fixed_offset_s(tz)) / 60
    sign = "+" if off >= 0 else "-"
    hh, mm = divmod(int(abs(off)), 60)
    text = f"UTC{sign}{hh:02d}:{mm:02d}"
    return f"{zone.key}, {text}" if zone is not None else text


def smoothing_weight(value: Any) -> float:
    """The smoothing weight from a request, clamped to [0, 0.999] (anything unreadable is 0)."""
    try:
        w = float(value or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return min(max(w, 0.0), 0.999) if w == w else 0.0


def run_color(store: LogStore | Snapshot, run_id: str) -> str:
    """A stable colour per run (by its server-side id)."""
    try:
        k = int(run_id[1:])
    except (TypeError, ValueError):
        k = 0
    return PALETTE[k % len(PALETTE)]


def selected_runs(snap: Snapshot, run_ids: Any, pattern: str | None) -> list[RunView]:
    """The runs of a snapshot named by these ids (unknown ids, paths included, are dropped) that match
    ``pattern``."""
    rx, _ = compile_filter(pattern)
    out = []
    for rid in (run_ids if isinstance(run_ids, list) else [])[:10_000]:
        run = snap.run(rid)
        if run is not None and (rx is None or rx.search(run.name)):
            out.append(run)
    return sorted(out, key=lambda r: r.name)


def run_options(runs: Iterable[RunView]) -> list[dict]:
    """Dropdown / checklist options for runs: the label is the run name (rendered as text)."""
    return [{"label": r.name, "value": r.id} for r in runs]


def base_layout(title: str, **kw: Any) -> dict:
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


def note(text: str, id: str | None = None) -> html.Div:
    """A muted one-line note."""
    kw: dict[str, Any] = {"id": id} if id else {}
    return html.Div(text, className="insight-note", **kw)


def sidebar(*children: Any) -> html.Div:
    """The left column of controls."""
    return html.Div(list(children), className="insight-sidebar")


def labelled(label: str, control: Any) -> html.Div:
    """A control with a label above it."""
    return html.Div([html.Label(label, className="insight-label"), control], className="insight-control")
