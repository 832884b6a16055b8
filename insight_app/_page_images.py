"""Images page: a grid of image tags (rows) across runs (columns) at one step, a slider over the steps,
brightness and contrast."""

from __future__ import annotations

import base64
import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dash import Input, Output, State, dcc, html, no_update

from . import _ui
from ._reader import read_image_bytes

if TYPE_CHECKING:
    import dash

    from ._series import ImageRef
    from ._store import LogStore, Snapshot

PATH = "/images"
TITLE = "Images"
MAX_CELLS = 24                  # images per grid (one response)
MAX_GRID_BYTES = 24 << 20       # encoded bytes per grid
_MAGIC = {b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF8": "image/gif"}


def _image_runs(snap):
    return [r for r in snap.sorted_runs() if r.images]


def layout(store: LogStore) -> html.Div:
    snap = store.snapshot()
    runs = _image_runs(snap)
    tags = sorted({t for r in runs for t in r.images})
    controls = _ui.sidebar(
        _ui.labelled("Runs", dcc.Dropdown(id="im-runs", options=_ui.run_options(runs),
                                          value=[r.id for r in runs[:4]], multi=True)),
        _ui.labelled("Tags", dcc.Dropdown(id="im-tags", options=[{"label": t, "value": t} for t in tags],
                                          value=tags[:4], multi=True)),
        _ui.labelled("Brightness", dcc.Slider(id="im-brightness", min=0.2, max=3, step=0.1, value=1,
                                              marks={1: "1"})),
        _ui.labelled("Contrast", dcc.Slider(id="im-contrast", min=0.2, max=3, step=0.1, value=1, marks={1: "1"})),
        _ui.note("Each cell shows the image logged at the chosen step, or the latest one before it."),
    )
    main = html.Div([
        html.Div(_ui.labelled("Step", dcc.Slider(id="im-step", min=0, max=0, step=1, value=0, marks={},
                                                 allow_direct_input=False)), className="insight-stepslider"),
        dcc.Store(id="im-steps", data=[]),
        html.Div(id="im-caption", className="insight-caption"),
        html.Div(id="im-grid"),
    ], className="insight-main")
    return html.Div([controls, main], className="insight-page")


def _number(value, default: float) -> float:
    try:
        v = float(value)
        return v if v == v and abs(v) < 1e9 else default
    except (TypeError, ValueError):
        return default


def _mime(data: bytes) -> str | None:
    return next((m for sig, m in _MAGIC.items() if data.startswith(sig)), None)


def image_at(refs: Sequence[ImageRef], step: int) -> ImageRef | None:
    """The image logged at ``step`` or the latest one before it (the first one if all are later)."""
    steps = [r.step for r in refs]
    i = bisect.bisect_right(steps, step) - 1
    return refs[max(i, 0)] if refs else None


def grid(snap: Snapshot, run_ids: Any, tags: Sequence[str], step: int, style: dict
         ) -> tuple[html.Table | html.Div, str]:
    """(table, caption): rows are tags, columns runs; every name is rendered as text."""
    runs = _ui.selected_runs(snap, run_ids, None)
    tags = [t for t in (tags if isinstance(tags, list) else []) if isinstance(t, str)]
    if not runs or not tags:
        return _ui.note("Choose runs and tags."), ""
    head = html.Tr([html.Th("tag \\ run")] + [html.Th(r.name) for r in runs])
    rows, cells, spent, skipped = [head], 0, 0, 0
    for tag in tags:
        tds: list[html.Th | html.Td] = [html.Th(tag)]
        for run in runs:
            ref = image_at(run.images.get(tag, ()), step)
            if ref is None:
                tds.append(html.Td(_ui.note("—")))
                continue
            if cells >= MAX_CELLS or spent >= MAX_GRID_BYTES:
                skipped += 1
                tds.append(html.Td(_ui.note("not shown (grid limit)")))
                continue
            try:
                data = read_image_bytes(ref, _ui.MAX_IMAGE_BYTES)
            except (OSError, ValueError) as exc:
                tds.append(html.Td(_ui.note(f"step {ref.step}: image not shown ({exc})")))
                continue
            mime = _mime(data)
            if mime is None:
                tds.append(html.Td(_ui.note(f"step {ref.step}: not a PNG/JPEG/GIF image")))
                continue
            cells, spent = cells + 1, spent + len(data)
            st = dict(style)
            if 0 < ref.width < 192:  # small images (MNIST, CIFAR) are enlarged with sharp pixels
                st["width"] = f"{ref.width * min(6, 384 // ref.width)}px"
            src = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
            tds.append(html.Td([html.Img(src=src, className="insight-image", style=st, alt=f"{tag} step {ref.step}"),
                                html.Div(f"step {ref.step} · {ref.width}×{ref.height}", className="insight-note")]))
        rows.append(html.Tr(tds))
    caption = f"step {step}: {cells} images" + (f"; {skipped} over the grid limit" if skipped else "")
    return html.Table(html.Tbody(rows), className="insight-grid"), caption


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("im-runs", "options"), Output("im-tags", "options"), Input("insight-gen", "data"),
                  State("im-runs", "options"), prevent_initial_call=True)
    def _new_runs(_gen, options):
        runs = _image_runs(store.snapshot())
        opts = _ui.run_options(runs)
        tags = sorted({t for r in runs for t in r.images})
        return (no_update if opts == options else opts), [{"label": t, "value": t} for t in tags]

    @app.callback(Output("im-step", "max"), Output("im-step", "marks"), Output("im-step", "value"),
                  Output("im-steps", "data"),
                  Input("im-runs", "value"), Input("im-tags", "value"), Input("insight-gen", "data"),
                  State("im-step", "value"), State("im-step", "max"))
    def _steps(run_ids, tags, _gen, value, old_max):
        runs = _ui.selected_runs(store.snapshot(), run_ids, None)
        tags = tags if isinstance(tags, list) else []
        steps = sorted({int(ref.step) for r in runs for t in tags if isinstance(t, str)
                        for ref in r.images.get(t, ())})
        n = len(steps)
        if n == 0:
            return 0, {}, 0, []
        every = max(1, -(-n // 10))
        marks = {i: str(steps[i]) for i in range(0, n, every)}
        marks[n - 1] = str(steps[n - 1])
        # Stay on the newest step while following a live run; otherwise keep the chosen index.
        value = int(_number(value, n - 1))
        follow = value >= int(_number(old_max, 0))
        return n - 1, marks, (n - 1 if follow else min(max(value, 0), n - 1)), steps

    @app.callback(Output("im-grid", "children"), Output("im-caption", "children"),
                  Input("im-runs", "value"), Input("im-tags", "value"), Input("im-step", "value"),
                  Input("im-steps", "data"), Input("im-brightness", "value"), Input("im-contrast", "value"))
    def _grid(run_ids, tags, index, steps, brightness, contrast):
        b, c = _number(brightness, 1.0), _number(contrast, 1.0)
        style = {"filter": f"brightness({min(max(b, 0), 5):.2f}) contrast({min(max(c, 0), 5):.2f})"}
        steps = [s for s in (steps if isinstance(steps, list) else []) if isinstance(s, int)]
        if not steps:
            return _ui.note("No images for these runs and tags."), ""
        step = steps[min(max(int(_number(index, 0)), 0), len(steps) - 1)]
        return grid(store.snapshot(), run_ids, tags, step, style)
