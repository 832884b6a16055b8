"""Loss landscape page: MindSpore ``LossLandscape`` summary values (``SummaryLandscape``) as surfaces or contours.

The values are ``Summary.Value`` field 10 (``loss_landscape``) in both event formats (mindspore_hl's TensorBoard
events and MindSpore's own); the readers list their tags as other tags, and this page reads them from the run's
event files when it is shown. A PCA landscape also shows the projected training path and the final point.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np
from dash import Input, Output, dcc, html
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from . import _ui
from ._framing import MAX_RECORD_BYTES, scan_frames
from ._reader import file_format

if TYPE_CHECKING:
    import dash

    from ._store import LogStore, RunView

PATH = "/landscape"
TITLE = "Landscape"
TAG_PREFIX = "landscape_"
MAX_FILE_BYTES = 1 << 30   # event files larger than this are not scanned for landscapes
_F = descriptor_pb2.FieldDescriptorProto
_PKG = "mindspore_hl_insight.landscape"


def _build() -> descriptor_pb2.FileDescriptorProto:
    """MindSpore's ``LossLandscape`` (summary.proto) and the anf_ir ``TensorProto`` fields it uses."""
    fdp = descriptor_pb2.FileDescriptorProto(name="mindspore_hl_insight_landscape.proto", package=_PKG,
                                             syntax="proto2")

    def add(msg, name, number, kind, repeated=False, type_name=None):
        fd = msg.field.add(name=name, number=number, type=kind,
                           label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
        if type_name:
            fd.type_name = f".{_PKG}.{type_name}"

    tensor = fdp.message_type.add(name="TensorProto")
    add(tensor, "dims", 1, _F.TYPE_INT64, repeated=True)
    add(tensor, "data_type", 2, _F.TYPE_INT32)
    add(tensor, "float_data", 3, _F.TYPE_FLOAT, repeated=True)  # packed or not, both decode
    land = fdp.message_type.add(name="LossLandscape")
    point = land.nested_type.add(name="Point")
    for name, number in (("x", 1), ("y", 2), ("z", 3)):
        add(point, name, number, _F.TYPE_MESSAGE, type_name="TensorProto")
    path = land.nested_type.add(name="LossPath")
    add(path, "intervals", 1, _F.TYPE_INT32, repeated=True)
    add(path, "points", 2, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    meta = land.nested_type.add(name="Metadata")
    add(meta, "decomposition", 1, _F.TYPE_STRING)
    add(meta, "unit", 2, _F.TYPE_STRING)
    add(meta, "step_per_epoch", 3, _F.TYPE_INT32)
    add(land, "landscape", 1, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    add(land, "loss_path", 2, _F.TYPE_MESSAGE, type_name="LossLandscape.LossPath")
    add(land, "metadata", 3, _F.TYPE_MESSAGE, type_name="LossLandscape.Metadata")
    add(land, "convergence_point", 4, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    return fdp


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_build())
LossLandscape: Any = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PKG}.LossLandscape"))
_CACHE: dict[tuple[str, int, float], list[tuple[str, int, bytes]]] = {}


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("truncated varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _fields(buf: bytes):
    """(field number, wire type, value) of one message: an int for varints, bytes otherwise."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, pos = buf[pos:pos + size], pos + size
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def landscapes_in_event(record: bytes) -> list[tuple[str, int, bytes]]:
    """(tag, step, LossLandscape bytes) of the landscape values in one serialized event (either format)."""
    step, found = 0, []
    summaries = []
    for number, wire, value in _fields(record):
        if number == 2 and wire == 0:
            step = value
        elif number == 5 and wire == 2:
            summaries.append(value)
    for summary in summaries:
        for number, wire, value in _fields(summary):
            if number != 1 or wire != 2:
                continue
            tag, body = "", None
            for n, w, v in _fields(value):
                if n == 1 and w == 2:
                    tag = v.decode("utf-8", "replace")
                elif n == 10 and w == 2:
                    body = v
            if body is not None:
                found.append((tag, step, body))
    return found


def read_landscapes(run_path: str) -> list[tuple[str, int, bytes]]:
    """Every landscape value in the event files of one run directory (cached per file size and mtime)."""
    out: list[tuple[str, int, bytes]] = []
    try:
        entries = sorted(os.scandir(run_path), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        if file_format(entry.name) not in ("tb", "ms") or not entry.is_file(follow_symlinks=False):
            continue
        st = entry.stat(follow_symlinks=False)
        key = (entry.path, st.st_size, st.st_mtime)
        if key not in _CACHE:
            found: list[tuple[str, int, bytes]] = []
            if st.st_size <= MAX_FILE_BYTES:
                with open(entry.path, "rb") as f:
                    buf = f.read()
                scan = scan_frames(buf)
                for start, length in zip(scan.starts.tolist(), scan.lengths.tolist()):
                    if length <= MAX_RECORD_BYTES:
                        try:
                            found += landscapes_in_event(buf[start:start + length])
                        except ValueError:  # a record that is not a well-formed event
                            continue
            _CACHE[key] = found
        out += _CACHE[key]
    return out


def _array(tensor: Any) -> np.ndarray:
    values = np.asarray(tensor.float_data, np.float64)
    dims = tuple(int(d) for d in tensor.dims)
    return values.reshape(dims) if int(np.prod(dims)) == values.size else values


def figure(tag: str, run_name: str, landscape: Any, kind: str = "surface") -> dict:
    """A Plotly figure of one landscape: a 3-D surface (or a contour map) with the path and final point."""
    x, y, z = (_array(t) for t in (landscape.landscape.x, landscape.landscape.y, landscape.landscape.z))
    meta = landscape.metadata
    title = f"{run_name} / {tag} ({meta.decomposition}, {meta.unit})"
    if z.ndim != 2 or z.shape != (y.size, x.size):
        return _ui.empty_figure(f"{title}: grid of shape {z.shape} does not match axes {x.size} x {y.size}")
    data: list[dict] = []
    has_path = landscape.HasField("loss_path")
    px, py, pz = (_array(t) for t in (landscape.loss_path.points.x, landscape.loss_path.points.y,
                                      landscape.loss_path.points.z)) if has_path else (np.zeros(0),) * 3
    cx, cy, cz = (_array(t) for t in (landscape.convergence_point.x, landscape.convergence_point.y,
                                      landscape.convergence_point.z))
    labels = [f"{meta.unit} {i}" for i in landscape.loss_path.intervals]
    if kind == "contour":
        data.append({"type": "contour", "x": x.tolist(), "y": y.tolist(), "z": z.tolist(), "colorscale": "Viridis",
                     "contours": {"coloring": "heatmap", "showlabels": True}, "name": "loss"})
        if has_path:
            data.append({"type": "scatter", "x": px.tolist(), "y": py.tolist(), "mode": "lines+markers",
                         "text": labels, "name": "training path", "line": {"color": "#d62728"}})
        data.append({"type": "scatter", "x": cx.tolist(), "y": cy.tolist(), "mode": "markers", "name": "final",
                     "marker": {"size": 10, "color": "#ff7f0e", "symbol": "x"}})
        layout = _ui.base_layout(title, height=460, xaxis={"title": "direction 1"}, yaxis={"title": "direction 2"})
    else:
        data.append({"type": "surface", "x": x.tolist(), "y": y.tolist(), "z": z.tolist(), "colorscale": "Viridis",
                     "name": "loss", "opacity": 0.9})
        if has_path:
            data.append({"type": "scatter3d", "x": px.tolist(), "y": py.tolist(), "z": pz.tolist(),
                         "mode": "lines+markers", "text": labels, "name": "training path",
                         "line": {"color": "#d62728", "width": 5}, "marker": {"size": 3}})
        data.append({"type": "scatter3d", "x": cx.tolist(), "y": cy.tolist(), "z": cz.tolist(), "mode": "markers",
                     "name": "final", "marker": {"size": 5, "color": "#ff7f0e"}})
        layout = _ui.base_layout(title, height=520, scene={"xaxis": {"title": "direction 1"},
                                                           "yaxis": {"title": "direction 2"},
                                                           "zaxis": {"title": "loss"}})
    return {"data": data, "layout": layout}


def layout(store: LogStore) -> html.Div:
    controls = _ui.sidebar(
        _ui.labelled("Runs (RE2 regex filter)", dcc.Input(id="ls-run-regex", type="text", debounce=True, value="")),
        dcc.RadioItems(id="ls-kind", options=[{"label": "3-D surface", "value": "surface"},
                                              {"label": "contour map", "value": "contour"}], value="surface",
                       persistence=True, persistence_type="local"),
        _ui.note("", id="ls-status"),
    )
    return html.Div([controls, html.Div(id="ls-list", className="insight-main")], className="insight-page")


def graphs(runs: list[RunView], run_regex: str | None, kind: str) -> tuple[list, str]:
    """One graph per landscape value of the runs whose name matches ``run_regex``."""
    rx, err = _ui.compile_filter(run_regex)
    out: list = []
    for run in runs:
        if rx is not None and not rx.search(run.name):
            continue
        if not any(t.startswith(TAG_PREFIX) for t in run.other_tags):
            continue
        for tag, _step, body in read_landscapes(run.path):
            try:
                fig = figure(tag, run.name, LossLandscape.FromString(body), kind)
            except Exception as exc:  # noqa: BLE001 -- one bad value never stops the page
                fig = _ui.empty_figure(f"{run.name} / {tag}: undecodable landscape ({type(exc).__name__})")
            out.append(dcc.Graph(figure=fig, className="insight-chart"))
    return out, err


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("ls-list", "children"), Output("ls-status", "children"), Input("ls-run-regex", "value"),
                  Input("ls-kind", "value"), Input("insight-gen", "data"))
    def _list(run_regex, kind, _gen):
        items, err = graphs(store.snapshot().sorted_runs(), run_regex, kind or "surface")
        status = f"{len(items)} landscapes" + (f"; {err}" if err else "")
        return items or [_ui.note("No loss landscapes (write them with SummaryLandscape).")], status
