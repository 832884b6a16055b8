"""Streamed scalar export (CSV and JSON): every point of the shown (run, tag) series, written in
chunks, so a download of millions of points holds only one chunk of text in memory at a time.

Text cells that a spreadsheet would run as a formula (they start with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return) are prefixed with ``'`` (OWASP's advice for CSV injection); numbers are written
as numbers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from flask import Response, request

from . import _ui
from ._smooth import ema_smooth

if TYPE_CHECKING:
    from flask import Flask

    from ._store import LogStore, Snapshot

CHUNK = 65_536          # points per written piece
COLUMNS = ["run", "tag", "step", "wall_time", "relative_time", "value", "smoothed"]
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text_cell(text: str) -> str:
    """A text cell that no spreadsheet runs as a formula.

    >>> csv_text_cell('=HYPERLINK("http://x")'), csv_text_cell("lr_0.1")
    ('\\'=HYPERLINK("http://x")', 'lr_0.1')
    """
    text = str(text)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _series(snap, run_ids, run_regex, tag_regex):
    runs = _ui.selected_runs(snap, run_ids, run_regex)
    trx, _ = _ui.compile_filter(tag_regex)
    tags = sorted({t for r in runs for t in r.scalars if trx is None or trx.search(t)})[:_ui.MAX_CHARTS]
    return [(r, t) for r in runs[:_ui.MAX_SERIES] for t in tags if t in r.scalars]


def _pieces(run, tag, smoothing: float, budget: int):
    """(step, wall, relative, value, smoothed) arrays of one series, CHUNK points at a time."""
    step, wall, value = (a[:budget] for a in run.scalars[tag].arrays())
    first = run.first_wall if np.isfinite(run.first_wall) else 0.0
    sm = ema_smooth(value, smoothing) if smoothing > 0 else value
    for a in range(0, step.size, CHUNK):
        b = a + CHUNK
        yield step[a:b], wall[a:b], wall[a:b] - first, value[a:b], sm[a:b]


def iter_csv(snap: Snapshot, run_ids: Any, run_regex: str | None, tag_regex: str | None,
             smoothing: float) -> Iterator[str]:
    """The CSV export as an iterator of text chunks (one row per point)."""
    head = io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(COLUMNS)
    yield head.getvalue()
    budget = _ui.MAX_DOWNLOAD_POINTS
    for run, tag in _series(snap, run_ids, run_regex, tag_regex):
        if budget <= 0:
            break
        prefix = io.StringIO()
        csv.writer(prefix, lineterminator="").writerow([csv_text_cell(run.name), csv_text_cell(tag)])
        p = prefix.getvalue() + ","
        n = 0
        for step, wall, rel, value, sm in _pieces(run, tag, smoothing, budget):
            n += step.size
            yield "".join(f"{p}{s},{w!r},{r!r},{v!r},{m!r}\n" for s, w, r, v, m in
                          zip(step.tolist(), wall.tolist(), rel.tolist(), value.tolist(), sm.tolist()))
        budget -= n


def _json_list(a: np.ndarray) -> str:
    vals = a.tolist()
    if a.dtype.kind == "f" and not np.all(np.isfinite(a)):  # JSON has no NaN/inf: write them as strings
        vals = [v if np.isfinite(v) else str(v) for v in vals]
    return json.dumps(vals)[1:-1]


def iter_json(snap: Snapshot, run_ids: Any, run_regex: str | None, tag_regex: str | None,
              smoothing: float) -> Iterator[str]:
    """The JSON export ({"smoothing", "series": [{run, tag, step, ...}], "truncated"}) as text chunks."""
    yield '{"smoothing": %s, "series": [' % json.dumps(smoothing)
    budget, truncated, first = _ui.MAX_DOWNLOAD_POINTS, False, True
    for run, tag in _series(snap, run_ids, run_regex, tag_regex):
        total = len(run.scalars[tag])
        if budget <= 0:
            truncated = True
            break
        truncated |= total > budget
        yield ("" if first else ", ") + '{"run": %s, "tag": %s' % (json.dumps(run.name), json.dumps(tag))
        first = False
        pieces = list(_pieces(run, tag, smoothing, budget))  # views, not copies
        for k, name in enumerate(COLUMNS[2:]):
            yield f', "{name}": ['
            sep = ""
            for pc in pieces:
                text = _json_list(pc[k])
                if text:
                    yield sep + text
                    sep = ", "
            yield "]"
        yield "}"
        budget -= min(total, budget)
    yield '], "truncated": %s}' % json.dumps(truncated)


def register_routes(server: Flask, store: LogStore) -> None:
    """``GET /insight/export/scalars.csv|json?runs=r0,r1&run_regex=&tag_regex=&smoothing=``."""

    def export(fmt: str):
        args = request.args
        run_ids = [r for r in args.get("runs", "").split(",") if r][:10_000]
        smoothing = _ui.smoothing_weight(args.get("smoothing"))
        snap = store.snapshot()
        if fmt == "csv":
            body, mime = iter_csv(snap, run_ids, args.get("run_regex"), args.get("tag_regex"), smoothing), "text/csv"
        else:
            body, mime = (iter_json(snap, run_ids, args.get("run_regex"), args.get("tag_regex"), smoothing),
                          "application/json")
        return Response(body, mimetype=mime,
                        headers={"Content-Disposition": f'attachment; filename="scalars.{fmt}"',
                                 "X-Content-Type-Options": "nosniff"})

    server.add_url_rule("/insight/export/scalars.csv", "insight_export_csv", lambda: export("csv"))
    server.add_url_rule("/insight/export/scalars.json", "insight_export_json", lambda: export("json"))
