"""The loss landscape page: LossLandscape values written by mindspore_hl's SummaryRecord and in MindSpore's own
event format (the values are real MindSpore 2.10's, from tests/fixtures/oracle/landscape.npz)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from insight_app import LogStore, _msproto, create_app
from insight_app._framing import frame
from insight_app._page_landscape import graphs
from mindspore_hl.summary import SummaryRecord
from mindspore_hl.summary._landscape_proto import LossLandscape, landscape_summary
from tests.oracle import load_cases

FLOW = load_cases("landscape.npz")["landscape/flow"]
VALUES = [(t[0], FLOW.outputs[10 * k].tobytes(), FLOW.outputs[10 * k + 3]) for k, t in enumerate(FLOW.meta["tags"])]


def _logs(tmp_path):
    with SummaryRecord(str(tmp_path / "hl")) as record:
        for tag, raw, _ in VALUES:
            record.add_value("landscape", tag, LossLandscape.FromString(raw))
            record.record(0)
    (tmp_path / "ms").mkdir()
    records = [_msproto.Event(wall_time=1.0, version="MindSpore.Event:1").SerializeToString()]
    for tag, raw, _ in VALUES:
        event = _msproto.Event(wall_time=2.0, step=0)
        # MindSpore's Summary bytes are the same as TensorBoard's for a (tag, field 10) value
        event.summary.MergeFromString(landscape_summary(tag, LossLandscape.FromString(raw)).SerializeToString())
        records.append(event.SerializeToString())
    (tmp_path / "ms" / "events.out.events.summary.1.0.host_MS").write_bytes(b"".join(frame(r) for r in records))
    return tmp_path


def _z(fig):
    return np.asarray(fig["data"][0]["z"])


def test_landscapes_of_both_formats_are_drawn(tmp_path):
    snap = LogStore(str(_logs(tmp_path))).snapshot()
    assert all({t for t, _, _ in VALUES} <= run.other_tags for run in snap.sorted_runs())
    items, err = graphs(snap.sorted_runs(), "", "surface")
    assert err == "" and len(items) == 2 * len(VALUES)
    for i, item in enumerate(items):
        fig = item.figure
        go.Figure(fig)  # every property is one Plotly knows
        assert fig["data"][0]["type"] == "surface"
        np.testing.assert_allclose(_z(fig), VALUES[i % len(VALUES)][2], rtol=1e-6)
    pca = items[0].figure
    assert "PCA" in pca["layout"]["title"]["text"] and pca["data"][1]["name"] == "training path"
    assert len(pca["data"][1]["x"]) == 5  # the 5 checkpoints of the interval
    contour, _ = graphs(snap.sorted_runs(), "^ms$", "contour")
    assert len(contour) == len(VALUES) and contour[0].figure["data"][0]["type"] == "contour"
    go.Figure(contour[0].figure)


def test_landscape_page_callback(tmp_path):
    app = create_app(str(_logs(tmp_path)))
    spec = app.callback_map["..ls-list.children...ls-status.children.."]
    values = {"ls-run-regex.value": "hl", "ls-kind.value": "surface", "insight-gen.data": 0}
    ins = [{**i, "value": values.get(f"{i['id']}.{i['property']}")} for i in spec["inputs"]]
    payload = {"output": "..ls-list.children...ls-status.children..",
               "outputs": [{"id": "ls-list", "property": "children"}, {"id": "ls-status", "property": "children"}],
               "inputs": ins, "state": [], "changedPropIds": ["ls-run-regex.value"]}
    resp = app.server.test_client().post("/_dash-update-component", json=payload)
    assert resp.status_code == 200
    out = resp.get_json()["response"]
    assert out["ls-status"]["children"] == f"{len(VALUES)} landscapes"
    assert len(out["ls-list"]["children"]) == len(VALUES)
