"""Images page: one image tag of one run, a slider over its steps, brightness and contrast."""

from __future__ import annotations

import base64

from dash import Input, Output, State, dcc, html, no_update

from . import _ui
from ._reader import read_image_bytes

PATH = "/images"
TITLE = "Images"
_MAGIC = {b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF8": "image/gif"}


def layout(store) -> html.Div:
    runs = [r for r in store.sorted_runs() if r.images]
    first = runs[0] if runs else None
    tags = sorted(first.images) if first else []
    controls = _ui.sidebar(
        _ui.labelled("Run", dcc.Dropdown(id="im-run", options=_ui.run_options(runs),
                                         value=first.id if first else None, clearable=False)),
        _ui.labelled("Tag", dcc.Dropdown(id="im-tag", options=[{"label": t, "value": t} for t in tags],
                                         value=tags[0] if tags else None, clearable=False)),
        _ui.labelled("Brightness", dcc.Slider(id="im-brightness", min=0.2, max=3, step=0.1, value=1,
                                              marks={1: "1"})),
        _ui.labelled("Contrast", dcc.Slider(id="im-contrast", min=0.2, max=3, step=0.1, value=1, marks={1: "1"})),
    )
    main = html.Div([
        html.Div(_ui.labelled("Step", dcc.Slider(id="im-step", min=0, max=0, step=1, value=0, marks={},
                                                 allow_direct_input=False)), className="insight-stepslider"),
        html.Div(id="im-caption", className="insight-caption"),
        html.Img(id="im-image", className="insight-image", alt=""),
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


def register(app, store) -> None:
    @app.callback(Output("im-run", "options"), Input("insight-gen", "data"), State("im-run", "options"),
                  prevent_initial_call=True)
    def _new_runs(_gen, options):
        opts = _ui.run_options([r for r in store.sorted_runs() if r.images])
        return no_update if opts == options else opts

    @app.callback(Output("im-tag", "options"), Output("im-tag", "value"), Input("im-run", "value"),
                  State("im-tag", "value"))
    def _tags(run_id, tag):
        run = store.run(run_id)
        tags = sorted(run.images) if run else []
        return [{"label": t, "value": t} for t in tags], (tag if tag in tags else (tags[0] if tags else None))

    @app.callback(Output("im-step", "max"), Output("im-step", "marks"), Output("im-step", "value"),
                  Input("im-run", "value"), Input("im-tag", "value"), Input("insight-gen", "data"),
                  State("im-step", "value"), State("im-step", "max"))
    def _steps(run_id, tag, _gen, value, old_max):
        run = store.run(run_id)
        refs = run.images.get(tag, []) if run and isinstance(tag, str) else []
        n = len(refs)
        if n == 0:
            return 0, {}, 0
        every = max(1, -(-n // 10))
        marks = {i: str(refs[i].step) for i in range(0, n, every)}
        marks[n - 1] = str(refs[n - 1].step)
        # Stay on the newest image while following a live run; otherwise keep the chosen index.
        value = int(_number(value, n - 1))
        follow = value >= int(_number(old_max, 0))
        return n - 1, marks, (n - 1 if follow else min(max(value, 0), n - 1))

    @app.callback(Output("im-image", "src"), Output("im-caption", "children"), Output("im-image", "style"),
                  Input("im-run", "value"), Input("im-tag", "value"), Input("im-step", "value"),
                  Input("im-brightness", "value"), Input("im-contrast", "value"))
    def _image(run_id, tag, index, brightness, contrast):
        b, c, i = _number(brightness, 1.0), _number(contrast, 1.0), int(_number(index, 0))
        style = {"filter": f"brightness({min(max(b, 0), 5):.2f}) contrast({min(max(c, 0), 5):.2f})"}
        run = store.run(run_id)
        refs = run.images.get(tag, []) if run and isinstance(tag, str) else []
        if not refs:
            return None, "No images for this run and tag.", style
        i = min(max(i, 0), len(refs) - 1)
        ref = refs[i]
        try:
            data = read_image_bytes(ref, _ui.MAX_IMAGE_BYTES)
        except (OSError, ValueError) as exc:
            return None, f"step {ref.step}: image not shown ({exc})", style
        mime = _mime(data)
        if mime is None:
            return None, f"step {ref.step}: not a PNG/JPEG/GIF image", style
        src = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
        caption = f"{tag} · step {ref.step} · {ref.width}×{ref.height} · image {i + 1} of {len(refs)}"
        if 0 < ref.width < 384:  # small images (MNIST, CIFAR, input grids) are enlarged with sharp pixels
            style["width"] = f"{ref.width * min(8, 768 // ref.width)}px"
        return src, caption, style
