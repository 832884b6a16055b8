"""The loss landscape page: LossLandscape values written by mindspore_hl's SummaryRecord, and the event file real
MindSpore 2.10 wrote (both from tests/fixtures/oracle/landscape.npz)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from insight_app import LogStore, create_app
from insight_app._page_landscape import graphs, read_landscapes
from mindspore_hl.summary import SummaryRecord
from mindspore_hl.summary._landscape_proto import LossLandscape
from tests.oracle import load_cases

FLOW = load_cases("landscape.npz")["landscape/flow"]
VALUES = [(t[0], FLOW.outputs[10 * k].tobytes(), FLOW.outputs[10 * k + 3]) for k, t in enumerate(FLOW.meta["tags"])]


def _logs(tmp_path):
    with SummaryRecord(str(tmp_path / "hl")) as record:
        for tag, raw, _ in VALUES:
            record.add_value("landscape", tag, LossLandscape.FromString(raw))
            record.record(0)
    (tmp_path / "ms").mkdir()  # the event file real MindSpore's gen_landscapes_with_multi_process wrote
    (tmp_path / "ms" / "events.out.events.summary.1.0.host_MS").write_bytes(FLOW.inputs["ms_event_file"].tobytes())
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
    # the values read back are the bytes MindSpore wrote, from both files
    for run in snap.sorted_runs():
        assert [(tag, body) for tag, _, body in read_landscapes(run.path)] == [(t, raw) for t, raw, _ in VALUES]
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
