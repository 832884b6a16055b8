"""The profile reader behind the Profiler page, on the committed LeNet5 profile (tests/fixtures/profiler)."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from insight_app import _profile_reader as reader

SESSION = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "profiler" / "lenet5_session"


def test_finds_and_reads_the_session(tmp_path):
    shutil.copytree(SESSION, tmp_path / "runs" / "lenet")
    assert reader.find_sessions(tmp_path) == ["runs/lenet"]
    summary = reader.load_summary(tmp_path / "runs" / "lenet")
    bars = reader.step_bars(summary)
    assert bars["step"] == list(range(1, 7))
    for i, s in enumerate(summary["steps"]):
        parts = sum(bars[label][i] for label, _ in reader.STEP_PARTS)
        assert parts == pytest.approx(s["total_ms"], rel=1e-6)


def test_cell_tree_totals_include_sub_cells():
    summary = reader.load_summary(SESSION)
    nodes = reader.cell_tree(summary)
    backbone = nodes["TrainOneStepCell.network._backbone"]
    assert set(backbone["children"]) >= {f"TrainOneStepCell.network._backbone.{c}" for c in ("conv1", "conv2", "fc1")}
    assert backbone["total_ms"] == pytest.approx(sum(nodes[c]["total_ms"] for c in backbone["children"])
                                                 + backbone["self_ms"])
    per_step = sum((c["forward_ms"] + c["backward_ms"]) for c in summary["cells"].values()) / len(summary["steps"])
    assert nodes[""]["total_ms"] == pytest.approx(per_step)


def test_op_rows_timeline_memory_and_recompile():
    summary = reader.load_summary(SESSION)
    rows = reader.op_rows(summary)
    assert rows and {"op_name", "cell", "pass", "total_ms"} <= rows[0].keys()
    step = summary["steps"][1]
    spans = reader.timeline(SESSION, summary, step["step"])
    assert spans and all(0 <= s["ts"] < step["total_ms"] * 1e3 for s in spans)
    assert reader.memory_curve(summary)["device_mb"]
    assert max(summary["steps"], key=lambda s: s["compile_ms"])["compile_ms"] > 0   # the step that recompiled
    (re,) = [c for c in summary["compiles"] if c["function"] == "step" and "recompile_of" in c]
    assert "float32[8,1,32,32]" in re["recompile_of"] and "float32[4,1,32,32]" in re["signature"]


def test_bad_summary_is_named(tmp_path):
    (tmp_path / reader.SUMMARY).write_text(json.dumps({"steps": {}, "ops": [], "cells": {}, "compiles": [],
                                                        "memory": []}))
    with pytest.raises(reader.ProfileError, match="'steps' should be a list"):
        reader.load_summary(tmp_path)
    (tmp_path / reader.SUMMARY).write_text("{not json")
    with pytest.raises(reader.ProfileError, match="not valid JSON"):
        reader.load_summary(tmp_path)
