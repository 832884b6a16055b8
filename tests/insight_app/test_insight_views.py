"""The newer views, without a browser: PR curves, custom scalars, distributions, tag groups, local time,
the Cell view of a traced JAX graph, Markdown text."""

from __future__ import annotations

import numpy as np
import pytest
from _insight_logs import pr_data

from insight_app import LogStore, _ui
from insight_app._graph import GNode, GraphModel, cell_label, cell_of, cell_units, network_root
from insight_app._page_custom import figure as custom_figure
from insight_app._page_custom import merged_layout
from insight_app._page_distributions import BASIS_POINTS, percentiles
from insight_app._page_pr import figure as pr_figure
from insight_app._page_scalars import tag_groups
from insight_app._page_text import entries


@pytest.fixture(scope="module")
def snap(tbx_logs):
    return LogStore(tbx_logs[0]).snapshot()


def _run(snap, name):
    (run,) = [r for r in snap.sorted_runs() if r.name == name]
    return run


def test_pr_curves_match_tensorboardx(snap):
    from tensorboardX.summary import compute_curve

    run = _run(snap, "lr_0.1")
    curves = run.pr_curves["pr/class0"]
    assert [c.step for c in curves] == [0, 100]
    labels, preds = pr_data(100)
    np.testing.assert_allclose(curves[1].data, compute_curve(labels, preds, num_thresholds=11), rtol=1e-6)
    fig = pr_figure(snap, "pr/class0", [run], None)
    (trace,) = fig["data"]
    assert trace["meta"] == {"run": run.id, "step": 100}
    assert trace["x"][0] == 1.0 and trace["y"][0] == pytest.approx(labels.mean(), rel=1e-6)  # threshold 0
    assert pr_figure(snap, "pr/class0", [run], 50)["data"][0]["meta"]["step"] == 0  # latest at or before


def test_custom_scalars_layout(snap):
    lay = merged_layout(snap.sorted_runs())
    assert lay == [("Training", [("loss and acc", "multiline", ["train/loss$", "^eval/"])])]
    runs = [_run(snap, "lr_0.1"), _run(snap, "lr_0.01")]
    fig = custom_figure(snap, runs, "loss and acc", "multiline", ["train/loss$", "^eval/"])
    assert sorted(t["name"] for t in fig["data"]) == ["lr_0.01/eval/acc", "lr_0.01/train/loss",
                                                     "lr_0.1/eval/acc", "lr_0.1/train/loss"]


def test_distribution_percentiles_follow_the_data(snap, tbx_logs):
    run = _run(snap, "lr_0.1")
    for h in run.histograms["fc1.weight"]:
        got = percentiles(h)
        want = np.percentile(tbx_logs[1]["hist_values"][h.step], np.array(BASIS_POINTS) / 100)
        assert got[0] == pytest.approx(want[0]) and got[-1] == pytest.approx(want[-1])
        np.testing.assert_allclose(got[1:-1], want[1:-1], atol=0.25)  # bucketed: within a bucket width


def test_tag_groups_and_pins():
    tags = ["eval/acc", "lr", "train/acc", "train/loss"]
    assert tag_groups(tags, None) == [("eval", ["eval/acc"]), ("train", ["train/acc", "train/loss"]),
                                      ("(no prefix)", ["lr"])]
    assert tag_groups(tags, ["train/loss", "gone"])[0] == ("pinned", ["train/loss"])


def test_local_time_with_its_zone():
    tz = {"name": "America/New_York", "offset": -300}
    winter, summer = 1.7e9, 1.7e9 + 200 * 86400  # 2023-11-14 and 2024-06-01: EST, then EDT
    assert _ui.local_times(np.array([winter, summer]), tz) == ["2023-11-14T17:13:20.000", "2024-06-01T18:13:20.000"]
    assert _ui.parse_local_time("2024-06-01 18:13:20", tz) == summer
    assert _ui.tz_label({"name": "Asia/Kolkata", "offset": 330}) == "Asia/Kolkata, UTC+05:30"
    assert _ui.tz_label({"name": "Not/AZone", "offset": -90}) == "UTC-01:30"
    assert _ui.local_times(np.array([winter]), None) == ["2023-11-14T22:13:20.000"]  # UTC until the browser says


def _jax_like_graph() -> GraphModel:
    names = [  # what mindspore_hl's SummaryCollector writes for a traced train step
        ("Parameters/conv1.weight", "Parameter", []), ("inputs/0", "Placeholder", []),
        ("T/network/_backbone/conv1/oiyx,yapq->ab/dot_general", "dot_general", ["inputs/0", "Parameters/conv1.weight"]),
        ("T/network/_backbone/conv1/add", "add", ["T/network/_backbone/conv1/oiyx,yapq->ab/dot_general"]),
        ("T/network/_backbone/fc1/dot_general", "dot_general", ["T/network/_backbone/conv1/add"]),
        ("T/network/_loss_fn/log_softmax", "log_softmax", ["T/network/_backbone/fc1/dot_general"]),
        ("Gradients/T/network/_backbone/fc1/transpose", "transpose", ["T/network/_loss_fn/log_softmax"]),
        ("T/optimizer/mul", "mul", ["Gradients/T/network/_backbone/fc1/transpose", "Parameters/conv1.weight"]),
    ]
    return GraphModel({n: GNode(n, op, ins) for n, op, ins in names}, "TensorBoard GraphDef")


def test_cell_view_folds_jax_operations_under_their_cell():
    model = _jax_like_graph()
    assert cell_of("T/network/_backbone/conv1/oiyx,yapq->ab/dot_general") == "T/network/_backbone/conv1"
    root = network_root(model)
    assert root == "T/network/_backbone"
    unit, units, edges = cell_units(model, set())
    labels = sorted(cell_label(u, root) for u, i in units.items() if i["kind"] == "cell")
    assert labels == ["Parameters", "_loss_fn", "conv1", "fc1", "inputs", "optimizer", "∇ fc1"]
    assert units["T/network/_backbone/conv1"]["count"] == 2
    assert ("T/network/_backbone/conv1", "T/network/_backbone/fc1") in edges
    _, units, _ = cell_units(model, {"T/network/_backbone/conv1"})  # opened: its operations one by one
    assert "T/network/_backbone/conv1/add" in units and "T/network/_backbone/conv1" not in units


def test_text_is_markdown_without_raw_html(snap):
    blocks, _ = entries(snap, "lr_0.1$", "readme", "markdown")
    md = blocks[0].children[1].children[1]
    assert type(md).__name__ == "Markdown" and md.dangerously_allow_html is False
    assert md.children == "# Run notes\n\n**bold** and `code`"
    blocks, _ = entries(snap, "lr_0.1$", "notes", "raw")
    assert type(blocks[0].children[1].children[1]).__name__ == "Pre"


def test_histogram_offset_view_stays_legible():
    from insight_app._page_histograms import MAX_RIDGES, figure
    from insight_app._series import Histogram

    class Run:
        name = "r"
        histograms = {"w": [Histogram(s, 0.0, np.array([0.0, 1.0]), np.array([1.0, 2.0]), np.array([1.0, 3.0]),
                                      0.0, 2.0, 4.0) for s in range(200)]}
    fig = figure(Run(), "w", "offset")
    assert len(fig["data"]) == MAX_RIDGES == 20
    assert [t["meta"]["step"] for t in fig["data"]][::19] == [0, 199]
    assert fig["layout"]["height"] >= 22 * MAX_RIDGES
    assert len(figure(Run(), "w", "overlay")["data"]) == _ui.MAX_HIST_STEPS
