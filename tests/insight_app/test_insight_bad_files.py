"""Files that used to crash or stall the dashboard: each becomes a listed problem, and the rest of the run
(and of the log root) is still read and shown."""

from __future__ import annotations

import json
import os
import struct

import numpy as np
from tensorboardX.proto import event_pb2, summary_pb2

from insight_app import LogStore, _framing, _msproto, _reader, create_app, frame
from insight_app._framing import HEADER_BYTES, masked_crc32c, scan_frames


def scalar_event(tag: str, value: float, step: int) -> bytes:
    v = summary_pb2.Summary.Value(tag=tag, simple_value=value)
    event = event_pb2.Event(wall_time=1.7e9 + step, step=step, summary=summary_pb2.Summary(value=[v]))
    return event.SerializeToString()


def tb_file(path, events) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(frame(event_pb2.Event(wall_time=1.7e9, file_version="brain.Event:2").SerializeToString()))
        for e in events:
            f.write(e)


def framed_scalars(tag, n, start=0) -> bytes:
    return b"".join(frame(scalar_event(tag, float(s), s)) for s in range(start, start + n))


def lying_header(declared: int) -> bytes:
    """A record header whose length CRC is valid but whose length is false."""
    head = struct.pack("<Q", declared)
    return head + struct.pack("<I", masked_crc32c(head))


def _run(store, name):
    (run,) = [r for r in store.sorted_runs() if r.name == name]
    return run


def test_deeply_nested_lineage_metric_is_a_problem_not_a_crash(tmp_path):
    run = tmp_path / "job"
    run.mkdir()
    bad = _msproto.LineageEvent(wall_time=1.7e9)
    bad.evaluation_lineage.metric = "[" * 5000 + "]" * 5000
    good = _msproto.LineageEvent(wall_time=1.7e9)
    good.train_lineage.hyper_parameters.learning_rate = 0.03
    good.train_lineage.hyper_parameters.optimizer = "Momentum"
    also_bad = _msproto.LineageEvent(wall_time=1.7e9)
    also_bad.evaluation_lineage.metric = json.dumps({"acc": 0.9, "deep": [[[[1]]]]})
    (run / "events.out.events.summary.1.0.h_lineage").write_bytes(
        frame(bad.SerializeToString()) + frame(good.SerializeToString()) + frame(also_bad.SerializeToString()))
    tb_file(str(run / "events.out.tfevents.1.h"), [framed_scalars("loss", 5)])
    store = LogStore(str(tmp_path))
    view = _run(store, "job")
    assert view.lineage == {"learning_rate": 0.03, "optimizer": "Momentum"}
    assert view.lineage_metrics == {"eval/acc": 0.9, "eval/deep": "[[[[1]]]]"}
    assert len(view.scalars["loss"]) == 5
    (problem,) = store.problems()
    assert "undecodable lineage event" in problem and "nests more than" in problem


def test_deeply_nested_cell_tree_json_is_a_problem(tmp_path):
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "job")) as w:
        # Valid JSON, but json.loads raises RecursionError at this depth.
        w.add_text("network/cell_tree", '{"name": "x", "children": ' + "[" * 5000 + "]" * 5000 + "}", 0)
        w.add_scalar("loss", 1.0, 0)
    store = LogStore(str(tmp_path))
    assert _run(store, "job").cell_tree is None and "loss" in _run(store, "job").scalars
    assert any("not a Cell tree" in p and "recursion" in p for p in store.problems())


def test_unparsable_graph_def_is_listed_and_the_network_page_works(tmp_path):
    graph = event_pb2.Event(wall_time=1.7e9, graph_def=b"\x0a\xff\xff\xff\xff\x0f garbage").SerializeToString()
    tb_file(str(tmp_path / "job" / "events.out.tfevents.1.h"), [frame(graph), framed_scalars("loss", 3)])
    app = create_app(str(tmp_path))
    store = app.insight_store
    view = _run(store, "job")
    assert view.graph is None and len(view.scalars["loss"]) == 3
    assert any("graph_def is not a TensorFlow GraphDef" in p for p in store.problems())
    client = app.server.test_client()
    assert client.get("/network").status_code == 200
    payload = {"output": "..net-graph.elements...net-summary.children...net-matches.children...net-graph.layout..",
               "outputs": [{"id": "net-graph", "property": "elements"}, {"id": "net-summary", "property": "children"},
                           {"id": "net-matches", "property": "children"}, {"id": "net-graph", "property": "layout"}],
               "inputs": [{"id": "net-expanded", "property": "data", "value": []},
                          {"id": "net-search", "property": "value", "value": ""}],
               "state": [{"id": "net-run", "property": "value", "value": view.id}],
               "changedPropIds": ["net-expanded.data"]}
    resp = client.post("/_dash-update-component", json=payload)
    assert resp.status_code == 200
    assert resp.get_json()["response"]["net-summary"]["children"] == "No graph_def event in this run."


