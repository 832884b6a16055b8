"""The Profiler page in headless Chromium on the committed LeNet5 profile (skipped without Chromium)."""

from __future__ import annotations

import pathlib
import shutil

import pytest
from test_insight_browser import CHROMEDRIVER, CHROMIUM, Server, driver, open_page, plot_titled, shot, wait_for  # noqa: F401

from insight_app import _profile_reader as reader

SESSION = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "profiler" / "lenet5_session"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (pathlib.Path(CHROMIUM).exists() and pathlib.Path(CHROMEDRIVER).exists()),
                       reason="needs /usr/bin/chromium and /usr/bin/chromedriver (run .ci/browser_deps.sh)"),
]


def test_profiler_page(driver, tmp_path):  # noqa: F811
    shutil.copytree(SESSION, tmp_path / "lenet5")
    srv = Server(str(tmp_path))
    try:
        open_page(driver, srv.url + "/profiler")
        bars = plot_titled(driver, "Step time (ms)")
        assert [t["name"] for t in bars["data"]] == [label for label, _ in reader.STEP_PARTS]
        assert bars["data"][0]["x"] == ["1", "2", "3", "4", "5", "6"] or bars["data"][0]["x"] == [1, 2, 3, 4, 5, 6]
        # the op table sorts: click "total ms" twice (descending) and read the first column of numbers
        wait_for(driver, "return document.querySelectorAll('#pf-ops td[data-dash-column=total_ms]').length > 3")
        header = driver.find_element("css selector", "#pf-ops th[data-dash-column=total_ms] .column-header--sort")
        header.click()
        vals = [float(e.text) for e in driver.find_elements("css selector", "#pf-ops td[data-dash-column=total_ms]")]
        assert vals == sorted(vals) or vals == sorted(vals, reverse=True)
        header.click()
        vals2 = [float(e.text) for e in driver.find_elements("css selector", "#pf-ops td[data-dash-column=total_ms]")]
        assert vals2 != vals and (vals2 == sorted(vals2) or vals2 == sorted(vals2, reverse=True))
        # the Cell tree names LeNet5's layers under the backbone
        cells = wait_for(driver, "const t = Array.from(document.querySelectorAll('#pf-cells .pf-cell')).map("
                                 "e => e.title); return t.length > 5 ? t : null")
        assert "TrainOneStepCell.network._backbone.conv2" in cells
        timeline = plot_titled(driver, "Step 4 timeline")
        assert len(timeline["data"][0]["y"]) > 20
        assert "TrainOneStepCell.network._backbone.conv2" in timeline["data"][0]["y"]
        mem = plot_titled(driver, "Memory (MiB)")
        assert len(mem["data"][0]["x"]) > 10
        (recompile,) = [e.text for e in driver.find_elements("css selector", ".pf-recompile")
                        if e.text.startswith("recompiled step ")]
        assert "float32[8,1,32,32] → float32[4,1,32,32]" in recompile and "int32[8] → int32[4]" in recompile
        shot(driver, "profiler")
    finally:
        srv.close()
