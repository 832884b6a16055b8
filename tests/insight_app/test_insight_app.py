"""The dashboard's server side: callbacks over HTTP, path confinement, caps, escaping, CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import numpy as np
import pytest

from insight_app import LogStore, PathOutsideLogdir, _ui, create_app
from insight_app.__main__ import parse_args


@pytest.fixture(scope="module")
def app(tbx_logs):
    return create_app(tbx_logs[0])


def call(app, output: str, inputs: dict, state: dict | None = None, changed=None):
    """POST one callback the way the browser does; returns the decoded response (None on 204)."""
    spec = app.callback_map[output]
    ins = [{**i, "value": inputs.get(f"{i['id']}.{i['property']}")} for i in spec["inputs"]]
    sts = [{**s, "value": (state or {}).get(f"{s['id']}.{s['property']}")} for s in spec.get("state", [])]
    outs = [{"id": o.split(".")[0], "property": o.split(".")[1]} for o in output.strip(".").split("...")]
    payload = {"output": output, "outputs": outs if len(outs) > 1 else outs[0], "inputs": ins, "state": sts,
               "changedPropIds": changed or [f"{i['id']}.{i['property']}" for i in spec["inputs"]][:1]}
    client = app.server.test_client()
    resp = client.post("/_dash-update-component", json=payload)
    if resp.status_code == 204:
        return None
    assert resp.status_code == 200, resp.data[:500]
    return resp.get_json()["response"]


def _ids(store, *names):
    by = {r.name: r.id for r in store.runs.values()}
    return [by[n] for n in names]


CHARTS = "..sc-charts.children...sc-status.children.."


def _charts(app, run_ids, smoothing=0.0, xaxis="step", tag_regex="", run_regex="", pinned=None, tz=None,
            zoom=None):
    resp = call(app, CHARTS, {"sc-runs.value": run_ids, "sc-run-regex.value": run_regex,
                              "sc-tag-regex.value": tag_regex, "sc-smoothing.value": smoothing,
                              "sc-xaxis.value": xaxis, "sc-logy.value": [], "insight-gen.data": 1,
                              "sc-pinned.value": pinned, "insight-tz.data": tz}, {"sc-zoom.data": zoom})
    return resp["sc-charts"]["children"], resp["sc-status"]["children"]


def _graphs(children):
    """Every scalar chart in a (grouped) chart list."""
    out = []
    for c in children if isinstance(children, list) else [children]:
        if isinstance(c, dict):
            cid = c.get("props", {}).get("id")
            if isinstance(cid, dict) and cid.get("type") == "sc-graph":
                out.append(c)
            else:
                out += _graphs(c.get("props", {}).get("children"))
    return out


def _fig_of(charts, tag):
    (g,) = [c for c in _graphs(charts) if c["props"]["id"]["tag"] == tag]
    return g["props"]["figure"]


def test_scalars_callback_draws_every_point(app, tbx_logs):
    store = app.insight_store
    charts, status = _charts(app, _ids(store, "lr_0.1", "lr_0.01"))
    assert status.startswith("2 runs, 2 tags")
    fig = _fig_of(charts, "train/loss")
    raw = [t for t in fig["data"] if t["meta"]["kind"] == "raw"]
    assert [t["name"] for t in raw] == ["lr_0.01", "lr_0.1"]
    for t in raw:
        assert t["x"] == list(range(120))
        np.testing.assert_array_equal(np.array(t["y"]), tbx_logs[1]["loss"][t["name"]].astype(np.float64))


def test_scalars_smoothing_and_axes(app, tbx_logs):
    from insight_app import ema_smooth

    store = app.insight_store
    charts, _ = _charts(app, _ids(store, "lr_0.1"), smoothing=0.9, xaxis="relative")
    fig = _fig_of(charts, "train/loss")
    (sm,) = [t for t in fig["data"] if t["meta"]["kind"] == "smoothed"]
    np.testing.assert_allclose(sm["y"], ema_smooth(tbx_logs[1]["loss"]["lr_0.1"].astype(np.float64), 0.9))
    assert sm["x"][0] == 0.0 and sm["x"][-1] == pytest.approx(119.0)
    charts, _ = _charts(app, _ids(store, "lr_0.1"), xaxis="wall")
    assert _fig_of(charts, "train/loss")["data"][0]["x"][0].startswith("2023-11-14T22:13:20")


def test_path_or_unknown_run_ids_are_refused(app, tbx_logs):
    # A crafted request naming paths instead of ids: nothing is read, nothing is drawn.
    outside = os.path.dirname(tbx_logs[0])
    for bad in (["../"], [outside], ["/etc"], ["r999"], [{"id": "r0"}], ["lr_0.1"]):
        charts, _ = _charts(app, bad)
        assert charts[0]["props"]["children"] == "No runs with scalars selected."
    store = app.insight_store
    assert store.run("../../etc") is None and store.run(None) is None
    with pytest.raises(PathOutsideLogdir):
        store.confine("../../etc/passwd")
    with pytest.raises(PathOutsideLogdir):
        store.confine("/etc/passwd")
    assert store.confine("lr_0.1") == store.root / "lr_0.1"
    resp = call(app, "..im-grid.children...im-caption.children..",
                {"im-runs.value": ["/etc", "../"], "im-tags.value": ["passwd"], "im-step.value": 0,
                 "im-steps.data": [0], "im-brightness.value": 1, "im-contrast.value": 1})
    assert "src" not in json.dumps(resp["im-grid"]["children"])


def test_symlink_out_of_the_logdir_is_not_followed(tmp_path, tbx_logs):
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(os.path.join(tbx_logs[0], "lr_0.1"), root / "escape")  # a directory outside the root
    (root / "inside").mkdir()
    src = os.path.join(tbx_logs[0], "lr_0.01")
    os.symlink(os.path.join(src, os.listdir(src)[0]), root / "inside" / "events.out.tfevents.9.x")
    store = LogStore(str(root))
    assert store.runs == {}
    assert any("escape: symlink leads outside" in p for p in store.problems())
    assert any("events.out.tfevents.9.x: symlink leads outside" in p for p in store.problems())


def test_response_caps(app):
    store = app.insight_store
    run = next(r for r in store.runs.values() if r.name == "lr_0.1")
    from insight_app._page_scalars import figure

    orig = _ui.MAX_POINTS
    try:
        _ui.MAX_POINTS = 50
        fig = figure(store, "train/loss", [run], 0.0, "step", False)
        assert len(fig["data"][0]["x"]) <= 50 and fig["data"][0]["meta"]["points"] == 120
    finally:
        _ui.MAX_POINTS = orig
    assert [_ui.smoothing_weight(v) for v in (5, -1, "x", None, float("nan"), 0.3)] == [0.999, 0, 0, 0, 0, 0.3]
    charts, _ = _charts(app, [run.id], smoothing="not a number", xaxis="bogus")
    assert len(_fig_of(charts, "train/loss")["data"]) == 1  # unsmoothed, step axis; no server error
    assert _ui.compile_filter("a" * 500)[0] is None and "longer" in _ui.compile_filter("a" * 500)[1]
    assert _ui.compile_filter("(")[0] is None


def test_download_csv_and_json(app, tbx_logs):
    store = app.insight_store
    state = {"sc-runs.value": _ids(store, "lr_0.1"), "sc-run-regex.value": "", "sc-tag-regex.value": "train",
             "sc-smoothing.value": 0.5}
    rows = list(csv.DictReader(io.StringIO(_download(app, "csv", state))))
    assert len(rows) == 120 and rows[0]["run"] == "lr_0.1" and rows[0]["tag"] == "train/loss"
    np.testing.assert_array_equal([float(r["value"]) for r in rows], tbx_logs[1]["loss"]["lr_0.1"].astype(float))
    data = json.loads(_download(app, "json", state))
    (s,) = data["series"]
    assert s["step"] == list(range(120)) and data["smoothing"] == 0.5 and not data["truncated"]
    assert s["smoothed"][1] == pytest.approx((0.25 * s["value"][0] + 0.5 * s["value"][1]) / 0.75)


def _download(app, fmt, state):
    """Follow the page's export link (built by its callback) and return the streamed body."""
    resp = call(app, "..sc-dl-csv.href...sc-dl-json.href..",
                {k: v for k, v in state.items() if k != "sc-dl"})
    href = resp[f"sc-dl-{fmt}"]["href"]
    got = app.server.test_client().get(href)
    assert got.status_code == 200 and got.is_streamed
    return got.get_data(as_text=True)