def test_a_graph_that_fails_later_is_shown_as_an_error_on_the_page(tmp_path, monkeypatch):
    from _insight_logs import graph_def_bytes

    from insight_app import _page_network

    tb_file(str(tmp_path / "job" / "events.out.tfevents.1.h"),
            [frame(event_pb2.Event(wall_time=1.7e9, graph_def=graph_def_bytes()).SerializeToString())])
    app = create_app(str(tmp_path))

    def broken(_graph):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(_page_network, "build_model", broken)
    rid = _run(app.insight_store, "job").id
    payload = {"output": "..net-graph.elements...net-summary.children...net-matches.children...net-graph.layout..",
               "outputs": [{"id": "net-graph", "property": "elements"}, {"id": "net-summary", "property": "children"},
                           {"id": "net-matches", "property": "children"}, {"id": "net-graph", "property": "layout"}],
               "inputs": [{"id": "net-expanded", "property": "data", "value": []},
                          {"id": "net-search", "property": "value", "value": ""}],
               "state": [{"id": "net-run", "property": "value", "value": rid}], "changedPropIds": ["net-expanded.data"]}
    resp = app.server.test_client().post("/_dash-update-component", json=payload)
    assert resp.status_code == 200
    assert "could not be read (RecursionError" in resp.get_json()["response"]["net-summary"]["children"]


def test_header_declaring_1_gib_with_a_valid_crc_is_skipped(tmp_path):
    path = str(tmp_path / "job" / "events.out.tfevents.1.h")
    tb_file(path, [framed_scalars("loss", 10), lying_header(1 << 30), framed_scalars("loss", 10, start=10)])
    store = LogStore(str(tmp_path))
    steps, _, _ = _run(store, "job").scalars["loss"].arrays()
    assert steps.tolist() == list(range(20))
    (problem,) = store.problems()
    assert "declares 1073741824 bytes, over the 256 MiB limit" in problem


def test_header_declaring_more_than_the_file_holds_is_skipped_when_records_follow(tmp_path):
    # 10 MB is a plausible record size, so the cap does not catch it: the records after it do.
    path = str(tmp_path / "job" / "events.out.tfevents.1.h")
    tb_file(path, [framed_scalars("loss", 10), lying_header(10_000_000), framed_scalars("loss", 10, start=10)])
    store = LogStore(str(tmp_path))
    steps, _, _ = _run(store, "job").scalars["loss"].arrays()
    assert steps.tolist() == list(range(20))
    (problem,) = store.problems()
    assert "declares 10000000 bytes but only" in problem and "header taken as corrupt" in problem


def test_incomplete_last_record_waits_then_is_listed(tmp_path, monkeypatch):
    path = str(tmp_path / "job" / "events.out.tfevents.1.h")
    partial = frame(scalar_event("loss", 5.0, 5))
    tb_file(path, [framed_scalars("loss", 5), partial[:-7]])
    monkeypatch.setattr(_reader.FileTail, "stall_s", 0.0)
    store = LogStore(str(tmp_path), min_refresh_s=0.0)
    assert len(_run(store, "job").scalars["loss"]) == 5
    store.refresh(force=True)
    (problem,) = store.problems()
    assert "incomplete record declaring" in problem and "waiting for the writer" in problem
    with open(path, "ab") as f:  # the writer finishes the record: it is read, the problem goes away
        f.write(partial[-7:])
    store.refresh(force=True)
    assert len(_run(store, "job").scalars["loss"]) == 6


def test_a_plausible_partial_record_is_still_pending(tmp_path):
    scan = scan_frames(framed_scalars("a", 3) + lying_header(5000) + b"\x00" * 100)
    assert scan.starts.size == 3 and scan.skipped == [] and scan.pending == HEADER_BYTES + 100


def test_a_failing_decoder_never_stops_the_other_runs(tmp_path, monkeypatch):
    tb_file(str(tmp_path / "a" / "events.out.tfevents.1.h"), [framed_scalars("loss", 3)])
    tb_file(str(tmp_path / "b" / "events.out.tfevents.1.h"), [framed_scalars("loss", 4)])
    real = _reader.decode_events

    def flaky(run, *args):
        if run.name == "a":
            raise RecursionError("boom")
        return real(run, *args)
    monkeypatch.setattr(_reader, "decode_events", flaky)
    store = LogStore(str(tmp_path))
    assert len(_run(store, "b").scalars["loss"]) == 4
    assert any(p.startswith("a/") and "RecursionError: boom" in p for p in store.problems())


def test_problems_reach_the_page(tmp_path):
    tb_file(str(tmp_path / "job" / "events.out.tfevents.1.h"), [framed_scalars("loss", 2), lying_header(1 << 30),
                                                                framed_scalars("loss", 2, start=2)])
    app = create_app(str(tmp_path))
    payload = {"output": "..insight-problem-count.children...insight-problems.children...insight-problem-box.style..",
               "outputs": [{"id": "insight-problem-count", "property": "children"},
                           {"id": "insight-problems", "property": "children"},
                           {"id": "insight-problem-box", "property": "style"}],
               "inputs": [{"id": "insight-gen", "property": "data", "value": 1}], "changedPropIds": []}
    resp = app.server.test_client().post("/_dash-update-component", json=payload).get_json()["response"]
    assert resp["insight-problem-count"]["children"] == "1 problem(s) while reading the logs"
    assert np.array(_run(app.insight_store, "job").scalars["loss"].arrays()[0]).tolist() == [0, 1, 2, 3]
    assert _framing.MAX_RECORD_BYTES == 1 << 28
