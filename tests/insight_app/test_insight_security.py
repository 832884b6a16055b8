"""Security: linear-time filters, the Host allow-list, CSV formula escaping, streamed exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
import re2
from test_insight_bad_files import framed_scalars, tb_file

from insight_app import _export, _ui, create_app
from insight_app.__main__ import allowed_hosts
from insight_app._app import host_allowed


def test_filters_use_re2_and_report_unsupported_syntax():
    rx, err = _ui.compile_filter("(.|.|.|.|.|.|.|.)*z")  # catastrophic for a backtracking engine
    assert err == "" and isinstance(rx, type(re2.compile("a")))
    assert rx.search("a" * 50_000) is None and rx.search("a" * 50_000 + "z")
    rx, err = _ui.compile_filter(r"(a)\1")  # backreferences need backtracking: refused with RE2's reason
    assert rx is None and "RE2 syntax" in err and "invalid escape" in err
    assert _ui.compile_filter(["not", "text"]) == (None, "filter must be text; ignored")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    tb_file(str(root / '=HYPERLINK("x.example","y")' / "events.out.tfevents.1.h"),
            [framed_scalars("+cmd|' /C calc'!A0", 3), framed_scalars("loss", 200)])
    return create_app(str(root))


def test_host_header_allow_list(hostile):
    client = hostile.server.test_client()
    for host in ("localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example:80"):
        resp = client.get("/", headers={"Host": host})
        assert resp.status_code == 403 and b"not allowed" in resp.data, host
    assert client.post("/_dash-update-component", json={}, headers={"Host": "evil.example"}).status_code == 403
    assert client.get("/", headers={"Host": "localhost"}).headers["X-Frame-Options"] == "DENY"
    assert host_allowed("anything", None) and host_allowed("x.example", ["*"])


def test_allowed_hosts_follow_the_bind_address():
    assert allowed_hosts("127.0.0.1", None) == ["127.0.0.1", "::1", "localhost"]
    assert "10.1.2.3" in allowed_hosts("10.1.2.3", None)
    assert allowed_hosts("0.0.0.0", "a.example, b.example") == ["a.example", "b.example"]


def _export_rows(app, fmt, **q):
    run_id = app.insight_store.sorted_runs()[0].id
    from insight_app._page_scalars import export_href

    resp = app.server.test_client().get(export_href(fmt, [run_id], q.get("run_regex", ""), q.get("tag_regex", ""),
                                                    q.get("smoothing", 0.0)))
    assert resp.status_code == 200 and resp.is_streamed
    assert resp.headers["Content-Disposition"] == f'attachment; filename="scalars.{fmt}"'
    return resp.get_data(as_text=True)


def test_csv_cells_cannot_run_as_formulas(hostile):
    rows = list(csv.DictReader(io.StringIO(_export_rows(hostile, "csv"))))
    assert {r["run"] for r in rows} == {"'=HYPERLINK(\"x.example\",\"y\")"}
    assert {r["tag"] for r in rows} == {"'+cmd|' /C calc'!A0", "loss"}
    assert [float(r["value"]) for r in rows if r["tag"] == "loss"] == [float(s) for s in range(200)]
    data = json.loads(_export_rows(hostile, "json"))  # JSON keeps the names as they are
    assert data["series"][0]["run"] == '=HYPERLINK("x.example","y")'
    assert _export.csv_text_cell("-1+2") == "'-1+2" and _export.csv_text_cell("@SUM(A1)") == "'@SUM(A1)"


def test_exports_are_streamed_in_bounded_chunks(hostile, monkeypatch):
    monkeypatch.setattr(_export, "CHUNK", 16)
    snap = hostile.insight_store.snapshot()
    rid = snap.sorted_runs()[0].id
    pieces = list(_export.iter_csv(snap, [rid], "", "loss", 0.5))
    assert len(pieces) == 1 + 200 // 16 + 1 and max(len(p) for p in pieces) < 16 * 120
    rows = list(csv.DictReader(io.StringIO("".join(pieces))))
    assert [int(r["step"]) for r in rows] == list(range(200))
    pieces = list(_export.iter_json(snap, [rid], "", "loss", 0.5))
    data = json.loads("".join(pieces))
    assert data["series"][0]["step"] == list(range(200)) and not data["truncated"]
    assert max(len(p) for p in pieces) < 16 * 40