def test_histogram_images_network_compare_callbacks(app, tbx_logs):
    store = app.insight_store
    (rid,) = _ids(store, "lr_0.1")
    resp = call(app, "..hi-charts.children...hi-status.children..",
                {"hi-runs.value": [rid], "hi-tag-regex.value": "", "hi-mode.value": "offset", "insight-gen.data": 1})
    (chart,) = resp["hi-charts"]["children"]
    fig = chart["props"]["figure"]
    assert [t["meta"]["step"] for t in fig["data"]] == tbx_logs[1]["hist_steps"]
    assert all(t["meta"]["total"] == 500 for t in fig["data"])
    resp = call(app, "..im-grid.children...im-caption.children..",
                {"im-runs.value": [rid], "im-tags.value": ["input"], "im-step.value": 1, "im-steps.data": [0, 40, 80],
                 "im-brightness.value": 1, "im-contrast.value": 1})
    assert "step 40: 1 images" == resp["im-caption"]["children"]
    assert '"src": "data:image/png;base64,' in json.dumps(resp["im-grid"]["children"])
    graph = "..net-graph.elements...net-summary.children...net-matches.children...net-graph.layout.."
    resp = call(app, graph, {"net-expanded.data": ["conv1", "fc1", "loss"], "net-search.value": ""},
                {"net-run.value": rid})
    labels = [e["data"]["label"] for e in resp["net-graph"]["elements"] if "label" in e["data"]]
    assert sorted(labels) == sorted(["input", "VariableV2", "Conv2D", "Relu", "MatMul", "BiasAdd", "Mean"])
    resp = call(app, graph, {"net-expanded.data": [], "net-search.value": "matmul"}, {"net-run.value": rid})
    els = resp["net-graph"]["elements"]
    assert sorted(e["data"]["label"] for e in els if "label" in e["data"]) == [
        "conv1 (3 ops)", "fc1 (2 ops)", "input", "loss (1 op)"]
    assert [e["data"]["id"] for e in els if "match" in e.get("classes", "")] == ["fc1"]
    assert {(e["data"]["source"], e["data"]["target"]) for e in els if "source" in e["data"]} == {
        ("input", "conv1"), ("conv1", "fc1"), ("fc1", "loss")}
    resp = call(app, "..cmp-table.columns...cmp-table.data...cmp-parcoords.figure...cmp-status.children..",
                {"cmp-run-regex.value": "", "cmp-only-hp.value": ["hp"], "insight-gen.data": 1})
    cols = {c["id"]: c["name"][1] for c in resp["cmp-table"]["columns"]}
    rows = {r["run"]: {cols[k]: v for k, v in r.items() if k != "run"} for r in resp["cmp-table"]["data"]}
    assert rows["sweep/trial_lr0.1"]["lr"] == 0.1 and rows["sweep/trial_lr0.1"]["optimizer"] == "sgd"
    assert rows["sweep/trial_lr0.01"]["hparam/accuracy"] == pytest.approx(0.99)
    assert rows["lenet5_ms"]["optimizer"] == "Momentum" and rows["lenet5_ms"]["learning_rate"] == 0.01
    assert rows["lenet5_ms"]["loss"] == pytest.approx(2.289257, rel=1e-6)


def test_cli_defaults_and_errors(tmp_path):
    args = parse_args(["--logdir", "x"])
    assert (args.host, args.port) == ("127.0.0.1", 8080)
    from insight_app.__main__ import _is_loopback, main

    assert main(["--logdir", str(tmp_path / "missing")]) == 2
    assert all(map(_is_loopback, ["127.0.0.1", "localhost", "::1", "127.0.0.2"]))
    assert not any(map(_is_loopback, ["0.0.0.0", "192.168.1.5", "::", "example.org"]))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cli_serves_on_loopback(tbx_logs):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "insight_app", "--logdir", tbx_logs[0], "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    try:
        body = None
        for _ in range(100):
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/scalars", timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert body is not None and "mindspore_hl insight" in body
        # The listening socket is bound to 127.0.0.1 only (kernel table: local address 0100007F).
        listen = [line.split()[1] for line in open("/proc/net/tcp").read().splitlines()[1:]
                  if line.split()[1].endswith(f":{port:04X}") and line.split()[3] == "0A"]
        assert listen == [f"0100007F:{port:04X}"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_zoom_redecimates_the_visible_range(tmp_path):
    from benchmarks.insight_loader import write_scalar_file

    (tmp_path / "run").mkdir()
    values = write_scalar_file(str(tmp_path / "run" / "events.out.tfevents.1.z"), 50_000, spike_at=12_345)
    app = create_app(str(tmp_path))
    (rid,) = app.insight_store.runs
    gid = {"tag": "loss", "type": "sc-graph"}
    payload = {"output": '{"tag":["MATCH"],"type":"sc-graph"}.figure',
               "outputs": {"id": gid, "property": "figure"},
               "inputs": [{"id": gid, "property": "relayoutData",
                           "value": {"xaxis.range[0]": 12_000, "xaxis.range[1]": 12_999.5}}],
               "state": [{"id": gid, "property": "id", "value": gid},
                         {"id": "sc-runs", "property": "value", "value": [rid]},
                         {"id": "sc-run-regex", "property": "value", "value": ""},
                         {"id": "sc-smoothing", "property": "value", "value": 0.0},
                         {"id": "sc-xaxis", "property": "value", "value": "step"},
                         {"id": "sc-logy", "property": "value", "value": []},
                         {"id": "insight-tz", "property": "data", "value": None}],
               "changedPropIds": ['{"tag":"loss","type":"sc-graph"}.relayoutData']}
    resp = app.server.test_client().post("/_dash-update-component", json=payload)
    fig = resp.get_json()["response"]["{\"tag\":\"loss\",\"type\":\"sc-graph\"}"]["figure"]
    (trace,) = fig["data"]
    # Zoomed in to 1,000 steps: every point in range is drawn (plus one on each side), spike included.
    assert trace["x"] == list(range(11_999, 13_001))
    np.testing.assert_array_equal(trace["y"], values[11_999:13_001].astype(np.float64))
    assert fig["layout"]["xaxis"]["range"] == [12_000, 12_999.5]
    # The full view of 50,000 points is min/max decimated to at most MAX_POINTS, spike kept.
    from insight_app._page_scalars import figure

    full = figure(app.insight_store, "loss", list(app.insight_store.runs.values()), 0.0, "step", False)
    assert len(full["data"][0]["x"]) <= _ui.MAX_POINTS and 12_345 in full["data"][0]["x"]
    assert max(full["data"][0]["y"]) == 25.0


def test_non_finite_values_are_drawn_as_gaps_and_exported_as_text(tmp_path):
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "nan_run")) as w:
        for s, v in enumerate([1.0, float("nan"), 3.0, float("inf"), 5.0]):
            w.add_scalar("loss", v, s)
    app = create_app(str(tmp_path))
    (rid,) = app.insight_store.runs
    charts, _ = _charts(app, [rid], smoothing=0.5)
    fig = _fig_of(charts, "loss")
    raw = next(t for t in fig["data"] if t["meta"]["kind"] == "raw")
    assert raw["y"] == [1.0, None, 3.0, None, 5.0]  # strict JSON: NaN/inf become null (gaps)
    sm = next(t for t in fig["data"] if t["meta"]["kind"] == "smoothed")
    assert sm["y"][1] is None and sm["y"][2] == pytest.approx((0.25 + 1.5) / 0.75)
    state = {"sc-runs.value": [rid], "sc-run-regex.value": "", "sc-tag-regex.value": "", "sc-smoothing.value": 0}
    assert json.loads(_download(app, "json", state))["series"][0]["value"] == [1.0, "nan", 3.0, "inf", 5.0]


def test_loader_benchmark_runs(capsys):
    from benchmarks.insight_loader import main

    assert main(["--points", "3000", "--repeat", "1", "--no-rust"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    res = json.loads(line)
    assert res["points"] == 3000 and res["insight_s"] > 0 and res["protobuf_loop_s"] > 0
    assert (res["tensorboard_s"] is None) == ("tensorboard_skipped" in res)
    if res["tensorboard_s"] is not None:
        assert res["tensorboard_s"] == min(res["tensorboard_accumulator_s"], res["tensorboard_file_loader_s"])


@pytest.mark.slow
def test_loader_benchmark_times_tensorboards_rust_data_server(capsys):
    from benchmarks.insight_loader import main

    assert main(["--points", "3000", "--repeat", "1", "--tb", "none"]) == 0
    res = json.loads(capsys.readouterr().out.splitlines()[0])
    assert res["tensorboard_rust_1000_points_served"] == 1000 and res["tensorboard_rust_all_points_served"] == 3000
    assert res["tensorboard_rust_1000_s"] > 0 and res["tensorboard_rust_all_s"] > 0
